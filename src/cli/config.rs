//! `vaultsum config path`: where the config file is, or where to create it, by the same rule
//! the other commands read it by (`config.rs: config_file_location`), so a front end (the
//! Obsidian plugin's settings tab) never works it out again. Runs before the configuration is
//! loaded: a broken file still has a place.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use crate::config::{config_file_location, Env};

use super::{Cli, UsageError};

/// Arguments of `vaultsum config`.
#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub command: ConfigCommand,
}

/// What `vaultsum config` tells.
#[derive(Debug, clap::Subcommand)]
pub enum ConfigCommand {
    /// Print the config file's path (it may not exist yet: the defaults apply until it does).
    Path {
        /// Print {"path","exists","named_by"} (named_by: flag, environment or default).
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cli: &Cli, args: &ConfigArgs) -> anyhow::Result<ExitCode> {
    let ConfigCommand::Path { json } = args.command;
    let (path, named_by) = config_file_location(cli.config.as_deref(), &Env::from_process())
        .ok_or_else(|| {
            UsageError("this system has no config folder: pass --config FILE".to_string())
        })?;
    let mut out = std::io::stdout().lock();
    if json {
        let record = json!({ "path": path, "exists": path.is_file(), "named_by": named_by });
        writeln!(out, "{record}")?;
    } else {
        writeln!(out, "{}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}
