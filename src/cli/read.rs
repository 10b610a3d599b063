//! `vaultsum read` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum read`.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {}

pub fn run(_app: App, _args: ReadArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("read is not available yet".into()).into())
}
