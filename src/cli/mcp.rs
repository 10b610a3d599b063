//! `vaultsum mcp` (placeholder: filled in by its own work item).

use std::process::ExitCode;

use super::{App, UsageError};

/// Arguments of `vaultsum mcp`.
#[derive(Debug, clap::Args)]
pub struct McpArgs {}

pub fn run(_app: App, _args: McpArgs) -> anyhow::Result<ExitCode> {
    Err(UsageError("mcp is not available yet".into()).into())
}
