//! `summarize_folder`: the notes of a folder (or of the whole vault) summarized in one call,
//! the way `vaultsum summarize-file FOLDER` does it: which notes are written is decided by
//! `freshness.rs` (missing summaries, stale ones, or both; never one edited by hand), each
//! note is a `summarize_file` call, at most `summarize.concurrency` at a time, and the result
//! is the counts, the cost and the closing line `batch_line.rs` words.
//!
//! With `dry_run` nothing is summarized: the counts of what a run would do come back at once,
//! with a rough estimate of the prompt tokens, so a front end can ask before it spends. Each
//! note that finishes is reported as progress (`progress::advance`, with the note, its result
//! and the cost so far as structured detail). Cancelling the call (dropping it) stops every
//! note in flight before its write: a note is left whole, with or without its summary.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use futures::stream::{FuturesUnordered, StreamExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use vaultsum_core::llm::metered;

use super::batch_line::{add_usage, closing_line, cost_clause, BatchCounts};
use super::context::ToolContext;
use super::instructions::CallChoice;
use super::left_out::put_left_out;
use super::progress::{advance, with_progress, ProgressSink};
use super::stub::{arg_str, ToolSummary};
use super::summarize_file::{SummarizeFileArgs, SummarizeFileTool};
use super::summarizer::Summarizer;
use super::tool::{ToolAnnotations, ToolOutput, TypedTool};
use crate::summary::refresh_plan::{folder_choice, FolderChoice};
use crate::Usage;

const DESCRIPTION: &str = "\
Summarize the notes of a folder of the Obsidian vault (or of the whole vault) in one call, each \
note's summary written into it as summarize_file writes it. Which notes are written: `missing` \
(notes without a summary), `stale` (notes whose summary is older than the note; the stale summary \
is replaced) or `missing_and_stale`. A summary edited by hand is never replaced, a current one \
never rewritten. Runs several notes at once (the configured concurrency) and reports each note \
that finishes as progress.

When to use:
- The person asks to summarize or refresh a whole folder or the vault. First call it with \
dry_run=true: it counts the notes it would summarize (and estimates the prompt tokens) without \
any paid call; tell the person the counts and go on only when they agree.

Parameters:
- folder (optional): vault-relative folder; empty or `/` for the whole vault
- only (required): `missing`, `stale` or `missing_and_stale`
- dry_run (optional, default false): count, summarize nothing
- focus, into, prompt, language (optional): as for summarize_file, for every note
- max_notes (optional): the count the person agreed to; more to summarize now refuses the run

Returns the counts (`summarized`, `skipped`, `failed`, `left_out`) and the closing line.";

/// Which notes a folder run writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Only {
    /// Notes without a summary.
    Missing,
    /// Notes whose summary is stale (replaced).
    Stale,
    /// Both.
    MissingAndStale,
}

impl Only {
    fn refresh(self) -> bool {
        self != Only::Missing
    }

    /// As the argument is written (`missing`, `stale`, `missing_and_stale`).
    fn name(self) -> &'static str {
        match self {
            Only::Missing => "missing",
            Only::Stale => "stale",
            Only::MissingAndStale => "missing_and_stale",
        }
    }
}

/// Arguments of `summarize_folder`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummarizeFolderArgs {
    /// Vault-relative folder; empty or `/` for the whole vault.
    #[serde(default)]
    pub folder: String,
    /// Which notes are written: `missing`, `stale` or `missing_and_stale`.
    pub only: Only,
    /// Count what a run would do and summarize nothing (no paid call).
    #[serde(default)]
    pub dry_run: bool,
    /// What every summary should emphasise.
    #[serde(default)]
    pub focus: Option<String>,
    /// Where the summaries go: `section`, `property` or `both` (default: the configuration).
    #[serde(default)]
    pub into: Option<crate::config::SummaryInto>,
    /// A preset or a prompt note `[[Prompts/Name]]` for every note (default: each note's own).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The summaries' language (default `auto`, each note's own).
    #[serde(default)]
    pub language: Option<String>,
    /// The most notes this run may summarize: the count a person agreed to after a dry run.
    /// More to summarize now (notes added or gone stale since the count) refuses the run
    /// whole, before any paid call.
    #[serde(default)]
    pub max_notes: Option<usize>,
}

