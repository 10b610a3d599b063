//! The one-shot command line: clap types, one file per subcommand. Each subcommand turns its
//! flags into tool arguments, calls the Registry and prints the result; no note logic lives here.

mod app;
mod batch;
mod batch_in_order;
mod compact;
mod config;
mod cost_line;
mod doctor;
pub(crate) mod interrupt;
mod left_out;
mod mcp;
pub(crate) mod mcp_config;
mod output;
mod read;
mod rollup;
mod search;
mod status;
mod summarize;
mod summarize_file;
mod summarize_text;
mod tools;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use app::{App, UsageError};

/// Summarize notes in an Obsidian vault.
#[derive(Debug, Parser)]
#[command(name = "vaultsum", version, about, propagate_version = true)]
pub struct Cli {
    /// Vault root folder (also VAULTSUM_VAULT or `vault` in the config file).
    #[arg(long, global = true, value_name = "DIR")]
    pub vault: Option<PathBuf>,
    /// Config file (also VAULTSUM_CONFIG; default $XDG_CONFIG_HOME/vaultsum/config.toml).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// More output on stderr (rendered tool calls and results); repeat for debug logs.
    #[arg(short, long, global = true, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    /// Only errors on stderr.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a structured summary into notes (a `## Summary` section, a property, or both).
    SummarizeFile(summarize_file::SummarizeFileArgs),
    /// Print notes with their embeds expanded.
    Read(read::ReadArgs),
    /// Summarize a URL with Kagi's Universal Summarizer.
    Summarize(summarize::SummarizeArgs),
    /// Search the web with Kagi (several queries at once).
    Search(search::SearchArgs),
    /// Summarize text from stdin (no vault needed).
    SummarizeText(summarize_text::SummarizeTextArgs),
    /// Show which notes have a summary and whether it is current, stale or edited by hand.
    Status(status::StatusArgs),
    /// Summarize many notes into one rollup (a week, a month, a folder, a tag, a hub's links).
    Rollup(Box<rollup::RollupArgs>),
    /// Compact an OpenAI-format chat transcript: old tool results become one-line stubs.
    Compact(compact::CompactArgs),
    /// Serve the tools over MCP (stdio by default).
    Mcp(mcp::McpArgs),
    /// Watch the vault and summarize new notes by themselves.
    Watch(watch::WatchArgs),
    /// List the tools with their descriptions and schemas.
    Tools(tools::ToolsArgs),
    /// Check the setup: config, vault, keys, endpoints, models (exit 1 when something is missing).
    Doctor(doctor::DoctorArgs),
    /// Where the config file is (`config path`), whether or not it exists yet.
    Config(config::ConfigArgs),
}

/// Parses the command line, runs the command and returns the process exit code:
/// 0 success, 1 a tool reported an error, 2 usage or configuration error, 130 a
/// `summarize-file` batch stopped by Ctrl-C or SIGTERM.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    app::init_logging(cli.verbose, cli.quiet);
    let result = match &cli.command {
        // Reports a config error as one of its findings instead of stopping on it.
        Command::Doctor(args) => doctor::run(&cli, args),
        // Likewise: a broken config file still has a path.
        Command::Config(args) => config::run(&cli, args),
        _ => App::from_cli(&cli).and_then(|app| dispatch(app, cli.command)),
    };
    match result {
        Ok(code) => code,
        Err(error) => report(&error),
    }
}

fn dispatch(app: App, command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::SummarizeFile(args) => summarize_file::run(app, args),
        Command::Read(args) => read::run(app, args),
        Command::Summarize(args) => summarize::run(app, args),
        Command::Search(args) => search::run(app, args),
        Command::SummarizeText(args) => summarize_text::run(app, args),
        Command::Rollup(args) => rollup::run(app, *args),
        Command::Status(args) => status::run(app, args),
        Command::Compact(args) => compact::run(app, args),
        Command::Mcp(args) => mcp::run(app, args),
        Command::Watch(args) => watch::run(app, args),
        Command::Tools(args) => tools::run(app, args),
        Command::Doctor(_) | Command::Config(_) => {
            unreachable!("doctor and config run before the configuration is loaded")
        }
    }
}

/// Prints an error to stderr and picks the exit code. A closed stdout (`vaultsum read … | head`)
/// is not an error.
fn report(error: &anyhow::Error) -> ExitCode {
    if error
        .chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    {
        return ExitCode::SUCCESS;
    }
    eprintln!("vaultsum: {error:#}");
    if error.downcast_ref::<UsageError>().is_some()
        || error.downcast_ref::<crate::config::ConfigError>().is_some()
    {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}
