//! What every tool shares: the configuration and, once opened, the vault and the LLM clients.

use crate::config::Config;

/// Shared state handed to every tool when the registry is built.
#[derive(Debug)]
pub struct ToolContext {
    /// The fully layered configuration.
    pub config: Config,
}

impl ToolContext {
    /// Builds the context from a loaded configuration.
    pub fn new(config: Config) -> ToolContext {
        ToolContext { config }
    }
}
