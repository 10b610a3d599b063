//! What every subcommand starts from: the layered configuration and a way to build the Registry.

use std::sync::Arc;

use crate::config::{Config, Engine, Env};
use crate::tools::context::find_vault_upward;
use crate::tools::{Registry, ToolContext};

use super::Cli;

/// A usage or configuration problem: exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// The loaded configuration plus the global flags, handed to each subcommand.
#[derive(Debug)]
pub struct App {
    pub config: Config,
    pub verbose: u8,
    pub quiet: bool,
}

impl App {
    /// Loads config (defaults < file < env) and applies the global flags on top.
    pub fn from_cli(cli: &Cli) -> anyhow::Result<App> {
        let mut config = Config::load(cli.config.as_deref(), &Env::from_process())?;
        if let Some(vault) = &cli.vault {
            config.vault = Some(vault.clone());
        }
        if config.vault.is_none() {
            // Like git, work in the vault that contains the current directory.
            config.vault = std::env::current_dir()
                .ok()
                .and_then(|cwd| find_vault_upward(&cwd));
        }
        Ok(App {
            config,
            verbose: cli.verbose,
            quiet: cli.quiet,
        })
    }

    /// Builds the Registry over this configuration. A configured vault that cannot be opened or
    /// an unusable LLM configuration is a usage error (exit 2).
    pub fn registry(&self) -> anyhow::Result<Registry> {
        let context =
            ToolContext::new(self.config.clone()).map_err(|e| UsageError(e.to_string()))?;
        Ok(Registry::new(Arc::new(context)))
    }

    /// The Registry for commands that never touch notes (`compact`, `summarize-text`): no vault
    /// is opened, so a large vault costs no indexing and a vault setting that cannot be opened
    /// does not stop them.
    pub fn registry_without_vault(&self) -> anyhow::Result<Registry> {
        let config = Config {
            vault: None,
            ..self.config.clone()
        };
        let context = ToolContext::new(config).map_err(|e| UsageError(e.to_string()))?;
        Ok(Registry::new(Arc::new(context)))
    }

    /// A multi-threaded tokio runtime for the async tools.
    pub fn runtime(&self) -> anyhow::Result<tokio::runtime::Runtime> {
        Ok(tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?)
    }
}

/// Parses an `--engine auto|llm|offline` flag (`local`, the older name of `offline`, too), shared
/// by every subcommand that summarizes.
pub fn parse_engine_flag(value: &str) -> Result<Engine, String> {
    Engine::parse("--engine", value).map_err(|e| e.to_string())
}

/// Exit code for a batch of tool results: 1 when any of them failed.
pub fn exit_code_for_batch(failed: bool) -> std::process::ExitCode {
    if failed {
        std::process::ExitCode::from(1)
    } else {
        std::process::ExitCode::SUCCESS
    }
}

/// Logs go to stderr only (stdout is the result, or the MCP protocol). `RUST_LOG` wins over
/// the `-v`/`-q` flags. Watch mode runs as a service, so its own lines (one per summary, the
/// hourly limit, start and stop) are shown by default; everything else from warnings up.
/// The PDF library's own `log` lines (thousands of warnings about malformed fonts on real
/// papers, none of them actionable) count as debug: shown only with `-vv` or `RUST_LOG`.
pub fn init_logging(verbose: u8, quiet: bool) {
    let default = if quiet {
        "error,vaultsum_pdf=off"
    } else {
        match verbose {
            0 => "warn,vaultsum::watch=info,vaultsum_pdf=off",
            1 => "info,vaultsum_pdf=off",
            _ => "debug",
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}
