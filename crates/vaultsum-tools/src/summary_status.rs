//! `summary_status`: each note's summary state (current, stale, edited, unmarked, missing)
//! below a path, as `vaultsum status --json` reports it (`freshness.rs: summary_status`
//! decides), for a client that asks often (the Obsidian plugin's side view and status bar)
//! without starting a process per question. Reads notes, writes nothing, asks no LLM.

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::left_out::put_left_out;
use super::stub::{arg_str, ToolSummary};
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};

const DESCRIPTION: &str = "\
Report whether the notes of the vault have a summary and whether it is still current: each \
note's state is `current`, `stale` (the note changed since its summary), `edited` (the summary \
was edited by hand), `unmarked` (written before fingerprints) or `missing`. Reads the notes, \
writes nothing, makes no paid call.

When to use:
- Before summarizing a folder, to see what is missing or stale; or when the person asks which \
notes lack a summary.

Parameters:
- path (required): a note or a folder, vault-relative; `/` (or empty) for the whole vault

Returns the counts by state; `_meta.details.notes` lists each note with its state.";

/// The states in the order the counts give them.
const STATES: [&str; 5] = ["current", "stale", "edited", "unmarked", "missing"];

/// Arguments of `summary_status`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummaryStatusArgs {
    /// A note or a folder, vault-relative; `/` (or empty) for the whole vault.
    pub path: String,
}

/// The `summary_status` tool.
pub struct SummaryStatusTool {
    context: Arc<ToolContext>,
}

impl SummaryStatusTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> SummaryStatusTool {
        SummaryStatusTool { context }
    }
}

#[async_trait]
impl TypedTool for SummaryStatusTool {
    type Args = SummaryStatusArgs;
    const NAME: &'static str = "summary_status";
    const TITLE: &'static str = "Which notes have a current summary";
    const DESCRIPTION: &'static str = DESCRIPTION;
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::READ_ONLY;

    async fn run(&self, args: SummaryStatusArgs) -> ToolOutput {
        let path = args.path.trim().to_string();
        // Obsidian names the vault's root folder `/`: the whole vault, not the file system's root.
        let scope = (!path.is_empty() && path != "/").then_some(path.clone());
        let context = Arc::clone(&self.context);
        let report =
            match tokio::task::spawn_blocking(move || context.summary_status(scope.as_deref()))
                .await
            {
                Ok(Ok(report)) => report,
                Ok(Err(e)) => {
                    return ToolOutput::error(
                        format!("summary_status {path}: {e}"),
                        json!({ "error": e.to_string(), "code": "status" }),
                    )
                }
                Err(e) => {
                    return ToolOutput::error(
                        e.to_string(),
                        json!({ "error": e.to_string(), "code": "interrupted" }),
                    )
                }
            };
        let mut counts = json!({ "notes": report.notes.len() });
        for state in STATES {
            counts[state] = json!(report.count(state));
        }
        let mut details = json!({
            "path": path,
            "counts": counts,
            "notes": report.notes,
            "unreadable": report.unreadable.iter()
                .map(|(path, error)| json!({ "path": path, "error": error }))
                .collect::<Vec<_>>(),
        });
        put_left_out(&mut details, &report.left_out);
        let listed: Vec<String> = STATES
            .iter()
            .map(|state| format!("{} {state}", report.count(state)))
            .collect();
        let total = report.notes.len();
        let text = format!(
            "{total} note{}: {}",
            if total == 1 { "" } else { "s" },
            listed.join(", ")
        );
        ToolOutput::ok(text, details)
    }

    fn render_call(&self, args: &SummaryStatusArgs) -> String {
        format!("summary_status {:?}", args.path)
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        let mut line = format!(
            "{} {}",
            if output.is_error { "✗" } else { "✓" },
            output.text
        );
        if expanded {
            line.push('\n');
            line.push_str(&serde_json::to_string_pretty(&output.details).unwrap_or_default());
        }
        line
    }

    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let path = arg_str(args, &["path"]).unwrap_or("/").to_string();
        let summary = ToolSummary::success(Self::NAME, vec![path]);
        if output.is_error {
            return summary.into_error(&output.text);
        }
        let mut summary = summary;
        summary
            .facts
            .push(crate::text::first_line(&output.text).to_string());
        summary
    }
}
