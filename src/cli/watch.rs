//! `vaultsum watch`: flags → [`WatchOptions`], SIGINT/SIGTERM → the shutdown future, then
//! [`crate::watch::run`]. Every decision about notes lives in `crate::watch`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::watch::{self, Backend, WatchError, WatchOptions, WatchReport};

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
}

/// Runs the watcher until SIGINT/SIGTERM (exit 0), or once with `--once`.
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
    opts.once = args.once;
    // Where the per-vault state lives; tests and unusual setups point it elsewhere.
    if let Some(dir) = std::env::var_os("VAULTSUM_STATE_DIR").filter(|d| !d.is_empty()) {
        opts.state_dir = PathBuf::from(dir);
    }
    let registry = Arc::new(app.registry()?);
    if !app.quiet && !opts.once {
        eprintln!(
            "vaultsum: watching for new notes (summarized after {:?} of quiet, at least {} characters); Ctrl-C to stop{}",
            opts.settle,
            opts.min_chars,
            if app.verbose == 0 { "; -v shows each summary" } else { "" }
        );
    }
    let runtime = app.runtime()?;
    let report = runtime.block_on(async {
        let stop = stop_signal()?;
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
    Ok(ExitCode::SUCCESS)
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

/// Completes on the first SIGINT or SIGTERM. The handlers are installed before this returns,
/// so a signal during the catch-up walk is not lost (nor kills the process mid-way).
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

fn describe(report: &WatchReport) -> String {
    if report.first_run && report.summarized == 0 {
        return format!(
            "first run: recorded {} existing notes; new notes from now on will be summarized",
            report.notes
        );
    }
    format!(
        "summarized {} new notes, {} failed, {} new notes pending",
        report.summarized, report.failed, report.pending
    )
}
