//! One paid call (or extraction) per piece of work in flight per process: the first caller for
//! a cache key does the work, every other caller for the same key waits for its result instead
//! of paying again (16 MCP sessions reading a note that embeds an image not yet cached make one
//! vision call, not 16). A failure releases every waiter with the error; a leader that is
//! cancelled (its call dropped) hands the work to one of the waiters, which then does it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// What waiters receive: the text, or the leader's error message.
type Outcome = Result<String, String>;

/// The calls in flight, by cache key: the channel their result will be sent on.
#[derive(Debug, Default, Clone)]
pub struct SingleFlight {
    in_flight: Arc<Mutex<HashMap<String, watch::Sender<Option<Outcome>>>>>,
}

/// How a call ended for one caller.
pub enum Shared<E> {
    /// This caller did the work: its own result, with its own error type.
    Led(Result<String, E>),
    /// Another caller did it: its text, or its error as a message.
    Waited(Outcome),
}

/// The leader's hold on its key: removed when the work ends, with the result sent to every
/// waiter, or without one when the leader's future is dropped (a waiter then takes over).
struct Lead {
    flights: SingleFlight,
    key: String,
}

impl Lead {
    fn finish(self, outcome: Outcome) {
        if let Some(sender) = self.flights.take(&self.key) {
            // No waiter is fine: nobody asked meanwhile.
            let _ = sender.send(Some(outcome));
        }
    }
}

impl Drop for Lead {
    fn drop(&mut self) {
        self.flights.take(&self.key);
    }
}

impl SingleFlight {
    fn take(&self, key: &str) -> Option<watch::Sender<Option<Outcome>>> {
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

    /// Runs `work` for `key` unless a call for it is in flight, in which case its result is
    /// awaited. `work` runs at most once per key at a time in this process.
    pub async fn run<E, F, Fut>(&self, key: &str, work: F) -> Shared<E>
    where
        E: std::fmt::Display,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<String, E>>,
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
                lead.finish(match &result {
                    Ok(text) => Ok(text.clone()),
                    Err(error) => Err(error.to_string()),
                });
                return Shared::Led(result);
            };
            loop {
                if let Some(outcome) = receiver.borrow_and_update().clone() {
                    return Shared::Waited(outcome);
                }
                if receiver.changed().await.is_err() {
                    // The leader is gone: its result if it sent one, else take the work over.
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
        let flights = SingleFlight::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(tokio::sync::Notify::new());
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (flights, calls, gate) = (flights.clone(), calls.clone(), gate.clone());
            tasks.push(tokio::spawn(async move {
                let outcome = flights
                    .run("k", || async move {
                        calls.fetch_add(1, Ordering::SeqCst);
                        gate.notified().await;
                        Err::<String, _>("the server said no")
                    })
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
        let flights = SingleFlight::default();
        let leader = flights.run("k", std::future::pending::<Result<String, String>>);
        tokio::select! {
            _ = leader => unreachable!("never finishes"),
            _ = tokio::task::yield_now() => {}
        }
        // The leader's future was dropped: the next caller does the work itself.
        match flights
            .run("k", || async { Ok::<_, String>("done".into()) })
            .await
        {
            Shared::Led(result) => assert_eq!(result.unwrap(), "done"),
            Shared::Waited(_) => panic!("waited on a dropped leader"),
        }
    }
}
