//! Batches against simulated hosted APIs, in simulated time: what the limiter's arithmetic
//! (`aimd.rs`) makes of a token-bucket rate limit, request by request, as the client drives it
//! (`retry.rs`: each attempt takes a start from the limiter, a 429 waits out its `Retry-After`
//! and tries again, up to four attempts). The `rate_limit` bench runs the same cases through
//! the real binary and real HTTP; here every answer and every start is exact and repeatable,
//! so the figures can be asserted.

use std::time::Duration;

use tokio::time::Instant;

use super::aimd::{Aimd, Overload, Ticket};

/// Attempts per request (`llm.max_attempts`' default).
const MAX_ATTEMPTS: u32 = 4;
/// How fast a 429 comes back: at once, as hosted APIs refuse.
const REFUSAL_TIME: Duration = Duration::from_millis(1);

/// A hosted API's request quota: `per_sec` tokens a second, at most `burst` saved up, one per
/// request; a request without a token is answered 429 with `Retry-After` in whole seconds (at
/// least 1) until there is one, as the fake server in `tests/it/support/` answers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bucket {
    pub(crate) per_sec: f64,
    pub(crate) burst: f64,
    pub(crate) tokens: f64,
    /// How long an accepted request takes to answer.
    pub(crate) answer: Duration,
    /// The shortest `Retry-After` it sends, in seconds.
    pub(crate) min_retry_after: u64,
}

impl Bucket {
    /// Full when the batch starts.
    pub(crate) fn full(per_sec: f64, answer: Duration) -> Bucket {
        Bucket {
            per_sec,
            burst: per_sec.max(1.0),
            tokens: per_sec,
            answer,
            min_retry_after: 1,
        }
    }

    /// Empty when the batch starts: the first request is refused.
    pub(crate) fn empty(per_sec: f64, answer: Duration) -> Bucket {
        Bucket {
            tokens: 0.0,
            ..Bucket::full(per_sec, answer)
        }
    }

    /// Takes a token, or says the `Retry-After` until there is one.
    fn take(&mut self, elapsed: Duration) -> Result<(), Duration> {
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.per_sec).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - self.tokens) / self.per_sec;
            Err(Duration::from_secs(
                (wait.ceil() as u64).max(self.min_retry_after),
            ))
        }
    }
}

/// How a batch went.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Outcome {
    /// Time over the ideal (notes / rate).
    pub(crate) over_ideal: f64,
    pub(crate) requests: usize,
    pub(crate) refused: usize,
    /// Notes whose request was refused [`MAX_ATTEMPTS`] times.
    pub(crate) failed: usize,
}

impl Outcome {
    pub(crate) fn refused_share(&self) -> f64 {
        self.refused as f64 / self.requests.max(1) as f64
    }
}

#[derive(Debug, Clone, Copy)]
enum Lane {
    /// Wants to start an attempt from this time on (first come, first served).
    Waiting {
        since: Instant,
        attempt: u32,
    },
    /// An attempt in flight: answered at `done`, refused with a `Retry-After` or not.
    Sent {
        ticket: Ticket,
        done: Instant,
        refused: Option<Duration>,
        attempt: u32,
    },
    Finished,
}

