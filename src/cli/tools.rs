//! `vaultsum tools` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum tools`.
#[derive(Debug, clap::Args)]
pub struct ToolsArgs {}

pub fn run(_app: App, _args: ToolsArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("tools is not available yet".into()).into())
}