/// Why a run over `max_notes` is refused: the count changed since the person agreed to it.
fn more_than_agreed(now: usize, max: usize) -> String {
    crate::summary::batch_line::more_than_agreed(now, max)
}

/// A note a run would write, and why.
#[derive(Debug, Clone)]
struct Selected {
    path: String,
    /// `missing` or `stale`.
    kind: &'static str,
}

/// What a run over a folder would do, decided before any paid call.
#[derive(Debug, Default)]
struct Selection {
    notes: usize,
    write: Vec<Selected>,
    /// Notes left, by reason (`up to date`, `summary edited by hand`, …).
    skipped: BTreeMap<&'static str, usize>,
    /// Notes whose instructions could not be chosen (a missing prompt note), with why.
    failed: Vec<(String, String)>,
    /// Characters of the notes to write, for the estimate.
    chars: usize,
}

/// The `summarize_folder` tool.
pub struct SummarizeFolderTool {
    context: Arc<ToolContext>,
    file: SummarizeFileTool,
}

impl SummarizeFolderTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> SummarizeFolderTool {
        SummarizeFolderTool {
            file: SummarizeFileTool::new(context.clone()),
            context,
        }
    }

    /// The notes of the folder and what a run would do with each; reads the notes, asks no
    /// LLM. Runs on the blocking pool.
    fn select(
        context: &ToolContext,
        args: &SummarizeFolderArgs,
    ) -> Result<(Selection, Vec<crate::left_out::LeftOut>), String> {
        let folder = folder_input(&args.folder);
        let targets = context
            .expand_targets(&[folder])
            .map_err(|e| e.to_string())?;
        let call = CallChoice {
            prompt: args.prompt.as_deref(),
            language: args.language.as_deref(),
            into: args.into,
        };
        let mut selection = Selection {
            notes: targets.notes.len(),
            ..Selection::default()
        };
        for note in targets.notes {
            let text = match context.note_text(&note) {
                Ok(text) => text,
                Err(error) => {
                    selection.failed.push((note, error.to_string()));
                    continue;
                }
            };
            let instructions = match context.choose_instructions(&note, text.as_deref(), &call) {
                Ok(instructions) => instructions,
                Err(error) => {
                    selection.failed.push((note, error.to_string()));
                    continue;
                }
            };
            let freshness = context.summary_freshness(text.as_deref(), &instructions);
            let into = instructions.into;
            match folder_choice(freshness, into.section(), into.property(), args.only.name()) {
                FolderChoice::Skip(why) => *selection.skipped.entry(why).or_default() += 1,
                FolderChoice::Write { kind, .. } => {
                    selection.chars += text.as_deref().map_or(0, str::len);
                    selection.write.push(Selected { path: note, kind });
                }
            }
        }
        Ok((selection, targets.left_out))
    }

    fn offline(&self) -> bool {
        matches!(self.context.engine_choice().summarizer, Summarizer::Local)
    }

    /// The counts of a run that has not started: what it would write and leave.
    fn plan_output(
        &self,
        folder: &str,
        selection: &Selection,
        left_out: &[crate::left_out::LeftOut],
    ) -> ToolOutput {
        let missing = selection
            .write
            .iter()
            .filter(|s| s.kind == "missing")
            .count();
        let stale = selection.write.len() - missing;
        let skipped: usize = selection.skipped.values().sum();
        // A rough floor: the notes' own text, about four characters a token; embeds, images
        // and recordings add more, the prompt's frame a little.
        let estimated_prompt_tokens = selection.chars.div_ceil(4);
        let text = json!({
            "success": true,
            "dry_run": true,
            "folder": folder,
            "notes": selection.notes,
            "to_summarize": selection.write.len(),
            "missing": missing,
            "stale": stale,
            "skipped": skipped,
            "failed": selection.failed.len(),
            "estimated_prompt_tokens": estimated_prompt_tokens,
        });
        let mut details = text.clone();
        details["paths"] = json!(selection.write.iter().map(|s| &s.path).collect::<Vec<_>>());
        details["skipped_by_reason"] = json!(selection.skipped);
        details["failures"] = failures_json(&selection.failed);
        details["offline"] = json!(self.offline());
        // The model the run would pay for, so the question names it.
        details["model"] = json!(self.context.config.llm.summarize_model);
        put_left_out(&mut details, left_out);
        ToolOutput::ok(text.to_string(), details)
    }

    /// Summarizes the selected notes, at most `summarize.concurrency` at a time, reporting
    /// each as it finishes.
    async fn run_selection(
        &self,
        folder: &str,
        args: &SummarizeFolderArgs,
        selection: Selection,
        left_out: &[crate::left_out::LeftOut],
    ) -> ToolOutput {
        let total = selection.write.len();
        let total_u32 = u32::try_from(total).unwrap_or(u32::MAX);
        let limit = self.context.config.summarize.concurrency.max(1);
        let mut counts = BatchCounts {
            notes: selection.notes,
            skipped: selection.skipped.values().sum(),
            failed: selection.failed.len(),
            left_out: left_out.len(),
            ..BatchCounts::default()
        };
        let mut usage = Usage::default();
        let mut results: Vec<Value> = Vec::with_capacity(total);
        let mut failures = selection.failed.clone();
        advance(0, total_u32, format!("0 of {total} notes"), Value::Null);
        let mut waiting = selection.write.into_iter();
        let mut running = FuturesUnordered::new();
        let mut done = 0u32;
        loop {
            while running.len() < limit {
                let Some(note) = waiting.next() else { break };
                let call = SummarizeFileArgs {
                    path: note.path.clone(),
                    focus: args.focus.clone(),
                    replace: false,
                    into: args.into,
                    prompt: args.prompt.clone(),
                    language: args.language.clone(),
                    refresh: args.only.refresh(),
                    refresh_unmarked: false,
                    skip_current: true,
                    dry_run: false,
                    preview: None,
                };
                // Each note's own steps stay its own: the batch reports notes, not steps.
                let quiet = ProgressSink::new(|_| {});
                running.push(async move {
                    let (output, used) =
                        metered(with_progress(quiet, TypedTool::run(&self.file, call))).await;
                    (note, output, used)
                });
            }
            let Some((note, output, used)) = running.next().await else {
                break;
            };
            usage = add_usage(usage, used);
            let result = if output.is_error {
                counts.failed += 1;
                let error = output.details["error"]
                    .as_str()
                    .unwrap_or(&output.text)
                    .to_string();
                failures.push((note.path.clone(), error));
                "failed"
            } else if output.details["skipped"].is_string() {
                counts.skipped += 1;
                "skipped"
            } else {
                counts.summarized += 1;
                "summarized"
            };
            done += 1;
            let detail = json!({
                "path": note.path,
                "result": result,
                "done": done,
                "total": total,
                "cost": usage,
            });
            results.push(json!({ "path": note.path, "result": result }));
            advance(done, total_u32, format!("{}: {result}", note.path), detail);
        }
        let line = closing_line(&counts, false, &cost_clause(usage, self.offline()));
        let text = json!({
            "success": true,
            "folder": folder,
            "notes": counts.notes,
            "summarized": counts.summarized,
            "skipped": counts.skipped,
            "failed": counts.failed,
            "left_out": counts.left_out,
            "line": line,
        });
        let mut details = text.clone();
        details["results"] = Value::Array(results);
        details["failures"] = failures_json(&failures);
        details["offline"] = json!(self.offline());
        put_left_out(&mut details, left_out);
        // The cost of every note, added up here: each note was metered on its own (for the
        // progress detail), so the call's own meter saw none of it.
        if !usage.is_zero() {
            details["cost"] = json!(usage);
        }
        ToolOutput::ok(text.to_string(), details)
    }
}

