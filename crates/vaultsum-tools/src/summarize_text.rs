//! `summarize_text`: summarize text that is not a vault note (`vaultsum summarize-text` reads it
//! from stdin). A command-line tool of the Registry, not advertised to agents; see
//! [`Registry`](crate::Registry) for why.
//!
//! The engine is chosen as for `summarize_file`: the configured engine (which `--engine`
//! overrides); `auto` means `llm` when an API key is configured and `offline` otherwise.

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::fact_check;
use super::failure::{llm_retry, Failure};
use super::instructions::Instructions;
use super::stub::ToolSummary;
use super::summarize_file::clean_summary;
use super::summarizer::{SummarizeError, Summarizer, SummaryRequest};
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};
use crate::config::Engine;
use crate::vault::callout::summary_callout;
use crate::vault::SourceLinks;

const DESCRIPTION: &str = "\
Summarize a text given in full (not a vault note) into the same structured summary \
summarize_file writes: key points, tables for tabular data, and open tasks as action items.

Parameters:
- text (required): the text to summarize
- focus (optional): what to emphasise
- sentences (optional): number of key points (offline engine); by default it scales with the text
- format (optional): `plain` (default), the summary as the summarizer wrote it; or `callout`, the \
summary made inert by the output policy (links kept only when the text names them) and verified, \
as a `> [!summary]` callout block to put into a note below the text";

/// Arguments of `summarize_text`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummarizeTextArgs {
    /// The text to summarize.
    pub text: String,
    /// What to emphasise.
    #[serde(default)]
    pub focus: Option<String>,
    /// Number of key points for the offline engine; `None` scales with the text.
    #[serde(default)]
    pub sentences: Option<usize>,
    /// `plain` (default): the summary as the summarizer wrote it. `callout`: made inert by the
    /// output policy with the text as its source, verified, as a `> [!summary]` block.
    #[serde(default)]
    pub format: TextFormat,
}

/// What `summarize_text` answers with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TextFormat {
    /// The summary as the summarizer wrote it (`vaultsum summarize-text` prints it).
    #[default]
    Plain,
    /// A `> [!summary]` callout block of the summary as the output policy made it, verified
    /// inert standing alone (`vault/callout.rs`): what the Obsidian plugin's "Summarize
    /// selection" inserts below the selection, itself, through the editor.
    Callout,
}

/// The `summarize_text` tool.
pub struct SummarizeTextTool {
    context: Arc<ToolContext>,
}

impl SummarizeTextTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> SummarizeTextTool {
        SummarizeTextTool { context }
    }
}

fn failure(kind: &str, message: String, engine: &str) -> ToolOutput {
    ToolOutput::error(message, json!({ "error": kind, "engine": engine }))
}

#[async_trait]
impl TypedTool for SummarizeTextTool {
    type Args = SummarizeTextArgs;
    const NAME: &'static str = "summarize_text";
    const TITLE: &'static str = "Summarize text";
    const DESCRIPTION: &'static str = DESCRIPTION;
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY;

    /// Summarizes through the same [`Summarizer`] and prompt as `summarize_file`. The text
    /// carries `engine` (`llm` or `offline`, never `auto`) and `fell_back_to_local` in `details`;
    /// the front end says once that it fell back, in its own words.
    async fn run(&self, args: SummarizeTextArgs) -> ToolOutput {
        let choice = self.context.engine_choice();
        let engine = match choice.summarizer {
            Summarizer::Local => Engine::Offline,
            Summarizer::Llm { .. } => Engine::Llm,
        }
        .to_string();
        if args.text.trim().is_empty() {
            let message = "no text to summarize: the input is empty".to_string();
            return failure("empty_input", message, &engine);
        }
        let max_chars = self.context.config.summarize.max_chars;
        let total_chars = args.text.chars().count();
        let truncated = total_chars > max_chars;
        let content: String = args.text.chars().take(max_chars).collect();
        let instructions = Instructions::builtin();
        let request = SummaryRequest {
            instructions: &instructions,
            path: "stdin",
            content: &content,
            focus: args.focus.as_deref().filter(|f| !f.trim().is_empty()),
            truncated_from: truncated.then_some(total_chars),
            sentences: args.sentences,
            with_abstract: false,
            fact_check: self.context.config.summarize.fact_check,
        };
        let generated = match choice.summarizer.summarize(&request).await {
            Ok(generated) => generated,
            Err(error @ SummarizeError::NothingToSummarize) => {
                return failure("nothing_to_summarize", error.to_string(), &engine)
            }
            Err(SummarizeError::Llm(error)) => {
                let retry = llm_retry(&error);
                let mut output = failure("llm", error.to_string(), &engine).with_retry(retry);
                // The stable code summarize_file gives the same failure (`no_api_key`, …).
                output.details["code"] = json!(Failure::from(error).code);
                return output;
            }
            Err(error @ SummarizeError::WindowTooSmall { .. }) => {
                return failure("window_too_small", error.to_string(), &engine)
            }
            Err(error @ SummarizeError::Interrupted(_)) => {
                return failure("interrupted", error.to_string(), &engine)
            }
        };
        let Some(summary) = clean_summary(&generated.text) else {
            let message = SummarizeError::NothingToSummarize.to_string();
            return failure("nothing_to_summarize", message, &engine);
        };
        let checked = fact_check::finish(generated.fact_check.as_ref(), summary, None);
        let summary = checked.summary;
        let (summary, defused) = match args.format {
            TextFormat::Plain => (summary, None),
            TextFormat::Callout => {
                // The text summarized is the source: only links it names stay links.
                let policy = self.context.output_policy();
                let defused = policy.summary(&summary, &SourceLinks::from_text(&args.text));
                match summary_callout(&defused, "the selection") {
                    Ok(block) => (block, Some(defused.defused())),
                    Err(error) => return failure("live", error.to_string(), &engine),
                }
            }
        };
        let mut details = json!({
            "engine": engine,
            "fell_back_to_local": choice.fell_back_to_local,
            "total_chars": total_chars,
            "truncated": truncated,
            "summary_length": summary.chars().count(),
            "summarizer": generated.details,
        });
        if let Some(report) = &checked.report {
            report.put_into(&mut details);
        }
        if let Some(defused) = defused {
            details["format"] = json!("callout");
            details["defused"] = defused.to_json();
        }
        ToolOutput::ok(summary, details)
    }

