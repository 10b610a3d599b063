//! Running one tool over many inputs with bounded concurrency and a progress bar on stderr
//! (which shows the latest step a call in flight reported).
//!
//! [`stream_batch`] reports each result the moment its call finishes (completion order) and
//! stops on Ctrl-C or SIGTERM; `batch_in_order.rs` hands results over in input order, for
//! commands whose output follows the order given (`read`).

use futures::stream::{FuturesUnordered, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use super::interrupt::{Interrupt, Interrupts};
use super::output::call_rendered;
use crate::tools::{with_progress, ProgressSink, Registry, ToolOutput};

/// How to run a batch.
#[derive(Debug, Clone, Copy)]
pub struct BatchOptions {
    /// Calls in flight at once (at least one).
    pub concurrency: usize,
    /// Render each call and result on stderr (`-v`, `-vv`); those lines replace the bar.
    pub verbose: u8,
    /// Draw a progress bar on stderr when there is more than one call (hidden when stderr is
    /// not a terminal).
    pub progress: bool,
}

/// What happens during a batch, handed to the caller as it happens.
#[derive(Debug)]
pub enum BatchEvent {
    /// The call made with `calls[index]` finished.
    Finished { index: usize, output: ToolOutput },
    /// A first Ctrl-C or SIGTERM arrived: no new call starts; the `in_flight` calls already
    /// started are allowed to finish (each still reported by `Finished`).
    Stopping { in_flight: usize },
}

/// How a batch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchEnd {
    /// Every call was made and finished.
    Completed,
    /// A signal stopped it: `not_started` calls were never made, and `cancelled` calls in
    /// flight were dropped unfinished at a second signal, their results unknown (a dropped
    /// `summarize_file` call leaves its note whole: unchanged, or, if its write had begun,
    /// with its whole summary).
    Interrupted {
        not_started: usize,
        cancelled: usize,
        /// The first signal, which decides the exit code.
        by: Interrupt,
    },
}

/// Calls `tool` once per argument object, at most `options.concurrency` at a time, and hands
/// each event to `on_event` as it happens: each result as soon as its call finishes. The
/// callback runs with the progress bar cleared, so it may print to stdout or stderr.
///
/// A first signal from `interrupts` stops new calls from starting and lets the calls in flight
/// finish; a second one drops the calls still in flight and returns at once. A dropped call
/// does nothing more, except that work it already handed to the blocking pool (for
/// `summarize_file`, possibly its write, which is whole or not begun) runs to its end.
pub async fn stream_batch(
    registry: &Registry,
    tool: &str,
    calls: Vec<Value>,
    options: BatchOptions,
    interrupts: &mut Interrupts,
    on_event: impl FnMut(BatchEvent),
) -> BatchEnd {
    drive(registry, tool, calls, options, Some(interrupts), on_event).await
}

async fn drive(
    registry: &Registry,
    tool: &str,
    calls: Vec<Value>,
    options: BatchOptions,
    mut interrupts: Option<&mut Interrupts>,
    mut on_event: impl FnMut(BatchEvent),
) -> BatchEnd {
    let bar = progress_bar(calls.len(), options);
    let limit = options.concurrency.max(1);
    let mut waiting = calls.into_iter().enumerate();
    let mut running = FuturesUnordered::new();
    // The first signal, once one arrived: no new call starts from then on.
    let mut stopped_by: Option<Interrupt> = None;
    loop {
        while stopped_by.is_none() && running.len() < limit {
            let Some((index, args)) = waiting.next() else {
                break;
            };
            // The bar shows the latest step of any call in flight ("reading A.md",
            // "summarizing", "writing A.md").
            let shown = bar.clone();
            let sink = ProgressSink::new(move |update| shown.set_message(update.message));
            running.push(async move {
                let call = call_rendered(registry, tool, args, options.verbose);
                let output = with_progress(sink, call).await;
                (index, output)
            });
        }
        if running.is_empty() {
            break;
        }
        let signal = async {
            match interrupts.as_deref_mut() {
                Some(interrupts) => interrupts.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            Some((index, output)) = running.next() => {
                bar.inc(1);
                bar.suspend(|| on_event(BatchEvent::Finished { index, output }));
            }
            received = signal => {
                if let Some(by) = stopped_by {
                    let cancelled = running.len();
                    drop(running);
                    bar.finish_and_clear();
                    return BatchEnd::Interrupted { not_started: waiting.len(), cancelled, by };
                }
                stopped_by = Some(received);
                let in_flight = running.len();
                bar.suspend(|| on_event(BatchEvent::Stopping { in_flight }));
            }
        }
    }
    bar.finish_and_clear();
    match stopped_by {
        Some(by) => BatchEnd::Interrupted {
            not_started: waiting.len(),
            cancelled: 0,
            by,
        },
        None => BatchEnd::Completed,
    }
}

/// The bar on stderr, or a hidden one with `-v` (the rendered lines take its place) or for a
/// single call.
fn progress_bar(calls: usize, options: BatchOptions) -> ProgressBar {
    if !(options.progress && options.verbose == 0 && calls > 1) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(calls as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}
