//! `vaultsum search` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {}

pub fn run(_app: App, _args: SearchArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("search is not available yet".into()).into())
}
