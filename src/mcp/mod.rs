//! The MCP front end: every tool of the [`Registry`](crate::tools::Registry) served over the
//! Model Context Protocol (rmcp), on stdio or on streamable HTTP at `/mcp`.
//!
//! This layer only translates: tool definitions and results to MCP shapes, cancellation to
//! dropping the tool's future, a tool's progress steps to `notifications/progress`, HTTP
//! requests to sessions. It makes no decisions about notes.

mod convert;
mod error;
mod http;
mod progress;
mod server;
mod stdio;

pub use error::McpServeError;
pub use http::{parse_bind_addr, HttpServer, HttpSettings};
pub use progress::HEARTBEAT_INTERVAL;
pub use server::{VaultsumServer, INSTRUCTIONS, SERVER_NAME};
pub use stdio::serve_stdio;
