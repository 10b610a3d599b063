//! Why the MCP server could not start or stopped.

use std::net::SocketAddr;

/// Errors of `vaultsum mcp`. A bind policy violation is a usage problem; the rest are I/O.
#[derive(Debug, thiserror::Error)]
pub enum McpServeError {
    /// A non-loopback HTTP bind without a token would expose the vault to the network.
    #[error(
        "refusing to serve MCP on {addr} without a token: set VAULTSUM_MCP_TOKEN (clients then \
         send `Authorization: Bearer <token>`), or bind to a loopback address such as 127.0.0.1"
    )]
    TokenRequired { addr: SocketAddr },
    /// `--http ADDR` is not an address.
    #[error(
        "invalid --http address {value:?}: expected HOST:PORT (e.g. 127.0.0.1:8765, \
         0.0.0.0:8765, [::1]:8765) or a bare PORT (served on 127.0.0.1)"
    )]
    BadAddress { value: String },
    /// The listening socket could not be opened.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The stdio transport failed to start (for example, stdin closed before `initialize`).
    #[error("MCP stdio session failed: {0}")]
    Stdio(String),
    /// The HTTP server stopped with an I/O error.
    #[error("MCP HTTP server failed: {0}")]
    Http(#[from] std::io::Error),
}
