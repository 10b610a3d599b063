//! [`VaultsumServer`]: the rmcp `ServerHandler` that serves every tool of the Registry.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ErrorCode, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as McpTool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

use super::convert::{call_result, tool_definition};
use super::progress::{ProgressReporter, HEARTBEAT_INTERVAL};
use crate::tools::{Registry, ToolOutput};

/// The server name announced in `initialize`.
pub const SERVER_NAME: &str = "vaultsum";

/// What the server tells agents in `initialize`: when to prefer `summarize_file` and
/// `read_file` over doing the same by hand.
pub const INSTRUCTIONS: &str = include_str!("instructions.md");

/// JSON-RPC error code for a request the client cancelled (LSP's `RequestCancelled`). The
/// client never sees it: rmcp drops responses to cancelled requests.
const REQUEST_CANCELLED: ErrorCode = ErrorCode(-32800);

/// An MCP server over a shared [`Registry`]. Cheap to clone: the HTTP transport makes one per
/// session, all sharing the same registry (and so the same warm vault index).
#[derive(Clone)]
pub struct VaultsumServer {
    registry: Arc<Registry>,
    tools: Arc<[McpTool]>,
    heartbeat: Duration,
    /// Whether calls of the command-line tools (`summarize_text`) are answered too (never
    /// listed): `vaultsum mcp --cli-tools`, for a front end a person drives.
    cli_tools: bool,
}

impl VaultsumServer {
    /// Serves every tool of `registry`; their MCP definitions are computed once here.
    pub fn new(registry: Arc<Registry>) -> VaultsumServer {
        let tools = registry
            .tools()
            .iter()
            .map(|tool| tool_definition(tool.as_ref()))
            .collect();
        VaultsumServer {
            registry,
            tools,
            heartbeat: HEARTBEAT_INTERVAL,
            cli_tools: false,
        }
    }

    /// The same server answering calls of the command-line tools as well (`summarize_text`,
    /// unlisted, read-only): the Obsidian plugin's "Summarize selection" asks it for a callout
    /// block. Agents are offered the listed tools only; a server for them has this off.
    pub fn with_cli_tools(mut self) -> VaultsumServer {
        self.cli_tools = true;
        self
    }

    /// The same server with another longest silence between progress notifications than
    /// [`HEARTBEAT_INTERVAL`] (tests of the heartbeat that should not take seconds).
    pub fn with_heartbeat(mut self, heartbeat: Duration) -> VaultsumServer {
        self.heartbeat = heartbeat;
        self
    }

    /// Whether the tool `name` declares an output schema (its results carry a record).
    fn has_output_schema(&self, name: &str) -> bool {
        self.tools
            .iter()
            .any(|tool| tool.name == name && tool.output_schema.is_some())
    }

    /// The registry this server calls.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Runs one tool call to its end, turning a panic inside a tool into an error result so a
    /// bug in one tool never leaves the client waiting for an answer.
    async fn run_tool(&self, name: &str, args: Value) -> ToolOutput {
        let call = async {
            if self.cli_tools {
                self.registry.call_for_cli(name, args).await
            } else {
                self.registry.call(name, args).await
            }
        };
        match AssertUnwindSafe(call).catch_unwind().await {
            Ok(output) => output,
            Err(panic) => {
                let reason = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                tracing::error!(tool = name, %reason, "tool panicked");
                ToolOutput::error(
                    format!(
                        "internal error in {name}: {reason}. Nothing was written; this is a bug \
                         in vaultsum, please report it."
                    ),
                    json!({ "error": "internal", "tool": name }),
                )
            }
        }
    }
}

impl ServerHandler for VaultsumServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Needs nothing from the vault: answered at once, however large the vault and whether
        // or not its index is built yet (the cold-start test orders its events by this line).
        tracing::debug!(tools = self.tools.len(), "answering tools/list");
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    /// Runs the tool until it finishes or the client cancels. On `notifications/cancelled`
    /// (or a closed session) rmcp fires `context.ct`; `select!` then drops the tool's future,
    /// which stops its LLM request, and since tools write only as their last step nothing
    /// is written. When the request carries `_meta.progressToken`, the tool's steps and a
    /// heartbeat go to the client as `notifications/progress` (see `progress.rs`); without
    /// one, nothing but the answer is sent.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // rmcp moves the request's `_meta` into the context; the params keep it when a
        // transport did not.
        let token = context.meta.get_progress_token().or_else(|| {
            request
                .meta
                .as_ref()
                .and_then(|meta| meta.get_progress_token())
        });
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let name = request.name.as_ref();
        tracing::debug!(tool = name, progress = token.is_some(), "call");
        let run = async {
            match token {
                Some(token) => {
                    let reporter = ProgressReporter {
                        peer: context.peer.clone(),
                        token,
                        heartbeat: self.heartbeat,
                    };
                    reporter.run(self.run_tool(name, args)).await
                }
                None => self.run_tool(name, args).await,
            }
        };
        tokio::select! {
            biased;
            () = context.ct.cancelled() => {
                tracing::info!(tool = name, "call cancelled by the client; nothing written");
                Err(ErrorData::new(REQUEST_CANCELLED, format!("{name} cancelled"), None))
            }
            output = run => Ok(call_result(output, self.has_output_schema(name)).into()),
        }
    }
}
