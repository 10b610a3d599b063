//! `vaultsum tools`: list the tools with their titles, descriptions, schemas and annotations.

use std::io::Write;
use std::process::ExitCode;

use super::App;

/// Arguments of `vaultsum tools`.
#[derive(Debug, clap::Args)]
pub struct ToolsArgs {
    /// Print a JSON array of {"name","title","description","input_schema","annotations"}.
    #[arg(long)]
    pub json: bool,
}

/// Prints the registry's tools.
pub fn run(app: App, args: ToolsArgs) -> anyhow::Result<ExitCode> {
    let registry = app.registry()?;
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &registry.describe())?;
        writeln!(out)?;
    } else {
        for tool in registry.tools() {
            let first_line = tool.description().lines().next().unwrap_or("");
            writeln!(out, "{:<16} {first_line}", tool.name())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
