//! The `Tool` trait: one capability an agent or a person can invoke, whatever the front end.

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;

/// What a tool call produced.
///
/// `text` is exactly what a language model sees; `details` is structured metadata for people
/// and UIs (rendered lines, MCP `_meta`, `--json` output) and is never mixed into `text`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolOutput {
    pub text: String,
    pub details: Value,
    pub is_error: bool,
}

impl ToolOutput {
    /// A successful result.
    pub fn ok(text: impl Into<String>, details: Value) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            details,
            is_error: false,
        }
    }

    /// A failed result; the message is what the model reads, so it should say what to do.
    pub fn error(message: impl Into<String>, details: Value) -> ToolOutput {
        ToolOutput {
            text: message.into(),
            details,
            is_error: true,
        }
    }
}

/// MCP tool annotations (hints about side effects), serialized with the MCP field names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// The tool does not modify anything.
    #[serde(rename = "readOnlyHint")]
    pub read_only: bool,
    /// The tool may destroy or overwrite existing data.
    #[serde(rename = "destructiveHint")]
    pub destructive: bool,
    /// Calling twice with the same arguments has no further effect.
    #[serde(rename = "idempotentHint")]
    pub idempotent: bool,
    /// The tool reaches outside the vault (the web).
    #[serde(rename = "openWorldHint")]
    pub open_world: bool,
}

impl ToolAnnotations {
    /// Reads the vault only.
    pub const READ_ONLY: ToolAnnotations = ToolAnnotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    /// Reads the web only.
    pub const READ_ONLY_OPEN_WORLD: ToolAnnotations = ToolAnnotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: true,
    };
    /// Adds to the vault without destroying anything.
    pub const WRITES_NOT_DESTRUCTIVE: ToolAnnotations = ToolAnnotations {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
    };
}

/// One tool of the registry. Front ends (CLI, MCP, watch) only ever go through this trait.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The stable tool name, e.g. `read_file`.
    fn name(&self) -> &'static str;

    /// LLM-facing description: what it does, when to use it, what the parameters mean.
    fn description(&self) -> &'static str;

    /// JSON Schema of the arguments object (generated with schemars).
    fn input_schema(&self) -> Value;

    /// MCP annotations.
    fn annotations(&self) -> ToolAnnotations;

    /// Runs the tool. Every failure is reported as a `ToolOutput` with `is_error`, never a panic.
    /// Dropping the future cancels the call; tools that write only do so as their last step.
    async fn call(&self, args: Value) -> ToolOutput;

    /// One compact line describing a call, e.g. `summarize_file "Meetings/Standup.md"`.
    fn render_call(&self, args: &Value) -> String;

    /// The result for people: one compact line, or the full view when `expanded`.
    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String;

    /// Rule-based one-line compaction stub for transcripts (`[✓ tool: fact | fact]`).
    fn stub(&self, args: &Value, output: &ToolOutput) -> String;
}

/// Parses a tool's arguments into its typed form, turning a schema violation into an error
/// result the model can act on.
pub fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: Value,
) -> Result<T, ToolOutput> {
    let args = if args.is_null() {
        Value::Object(Default::default())
    } else {
        args
    };
    serde_json::from_value(args).map_err(|e| {
        ToolOutput::error(
            format!("invalid arguments for {tool}: {e}"),
            serde_json::json!({ "error": "invalid_arguments" }),
        )
    })
}

/// The JSON schema of `T` as a plain JSON value (draft 2020-12, as MCP expects).
pub fn schema_for<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null)
}
