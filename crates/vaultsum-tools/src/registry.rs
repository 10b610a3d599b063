//! The Registry: every tool the front ends can offer, built once from the shared context.

use std::sync::Arc;

use serde_json::{json, Value};

use super::context::ToolContext;
use super::tool::{Tool, ToolOutput};

/// All tools, in a stable order. Front ends list and call tools only through this type.
pub struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    context: Arc<ToolContext>,
}

impl Registry {
    /// Builds the registry with every tool vaultsum offers.
    pub fn new(context: Arc<ToolContext>) -> Registry {
        let tools: Vec<Arc<dyn Tool>> = super::all_tools(&context);
        Registry { tools, context }
    }

    /// A registry of exactly the given tools (tests and embedding).
    pub fn with_tools(context: Arc<ToolContext>, tools: Vec<Arc<dyn Tool>>) -> Registry {
        Registry { tools, context }
    }

    /// The shared context the tools were built with.
    pub fn context(&self) -> &Arc<ToolContext> {
        &self.context
    }

    /// Every tool, in registration order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The tool with this name, if any.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name)
    }

    /// Calls a tool by name; an unknown name is an error result, not a panic.
    pub async fn call(&self, name: &str, args: Value) -> ToolOutput {
        match self.get(name) {
            Some(tool) => tool.call(args).await,
            None => ToolOutput::error(
                format!(
                    "unknown tool: {name}. Available tools: {}",
                    self.tools
                        .iter()
                        .map(|t| t.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                json!({ "error": "unknown_tool" }),
            ),
        }
    }

    /// `tools --json`: name, description, input schema and annotations of every tool.
    pub fn describe(&self) -> Value {
        Value::Array(
            self.tools
                .iter()
                .map(|t| {
                    json!({
                        "name": t.name(),
                        "description": t.description(),
                        "input_schema": t.input_schema(),
                        "annotations": t.annotations(),
                    })
                })
                .collect(),
        )
    }
}