/// The folder as the vault layer takes it: the whole vault for an empty path or `/`
/// (Obsidian's name for the vault's root folder), else the path.
fn folder_input(folder: &str) -> String {
    let trimmed = folder.trim();
    if trimmed.is_empty() || trimmed == "/" {
        ".".to_string()
    } else {
        trimmed.to_string()
    }
}

fn failures_json(failures: &[(String, String)]) -> Value {
    Value::Array(
        failures
            .iter()
            .map(|(path, error)| json!({ "path": path, "error": error }))
            .collect(),
    )
}

fn error(code: &str, message: impl Into<String>) -> ToolOutput {
    let message = message.into();
    ToolOutput::error(
        json!({ "success": false, "error": message }).to_string(),
        json!({ "error": message, "code": code }),
    )
}

#[async_trait]
impl TypedTool for SummarizeFolderTool {
    type Args = SummarizeFolderArgs;
    const NAME: &'static str = "summarize_folder";
    const TITLE: &'static str = "Summarize the notes of a folder";
    const DESCRIPTION: &'static str = DESCRIPTION;
    // Stale summaries are replaced: destructive, as summarize_file is.
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::WRITES_DESTRUCTIVE;

    async fn run(&self, args: SummarizeFolderArgs) -> ToolOutput {
        // The LLM engine without a key would fail every note: said once, before counting.
        if let Summarizer::Llm { client: None, .. } = self.context.engine_choice().summarizer {
            return error(
                "no_api_key",
                crate::llm::LlmError::MissingApiKey.to_string(),
            );
        }
        if let Err(e) = self
            .context
            .check_call_choice(args.prompt.as_deref(), args.language.as_deref())
        {
            return error("invalid_arguments", e.to_string());
        }
        let folder = args.folder.trim().trim_end_matches('/').to_string();
        let context = Arc::clone(&self.context);
        let chosen = args.clone();
        let selected =
            tokio::task::spawn_blocking(move || SummarizeFolderTool::select(&context, &chosen))
                .await;
        let (selection, left_out) = match selected {
            Ok(Ok(selected)) => selected,
            Ok(Err(message)) => return error("folder", message),
            Err(e) => return error("interrupted", e.to_string()),
        };
        if args.dry_run {
            return self.plan_output(&folder, &selection, &left_out);
        }
        if !self.context.writes_allowed() {
            return error(
                "read_only",
                "this server is read-only (mcp --read-only): summarize_folder writes nothing; \
                 use dry_run to count",
            );
        }
        if let Some(max) = args.max_notes {
            let now = selection.write.len();
            if now > max {
                return error("too_many_notes", more_than_agreed(now, max));
            }
        }
        self.run_selection(&folder, &args, selection, &left_out)
            .await
    }

