//! The Registry: every tool the front ends can offer, built once from the shared context.

use std::sync::Arc;

use serde_json::{json, Value};
use vaultsum_core::llm::{metered, Usage};

use super::compaction::{self, CompactStats, TranscriptError};
use super::context::ToolContext;
use super::stub::{Status, ToolSummary};
use super::tool::{Tool, ToolOutput};

/// All tools, in a stable order. Front ends list and call tools only through this type.
///
/// There are two kinds of entry. The *advertised* tools (read_file, summarize_file, summarize,
/// web_search, summarize_notes, summarize_folder, summary_status) are what `tools --json` and MCP `tools/list` show, what MCP and watch can call,
/// and the contract agents rely on. The *command-line* tools (summarize_text) exist because the
/// CLI must not do work of its own: `vaultsum summarize-text` is a Tool like the others, so it
/// gets the same rendering, errors and engine choice, but it is not offered to agents (an agent
/// that has text in hand can summarize it itself, and one more tool would change the advertised
/// set that clients depend on). Only [`Registry::get_for_cli`] and [`Registry::call_for_cli`]
/// reach them: the CLI, and an MCP server started for a front end a person drives
/// (`vaultsum mcp --cli-tools`, the Obsidian plugin's), which answers calls of them unlisted.
pub struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    cli_tools: Vec<Arc<dyn Tool>>,
    context: Arc<ToolContext>,
}

impl Registry {
    /// Builds the registry with every tool vaultsum offers.
    pub fn new(context: Arc<ToolContext>) -> Registry {
        Registry {
            tools: super::advertised_tools(&context),
            cli_tools: super::cli_tools(&context),
            context,
        }
    }

    /// A registry of exactly the given (advertised) tools, for tests and embedding.
    pub fn with_tools(context: Arc<ToolContext>, tools: Vec<Arc<dyn Tool>>) -> Registry {
        Registry {
            tools,
            cli_tools: Vec::new(),
            context,
        }
    }

