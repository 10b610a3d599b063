//! `vaultsum watch`: flags → [`WatchOptions`], SIGINT/SIGTERM → the shutdown future, then
//! [`crate::watch::run`]; the signal that stopped it → the exit code. Every decision about
//! notes lives in `crate::watch`.

use std::cell::Cell;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::watch::{self, Backend, WatchError, WatchOptions, WatchReport};

use super::interrupt::{Interrupt, Interrupts};
use super::{App, UsageError};

/// Arguments of `vaultsum watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// Seconds a new note must stay unchanged before it is summarized (default
    /// watch.settle_secs, 30). Fractions are allowed.
    #[arg(long, value_name = "SECS")]
    pub settle: Option<f64>,
    /// Minimum characters of body (frontmatter excluded) for a note to be summarized (default
    /// watch.min_chars, 500).
    #[arg(long, value_name = "N")]
    pub min_chars: Option<usize>,
    /// Summarize the notes created since the last run, then exit (for cron).
    #[arg(long)]
    pub once: bool,
    /// Poll the vault every SECS seconds instead of using OS file notifications (network
    /// drives, some containers). Used automatically when inotify limits are exhausted.
    #[arg(long, value_name = "SECS", num_args = 0..=1, default_missing_value = "5")]
    pub poll: Option<f64>,
    /// Summaries started per rolling hour at most, retries included (default
    /// watch.max_per_hour, 60; 0: no limit). Notes beyond it wait and are summarized later,
    /// across restarts.
    #[arg(long, value_name = "N")]
    pub max_per_hour: Option<u32>,
    /// Also refresh summaries gone stale: a note edited after its summary is summarized again
    /// once it settles (within --max-per-hour; summaries edited by hand are left). Default
    /// watch.refresh, off.
    #[arg(long)]
    pub refresh: bool,
    /// For tests: the window of --max-per-hour in seconds instead of an hour.
    #[arg(long, value_name = "SECS", hide = true)]
    pub budget_window: Option<f64>,
    /// For tests: the delay before the watcher's first retry of a note, in seconds.
    #[arg(long, value_name = "SECS", hide = true)]
    pub retry_backoff: Option<f64>,
}

/// Runs the watcher until Ctrl-C (exit 130) or SIGTERM (a clean stop: exit 0), or once with
/// `--once`.
pub fn run(app: App, args: WatchArgs) -> anyhow::Result<ExitCode> {
    let mut opts = WatchOptions::from_config(&app.config.watch);
    if let Some(settle) = args.settle {
        opts.settle = seconds("--settle", settle)?;
    }
    if let Some(min_chars) = args.min_chars {
        opts.min_chars = min_chars;
    }
    if let Some(poll) = args.poll {
        let interval = seconds("--poll", poll)?;
        if interval.is_zero() {
            return Err(UsageError("--poll needs an interval above 0 seconds".into()).into());
        }
        opts.backend = Backend::Polling(interval);
    }
    if let Some(max) = args.max_per_hour {
        opts.max_per_hour = Some(max).filter(|n| *n > 0);
    }
    if let Some(window) = args.budget_window {
        opts.budget_window = seconds("--budget-window", window)?;
    }
    if let Some(backoff) = args.retry_backoff {
        opts.retry_backoff = seconds("--retry-backoff", backoff)?;
    }
    opts.once = args.once;
    opts.refresh |= args.refresh;
    // Where the per-vault state lives; tests and unusual setups point it elsewhere.
    opts.state_dir = crate::watch::state_dir_from_env();
    let registry = Arc::new(app.registry()?);
    if !app.quiet && !opts.once {
        let limit = match opts.max_per_hour {
            Some(max) => format!("at most {max} an hour"),
            None => "no hourly limit".to_string(),
        };
        eprintln!(
            "vaultsum: watching for new notes (summarized after {:?} of quiet, at least {} characters, {limit}); Ctrl-C to stop",
            opts.settle, opts.min_chars,
        );
    }
    let runtime = app.runtime()?;
    let stopped: Cell<Option<Interrupt>> = Cell::new(None);
    let report = runtime.block_on(async {
        // Listening from before the catch-up walk: a signal during it is neither lost nor
        // fatal half-way through.
        let interrupts = Interrupts::listen()?;
        let stop = stop_on_first_signal(interrupts, &stopped);
        watch::run(registry, opts, stop)
            .await
            .map_err(|error| match error {
                // Setup problems the person fixes in flags or configuration: exit code 2.
                WatchError::NoVault
                | WatchError::BadExclude { .. }
                | WatchError::NoSummarizeTool => anyhow::Error::new(UsageError(error.to_string())),
                other => anyhow::Error::new(other),
            })
    })?;
    println!("{}", describe(&report));
    // A clean stop: 0 for SIGTERM (how service managers stop a service), 130 for Ctrl-C.
    Ok(match stopped.get() {
        Some(signal) => ExitCode::from(signal.service_exit_code()),
        None => ExitCode::SUCCESS,
    })
}

/// Completes on the first Ctrl-C or SIGTERM: the watcher then starts no new summary, lets
/// those in flight finish within its grace period and saves its state. From then on a second
/// signal ends the process at once: summaries in flight are dropped, and since a summary is
/// written in one step the exit cannot cut (an append is one write the kernel finishes, a
/// replace one atomic exchange), each note is either as it was or has its whole summary.
async fn stop_on_first_signal(mut interrupts: Interrupts, stopped: &Cell<Option<Interrupt>>) {
    let first = interrupts.recv().await;
    stopped.set(Some(first));
    tracing::info!(
        "watch: {} received; a second one exits at once",
        first.name()
    );
    tokio::spawn(async move {
        let second = interrupts.recv().await;
        tracing::warn!(
            "watch: {} again: exiting at once; summaries in flight are dropped",
            second.name()
        );
        // Not a clean stop: the code a batch would give (130 for Ctrl-C, 143 for SIGTERM).
        std::process::exit(i32::from(second.batch_exit_code()));
    });
}

/// A flag's seconds as a `Duration`: finite, not negative, at most a year (larger values would
/// overflow the clock arithmetic and mean nothing useful).
fn seconds(flag: &str, value: f64) -> anyhow::Result<Duration> {
    let max = crate::config::MAX_SECONDS;
    if !(value.is_finite() && (0.0..=max as f64).contains(&value)) {
        return Err(UsageError(format!(
            "{flag} needs a number of seconds from 0 to {max} (a year), got {value}"
        ))
        .into());
    }
    Duration::try_from_secs_f64(value)
        .map_err(|_| UsageError(format!("{flag} needs a number of seconds, got {value}")).into())
}

fn describe(report: &WatchReport) -> String {
    if report.first_run && report.summarized == 0 {
        return format!(
            "first run: recorded {} existing notes; new notes from now on will be summarized",
            report.notes
        );
    }
    let mut line = format!(
        "summarized {} new notes, {} failed, {} new notes pending",
        report.summarized, report.failed, report.pending
    );
    if report.waiting > 0 {
        line.push_str(&format!(
            " ({} waiting for the hourly limit)",
            report.waiting
        ));
    }
    line
}
