//! `vaultsum compact` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum compact`.
#[derive(Debug, clap::Args)]
pub struct CompactArgs {}

pub fn run(_app: App, _args: CompactArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("compact is not available yet".into()).into())
}
