//! The `Tool` trait: one capability an agent or a person can invoke, whatever the front end;
//! and [`TypedTool`], the form a tool is written in.
//!
//! Front ends and the Registry hold tools as `dyn Tool`, which speaks JSON. A tool is written
//! as a `TypedTool` over its own argument type; one blanket impl turns it into a `Tool`, so the
//! parsing, schema and error handling every tool needs are written once, here.

use std::time::Duration;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::stub::ToolSummary;

/// What a tool call produced.
///
/// `text` is exactly what a language model sees; `details` is structured metadata for people
/// and UIs (rendered lines, MCP `_meta`, `--json` output) and is never mixed into `text`;
/// `retry` tells a program calling the tool (the watcher) whether a failure is worth trying
/// again, as data rather than as words in `text`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolOutput {
    pub text: String,
    pub details: Value,
    pub is_error: bool,
    /// Set on a failure that may pass by itself (see [`RetryHint`]); `None` on success and on
    /// failures that the same call would only repeat. Not serialized: `--json` output keeps
    /// its `{text, details, is_error}` shape, and tools that set it also put `retryable` in
    /// `details` for people and MCP clients.
    #[serde(skip)]
    pub retry: Option<RetryHint>,
    /// The result as a record, for a tool that declares an output schema
    /// ([`Tool::output_schema`]): MCP's `structuredContent`, beside `text`. It holds the same
    /// facts as `text` (clients give the model one or the other), and a failure's record is
    /// [`ToolOutput::failure_record`]. Not serialized: `--json` keeps its shape. Boxed: most
    /// results have none, and a result travels through every `Result` of the tools.
    #[serde(skip)]
    pub record: Option<Box<Value>>,
}

/// Whether a failed call is worth making again, unchanged, later. Decided by the tool from the
/// typed errors of the layers below (see `failure.rs`), never from the wording of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryHint {
    /// The failure may pass by itself (a rate limit, an overloaded or unreachable provider, a
    /// note another program was saving): the same call may succeed later. `after` is the
    /// earliest moment worth trying, counted from the failure, when the provider said it
    /// (`Retry-After`).
    Later { after: Option<Duration> },
}

impl ToolOutput {
    /// A successful result.
    pub fn ok(text: impl Into<String>, details: Value) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            details,
            is_error: false,
            retry: None,
            record: None,
        }
    }

    /// A failed result; the message is what the model reads, so it should say what to do.
    /// Not worth retrying unless [`ToolOutput::with_retry`] says otherwise.
    pub fn error(message: impl Into<String>, details: Value) -> ToolOutput {
        ToolOutput {
            text: message.into(),
            details,
            is_error: true,
            retry: None,
            record: None,
        }
    }

    /// The same result, marked with whether (and when) the call is worth trying again.
    pub fn with_retry(mut self, retry: Option<RetryHint>) -> ToolOutput {
        self.retry = retry;
        self
    }

    /// The same result with its record (see [`ToolOutput::record`]).
    pub fn with_record(mut self, record: Value) -> ToolOutput {
        self.record = Some(Box::new(record));
        self
    }

    /// The record of a failure, for every tool with an output schema: `{"success": false,
    /// "error": TEXT}`, the error the text gives, so a client that shows the model only the
    /// record (Claude Code) still shows the error.
    pub fn failure_record(&self) -> Value {
        serde_json::json!({ "success": false, "error": self.text })
    }

    /// The same result, given [`ToolOutput::failure_record`] when it is a failure without a
    /// record of its own and the tool declares an output schema (`has_schema`): the one place
    /// that rule lives, for failures made before a tool runs (arguments that do not parse, a
    /// panic caught by a front end).
    pub fn with_failure_record(mut self, has_schema: bool) -> ToolOutput {
        if has_schema && self.is_error && self.record.is_none() {
            self.record = Some(Box::new(self.failure_record()));
        }
        self
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
    /// Reads the web and, on request, writes a new note into the vault (never over a person's).
    pub const WRITES_OPEN_WORLD: ToolAnnotations = ToolAnnotations {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: true,
    };
    /// Writes to the vault and can remove what was there (`summarize_file` with `replace`
    /// deletes a `## Summary` section).
    pub const WRITES_DESTRUCTIVE: ToolAnnotations = ToolAnnotations {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
    };
}

/// One tool of the registry. Front ends (CLI, MCP, watch) only ever go through this trait.
#[async_trait]
pub trait Tool: Send + Sync {
    /// The stable tool name, e.g. `read_file`.
    fn name(&self) -> &'static str;

