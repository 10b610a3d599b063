//! [`Limiter`]: one per [`crate::llm::ChatClient`], so one per process, shared by every request
//! the client makes (summaries from the CLI batch, watch and concurrent MCP calls, image
//! descriptions, transcriptions). Each attempt of a request takes a [`Permit`] first and hands
//! back how the server answered (`llm/retry.rs` does both); the limiter adapts how many requests
//! run at once and how fast they start (the arithmetic is in `llm/aimd.rs`).
//!
//! Why not a crate: the adaptive-concurrency crates found (`tower-acc`, `rate_limiter_aimd`,
//! `throttle-net`, all 0.1) adapt a window only; none keeps a pace below one request in flight
//! or a `Retry-After` gate shared by all requests, and wrapping them would split one policy in
//! two places. The waiting itself is tokio's: a [`Semaphore`] whose permits are the window
//! (first come, first served; a dropped waiter leaves the queue), and `sleep_until` for the gate
//! and the pace.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::time::Instant;

use crate::config::SummarizeConfig;
use crate::llm::aimd::{Aimd, Overload, Ticket};
use crate::llm::quota::Quota;

/// Adapts how many LLM requests run at once, and how fast they start, to what the server
/// answers: more while answers come back fine, fewer on 429 and 503, none before a
/// `Retry-After` has passed; never more than the ceiling (`summarize.concurrency`).
pub struct Limiter {
    permits: Semaphore,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    aimd: Aimd,
    /// Permits taken and not yet given back.
    in_flight: usize,
    /// Permits that exist: in the semaphore or taken.
    issued: usize,
    /// Taken permits to destroy when given back, because the window shrank below them.
    debt: usize,
}

/// What a [`Limiter`] is doing now, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimiterSnapshot {
    /// Requests allowed in flight now.
    pub window: usize,
    /// The ceiling (`summarize.concurrency`).
    pub ceiling: usize,
    /// Requests in flight now.
    pub in_flight: usize,
    /// Starts per second allowed, once a 429 has set a pace.
    pub rate: Option<f64>,
    /// How long until a `Retry-After` passes, while one is pending.
    pub gate: Option<Duration>,
}

/// How the server answered one attempt, as far as the limiter cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A success: the server kept up.
    Fine,
    /// 429 Too Many Requests, with its `Retry-After` if any.
    RateLimited(Option<Duration>),
    /// 503 Service Unavailable, with its `Retry-After` if any; a timeout counts as one.
    Unavailable(Option<Duration>),
    /// Anything else (an error that says nothing about load, no answer).
    Other,
}

impl Limiter {
    /// An adaptive limiter that never lets more than `ceiling` requests (at least 1) run at once.
    pub fn new(ceiling: usize) -> Limiter {
        Limiter::with(Aimd::new(ceiling, true))
    }

    /// A fixed limit of `ceiling` requests at once, whatever the server answers (what the client
    /// did before the limiter adapted; `summarize.adaptive = false`).
    pub fn fixed(ceiling: usize) -> Limiter {
        Limiter::with(Aimd::new(ceiling, false))
    }

    /// The limiter `summarize.concurrency` and `summarize.adaptive` describe.
    pub fn from_config(cfg: &SummarizeConfig) -> Limiter {
        if cfg.adaptive {
            Limiter::new(cfg.concurrency)
        } else {
            Limiter::fixed(cfg.concurrency)
        }
    }

    fn with(aimd: Aimd) -> Limiter {
        let window = aimd.window();
        Limiter {
            permits: Semaphore::new(window),
            state: Mutex::new(State {
                aimd,
                in_flight: 0,
                issued: window,
                debt: 0,
            }),
        }
    }

