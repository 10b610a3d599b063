//! `vaultsum summarize-text` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum summarize-text`.
#[derive(Debug, clap::Args)]
pub struct SummarizeTextArgs {}

pub fn run(_app: App, _args: SummarizeTextArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("summarize-text is not available yet".into()).into())
}