    /// A short name for people (MCP `title`), e.g. "Read a vault file".
    fn title(&self) -> &'static str;

    /// LLM-facing description: what it does, when to use it, what the parameters mean.
    fn description(&self) -> &'static str;

    /// JSON Schema of the arguments object, in the portable subset every MCP client reads
    /// (see [`crate::schema`]).
    fn input_schema(&self) -> Value;

    /// MCP annotations.
    fn annotations(&self) -> ToolAnnotations;

    /// JSON Schema of the result's record (MCP `outputSchema`), for a tool whose answer is a
    /// record rather than a text for the reader; `None` for the others. Every result of such a
    /// tool carries its [`ToolOutput::record`].
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// Runs the tool. Every failure is reported as a `ToolOutput` with `is_error`, never a panic.
    /// Dropping the future cancels the call; tools that write only do so as their last step.
    async fn call(&self, args: Value) -> ToolOutput;

    /// One compact line describing a call, e.g. `summarize_file "Meetings/Standup.md"`.
    fn render_call(&self, args: &Value) -> String;

    /// The result for people: one compact line, or the full view when `expanded`.
    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String;

    /// The facts of this tool's compaction stub (`[✓ tool: fact | fact]`, rendered by the
    /// caller to the configured length). A result taken from a transcript has only its text:
    /// `details` is `Null`, `is_error` false, and `args` may be anything a model sent.
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary;
}

/// A tool written over its own argument type. Implementing it is all a new tool needs: the
/// blanket `impl Tool for T` parses the JSON arguments (a parse failure becomes the result
/// `invalid arguments for NAME: …`), derives the input schema from `Args`, and dispatches.
///
/// `render_call` sees the parsed arguments; arguments that do not parse render as the tool name
/// and the raw JSON. `stub` sees the raw JSON, because it also reads transcripts of other agents,
/// whose arguments need not fit `Args`.
#[async_trait]
pub trait TypedTool: Send + Sync + 'static {
    /// The arguments object; its schemars schema is the advertised input schema.
    type Args: DeserializeOwned + JsonSchema + Send;

    /// The stable tool name, e.g. `read_file`.
    const NAME: &'static str;

    /// A short name for people (MCP `title`), e.g. "Read a vault file".
    const TITLE: &'static str;

    /// LLM-facing description: what it does, when to use it, what the parameters mean.
    const DESCRIPTION: &'static str;

    /// MCP annotations.
    const ANNOTATIONS: ToolAnnotations;

    /// JSON Schema of the result's record; see [`Tool::output_schema`]. A tool that has one
    /// returns `schema_for::<ItsRecord>()` here and gives every success its record.
    fn output_schema(&self) -> Option<Value> {
        None
    }

    /// The annotations now: [`TypedTool::ANNOTATIONS`] unless the tool writes only on request
    /// and the server forbids writes (then it is read-only).
    fn current_annotations(&self) -> ToolAnnotations {
        Self::ANNOTATIONS
    }

    /// Runs the tool on parsed arguments. Every failure is a `ToolOutput` with `is_error`.
    async fn run(&self, args: Self::Args) -> ToolOutput;

    /// One compact line describing a call.
    fn render_call(&self, args: &Self::Args) -> String;

    /// The result for people: one compact line, or the full view when `expanded`.
    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String;

    /// The facts of this tool's compaction stub; see [`Tool::stub`].
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary;

    /// The result for arguments that do not parse; `message` is `invalid arguments for NAME: …`.
    /// A tool whose results have a fixed shape (summarize_file's JSON) wraps it in that shape.
    fn invalid_arguments(&self, message: String) -> ToolOutput {
        ToolOutput::error(message, serde_json::json!({ "error": "invalid_arguments" }))
    }
}

#[async_trait]
impl<T: TypedTool> Tool for T {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn title(&self) -> &'static str {
        T::TITLE
    }

    fn description(&self) -> &'static str {
        T::DESCRIPTION
    }

    fn input_schema(&self) -> Value {
        schema_for::<T::Args>()
    }

    fn annotations(&self) -> ToolAnnotations {
        self.current_annotations()
    }

    fn output_schema(&self) -> Option<Value> {
        TypedTool::output_schema(self)
    }

    async fn call(&self, args: Value) -> ToolOutput {
        let output = match parse_args::<T::Args>(T::NAME, args) {
            Ok(args) => self.run(args).await,
            Err(invalid) => self.invalid_arguments(invalid.text),
        };
        output.with_failure_record(TypedTool::output_schema(self).is_some())
    }

    fn render_call(&self, args: &Value) -> String {
        match parse_args::<T::Args>(T::NAME, args.clone()) {
            Ok(parsed) => TypedTool::render_call(self, &parsed),
            Err(_) => format!("{} {args}", T::NAME),
        }
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        TypedTool::render_result(self, output, expanded)
    }

    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        TypedTool::stub(self, args, output)
    }
}