/// Runs `notes` requests through `aimd` against `bucket`, `lanes` at a time (the batch's
/// `summarize.concurrency`). The first lane asks at once, the others `others_after` later: with
/// a refused first request answered before they ask, the batch starts with one refusal and
/// nothing else in flight.
pub(crate) fn run_batch(
    aimd: &mut Aimd,
    mut bucket: Bucket,
    notes: usize,
    lanes: usize,
    others_after: Duration,
) -> Outcome {
    let t0 = Instant::now();
    let mut now = t0;
    let mut bucket_at = t0;
    let mut next_note = lanes.min(notes);
    let mut lanes: Vec<Lane> = (0..next_note)
        .map(|i| Lane::Waiting {
            since: if i == 0 { t0 } else { t0 + others_after },
            attempt: 1,
        })
        .collect();
    let (mut requests, mut refused, mut failed) = (0, 0, 0);
    let mut in_flight = 0;
    loop {
        // Answers due now, in the order they come.
        let mut due: Vec<usize> = (0..lanes.len())
            .filter(|&i| matches!(lanes[i], Lane::Sent { done, .. } if done <= now))
            .collect();
        due.sort_by_key(|&i| match lanes[i] {
            Lane::Sent { done, .. } => done,
            _ => unreachable!(),
        });
        for i in due {
            let Lane::Sent {
                ticket,
                refused: answer,
                attempt,
                ..
            } = lanes[i]
            else {
                unreachable!()
            };
            match answer {
                None => aimd.served(ticket, now, in_flight, None),
                Some(wait) => aimd.overloaded(ticket, now, Overload::RateLimited, Some(wait)),
            }
            aimd.ended(ticket);
            in_flight -= 1;
            lanes[i] = match answer {
                Some(wait) if attempt < MAX_ATTEMPTS => Lane::Waiting {
                    since: now + wait,
                    attempt: attempt + 1,
                },
                _ => {
                    failed += usize::from(answer.is_some());
                    if next_note < notes {
                        next_note += 1;
                        Lane::Waiting {
                            since: now,
                            attempt: 1,
                        }
                    } else {
                        Lane::Finished
                    }
                }
            };
        }
        // Starts the limiter allows now, first come first served.
        loop {
            let first = (0..lanes.len())
                .filter_map(|i| match lanes[i] {
                    Lane::Waiting { since, attempt } if since <= now => Some((since, i, attempt)),
                    _ => None,
                })
                .min();
            let Some((_, i, attempt)) = first else { break };
            if in_flight >= aimd.window() || aimd.earliest_start(now) > now {
                break;
            }
            let ticket = aimd.start(now);
            in_flight += 1;
            requests += 1;
            let answer = bucket.take(now - bucket_at);
            bucket_at = now;
            refused += usize::from(answer.is_err());
            lanes[i] = Lane::Sent {
                ticket,
                done: now + answer.map_or(REFUSAL_TIME, |()| bucket.answer),
                refused: answer.err(),
                attempt,
            };
        }
        if lanes.iter().all(|lane| matches!(lane, Lane::Finished)) {
            break;
        }
        // The next event: an answer, a lane ready to ask, or a start the limiter holds back.
        let answers = lanes.iter().filter_map(|lane| match lane {
            Lane::Sent { done, .. } => Some(*done),
            _ => None,
        });
        let asks = lanes.iter().filter_map(|lane| match lane {
            Lane::Waiting { since, .. } if *since > now => Some(*since),
            _ => None,
        });
        let someone_waits = lanes
            .iter()
            .any(|lane| matches!(lane, Lane::Waiting { since, .. } if *since <= now));
        let held = (someone_waits && in_flight < aimd.window())
            .then(|| aimd.earliest_start(now))
            .filter(|at| *at > now);
        now = answers
            .chain(asks)
            .chain(held)
            .min()
            .expect("a lane is waiting or in flight");
    }
    let ideal = notes as f64 / bucket.per_sec;
    Outcome {
        over_ideal: (now - t0).as_secs_f64() / ideal,
        requests,
        refused,
        failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The first request alone, refused, its 429 back before the rest of the batch asks.
    const ALONE: Duration = Duration::from_millis(10);

    fn batch(bucket: Bucket, notes: usize, others_after: Duration) -> Outcome {
        run_batch(&mut Aimd::new(16, true), bucket, notes, 16, others_after)
    }

    fn assert_within_target(label: &str, outcome: Outcome) {
        assert_eq!(outcome.failed, 0, "{label}: {outcome:?}");
        assert!(
            outcome.over_ideal <= 1.25 && outcome.refused_share() <= 0.10,
            "{label}: {:.2}x the ideal, {:.1} % 429s (targets: 1.25x, 10 %)",
            outcome.over_ideal,
            100.0 * outcome.refused_share()
        );
    }

    #[test]
    fn a_batch_whose_first_answer_is_a_lone_429_runs_close_to_the_allowed_rate() {
        // Issue 36's cases: before, the pace guessed from that one refusal (0.8 a second)
        // held the batch near one a second for 12 s: 3.02x and 1.57x here.
        for (label, bucket, notes) in [
            ("20/s, 300 ms", Bucket::empty(20.0, ms(300)), 200),
            ("3/s, 300 ms", Bucket::empty(3.0, ms(300)), 60),
        ] {
            assert_within_target(label, batch(bucket, notes, ALONE));
        }
    }

    #[test]
    fn so_does_it_on_rates_and_answer_times_it_was_not_tuned_on() {
        for (label, bucket, notes) in [
            ("5/s, 300 ms", Bucket::empty(5.0, ms(300)), 100),
            ("50/s, 300 ms", Bucket::empty(50.0, ms(300)), 500),
            ("30/s, 150 ms", Bucket::empty(30.0, ms(150)), 300),
            ("20/s, 50 ms", Bucket::empty(20.0, ms(50)), 200),
            ("3/s, 50 ms", Bucket::empty(3.0, ms(50)), 60),
        ] {
            assert_within_target(label, batch(bucket, notes, ALONE));
        }
    }

    #[test]
    fn batches_starting_with_a_whole_window_or_a_full_quota_stay_as_they_were() {
        // The `rate_limit` bench's other cases (figures before issue 36's change: 0.92x,
        // 1.05x, 1.06x, 1.17x, 1.15x).
        for (label, bucket, notes, others_after, most) in [
            (
                "20/s 50 ms full",
                Bucket::full(20.0, ms(50)),
                200,
                ALONE,
                0.95,
            ),
            ("3/s 50 ms full", Bucket::full(3.0, ms(50)), 60, ALONE, 1.10),
            (
                "20/s 360 ms full",
                Bucket::full(20.0, ms(360)),
                200,
                ALONE,
                1.10,
            ),
            (
                "20/s 300 ms, four refused",
                Bucket::empty(20.0, ms(300)),
                200,
                Duration::ZERO,
                1.20,
            ),
            (
                "20/s 50 ms, four refused",
                Bucket::empty(20.0, ms(50)),
                200,
                Duration::ZERO,
                1.20,
            ),
        ] {
            let outcome = batch(bucket, notes, others_after);
            assert!(
                outcome.over_ideal <= most && outcome.refused_share() <= 0.05,
                "{label}: {outcome:?}"
            );
        }
    }

    /// `cargo test -p vaultsum-core rate_limited_batches -- --ignored --nocapture`
    #[test]
    #[ignore = "prints the figures of many cases, for a change to the arithmetic"]
    fn figures() {
        let ra2 = |bucket: Bucket| Bucket {
            min_retry_after: 2,
            ..bucket
        };
        for (label, bucket, notes) in [
            ("20/s 50ms full", Bucket::full(20.0, ms(50)), 200),
            ("3/s 50ms full", Bucket::full(3.0, ms(50)), 60),
            ("20/s 360ms full", Bucket::full(20.0, ms(360)), 200),
            ("20/s 300ms empty", Bucket::empty(20.0, ms(300)), 200),
            ("20/s 50ms empty", Bucket::empty(20.0, ms(50)), 200),
            ("3/s 300ms empty", Bucket::empty(3.0, ms(300)), 60),
            ("3/s 50ms empty", Bucket::empty(3.0, ms(50)), 60),
            ("5/s 300ms empty", Bucket::empty(5.0, ms(300)), 100),
            ("50/s 300ms empty", Bucket::empty(50.0, ms(300)), 500),
            ("30/s 150ms empty", Bucket::empty(30.0, ms(150)), 300),
            ("20/s 1s empty", Bucket::empty(20.0, ms(1000)), 200),
            ("20/s 300ms RA2", ra2(Bucket::empty(20.0, ms(300))), 200),
            ("10/s 100ms RA2", ra2(Bucket::empty(10.0, ms(100))), 100),
            ("3/s 300ms RA2", ra2(Bucket::empty(3.0, ms(300))), 60),
            ("2/s 500ms empty", Bucket::empty(2.0, ms(500)), 40),
            ("1/s 300ms empty", Bucket::empty(1.0, ms(300)), 30),
            ("0.5/s 300ms empty", Bucket::empty(0.5, ms(300)), 20),
        ] {
            for others_after in [Duration::ZERO, ALONE] {
                let o = batch(bucket, notes, others_after);
                println!(
                    "{label:<18} others after {:>2} ms: {:.2}x, {} of {} refused ({:.1} %), {} failed",
                    others_after.as_millis(),
                    o.over_ideal,
                    o.refused,
                    o.requests,
                    100.0 * o.refused_share(),
                    o.failed
                );
            }
        }
    }
}
