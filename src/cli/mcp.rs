//! `vaultsum mcp`: serve the Registry over MCP, on stdio (default) or streamable HTTP.

use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use super::interrupt::{Interrupt, Interrupts};
use super::{App, UsageError};
use crate::config::Engine;
use crate::mcp::{self, HttpServer, HttpSettings, McpServeError, VaultsumServer};
use crate::tools::vault_view::{ChangeBackend, VaultChanges};
use crate::tools::ToolContext;

/// How often the vault is polled when the OS watcher's limits are exhausted.
const VAULT_POLL_INTERVAL: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a stopped server waits for its last background work (a blocked stdin read
/// included) before the process exits.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);
/// How often the server's index is rebuilt from a walk in case file events were lost.
const VAULT_RECONCILE_EVERY: std::time::Duration = std::time::Duration::from_secs(300);

/// Arguments of `vaultsum mcp`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct McpArgs {
    /// Without a subcommand, serve (stdio by default).
    #[command(subcommand)]
    pub command: Option<McpCommand>,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio. ADDR is HOST:PORT or a bare
    /// PORT (loopback). A non-loopback address requires VAULTSUM_MCP_TOKEN.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
    /// Summarizer engine for summarize_file: auto (default), llm, or offline (built in, no network; `local` is the same).
    #[arg(long, value_name = "ENGINE", value_parser = super::app::parse_engine_flag)]
    pub engine: Option<Engine>,
    /// Serve no tool that writes to the vault (summarize_file is not offered).
    #[arg(long)]
    pub read_only: bool,
    /// Serve only these tools, e.g. read_file,summarize_notes (an unknown name is an error).
    #[arg(long, value_name = "TOOLS", value_delimiter = ',')]
    pub tools: Option<Vec<String>>,
    /// Also answer calls of the command-line tools (summarize_text), which stay unlisted: for a
    /// front end a person drives, such as the Obsidian plugin, not for agents.
    #[arg(long)]
    pub cli_tools: bool,
}

/// What `vaultsum mcp` can do besides serving.
#[derive(Debug, clap::Subcommand)]
pub enum McpCommand {
    /// Print the entry an MCP client needs to start vaultsum, or merge it into the client's
    /// file with --write.
    Config(super::mcp_config::McpConfigArgs),
}

pub fn run(mut app: App, args: McpArgs) -> anyhow::Result<ExitCode> {
    if let Some(McpCommand::Config(config)) = args.command {
        return super::mcp_config::run(app, config);
    }
    if let Some(engine) = args.engine {
        app.config.summarize.engine = engine;
    }
    let settings = match &args.http {
        Some(value) => Some(HttpSettings {
            addr: mcp::parse_bind_addr(value).map_err(usage)?,
            token: app.config.mcp.token.clone(),
            allowed_origins: app.config.mcp.allowed_origins.clone(),
        }),
        None => None,
    };
    // Opening the vault does not walk it (the index is built by the first call that needs
    // it), and following its changes starts beside serving: `initialize` and `tools/list` are
    // answered at once, whatever the vault's size.
    let read_only = args.read_only || app.config.mcp.read_only;
    let only = args.tools.clone().or_else(|| app.config.mcp.tools.clone());
    let registry = Arc::new(
        app.registry()?
            .scoped(only.as_deref(), read_only)
            .map_err(UsageError)?,
    );
    let follower = follow_vault_in_background(registry.context().clone());
    let server = VaultsumServer::new(registry);
    let server = if args.cli_tools {
        server.with_cli_tools()
    } else {
        server
    };
    let runtime = app.runtime()?;
    let stopped_by: Arc<OnceLock<Interrupt>> = Arc::default();
    let served = runtime.block_on({
        let stopped_by = stopped_by.clone();
        async move {
            let shutdown = CancellationToken::new();
            // Listening before serving: from the first request on, a signal stops the server
            // cleanly instead of killing it.
            let interrupts = Interrupts::listen().context("listening for Ctrl-C and SIGTERM")?;
            tokio::spawn(cancel_on_signal(interrupts, shutdown.clone(), stopped_by));
            tracing::info!("MCP server ready; Ctrl-C or SIGTERM stops it");
            match settings {
                None => mcp::serve_stdio(server, shutdown).await?,
                Some(settings) => {
                    let http = HttpServer::bind(server, settings)
                        .await
                        .map_err(|e| match e {
                            McpServeError::TokenRequired { .. } => usage(e),
                            other => anyhow::Error::from(other),
                        })?;
                    // Always shown (not a log line): a client needs the URL, notably with port 0.
                    eprintln!("vaultsum: serving MCP at {}", http.url());
                    http.serve(shutdown).await.context("MCP HTTP server")?;
                }
            }
            anyhow::Ok(())
        }
    });
    // Not a plain drop: when stdin or stdout is not a pipe (a terminal, a file, /dev/null) the
    // transport reads stdin on a blocking thread that only a new line or EOF would end, and
    // dropping the runtime waits for it, so a stopped server would never exit.
    runtime.shutdown_timeout(STOP_GRACE);
    // Stops following the vault (once the follower is set up, if it was still setting up).
    if let Some(follower) = follower {
        drop(follower.join());
    }
    served?;
    // The client closing stdin is a normal end (0); so is a clean stop on SIGTERM, how
    // service managers stop a server; Ctrl-C gives 130.
    Ok(match stopped_by.get() {
        Some(signal) => ExitCode::from(signal.service_exit_code()),
        None => ExitCode::SUCCESS,
    })
}

/// Starts the vault-change service on its own thread, so the server answers while the OS
/// watch is being set up (in proportion to the vault's folders). The service is held for
/// the server's life, so links resolve against the vault as it is now, not as it was at
/// start; without a watcher the server still works, with the index as first built.
fn follow_vault_in_background(
    context: Arc<ToolContext>,
) -> Option<std::thread::JoinHandle<Option<VaultChanges>>> {
    context.vault_root().ok()?;
    let spawned = std::thread::Builder::new()
        .name("vault-follow".into())
        .spawn(move || {
            match context.watch_vault(
                ChangeBackend::Native,
                VAULT_POLL_INTERVAL,
                VAULT_RECONCILE_EVERY,
            ) {
                Ok(changes) => Some(changes),
                Err(error) => {
                    tracing::warn!(
                        %error,
                        "not following vault changes; notes created after start may not resolve"
                    );
                    None
                }
            }
        });
    match spawned {
        Ok(handle) => Some(handle),
        Err(error) => {
            tracing::warn!(%error, "not following vault changes: no thread for it");
            None
        }
    }
}

fn usage(error: McpServeError) -> anyhow::Error {
    UsageError(error.to_string()).into()
}

/// Ctrl-C or a request to stop (SIGTERM; a console close on Windows) stops the server cleanly:
/// in-flight calls are dropped, which writes nothing. The signal is kept for the exit code.
async fn cancel_on_signal(
    mut interrupts: Interrupts,
    shutdown: CancellationToken,
    stopped_by: Arc<OnceLock<Interrupt>>,
) {
    let signal = interrupts.recv().await;
    tracing::info!("{} received, stopping the MCP server", signal.name());
    let _ = stopped_by.set(signal);
    shutdown.cancel();
}
