//! Watch mode: summarize new notes by themselves, over the same [`Registry`] as the other
//! front ends.
//!
//! Watch mode keeps only its own decisions; the vault layer, reached through the tools' vault
//! view, says what a note is, reads and stamps notes, walks the vault and reports its changes
//! (the same vault-change service the MCP server holds).
//!
//! The pieces, one per file: `state` (what is remembered between runs, outside the vault),
//! `tracker` (which notes are new; renames followed), `skip` and `conflict` (notes left alone
//! by path), `scheduler` (settle time and concurrency), `budget` (the hourly limit on summaries
//! started), `daily_usage` (the day's notes and paid calls, logged when the day is over), `retry` (the watcher's own bounded retry of failures the tool marks retryable),
//! `clock` (when a walk is known complete; waits as people read them) and `driver` (the loop
//! tying them together and calling `summarize_file`; stopped by the future the caller passes,
//! Ctrl-C and SIGTERM for the CLI).

mod budget;
mod clock;
mod conflict;
mod daily_usage;
mod driver;
mod retry;
mod scheduler;
mod skip;
mod state;
mod tracker;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::config::WatchConfig;
use crate::tools::Registry;

pub use crate::tools::vault_view::ChangeBackend as Backend;
pub use conflict::is_conflict_copy;
pub use skip::SkipReason;
pub use state::{state_dir_from_env, state_file, state_files_folder, NoteStatus};

/// How the watcher runs. [`WatchOptions::from_config`] gives the configured defaults; the CLI
/// applies its flags on top, tests shorten the times and point `state_dir` at a temp folder.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Quiet time before a new note is summarized (`--settle`, config `watch.settle_secs`).
    pub settle: Duration,
    /// Minimum body characters, frontmatter excluded (`--min-chars`, config `watch.min_chars`).
    pub min_chars: usize,
    /// Summaries in flight at once (config `watch.concurrency`).
    pub concurrency: usize,
    /// Vault-relative globs never summarized (config `watch.exclude`).
    pub exclude: Vec<String>,
    /// Catch up on notes created since the last run, then exit (`--once`).
    pub once: bool,
    /// Folder holding the per-vault state files (default [`crate::config::state_dir`];
    /// the CLI honours `VAULTSUM_STATE_DIR`).
    pub state_dir: PathBuf,
    /// The OS watcher, or polling forced (`--poll`).
    pub backend: Backend,
    /// Polling interval when falling back from an exhausted OS watcher.
    pub poll_interval: Duration,
    /// Watcher-level retries of a note whose failure the tool marks retryable (a rate limit,
    /// a 5xx, a network failure, a busy note), on top of the LLM client's own retries.
    pub max_retries: u32,
    /// Nominal delay before the first such retry, doubled for each next one, spread ±20 % at
    /// random, never shorter than the provider's `Retry-After`.
    pub retry_backoff: Duration,
    /// Summaries started per `budget_window` at most (`--max-per-hour`, config
    /// `watch.max_per_hour`); `None`: no limit. Notes beyond it wait in the state.
    pub max_per_hour: Option<u32>,
    /// The rolling window of `max_per_hour`: an hour (tests shorten it).
    pub budget_window: Duration,
    /// How long a stop request waits for summaries in flight before abandoning them.
    pub shutdown_grace: Duration,
    /// Refresh the summary of a note edited after it, once the note settles (`--refresh`,
    /// config `watch.refresh`): only a stale summary, never one edited by hand, and never
    /// because of the summary's own write (it leaves the summary current).
    pub refresh: bool,
    /// How often the whole vault is walked in case file events were lost without a word
    /// (config `watch.reconcile_secs`; `None`: never).
    pub reconcile_every: Option<Duration>,
}

impl WatchOptions {
    /// The configured settings with the built-in defaults for the rest.
    pub fn from_config(config: &WatchConfig) -> WatchOptions {
        WatchOptions {
            settle: Duration::from_secs(config.settle_secs),
            min_chars: config.min_chars,
            concurrency: config.concurrency.max(1),
            exclude: config.exclude.clone(),
            once: false,
            state_dir: crate::config::state_dir(),
            backend: Backend::Native,
            poll_interval: Duration::from_secs(5),
            max_retries: 2,
            retry_backoff: Duration::from_secs(60),
            max_per_hour: Some(config.max_per_hour).filter(|n| *n > 0),
            budget_window: budget::HOUR,
            shutdown_grace: Duration::from_secs(10),
            refresh: config.refresh,
            reconcile_every: Some(Duration::from_secs(config.reconcile_secs))
                .filter(|every| !every.is_zero()),
        }
    }
}

/// What a watch run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchReport {
    /// True when the vault had no state yet: its notes were recorded as old, none summarized.
    pub first_run: bool,
    /// Notes the state knows about at exit.
    pub notes: usize,
    /// Notes summarized in this run.
    pub summarized: usize,
    /// Notes whose summary failed for good in this run (they are tried again once edited).
    pub failed: usize,
    /// New notes not summarized yet at exit (not settled, too short, waiting for the hourly
    /// limit, or abandoned at stop).
    pub pending: usize,
    /// Of the pending notes, those waiting for the hourly limit (kept in the state, summarized
    /// first at the next start).
    pub waiting: usize,
}

/// Why the watcher could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error(
        "no vault configured: pass --vault DIR, set VAULTSUM_VAULT, or run inside a vault (a folder with .obsidian/)"
    )]
    NoVault,
    #[error("the registry has no summarize_file tool; watch mode cannot summarize anything")]
    NoSummarizeTool,
    #[error("cannot read the watch state {path}: {source}")]
    StateRead {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the watch state {path} is unreadable ({message}); delete it to start over (the vault is then recorded as it is and nothing old is summarized)")]
    StateCorrupt { path: PathBuf, message: String },
    #[error("cannot write the watch state {path}: {source} (set VAULTSUM_STATE_DIR to a writable folder)")]
    StateWrite {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid watch.exclude glob {pattern:?}: {message}")]
    BadExclude { pattern: String, message: String },
    #[error("cannot watch the vault for changes: {0}")]
    Watch(String),
}

/// Watches the registry's vault until `shutdown` completes (or, with `opts.once`, until the
/// catch-up is done), summarizing new notes with the registry's `summarize_file` tool.
pub async fn run(
    registry: Arc<Registry>,
    opts: WatchOptions,
    shutdown: impl Future<Output = ()>,
) -> Result<WatchReport, WatchError> {
    driver::Driver::start(registry, opts)?.run(shutdown).await
}
