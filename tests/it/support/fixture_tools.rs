//! Small tools that implement the real `Tool` trait, for testing the front ends (MCP server,
//! CLI adapters) generically: they make every outcome a front end must carry — success with
//! details, a tool error, bad arguments, a panic, a slow call that writes last — easy to
//! trigger on purpose. They stand in for no project module.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Notify;
use vaultsum_tools::config::Config;
use vaultsum_tools::progress;
use vaultsum_tools::tool::{parse_args, schema_for};
use vaultsum_tools::{Registry, Tool, ToolAnnotations, ToolContext, ToolOutput, ToolSummary};

/// Arguments of [`EchoTool`].
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EchoArgs {
    /// The text to send back.
    pub text: String,
    /// How many times to repeat it.
    #[serde(default = "one")]
    pub times: usize,
}

fn one() -> usize {
    1
}

/// `echo`: returns `text` repeated `times`; details carry the length (never in the text).
pub struct EchoTool;

#[async_trait]
impl Tool for EchoTool {
    fn name(&self) -> &'static str {
        "echo"
    }
    fn title(&self) -> &'static str {
        "Echo text"
    }
    fn description(&self) -> &'static str {
        "Sends the text back. Use it to check the connection."
    }
    fn input_schema(&self) -> Value {
        schema_for::<EchoArgs>()
    }
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::READ_ONLY
    }
    async fn call(&self, args: Value) -> ToolOutput {
        let args: EchoArgs = match parse_args(self.name(), args) {
            Ok(args) => args,
            Err(error) => return *error,
        };
        let text = args.text.repeat(args.times);
        let chars = text.chars().count();
        ToolOutput::ok(text, json!({ "echo_chars": chars }))
    }
    fn render_call(&self, args: &Value) -> String {
        format!("echo {args}")
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, _args: &Value, output: &ToolOutput) -> ToolSummary {
        ToolSummary::success("echo", vec![format!("{} chars", output.text.len())])
    }
}

/// `fail`: always an error result, as a tool reports an LLM or vault failure.
pub struct FailTool;

#[async_trait]
impl Tool for FailTool {
    fn name(&self) -> &'static str {
        "fail"
    }
    fn title(&self) -> &'static str {
        "Always fail"
    }
    fn description(&self) -> &'static str {
        "Always fails with an actionable message."
    }
    fn input_schema(&self) -> Value {
        json!({ "type": "object", "properties": {} })
    }
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::READ_ONLY_OPEN_WORLD
    }
    async fn call(&self, _args: Value) -> ToolOutput {
        ToolOutput::error(
            "note not found: Missing.md. Check the path with read_file.",
            json!({ "error": "not_found", "path": "Missing.md" }),
        )
    }
    fn render_call(&self, _args: &Value) -> String {
        "fail".into()
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, _args: &Value, output: &ToolOutput) -> ToolSummary {
        ToolSummary::error("fail", vec![output.text.clone()])
    }
}

/// `panic`: a tool with a bug.
pub struct PanicTool;

#[async_trait]
impl Tool for PanicTool {
    fn name(&self) -> &'static str {
        "panic"
    }
    fn title(&self) -> &'static str {
        "Panic"
    }
    fn description(&self) -> &'static str {
        "Panics (a bug)."
    }
    fn input_schema(&self) -> Value {
        json!({ "type": "object", "properties": {} })
    }
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::READ_ONLY
    }
    async fn call(&self, _args: Value) -> ToolOutput {
        panic!("index out of bounds in fixture");
    }
    fn render_call(&self, _args: &Value) -> String {
        "panic".into()
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, _args: &Value, _output: &ToolOutput) -> ToolSummary {
        ToolSummary::error("panic", vec![])
    }
}

/// What [`SlowWriteTool`] lets a test observe.
#[derive(Default)]
pub struct SlowWriteProbe {
    /// Notified when a call has started waiting (its "LLM request" is in flight).
    pub started: Notify,
    /// Set when a call's future is dropped before it finished.
    pub dropped_unfinished: AtomicBool,
    /// Calls that ran to the end.
    pub finished: AtomicUsize,
}