    /// The same registry offering only some tools (`vaultsum mcp --tools a,b --read-only`):
    /// with `only`, just the tools named there; with `read_only`, none that writes to the vault
    /// (`summarize_file` is hidden rather than turned into a preview, so an agent never believes
    /// it wrote a note). A name that is not an advertised tool is an error naming the known ones.
    pub fn scoped(self, only: Option<&[String]>, read_only: bool) -> Result<Registry, String> {
        if let Some(only) = only {
            for name in only {
                if self.get(name).is_none() {
                    return Err(format!(
                        "unknown tool {name:?} in --tools; the tools are {}",
                        self.tools
                            .iter()
                            .map(|t| t.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        if read_only {
            // Tools that write only on request (a rollup's `save_to`) stay, read-only.
            self.context.forbid_writes();
        }
        let tools = self
            .tools
            .into_iter()
            .filter(|t| only.is_none_or(|only| only.iter().any(|n| n == t.name())))
            .filter(|t| !read_only || t.annotations().read_only)
            .collect();
        Ok(Registry {
            tools,
            cli_tools: self.cli_tools,
            context: self.context,
        })
    }

    /// The shared context the tools were built with.
    pub fn context(&self) -> &Arc<ToolContext> {
        &self.context
    }

    /// Every advertised tool, in registration order.
    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    /// The advertised tool with this name, if any.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name)
    }

    /// The tool with this name among the advertised and the command-line tools.
    pub fn get_for_cli(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.get(name)
            .or_else(|| self.cli_tools.iter().find(|t| t.name() == name))
    }

    /// Calls an advertised tool by name; an unknown name is an error result, not a panic.
    pub async fn call(&self, name: &str, args: Value) -> ToolOutput {
        match self.get(name) {
            Some(tool) => with_cost(tool.call(args)).await,
            None => self.unknown_tool(name),
        }
    }

    /// Calls an advertised or a command-line tool by name (the CLI's entry point).
    pub async fn call_for_cli(&self, name: &str, args: Value) -> ToolOutput {
        match self.get_for_cli(name) {
            Some(tool) => with_cost(tool.call(args)).await,
            None => self.unknown_tool(name),
        }
    }

    /// What this process's paid calls used so far, over every front end (zero offline).
    pub fn usage(&self) -> Usage {
        self.context.chat_usage()
    }

    fn unknown_tool(&self, name: &str) -> ToolOutput {
        ToolOutput::error(
            format!(
                "unknown tool: {name}. Available tools: {}",
                self.tools
                    .iter()
                    .map(|t| t.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            json!({ "error": "unknown_tool" }),
        )
    }

    /// `tools --json`: name, title, description, input schema and annotations of every
    /// advertised tool, as MCP `tools/list` shows them (the title also in the annotations).
    pub fn describe(&self) -> Value {
        Value::Array(
            self.tools
                .iter()
                .map(|t| describe_tool(t.as_ref()))
                .collect(),
        )
    }

    /// [`Registry::describe`] for the command-line tools, which are never listed.
    pub fn describe_cli_tools(&self) -> Value {
        Value::Array(
            self.cli_tools
                .iter()
                .map(|t| describe_tool(t.as_ref()))
                .collect(),
        )
    }

    /// The stub facts for a result of `tool`: the tool's own rule when this registry has a tool
    /// of that name, else the generic stubs of other agents' tools. A result flagged as an error
    /// always gives an error stub, whatever the rule made of its text.
    pub fn stub_facts(&self, tool: &str, args: &Value, output: &ToolOutput) -> ToolSummary {
        let summary = match self.get_for_cli(tool) {
            Some(own) => own.stub(args, output),
            None => compaction::generic_stub(tool, args, &output.text),
        };
        if output.is_error && summary.status != Status::Error {
            return summary.into_error(&output.text);
        }
        summary
    }

    /// The one-line stub for a result of `tool`, at most `compaction.max_summary_length`
    /// characters.
    pub fn stub(&self, tool: &str, args: &Value, output: &ToolOutput) -> String {
        self.stub_facts(tool, args, output)
            .render(self.context.config.compaction.max_summary_length)
    }

    /// What replaces a result of `tool` when compacting: the stub, or the whole text of an error
    /// when `compaction.preserve_errors` is on.
    pub fn compact_result(&self, tool: &str, args: &Value, output: &ToolOutput) -> String {
        let summary = self.stub_facts(tool, args, output);
        compaction::compact_result(&summary, &output.text, &self.context.config.compaction)
    }

    /// `vaultsum compact`: rewrites an OpenAI-format transcript so that all but the last
    /// `keep_last` tool results become stubs, each made by [`Registry::stub_facts`].
    pub fn compact_transcript(
        &self,
        input: &str,
        keep_last: usize,
    ) -> Result<(Value, CompactStats), TranscriptError> {
        let stub = |tool: &str, args: &Value, text: &str| {
            // A transcript has only the text: no details, and no error flag (the transcript
            // rewriter recognises errors by how they read).
            let output = ToolOutput::ok(text, Value::Null);
            self.stub_facts(tool, args, &output)
        };
        compaction::compact_transcript(input, keep_last, &self.context.config.compaction, &stub)
    }
}

/// One tool as `tools --json` prints it.
fn describe_tool(tool: &dyn Tool) -> Value {
    let mut annotations = serde_json::to_value(tool.annotations()).unwrap_or(Value::Null);
    annotations["title"] = json!(tool.title());
    let mut described = json!({
        "name": tool.name(),
        "title": tool.title(),
        "description": tool.description(),
        "input_schema": tool.input_schema(),
        "annotations": annotations,
    });
    if let Some(schema) = tool.output_schema() {
        described["output_schema"] = schema;
    }
    described
}

/// The call's output with what its paid calls used in `details.cost` (requests, prompt and
/// completion tokens, media calls), whenever it paid for any: every tool and every front end
/// reports cost the same way, from this one place.
async fn with_cost(call: impl std::future::Future<Output = ToolOutput>) -> ToolOutput {
    let (mut output, usage) = metered(call).await;
    if !usage.is_zero() {
        if let Some(details) = output.details.as_object_mut() {
            details.insert("cost".to_string(), json!(usage));
        }
    }
    output
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Engine};
    use crate::tool::ToolAnnotations;

    fn registry() -> Registry {
        let mut config = Config::default();
        config.summarize.engine = Engine::Offline;
        Registry::new(Arc::new(ToolContext::new(config).unwrap()))
    }

    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(future)
    }

    #[test]
    fn exactly_the_seven_advertised_tools_are_listed() {
        let registry = registry();
        let listed: Vec<&str> = registry.tools().iter().map(|t| t.name()).collect();
        assert_eq!(
            listed,
            [
                "read_file",
                "summarize_file",
                "summarize",
                "web_search",
                "summarize_notes",
                "summarize_folder",
                "summary_status"
            ]
        );
        let described: Vec<Value> = registry.describe().as_array().unwrap().clone();
        assert_eq!(described.len(), 7);
    }

    #[test]
    fn every_advertised_and_command_line_tool_has_a_portable_schema_and_a_title() {
        let registry = registry();
        let described = registry.describe();
        let cli = registry.describe_cli_tools();
        let all: Vec<&Value> = described
            .as_array()
            .unwrap()
            .iter()
            .chain(cli.as_array().unwrap())
            .collect();
        assert_eq!(all.len(), 8);
        for tool in all {
            let name = &tool["name"];
            let problems = crate::schema::portability_problems(&tool["input_schema"]);
            assert!(problems.is_empty(), "{name}: {problems:#?}");
            assert_eq!(tool["input_schema"]["type"], "object", "{name}");
            let title = tool["title"].as_str().unwrap_or_default();
            assert!(!title.is_empty(), "{name} has no title");
            assert_eq!(tool["annotations"]["title"], title, "{name}");
            if let Some(output) = tool.get("output_schema") {
                let problems = crate::schema::portability_problems(output);
                assert!(problems.is_empty(), "{name} output: {problems:#?}");
                assert_eq!(output["type"], "object", "{name}");
                assert_eq!(output["required"], json!(["success"]), "{name}");
            }
        }
        let with_records: Vec<&Value> = described
            .as_array()
            .unwrap()
            .iter()
            .filter(|tool| tool.get("output_schema").is_some())
            .map(|tool| &tool["name"])
            .collect();
        assert_eq!(
            with_records,
            [
                &json!("summarize_file"),
                &json!("web_search"),
                &json!("summarize_notes")
            ]
        );
    }

    #[test]
    fn annotations_tell_what_each_tool_may_do() {
        let registry = registry();
        let hints = |name: &str| registry.get(name).unwrap().annotations();
        // `replace=true` deletes the previous summary section: destructive.
        assert_eq!(hints("summarize_file"), ToolAnnotations::WRITES_DESTRUCTIVE);
        assert_eq!(hints("read_file"), ToolAnnotations::READ_ONLY);
        // Writes a note only with `save_to`.
        assert_eq!(hints("summarize"), ToolAnnotations::WRITES_OPEN_WORLD);
        assert_eq!(hints("web_search"), ToolAnnotations::READ_ONLY_OPEN_WORLD);
        // Writes only with `save_to`, and never over a person's note.
        assert_eq!(
            hints("summarize_notes"),
            ToolAnnotations::WRITES_NOT_DESTRUCTIVE
        );
        let read_only = self::tests::registry().scoped(None, true).unwrap();
        assert_eq!(
            read_only.get("summarize_notes").unwrap().annotations(),
            ToolAnnotations::READ_ONLY,
            "on a read-only server it stays, read-only"
        );
        assert_eq!(
            read_only.get("summarize").unwrap().annotations(),
            ToolAnnotations::READ_ONLY_OPEN_WORLD
        );
        let titles: Vec<&str> = registry.tools().iter().map(|t| t.title()).collect();
        assert_eq!(
            titles,
            [
                "Read a vault file",
                "Summarize a note into it",
                "Summarize a web page",
                "Search the web",
                "Summarize many notes into one rollup",
                "Summarize the notes of a folder",
                "Which notes have a current summary"
            ]
        );
    }

    #[test]
    fn a_scoped_registry_lists_and_calls_only_its_tools() {
        let only = ["read_file".to_string(), "summarize_file".to_string()];
        let scoped = registry().scoped(Some(&only), true).unwrap();
        let listed: Vec<&str> = scoped.tools().iter().map(|t| t.name()).collect();
        assert_eq!(
            listed,
            ["read_file"],
            "summarize_file writes: hidden when read-only"
        );
        let refused = block_on(scoped.call("summarize_file", json!({ "path": "a.md" })));
        assert_eq!(refused.details["error"], "unknown_tool");
        let unknown = registry().scoped(Some(&["reed_file".to_string()]), false);
        assert!(unknown
            .err()
            .unwrap()
            .contains("unknown tool \"reed_file\""));
    }

    #[test]
    fn summarize_text_is_reachable_from_the_command_line_only() {
        let registry = registry();
        assert!(registry.get("summarize_text").is_none());
        let refused = block_on(registry.call("summarize_text", json!({ "text": "x" })));
        assert_eq!(refused.details["error"], "unknown_tool");
        let output = block_on(registry.call_for_cli(
            "summarize_text",
            json!({ "text": "Rust is fast. It is also safe." }),
        ));
        assert!(!output.is_error, "{}", output.text);
        assert!(output.text.contains("Rust is fast."), "{}", output.text);
        assert_eq!(output.details["engine"], "offline");
        let tool = registry.get_for_cli("summarize_text").unwrap();
        assert_eq!(
            tool.render_call(&json!({ "text": "abc", "sentences": 2 })),
            "summarize_text (3 chars) (2 key points)"
        );
    }
}
