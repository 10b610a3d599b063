//! Running one tool over many inputs with bounded concurrency and a progress bar on stderr.

use futures::stream::{self, StreamExt};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use super::output::call_rendered;
use crate::tools::{Registry, ToolOutput};

/// Calls `tool` once per argument object, at most `concurrency` at a time, and returns the
/// outputs in input order. With `verbose`, each call and result is rendered on stderr (and
/// those lines replace the progress bar); otherwise, with `progress` and more than one call, a
/// progress bar is drawn on stderr (hidden when stderr is not a terminal).
pub async fn run_batch(
    registry: &Registry,
    tool: &str,
    calls: Vec<Value>,
    concurrency: usize,
    verbose: u8,
    progress: bool,
) -> Vec<ToolOutput> {
    let bar = if progress && verbose == 0 && calls.len() > 1 {
        let bar = ProgressBar::new(calls.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{bar:30}] {pos}/{len} {wide_msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut results: Vec<(usize, ToolOutput)> = stream::iter(calls.into_iter().enumerate())
        .map(|(index, args)| {
            let bar = bar.clone();
            async move {
                let output = call_rendered(registry, tool, args, verbose).await;
                bar.inc(1);
                (index, output)
            }
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    bar.finish_and_clear();
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, output)| output).collect()
}