    /// Waits until one more request may start: a place in the window (first come, first
    /// served), then the gate and the pace. Dropping the future gives up the place.
    pub async fn acquire(&self) -> Permit<'_> {
        let place = Place {
            limiter: self,
            permit: Some(
                self.permits
                    .acquire()
                    .await
                    .expect("the limiter never closes its semaphore"),
            ),
        };
        loop {
            let now = Instant::now();
            let at = {
                let mut state = self.lock();
                let at = state.aimd.earliest_start(now);
                if at <= now {
                    let ticket = state.aimd.start(now);
                    state.in_flight += 1;
                    return Permit {
                        limiter: self,
                        ticket,
                        _place: place,
                    };
                }
                at
            };
            // Woken early or late, the loop asks again: a gate may have moved meanwhile.
            tokio::time::sleep_until(at).await;
        }
    }

    /// Watches answer times for a server that queues requests instead of refusing them (a
    /// local one), starting from one request at a time (see `llm/aimd.rs`).
    pub fn sense_queueing(&self) {
        let mut state = self.lock();
        state.aimd.sense_queueing();
        self.resize(&mut state);
    }

    /// The request timeout, so a queueing server is never sent a request that would wait
    /// past it.
    pub fn set_timeout(&self, timeout: Duration) {
        self.lock().aimd.set_timeout(timeout);
    }

    /// The server said how many requests it serves at once (llama.cpp's `total_slots`).
    pub fn set_capacity(&self, slots: usize) {
        let mut state = self.lock();
        state.aimd.set_capacity(slots);
        self.resize(&mut state);
    }

    /// What the limiter is doing now.
    pub fn snapshot(&self) -> LimiterSnapshot {
        let state = self.lock();
        let now = Instant::now();
        LimiterSnapshot {
            window: state.aimd.window(),
            ceiling: state.aimd.ceiling(),
            in_flight: state.in_flight,
            rate: state.aimd.rate(),
            gate: state.aimd.gate(now).map(|at| at - now),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent between statements, so a panic elsewhere while it was
        // held leaves nothing half done.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes the semaphore's permits match the window: adds permits, or removes free ones and
    /// remembers to destroy taken ones as they come back.
    fn resize(&self, state: &mut State) {
        let target = state.aimd.window();
        let current = state.issued - state.debt;
        if target > current {
            let grow = target - current;
            let forgiven = grow.min(state.debt);
            state.debt -= forgiven;
            let added = grow - forgiven;
            self.permits.add_permits(added);
            state.issued += added;
        } else if target < current {
            let shrink = current - target;
            let removed = self.permits.forget_permits(shrink);
            state.issued -= removed;
            state.debt += shrink - removed;
        }
    }

    fn give_back(&self, permit: SemaphorePermit<'_>) {
        let mut state = self.lock();
        if state.debt > 0 {
            state.debt -= 1;
            state.issued -= 1;
            permit.forget();
        } else {
            drop(permit);
        }
    }
}

impl Default for Limiter {
    /// Adaptive, within the default `summarize.concurrency`.
    fn default() -> Limiter {
        Limiter::new(crate::config::DEFAULT_SUMMARIZE_CONCURRENCY)
    }
}

impl std::fmt::Debug for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Limiter").field(&self.snapshot()).finish()
    }
}

/// A place in the window, given back (or destroyed, if the window shrank) when dropped.
struct Place<'a> {
    limiter: &'a Limiter,
    permit: Option<SemaphorePermit<'a>>,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        if let Some(permit) = self.permit.take() {
            self.limiter.give_back(permit);
        }
    }
}

/// Leave to send one request. Hand back how the server answered with [`Permit::answered`];
/// dropped unanswered (a cancelled request), it only frees its place.
pub struct Permit<'a> {
    limiter: &'a Limiter,
    ticket: Ticket,
    _place: Place<'a>,
}

