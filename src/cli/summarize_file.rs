//! `vaultsum summarize-file` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum summarize-file`.
#[derive(Debug, clap::Args)]
pub struct SummarizeFileArgs {}

pub fn run(_app: App, _args: SummarizeFileArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("summarize-file is not available yet".into()).into())
}