/// `slow_write`: waits `delay_ms` (standing for an LLM request), then writes `target`, as
/// `summarize_file` writes only as its last step.
pub struct SlowWriteTool {
    pub target: PathBuf,
    pub probe: Arc<SlowWriteProbe>,
}

struct DropFlag<'a> {
    probe: &'a SlowWriteProbe,
    armed: bool,
}

impl Drop for DropFlag<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.probe.dropped_unfinished.store(true, Ordering::SeqCst);
        }
    }
}

#[async_trait]
impl Tool for SlowWriteTool {
    fn name(&self) -> &'static str {
        "slow_write"
    }
    fn title(&self) -> &'static str {
        "Write slowly"
    }
    fn description(&self) -> &'static str {
        "Waits, then writes a file."
    }
    fn input_schema(&self) -> Value {
        json!({ "type": "object", "properties": { "delay_ms": { "type": "integer" } } })
    }
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::WRITES_NOT_DESTRUCTIVE
    }
    async fn call(&self, args: Value) -> ToolOutput {
        let delay = args["delay_ms"].as_u64().unwrap_or(30_000);
        let mut flag = DropFlag {
            probe: &self.probe,
            armed: true,
        };
        self.probe.started.notify_one();
        tokio::time::sleep(Duration::from_millis(delay)).await;
        std::fs::write(&self.target, "written").unwrap();
        flag.armed = false;
        self.probe.finished.fetch_add(1, Ordering::SeqCst);
        ToolOutput::ok("written", json!({ "path": self.target }))
    }
    fn render_call(&self, _args: &Value) -> String {
        "slow_write".into()
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, _args: &Value, _output: &ToolOutput) -> ToolSummary {
        ToolSummary::success("slow_write", vec![])
    }
}

/// A registry of exactly `tools`, over a default configuration with no vault.
pub fn fixture_registry(tools: Vec<Arc<dyn Tool>>) -> Arc<Registry> {
    let context = Arc::new(
        ToolContext::new(Config::default()).expect("a context without a vault always builds"),
    );
    Arc::new(Registry::with_tools(context, tools))
}

/// `echo`, `fail` and `panic`.
pub fn basic_fixture_tools() -> Vec<Arc<dyn Tool>> {
    vec![Arc::new(EchoTool), Arc::new(FailTool), Arc::new(PanicTool)]
}

/// `steps`: reports the steps `summarize_file` reports (`reading`, `summarizing`, `writing`,
/// three expected), waiting `wait_ms` (default 300) after the first two, as a summary waits on
/// the model; then answers `done`.
pub struct StepsTool;

#[async_trait]
impl Tool for StepsTool {
    fn name(&self) -> &'static str {
        "steps"
    }
    fn title(&self) -> &'static str {
        "Report steps"
    }
    fn description(&self) -> &'static str {
        "Reports three steps, waiting after the first two."
    }
    fn input_schema(&self) -> Value {
        json!({ "type": "object", "properties": { "wait_ms": { "type": "integer" } } })
    }
    fn annotations(&self) -> ToolAnnotations {
        ToolAnnotations::READ_ONLY
    }
    async fn call(&self, args: Value) -> ToolOutput {
        let wait = Duration::from_millis(args["wait_ms"].as_u64().unwrap_or(300));
        progress::expect_steps(3);
        progress::step("reading A.md");
        tokio::time::sleep(wait).await;
        progress::step("summarizing");
        tokio::time::sleep(wait).await;
        progress::step("writing A.md");
        ToolOutput::ok("done", json!({}))
    }
    fn render_call(&self, _args: &Value) -> String {
        "steps".into()
    }
    fn render_result(&self, output: &ToolOutput, _expanded: bool) -> String {
        output.text.clone()
    }
    fn stub(&self, _args: &Value, _output: &ToolOutput) -> ToolSummary {
        ToolSummary::success("steps", vec![])
    }
}