impl Permit<'_> {
    /// Tells the limiter how the server answered, and frees the place.
    pub fn answered(self, answer: Answer) {
        self.answered_with(answer, None, None);
    }

    /// [`Permit::answered`], with the quota the answer announced (`x-ratelimit-*`) and its
    /// size in (prompt, completion) tokens, when known.
    pub(crate) fn answered_with(
        self,
        answer: Answer,
        quota: Option<Quota>,
        tokens: Option<(u64, u64)>,
    ) {
        let limiter = self.limiter;
        let mut state = limiter.lock();
        let now = Instant::now();
        let in_flight = state.in_flight;
        let ticket = self.ticket;
        match answer {
            Answer::Fine => state.aimd.served(ticket, now, in_flight, tokens),
            Answer::RateLimited(wait) => {
                state
                    .aimd
                    .overloaded(ticket, now, Overload::RateLimited, wait)
            }
            Answer::Unavailable(wait) => {
                state
                    .aimd
                    .overloaded(ticket, now, Overload::Unavailable, wait)
            }
            Answer::Other => {}
        }
        if let Some(quota) = quota {
            state.aimd.quota(now, quota, ticket);
        }
        limiter.resize(&mut state);
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut state = self.limiter.lock();
        state.in_flight -= 1;
        state.aimd.ended(self.ticket);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;

    /// Runs `n` requests of `each` through `limiter`, answered by `answer(i)`, and returns the
    /// most that were ever in flight at once.
    async fn run(
        limiter: &Arc<Limiter>,
        n: usize,
        each: Duration,
        answer: impl Fn(usize) -> Answer,
    ) -> usize {
        let in_flight = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for i in 0..n {
            let (limiter, in_flight, most) = (limiter.clone(), in_flight.clone(), most.clone());
            let answer = answer(i);
            tasks.push(tokio::spawn(async move {
                let permit = limiter.acquire().await;
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(each).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                permit.answered(answer);
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        most.load(Ordering::SeqCst)
    }

    #[tokio::test(start_paused = true)]
    async fn fine_answers_widen_the_window_up_to_the_ceiling_and_no_further() {
        let limiter = Arc::new(Limiter::new(6));
        assert_eq!(limiter.snapshot().window, 4);
        let most = run(&limiter, 60, Duration::from_millis(100), |_| Answer::Fine).await;
        assert_eq!(most, 6);
        let snapshot = limiter.snapshot();
        assert_eq!((snapshot.window, snapshot.in_flight), (6, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_fixed_limiter_keeps_its_ceiling_whatever_the_answers() {
        let limiter = Arc::new(Limiter::fixed(3));
        let most = run(&limiter, 30, Duration::from_millis(10), |_| {
            Answer::RateLimited(Some(Duration::from_secs(5)))
        })
        .await;
        assert_eq!(most, 3);
        assert_eq!(limiter.snapshot().window, 3);
        assert_eq!(limiter.snapshot().gate, None);
    }

    #[tokio::test(start_paused = true)]
    async fn overload_shrinks_the_window_below_requests_already_in_flight() {
        let limiter = Arc::new(Limiter::new(8));
        // Widen to 8 first.
        run(&limiter, 40, Duration::from_millis(10), |_| Answer::Fine).await;
        assert_eq!(limiter.snapshot().window, 8);
        let permits: Vec<Permit<'_>> =
            futures::future::join_all((0..8).map(|_| limiter.acquire())).await;
        let mut permits = permits.into_iter();
        permits.next().unwrap().answered(Answer::Unavailable(None));
        assert_eq!(limiter.snapshot().window, 4);
        // Seven still in flight; none may start until fewer than four are. (Time is moved on
        // before each look, so only the window can be what holds it.)
        let waiting = limiter.acquire();
        tokio::pin!(waiting);
        for _ in 0..3 {
            permits.next().unwrap().answered(Answer::Other);
            tokio::time::advance(Duration::from_secs(1)).await;
            assert!(futures::poll!(waiting.as_mut()).is_pending());
        }
        assert_eq!(limiter.snapshot().in_flight, 4);
        permits.next().unwrap().answered(Answer::Other);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert!(
            futures::poll!(waiting.as_mut()).is_ready(),
            "three in flight: one place free"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn no_request_starts_before_retry_after_has_passed() {
        let limiter = Arc::new(Limiter::new(4));
        let first = limiter.acquire().await;
        let refused_at = Instant::now();
        first.answered(Answer::RateLimited(Some(Duration::from_secs(2))));
        let gate = limiter.snapshot().gate.expect("a gate");
        assert_eq!(gate, Duration::from_secs(2));
        let next = limiter.acquire().await;
        assert!(Instant::now() >= refused_at + Duration::from_secs(2));
        next.answered(Answer::Fine);
    }

    #[tokio::test(start_paused = true)]
    async fn a_dropped_waiter_or_unanswered_permit_frees_its_place() {
        let limiter = Limiter::new(1);
        let permit = limiter.acquire().await;
        {
            let waiting = limiter.acquire();
            tokio::pin!(waiting);
            assert!(futures::poll!(waiting.as_mut()).is_pending());
        }
        drop(permit);
        assert_eq!(limiter.snapshot().in_flight, 0);
        let again = limiter.acquire().await;
        again.answered(Answer::Fine);
    }

    #[tokio::test(start_paused = true)]
    async fn rate_limits_pace_requests_that_answer_fast() {
        // A server answering in 1 ms that refuses every other request: after the 429s the
        // starts are spread out instead of one per millisecond.
        let limiter = Arc::new(Limiter::new(4));
        let started = Instant::now();
        run(&limiter, 40, Duration::from_millis(1), |i| {
            if i % 10 == 5 {
                Answer::RateLimited(None)
            } else {
                Answer::Fine
            }
        })
        .await;
        let rate = limiter.snapshot().rate.expect("a pace");
        assert!(rate.is_finite() && rate > 0.0);
        assert!(
            started.elapsed() > Duration::from_secs(1),
            "40 requests of 1 ms, paced: {:?}",
            started.elapsed()
        );
    }
}
