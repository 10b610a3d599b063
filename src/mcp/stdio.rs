//! MCP over stdio: stdin carries requests, stdout carries only protocol messages.

use rmcp::service::QuitReason;
use rmcp::ServiceExt;
use tokio_util::sync::CancellationToken;

use super::error::McpServeError;
use super::server::VaultsumServer;

/// Serves `server` on this process's stdin/stdout until the client closes stdin or `shutdown`
/// is cancelled. Logs must go to stderr: anything else on stdout would corrupt the protocol.
pub async fn serve_stdio(
    server: VaultsumServer,
    shutdown: CancellationToken,
) -> Result<(), McpServeError> {
    // `stdio_pipes` uses the non-blocking pipe driver when both streams are pipes (the way MCP
    // clients launch servers) and falls back to ordinary stdio otherwise (a terminal, a file).
    let running = match server
        .serve_with_ct(rmcp::transport::stdio_pipes(), shutdown)
        .await
    {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::Cancelled) => return Ok(()),
        Err(error) => return Err(McpServeError::Stdio(error.to_string())),
    };
    match running.waiting().await {
        Ok(QuitReason::JoinError(error)) | Err(error) => {
            Err(McpServeError::Stdio(error.to_string()))
        }
        Ok(reason) => {
            tracing::info!(?reason, "MCP stdio session ended");
            Ok(())
        }
    }
}
