//! Running one tool over many inputs and handing the results over in input order, each as
//! soon as its turn comes (`read`, whose output follows the order given).
//!
//! The calls run in lanes, one task each, spread over the runtime's worker threads; a lane
//! takes the next input when its call is done and hands the result over itself. No thread
//! waits on another per input: handing each result to one collecting thread woke it once per
//! note (two thread switches), a fifth of the CPU of a 5,000-note read.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::task::JoinSet;

use super::output::call_rendered;
use crate::tools::{Registry, ToolOutput};

/// Calls `tool` once per argument object, at most `concurrency` at a time, and hands each
/// output to `on_output` in input order, as soon as it and every output before it are in: a
/// command prints while later calls run, holding only the outputs that finished ahead of
/// their turn. `on_output` runs on the runtime's threads, one call at a time. With `verbose`,
/// each call and result is rendered on stderr. Signals keep their default effect (the
/// process ends); a call that panics panics the caller once every lane has stopped.
pub async fn run_batch_in_order(
    registry: &Arc<Registry>,
    tool: &str,
    calls: Vec<Value>,
    concurrency: usize,
    verbose: u8,
    on_output: impl FnMut(usize, ToolOutput) + Send + 'static,
) {
    let lanes = concurrency.max(1).min(calls.len());
    let shared = Arc::new(Shared {
        waiting: Mutex::new(calls.into_iter().enumerate()),
        turn: Mutex::new(Turn {
            next: 0,
            ahead: BTreeMap::new(),
            on_output,
        }),
    });
    let mut running = JoinSet::new();
    for _ in 0..lanes {
        let (shared, registry, tool) =
            (Arc::clone(&shared), Arc::clone(registry), tool.to_string());
        running.spawn(async move {
            while let Some((index, args)) = shared.next_call() {
                let output = call_rendered(&registry, &tool, args, verbose).await;
                shared.finished(index, output);
            }
        });
    }
    while let Some(lane) = running.join_next().await {
        if let Err(error) = lane {
            if error.is_panic() {
                running.shutdown().await;
                std::panic::resume_unwind(error.into_panic());
            }
        }
    }
}

/// What the lanes share: the calls not started yet, and whose turn it is to be handed over.
struct Shared<F> {
    waiting: Mutex<std::iter::Enumerate<std::vec::IntoIter<Value>>>,
    turn: Mutex<Turn<F>>,
}

/// The outputs that finished ahead of their turn, and the next index to hand over.
struct Turn<F> {
    next: usize,
    ahead: BTreeMap<usize, ToolOutput>,
    on_output: F,
}

impl<F: FnMut(usize, ToolOutput)> Shared<F> {
    /// The next call to make, in input order.
    fn next_call(&self) -> Option<(usize, Value)> {
        // A lane that panicked held the lock only to take one item: the rest is whole.
        self.waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next()
    }

    /// Records `output` and hands over every output whose turn has come.
    fn finished(&self, index: usize, output: ToolOutput) {
        let mut turn = self.turn.lock().unwrap_or_else(PoisonError::into_inner);
        let turn = &mut *turn;
        turn.ahead.insert(index, output);
        while let Some(output) = turn.ahead.remove(&turn.next) {
            (turn.on_output)(turn.next, output);
            turn.next += 1;
        }
    }
}
