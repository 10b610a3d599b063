//! One paid call (or extraction) per piece of work in flight per process: the first caller for
//! a key does the work, every other caller for the same key waits for its result instead of
//! paying again (16 MCP sessions reading a note that embeds an image not yet cached make one
//! vision call, not 16; two notes asking for the same summary at once make one chat request).
//! A failure releases every waiter with the error; a leader that is cancelled (its call
//! dropped) hands the work to one of the waiters, which then does it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// The calls in flight, by key: the channel their shared outcome `V` will be sent on.
#[derive(Debug)]
pub struct SingleFlight<V> {
    in_flight: Arc<Mutex<HashMap<String, watch::Sender<Option<V>>>>>,
}

impl<V> Default for SingleFlight<V> {
    fn default() -> Self {
        SingleFlight {
            in_flight: Arc::default(),
        }
    }
}

impl<V> Clone for SingleFlight<V> {
    fn clone(&self) -> Self {
        SingleFlight {
            in_flight: self.in_flight.clone(),
        }
    }
}

/// How a call ended for one caller.
pub enum Shared<R, V> {
    /// This caller did the work: its own result `R`, with its own types.
    Led(R),
    /// Another caller did it: what that caller shared of its result.
    Waited(V),
}

/// The leader's hold on its key: removed when the work ends, with the outcome sent to every
/// waiter, or without one when the leader's future is dropped (a waiter then takes over).
struct Lead<V> {
    flights: SingleFlight<V>,
    key: String,
}

impl<V> Lead<V> {
    fn finish(self, outcome: V) {
        if let Some(sender) = self.flights.take(&self.key) {
            // No waiter is fine: nobody asked meanwhile.
            let _ = sender.send(Some(outcome));
        }
    }
}

impl<V> Drop for Lead<V> {
    fn drop(&mut self) {
        self.flights.take(&self.key);
    }
}

impl<V> SingleFlight<V> {
    fn take(&self, key: &str) -> Option<watch::Sender<Option<V>>> {
        self.in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(key)
    }

    /// How many callers wait on the call in flight for `key` (for tests and logs).
    pub fn waiting(&self, key: &str) -> usize {
        self.in_flight
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(key)
            .map_or(0, |sender| sender.receiver_count())
    }
}

impl<V: Clone> SingleFlight<V> {
    /// Runs `work` for `key` unless a call for it is in flight, in which case its outcome is
    /// awaited. `work` runs at most once per key at a time in this process; what the waiters
    /// get of its result is `share(&result)`.
    pub async fn run<R, F, Fut>(
        &self,
        key: &str,
        work: F,
        share: impl FnOnce(&R) -> V,
    ) -> Shared<R, V>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = R>,
    {
        let mut work = Some(work);
        loop {
            // Lead (no call for the key yet) or wait on the one in flight; the lock is let go
            // before anything is awaited.
            let waiting = {
                let mut map = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
                match map.get(key) {
                    Some(sender) => Some(sender.subscribe()),
                    None => {
                        map.insert(key.to_string(), watch::channel(None).0);
                        None
                    }
                }
            };
            let Some(mut receiver) = waiting else {
                let lead = Lead {
                    flights: self.clone(),
                    key: key.to_string(),
                };
                let work = work.take().expect("the work runs once");
                let result = work().await;
                lead.finish(share(&result));
                return Shared::Led(result);
            };
            loop {
                if let Some(outcome) = receiver.borrow_and_update().clone() {
                    return Shared::Waited(outcome);
                }
                if receiver.changed().await.is_err() {
                    // The leader is gone: its outcome if it sent one, else take the work over.
                    if let Some(outcome) = receiver.borrow().clone() {
                        return Shared::Waited(outcome);
                    }
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_callers_share_one_call_and_its_error() {
        let flights = SingleFlight::<Result<String, String>>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(tokio::sync::Notify::new());
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (flights, calls, gate) = (flights.clone(), calls.clone(), gate.clone());
            tasks.push(tokio::spawn(async move {
                let outcome = flights
                    .run(
                        "k",
                        || async move {
                            calls.fetch_add(1, Ordering::SeqCst);
                            gate.notified().await;
                            Err::<String, _>("the server said no")
                        },
                        |result| result.clone().map_err(str::to_string),
                    )
                    .await;
                match outcome {
                    Shared::Led(result) => result.map_err(str::to_string),
                    Shared::Waited(outcome) => outcome,
                }
            }));
        }
        // Everyone has joined once the one call is under way and 15 wait on it.
        while flights.waiting("k") < 15 {
            tokio::task::yield_now().await;
        }
        gate.notify_one();
        for task in tasks {
            assert_eq!(task.await.unwrap(), Err("the server said no".to_string()));
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert!(flights.in_flight.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_dropped_leader_hands_the_work_over() {
        let flights = SingleFlight::<Result<String, String>>::default();
        let leader = flights.run(
            "k",
            std::future::pending::<Result<String, String>>,
            Clone::clone,
        );
        tokio::select! {
            _ = leader => unreachable!("never finishes"),
            _ = tokio::task::yield_now() => {}
        }
        // The leader's future was dropped: the next caller does the work itself.
        match flights
            .run(
                "k",
                || async { Ok::<_, String>("done".into()) },
                Clone::clone,
            )
            .await
        {
            Shared::Led(result) => assert_eq!(result.unwrap(), "done"),
            Shared::Waited(_) => panic!("waited on a dropped leader"),
        }
    }
}
