//! `vaultsum summarize` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum summarize`.
#[derive(Debug, clap::Args)]
pub struct SummarizeArgs {}

pub fn run(_app: App, _args: SummarizeArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("summarize is not available yet".into()).into())
}