    fn render_call(&self, args: &SummarizeFolderArgs) -> String {
        let folder = if folder_input(&args.folder) == "." {
            "the vault".to_string()
        } else {
            format!("{:?}", args.folder)
        };
        let only = match args.only {
            Only::Missing => "missing",
            Only::Stale => "stale",
            Only::MissingAndStale => "missing and stale",
        };
        let dry = if args.dry_run { " (dry run)" } else { "" };
        format!("summarize_folder {folder} ({only}){dry}")
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        let d = &output.details;
        let mut line = if output.is_error {
            format!("✗ {}", d["error"].as_str().unwrap_or(&output.text))
        } else if d["dry_run"] == true {
            format!(
                "✓ {} to summarize ({} missing, {} stale), {} skipped, about {} prompt tokens",
                d["to_summarize"],
                d["missing"],
                d["stale"],
                d["skipped"],
                d["estimated_prompt_tokens"]
            )
        } else {
            format!("✓ {}", d["line"].as_str().unwrap_or_default())
        };
        if expanded {
            line.push('\n');
            line.push_str(&serde_json::to_string_pretty(d).unwrap_or_default());
        }
        line
    }

    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let folder = arg_str(args, &["folder"]).unwrap_or("/").to_string();
        let mut summary = ToolSummary::success(Self::NAME, vec![folder]);
        let parsed: Option<Value> = serde_json::from_str(output.text.trim()).ok();
        match parsed {
            Some(result) if result["success"] == false => {
                let error = result["error"].as_str().unwrap_or("failed").to_string();
                return summary.into_error(&error);
            }
            Some(result) if result["line"].is_string() => {
                summary
                    .facts
                    .push(result["line"].as_str().unwrap_or_default().to_string());
            }
            Some(result) => summary
                .facts
                .push(format!("{} to summarize (dry run)", result["to_summarize"])),
            None => summary
                .facts
                .push(crate::text::first_line(&output.text).to_string()),
        }
        summary
    }

    fn invalid_arguments(&self, message: String) -> ToolOutput {
        error("invalid_arguments", message)
    }
}