/// Parses a tool's arguments into its typed form, turning a schema violation into an error
/// result the model can act on (boxed: a result is large, and the failure is the rare case).
pub fn parse_args<T: serde::de::DeserializeOwned>(
    tool: &str,
    args: Value,
) -> Result<T, Box<ToolOutput>> {
    let args = if args.is_null() {
        Value::Object(Default::default())
    } else {
        args
    };
    serde_json::from_value(args).map_err(|e| {
        Box::new(ToolOutput::error(
            format!("invalid arguments for {tool}: {e}"),
            serde_json::json!({ "error": "invalid_arguments" }),
        ))
    })
}

/// The JSON schema of `T` as a plain JSON value, in the portable subset every MCP client reads:
/// no `$schema`, `$ref`s inlined, `Option`s flattened, enums as `enum`, only standard formats
/// (see [`crate::schema::portable`]).
pub fn schema_for<T: schemars::JsonSchema>() -> Value {
    let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null);
    crate::schema::portable(schema)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Arguments of [`Greet`].
    #[derive(serde::Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct GreetArgs {
        /// Who to greet.
        name: String,
    }

    struct Greet;

    #[async_trait]
    impl TypedTool for Greet {
        type Args = GreetArgs;
        const NAME: &'static str = "greet";
        const TITLE: &'static str = "Greet someone";
        const DESCRIPTION: &'static str = "Says hello.";
        const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY;

        async fn run(&self, args: GreetArgs) -> ToolOutput {
            ToolOutput::ok(format!("hello {}", args.name), Value::Null)
        }
        fn render_call(&self, args: &GreetArgs) -> String {
            format!("greet {:?}", args.name)
        }
        fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
            output.text.clone()
        }
        fn stub(&self, _args: &Value, _output: &ToolOutput) -> ToolSummary {
            ToolSummary::success(Self::NAME, vec![])
        }
    }

    fn call(args: Value) -> ToolOutput {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(Tool::call(&Greet, args))
    }

    #[test]
    fn typed_tool_is_a_tool_with_its_name_description_schema_and_annotations() {
        let tool: &dyn Tool = &Greet;
        assert_eq!(tool.name(), "greet");
        assert_eq!(tool.description(), "Says hello.");
        assert_eq!(tool.annotations(), ToolAnnotations::READ_ONLY);
        let schema = tool.input_schema();
        assert_eq!(schema["required"], json!(["name"]));
        assert_eq!(schema["properties"]["name"]["description"], "Who to greet.");
        assert_eq!(call(json!({"name": "Ada"})).text, "hello Ada");
    }

    #[test]
    fn missing_argument_is_an_invalid_arguments_result_naming_the_tool() {
        let output = call(json!({}));
        assert!(output.is_error);
        assert_eq!(
            output.text,
            "invalid arguments for greet: missing field `name`"
        );
        assert_eq!(output.details, json!({ "error": "invalid_arguments" }));
    }

    #[test]
    fn unknown_and_mistyped_arguments_are_refused_and_null_counts_as_no_arguments() {
        let unknown = call(json!({"name": "Ada", "shout": true}));
        assert!(unknown.is_error);
        assert!(
            unknown
                .text
                .starts_with("invalid arguments for greet: unknown field `shout`"),
            "{}",
            unknown.text
        );
        let mistyped = call(json!({"name": 7}));
        assert!(mistyped
            .text
            .starts_with("invalid arguments for greet: invalid type"));
        assert_eq!(
            call(Value::Null).text,
            "invalid arguments for greet: missing field `name`"
        );
    }

    #[test]
    fn calls_render_from_parsed_arguments_or_as_raw_json_when_they_do_not_parse() {
        let tool: &dyn Tool = &Greet;
        assert_eq!(tool.render_call(&json!({"name": "Ada"})), "greet \"Ada\"");
        assert_eq!(tool.render_call(&json!({"nom": 1})), "greet {\"nom\":1}");
    }
}