    fn render_call(&self, args: &SummarizeTextArgs) -> String {
        let mut line = format!("summarize_text ({} chars)", args.text.chars().count());
        if let Some(focus) = &args.focus {
            line.push_str(&format!(" (focus: {focus})"));
        }
        if let Some(sentences) = args.sentences {
            line.push_str(&format!(" ({sentences} key points)"));
        }
        line
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        if output.is_error {
            return format!("✗ {}", output.text);
        }
        if expanded {
            return output.text.clone();
        }
        format!(
            "✓ {} summary of {} chars",
            output.details["engine"].as_str().unwrap_or("?"),
            output.details["summary_length"]
        )
    }

    /// `[✓ summarize_text: summary 812 chars]`.
    fn stub(&self, _args: &Value, output: &ToolOutput) -> ToolSummary {
        let length = output.text.chars().count();
        ToolSummary::success(Self::NAME, vec![format!("summary {length} chars")])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Env};
    use crate::tool::Tool;

    fn tool(pairs: &[(&str, &str)]) -> SummarizeTextTool {
        let config = Config::load(None, &Env::from_pairs(pairs.iter().copied())).unwrap();
        SummarizeTextTool::new(Arc::new(ToolContext::new(config).unwrap()))
    }

    fn run(tool: &SummarizeTextTool, args: Value) -> ToolOutput {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(Tool::call(tool, args))
    }

    #[test]
    fn auto_without_key_falls_back_to_local_and_says_so() {
        let result = run(
            &tool(&[("VAULTSUM_CONFIG", "/dev/null")]),
            json!({ "text": "Rust is fast. It is also safe." }),
        );
        assert!(!result.is_error, "{}", result.text);
        assert_eq!(result.details["engine"], "offline");
        assert_eq!(result.details["fell_back_to_local"], true);
        assert!(result.text.contains("Rust is fast."));
    }

    #[test]
    fn explicit_local_is_not_reported_as_a_fallback() {
        let result = run(
            &tool(&[("FIREWORKS_API_KEY", "k"), ("VAULTSUM_ENGINE", "local")]),
            json!({ "text": "Rust is fast." }),
        );
        assert!(!result.is_error, "{}", result.text);
        assert_eq!(result.details["fell_back_to_local"], false);
    }

    #[test]
    fn auto_with_key_picks_llm_and_reports_its_failure() {
        // Port 9 (discard) on loopback refuses connections: the llm engine was chosen and ran.
        let result = run(
            &tool(&[
                ("FIREWORKS_API_KEY", "k"),
                ("FIREWORKS_BASE_URL", "http://127.0.0.1:9/v1"),
            ]),
            json!({ "text": "Rust is fast." }),
        );
        assert!(result.is_error);
        assert_eq!(result.details["error"], "llm", "{}", result.text);
        assert_eq!(result.details["engine"], "llm");
    }

    #[test]
    fn whitespace_only_input_is_empty() {
        let result = run(&tool(&[]), json!({ "text": " \n\t\n" }));
        assert!(result.is_error);
        assert_eq!(result.details["error"], "empty_input");
        assert!(
            result.text.contains("the input is empty"),
            "{}",
            result.text
        );
    }

    #[test]
    fn code_only_input_has_nothing_to_summarize() {
        let result = run(
            &tool(&[("VAULTSUM_ENGINE", "local")]),
            json!({ "text": "```rust\nfn main() {}\n```\n" }),
        );
        assert!(result.is_error);
        assert_eq!(result.details["error"], "nothing_to_summarize");
        assert!(
            result.text.starts_with("nothing to summarize"),
            "{}",
            result.text
        );
    }
}
