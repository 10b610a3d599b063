//! `vaultsum watch` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {}

pub fn run(_app: App, _args: WatchArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("watch is not available yet".into()).into())
}
