//! `summarize_file`: read a note expanded, have a summarizer write a structured summary, and
//! write it into the note (a `## Summary` section, the summary property, or both) without
//! losing a byte of the note (the write itself, and what "without losing a byte" means, is
//! `vault::write::write_summary`; see ARCHITECTURE.md). Each summary carries its fingerprint;
//! a run that leaves current summaries alone decides by `freshness.rs`.

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::defused_line::defused_suffix;
use super::fact_check::not_found_suffix;
use super::failure::Failure;
use super::freshness::{plan, Freshness, Plan, RefreshPolicy, Skip};
use super::instructions::{CallChoice, Instructions};
use super::note_reader::SummaryTarget;
use super::previews::Previews;
use super::stub::{arg_str, ToolSummary, PATH_KEYS};
use super::summarizer::{SummaryRequest, SummaryText};
use super::text::first_line;
use super::tool::{schema_for, ToolAnnotations, ToolOutput, TypedTool};
pub use crate::summary::clean::clean_summary;
use crate::summary::secret_echo::holds_secret;
use crate::summary::to_write::{to_write, ModelInput, ToWrite};
use crate::vault::companion::companion_seed;
use crate::vault::summary_fingerprint::{note_hash, Fingerprint};
use crate::vault::write::{
    create_with_summary, write_summary, PropertyEdit, SectionEdit, SummaryEdit,
};
use crate::vault::{Defused, DefusedText, SourceLinks};

const DESCRIPTION: &str = "\
Summarize a note of the Obsidian vault and append the summary to the note itself, under a \
`## Summary` heading. The note is read with its embeds expanded (other notes, sections, blocks, \
images described, audio transcribed), summarized with the chosen prompt into a structured summary \
(subsections, tables for tabular data, and `### Action Items` as `- [ ]` tasks when there are \
any), and appended. Nothing of the note is changed or lost; on any failure the note is left as it was.

When to use:
- Whenever the person asks to summarize a note, a meeting, a voice memo or a clipping. Use this \
tool instead of reading the note and writing a summary yourself with an edit tool: the summary \
it writes is consistent and complete.

Parameters:
- path (required): vault-relative path of the note
- focus (optional): what to emphasise, e.g. \"budget discussion\" or \"technical decisions\"
- replace (optional, default false): remove the note's previous `## Summary` section first; \
without it a second summary is appended after the first
- into (optional): `section` (the `## Summary` section), `property` (a one-to-three-sentence \
abstract in the note's frontmatter property, for Dataview and Bases) or `both`; default from the \
configuration (`section` unless set)
- prompt (optional): how to summarize: a preset (`default`, `meeting` for decisions, owners and \
action items, `paper` for question, method, findings and limitations, `journal` for events, themes \
and mood, `brief` for three bullet points) or a prompt note of the vault as `[[Prompts/Name]]`; \
default: the note's `summary_prompt` property, else the configured rules, else `default`
- language (optional): the summary's language, e.g. \"English\"; default `auto`, the note's own
- refresh (optional, default false): only write when the note has no summary or its summary is \
stale (the note changed since); a current summary, or one edited by hand, is left as it is

Returns {\"success\": true, \"path\": …, \"summary_length\": …}. Tell the person the summary was \
added to the note; there is no need to repeat it.";

/// The record `summarize_file` answers with (MCP `structuredContent`): its text is this record
/// as JSON, so both say the same. Only the fields of the case at hand are present.
#[derive(JsonSchema)]
#[allow(dead_code)] // describes the JSON the tool builds; never built as a value
struct SummarizeFileRecord {
    /// True when the summary was written, previewed, or the note left as it is; false on failure.
    success: bool,
    /// The vault-relative note the summary went into (for a document, its companion note).
    path: Option<String>,
    /// Characters of the summary written.
    summary_length: Option<u64>,
    /// Why the note was left as it is, e.g. "up to date".
    skipped: Option<String>,
    /// Where the summary went: section, property or both.
    into: Option<crate::config::SummaryInto>,
    /// Characters of the abstract written into the summary property.
    abstract_length: Option<u64>,
    /// A dry run: the summary itself (nothing written).
    summary: Option<String>,
    /// A dry run: true.
    dry_run: Option<bool>,
    /// A dry run: the prompt the summary would be made with.
    prompt: Option<String>,
    /// A dry run: the language the summary would be written in.
    language: Option<String>,
    /// A dry run: the abstract the summary property would get.
    #[serde(rename = "abstract")]
    abstract_text: Option<String>,
    /// Facts of the summary (names, numbers, dates, quotes, links) the note does not hold,
    /// when there are any: each is marked below the summary, and listed with why in
    /// `_meta.details.unsupported`.
    unsupported: Option<u64>,
    /// A dry run: the id of the preview this process keeps for a while; a later call with
    /// `preview` set to it writes exactly this summary, with no second model call.
    preview_id: Option<String>,
    /// What failed, and what to do about it (nothing was written).
    error: Option<String>,
}

/// Arguments of `summarize_file`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummarizeFileArgs {
    /// Vault-relative path of the note (the CLI also accepts an absolute path inside the vault).
    pub path: String,
    /// Optional guidance for what the summary should emphasise.
    #[serde(default)]
    pub focus: Option<String>,
    /// Remove the previous `## Summary` section before appending the new one.
    #[serde(default)]
    pub replace: bool,
    /// Where the summary goes: `section`, `property` (a short abstract in the frontmatter) or
    /// `both`; the configured `summarize.into` when left out.
    #[serde(default)]
    pub into: Option<crate::config::SummaryInto>,
    /// How to summarize: a preset (`default`, `meeting`, `paper`, `journal`, `brief`) or a
    /// prompt note of the vault (`[[Prompts/Weekly review]]`). Default: the note's
    /// `summary_prompt` property, else the configured rules, else `summarize.prompt`.
    #[serde(default)]
    pub prompt: Option<String>,
    /// The summary's language (`English`, `Deutsch`, …); `auto`, the note's own, by default.
    #[serde(default)]
    pub language: Option<String>,
    /// Write only a missing or stale summary: a current one, or one edited by hand, is left.
    #[serde(default)]
    pub refresh: bool,
    /// With `refresh`, also replace summaries written before fingerprints
    /// (`--refresh-unmarked`). A command-line need, left out of the advertised schema.
    #[serde(default)]
    #[schemars(skip)]
    pub refresh_unmarked: bool,
    /// Leave current summaries alone and write missing ones (a run over a folder, the watcher):
    /// stale ones only with `refresh`. Left out of the advertised schema: `refresh` is the
    /// agent's way to ask for it.
    #[serde(default)]
    #[schemars(skip)]
    pub skip_current: bool,
    /// Generate the summary and return it instead of writing it (`summarize-file --dry-run`).
    ///
    /// Left out of the advertised schema (`#[schemars(skip)]`): agents are offered the tool that
    /// writes, and a preview is a command-line need. Being a mode of this tool rather than a
    /// second one, the preview reads and summarizes exactly as the real call does and renders
    /// through the same lines. A client that sends it anyway gets a preview, which writes
    /// nothing.
    #[serde(default)]
    #[schemars(skip)]
    pub dry_run: bool,
    /// Write the summary a dry run of this process made (its `details.preview_id`), exactly
    /// as it was shown, without a second model call; with `replace` or not. Refused when the
    /// note changed since (`details.code` `preview_stale`) or the id is not kept
    /// (`preview_unknown`: used already, expired, another process's). Left out of the
    /// advertised schema, as `dry_run` is: a need of the Obsidian plugin's preview.
    #[serde(default)]
    #[schemars(skip)]
    pub preview: Option<String>,
}

impl SummarizeFileArgs {
    /// The arguments that shape a summary, which a `preview` call may not give: the preview
    /// was made with its own.
    fn shaping(&self) -> Vec<&'static str> {
        [
            ("focus", self.focus.is_some()),
            ("into", self.into.is_some()),
            ("prompt", self.prompt.is_some()),
            ("language", self.language.is_some()),
            ("refresh", self.refresh || self.refresh_unmarked),
            ("skip_current", self.skip_current),
            ("dry_run", self.dry_run),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }
}

/// A summary generated for a note but not yet written.
#[derive(Debug, Clone)]
struct PreparedSummary {
    /// Vault-relative path of the note.
    path: String,
    /// The cleaned summary, never empty, as the output policy made it.
    summary: DefusedText,
    /// The abstract for the summary property, when it is written, as the policy made it.
    abstract_text: Option<DefusedText>,
    /// The prompt, language and destination it was made with.
    instructions: Instructions,
    /// The note's bytes as read before summarizing, to detect edits made meanwhile.
    original: Vec<u8>,
    /// The note itself, or the companion note of the document that was read.
    target: SummaryTarget,
    /// Metadata for `details`.
    details: Value,
}

impl PreparedSummary {
    /// What the output policy changed in the summary and its abstract together.
    fn defused(&self) -> Defused {
        let section = self.summary.defused();
        match &self.abstract_text {
            Some(abstract_text) => section.plus(abstract_text.defused()),
            None => section,
        }
    }
}

/// The `summarize_file` tool.
pub struct SummarizeFileTool {
    context: Arc<ToolContext>,
    /// The summaries its dry runs made, for a later `preview` call to write (`previews.rs`).
    previews: Previews<PreparedSummary>,
}

impl SummarizeFileTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> SummarizeFileTool {
        SummarizeFileTool {
            context,
            previews: Previews::default(),
        }
    }

    /// Reads the note and generates its summary without writing anything.
    async fn prepare(
        &self,
        args: &SummarizeFileArgs,
        instructions: Instructions,
    ) -> Result<PreparedSummary, Failure> {
        let into = instructions.into;
        let note = self.context.read_note_for_writing(&args.path).await?;
        let ModelInput {
            content,
            total_chars,
            truncated,
        } = ModelInput::of(&note.expanded.text, self.context.config.summarize.max_chars);
        let request = SummaryRequest {
            path: &note.expanded.path,
            content: &content,
            focus: args.focus.as_deref().filter(|f| !f.trim().is_empty()),
            truncated_from: truncated.then_some(total_chars),
            sentences: None,
            with_abstract: into.property(),
            instructions: &instructions,
            fact_check: self.context.config.summarize.fact_check,
        };
        crate::progress::step("summarizing");
        let SummaryText {
            text,
            details,
            abstract_text,
            fact_check: run,
        } = self.context.summarizer().summarize(&request).await?;
        // Cleaned, facts the note does not hold unlinked or marked, then made inert before
        // anything else sees it (the preview shows what would be written). Its links may point
        // where what was summarized points: the note as expanded, with everything it embeds,
        // but not where a model's description of a picture or a transcript points.
        let context = Arc::clone(&self.context);
        let expanded = note.expanded.named.clone();
        let ToWrite {
            summary,
            abstract_text,
            report,
        } = tokio::task::spawn_blocking(move || {
            to_write(
                &text,
                abstract_text,
                run.as_ref(),
                into.property(),
                &expanded,
                context.output_policy(),
            )
        })
        .await
        .map_err(|e| Failure::permanent(format!("the output policy did not finish: {e}")))?
        .map_err(|nothing| Failure::from(nothing.to_string()))?;
        if let Some(key) = &self.context.config.llm.api_key {
            if holds_secret(summary.as_str(), key.expose()) {
                return Err(Failure::permanent(
                    "the model's answer holds the API key (sent back split or escaped past the mask); nothing was written".to_string(),
                ));
            }
        }
        let (path, document) = match &note.target {
            SummaryTarget::Note => (note.expanded.path.clone(), None),
            SummaryTarget::Companion { path, document, .. } => {
                (path.clone(), Some(document.clone()))
            }
        };
        let mut details = json!({
                "document": document,
                "chars_sent": content.chars().count(),
                "total_chars": total_chars,
                "truncated": truncated,
                "summarizer": details,
                "expansion": note.expanded.details,
                "prompt": instructions.prompt,
                "prompt_from": instructions.prompt_from,
                "language": instructions.language,
        });
        if let Some(report) = &report {
            report.put_into(&mut details);
        }
        Ok(PreparedSummary {
            path,
            summary,
            abstract_text,
            original: note.original,
            target: note.target,
            details,
            instructions,
        })
    }

    /// The note's text as it is now and the instructions chosen for it (the call's, the
    /// note's `summary_prompt`, the rules', the configuration's), read on the blocking pool.
    async fn instructions(
        &self,
        note: &str,
        args: &SummarizeFileArgs,
    ) -> Result<(Option<String>, Instructions), Failure> {
        let context = Arc::clone(&self.context);
        let (note, prompt, language, into) = (
            note.to_string(),
            args.prompt.clone(),
            args.language.clone(),
            args.into,
        );
        tokio::task::spawn_blocking(move || {
            let text = context.note_text(&note)?;
            let call = CallChoice {
                prompt: prompt.as_deref(),
                language: language.as_deref(),
                into,
            };
            let instructions = context.choose_instructions(&note, text.as_deref(), &call)?;
            Ok::<_, Failure>((text, instructions))
        })
        .await
        .map_err(|e| Failure::permanent(format!("choosing the prompt did not finish: {e}")))?
    }

    /// Writes a prepared summary to its note (atomically; edits made meanwhile are kept), with
    /// its fingerprint: the hash of the note as it was summarized and of the summary itself.
    /// The file work (open, verify, append or swap, fsync) runs on the blocking pool so a slow
    /// disk or a cloud-synced folder never stalls the other calls of the async runtime.
    async fn write(&self, prepared: PreparedSummary, replace: bool) -> Result<ToolOutput, Failure> {
        let vault = Arc::clone(self.context.vault()?);
        let property = self.context.config.summarize.property.clone();
        let (path, original, summary, abstract_text, target, into) = (
            prepared.path.clone(),
            prepared.original.clone(),
            prepared.summary.clone(),
            prepared.abstract_text.clone(),
            prepared.target.clone(),
            prepared.instructions.into,
        );
        let identity = prepared.instructions.identity().to_string();
        let no_abstract = self.context.output_policy().clone();
        let outcome = tokio::task::spawn_blocking(move || {
            // What was summarized: the note as read, or the seed a new companion starts from.
            let seed = match &target {
                SummaryTarget::Companion {
                    document,
                    exists: false,
                    ..
                } => Some(companion_seed(document)),
                _ => None,
            };
            let summarized = match &seed {
                Some(seed) => seed.clone(),
                None => String::from_utf8_lossy(&original).into_owned(),
            };
            let note = note_hash(&summarized, &property, &identity);
            let marker = Fingerprint::new(note.clone(), summary.as_str()).marker_line();
            let abstract_text =
                abstract_text.unwrap_or_else(|| no_abstract.property("", &SourceLinks::none()));
            let property_print = Fingerprint::new(note, abstract_text.as_str()).value();
            let edit = SummaryEdit {
                section: into.section().then_some(SectionEdit {
                    summary: &summary,
                    marker: Some(&marker),
                    replace,
                }),
                property: into.property().then_some(PropertyEdit {
                    key: &property,
                    value: &abstract_text,
                    fingerprint: Some(&property_print),
                }),
                properties: &[],
                generated: false,
            };
            match (&target, &seed) {
                (
                    SummaryTarget::Companion {
                        path: companion, ..
                    },
                    Some(seed),
                ) => {
                    // A document's first summary: its companion note is created with an embed
                    // of the document (by its full path) and the summary, whole or not at all.
                    let note = vault.path(companion)?;
                    create_with_summary(&vault, &note, seed, &edit)
                }
                _ => {
                    let note = vault.resolve_input(&path)?;
                    write_summary(&vault, &note, &original, &edit)
                }
            }
        })
        .await
        .map_err(|e| format!("the write of {} did not finish: {e}", prepared.path))??;
        let summary_length = prepared.summary.chars();
        let defused = prepared.defused();
        let mut details = prepared.details;
        details["path"] = json!(prepared.path);
        details["summary_length"] = json!(summary_length);
        details["defused"] = defused.to_json();
        details["stale"] = json!(outcome.stale);
        details["replace"] = json!(replace);
        details["into"] = json!(prepared.instructions.into);
        let mut text = json!({
            "success": true,
            "path": prepared.path,
            "summary_length": summary_length,
        });
        if prepared.instructions.into.property() {
            let abstract_text = prepared
                .abstract_text
                .as_ref()
                .map(DefusedText::as_str)
                .unwrap_or_default();
            details["property"] = json!(self.context.config.summarize.property);
            details["abstract"] = json!(abstract_text);
            text["into"] = json!(prepared.instructions.into);
            text["abstract_length"] = json!(abstract_text.chars().count());
        }
        put_not_found(&details, &mut text);
        Ok(ToolOutput::ok(text.to_string(), details).with_record(text))
    }

    /// The result of a note left as it is: `{"success":true,"path":…,"skipped":…}`.
    fn skipped(path: &str, why: Skip, freshness: Freshness) -> ToolOutput {
        let text = json!({ "success": true, "path": path, "skipped": why.reason() });
        let details = json!({
            "path": path,
            "skipped": why.reason(),
            "section": freshness.section.name(),
            "property": freshness.property.name(),
        });
        ToolOutput::ok(text.to_string(), details).with_record(text)
    }

    /// Writes the summary the dry run `id` made, once, when the note is still as it was
    /// previewed (its bytes, compared under the note's lock).
    async fn write_preview(
        &self,
        note: &str,
        id: &str,
        args: &SummarizeFileArgs,
    ) -> Result<ToolOutput, Failure> {
        let given = args.shaping();
        if !given.is_empty() {
            return Err(Failure::permanent(format!(
                "preview writes the summary as it was previewed: give only path, preview and \
                 replace (not {})",
                given.join(", ")
            ))
            .coded("invalid_arguments"));
        }
        let unknown = || {
            Failure::permanent(format!(
                "no preview {id} is kept for {note} (written already, older than an hour, or \
                 made by another vaultsum process); preview the note again"
            ))
            .coded("preview_unknown")
        };
        let prepared = self
            .previews
            .take(id, |prepared| prepared.path == note)
            .ok_or_else(unknown)?;
        let context = Arc::clone(&self.context);
        let relative = note.to_string();
        let now = tokio::task::spawn_blocking(move || context.note_text(&relative))
            .await
            .map_err(|e| Failure::permanent(format!("reading {note} did not finish: {e}")))??;
        if now.unwrap_or_default() != String::from_utf8_lossy(&prepared.original) {
            return Err(Failure::permanent(format!(
                "{note} changed since its preview; nothing was written: preview it again"
            ))
            .coded("preview_stale"));
        }
        crate::progress::step(format!("writing {note}"));
        self.write(prepared, args.replace).await
    }

    /// The dry-run result: the summary itself, nothing written.
    fn preview(prepared: PreparedSummary, preview_id: String) -> ToolOutput {
        let summary_length = prepared.summary.chars();
        let defused = prepared.defused();
        let mut details = prepared.details;
        details["path"] = json!(prepared.path);
        details["summary"] = json!(prepared.summary.as_str());
        details["summary_length"] = json!(summary_length);
        details["defused"] = defused.to_json();
        details["dry_run"] = json!(true);
        details["into"] = json!(prepared.instructions.into);
        details["preview_id"] = json!(preview_id);
        let mut text = json!({
            "success": true,
            "path": prepared.path,
            "summary": prepared.summary.as_str(),
            "dry_run": true,
            "prompt": prepared.instructions.prompt,
            "language": prepared.instructions.language,
            "preview_id": preview_id,
        });
        if let Some(abstract_text) = &prepared.abstract_text {
            details["abstract"] = json!(abstract_text.as_str());
            text["abstract"] = json!(abstract_text.as_str());
        }
        put_not_found(&details, &mut text);
        ToolOutput::ok(text.to_string(), details).with_record(text)
    }
}

/// The result's `"unsupported": N`, the facts not found in the note (marked in it), when
/// there are any: the count a person or agent reads in the result itself.
fn put_not_found(details: &Value, result: &mut Value) {
    if let Some(count) = details["fact_check"]["not_found"]
        .as_u64()
        .filter(|n| *n > 0)
    {
        result["unsupported"] = json!(count);
    }
}

/// A failure as the tool reports it: the message for the model, `details` for people (with
/// `retryable`), and the typed [`ToolOutput::retry`] for the watcher.
fn error_output(path: &str, failure: impl Into<Failure>) -> ToolOutput {
    let failure = failure.into();
    let text = json!({ "success": false, "error": failure.message });
    let mut details = json!({ "path": path, "error": failure.message });
    if let (Some(details), Value::Object(retry)) =
        (details.as_object_mut(), failure.retry_details())
    {
        details.extend(retry);
    }
    ToolOutput::error(text.to_string(), details)
        .with_retry(failure.retry)
        .with_record(text)
}

#[async_trait]
impl TypedTool for SummarizeFileTool {
    type Args = SummarizeFileArgs;
    const NAME: &'static str = "summarize_file";
    const TITLE: &'static str = "Summarize a note into it";
    const DESCRIPTION: &'static str = DESCRIPTION;

    // Destructive: `replace=true` deletes the note's previous `## Summary` section.
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::WRITES_DESTRUCTIVE;

    fn output_schema(&self) -> Option<Value> {
        Some(schema_for::<SummarizeFileRecord>())
    }

    async fn run(&self, args: SummarizeFileArgs) -> ToolOutput {
        let note = match self.context.summary_note_path(&args.path) {
            Ok(note) => note,
            Err(error) => return error_output(&args.path, error),
        };
        // Calls that write the same note take turns, from the read to the write, so a second
        // call summarizes the note as the first left it. A preview writes nothing and waits
        // for no one.
        let _turn = if args.dry_run {
            None
        } else {
            match self.context.lock_note(&note).await {
                Ok((guard, _)) => Some(guard),
                Err(error) => return error_output(&args.path, error),
            }
        };
        if let Some(id) = &args.preview {
            return self
                .write_preview(&note, id, &args)
                .await
                .unwrap_or_else(|failure| error_output(&args.path, failure));
        }
        // The prompt, language and destination are chosen (and a prompt note read) before
        // anything is summarized: a wrong one is an error before any paid call.
        let (text, instructions) = match self.instructions(&note, &args).await {
            Ok(chosen) => chosen,
            Err(failure) => return error_output(&args.path, failure),
        };
        // A run that leaves current summaries alone decides from the fingerprints before any
        // expansion or LLM work, so a second run over a folder costs no call.
        let mut replace = args.replace;
        if args.skip_current || args.refresh || args.refresh_unmarked {
            let policy = RefreshPolicy {
                refresh: args.refresh,
                refresh_unmarked: args.refresh_unmarked,
            };
            let freshness = self
                .context
                .summary_freshness(text.as_deref(), &instructions);
            match plan(freshness, instructions.into, policy) {
                Plan::Skip(why) => return Self::skipped(&note, why, freshness),
                Plan::Write { replace: remove } => replace |= remove,
            }
        }
        // Everything slow (reading, the LLM) happens before the write, so dropping this future
        // (a cancelled MCP call, Ctrl-C) can never leave a partly written note.
        crate::progress::expect_steps(3);
        crate::progress::step(format!("reading {}", args.path));
        let prepared = match self.prepare(&args, instructions).await {
            Ok(prepared) => prepared,
            Err(message) => return error_output(&args.path, message),
        };
        if args.dry_run {
            let id = self.previews.keep(prepared.clone());
            return Self::preview(prepared, id);
        }
        crate::progress::step(format!("writing {}", prepared.path));
        match self.write(prepared, replace).await {
            Ok(output) => output,
            Err(message) => error_output(&args.path, message),
        }
    }

    fn render_call(&self, args: &SummarizeFileArgs) -> String {
        let mut line = format!("summarize_file {:?}", args.path);
        if let Some(focus) = &args.focus {
            line.push_str(&format!(" (focus: {focus})"));
        }
        if args.replace {
            line.push_str(" (replace)");
        }
        if let Some(into) = args.into {
            line.push_str(&format!(" (into {})", into.name()));
        }
        if args.refresh {
            line.push_str(" (refresh)");
        }
        if args.dry_run {
            line.push_str(" (dry run)");
        }
        if let Some(id) = &args.preview {
            line.push_str(&format!(" (preview {id})"));
        }
        line
    }

    fn render_result(&self, output: &ToolOutput, expanded: bool) -> String {
        let d = &output.details;
        if output.is_error {
            return format!(
                "✗ {}: {}",
                d["path"].as_str().unwrap_or("?"),
                d["error"].as_str().unwrap_or(&output.text)
            );
        }
        if let Some(why) = d["skipped"].as_str() {
            return format!("– {}: skipped ({why})", d["path"].as_str().unwrap_or("?"));
        }
        let mut line = if d["dry_run"].as_bool() == Some(true) {
            format!(
                "✓ {}: summary of {} chars (dry run, not written)",
                d["path"].as_str().unwrap_or("?"),
                d["summary_length"]
            )
        } else if d["into"].as_str() == Some("property") {
            format!(
                "✓ {}: abstract written to property {}",
                d["path"].as_str().unwrap_or("?"),
                d["property"].as_str().unwrap_or("?")
            )
        } else {
            format!(
                "✓ {}: summary of {} chars appended",
                d["path"].as_str().unwrap_or("?"),
                d["summary_length"]
            )
        };
        if d["into"].as_str() == Some("both") {
            line.push_str(&format!(
                ", abstract in property {}",
                d["property"].as_str().unwrap_or("?")
            ));
        }
        if d["stale"].as_bool() == Some(true) {
            line.push_str(" (note changed meanwhile; edits kept)");
        }
        line.push_str(&not_found_suffix(d));
        line.push_str(&defused_suffix(d));
        if expanded {
            line.push('\n');
            line.push_str(&serde_json::to_string_pretty(d).unwrap_or_default());
        }
        line
    }

    /// `[✓ summarize_file: Notes/a.md | summary 812 chars]`, read from the JSON text the tool
    /// returns (a transcript has nothing else); a `"success": false` result is an error stub.
    fn stub(&self, args: &Value, output: &ToolOutput) -> ToolSummary {
        let text = &output.text;
        let parsed: Option<Value> = serde_json::from_str(text.trim()).ok();
        let path = parsed
            .as_ref()
            .and_then(|v| v.get("path").and_then(Value::as_str))
            .or_else(|| arg_str(args, PATH_KEYS))
            .unwrap_or("?")
            .to_string();
        let mut summary = ToolSummary::success(Self::NAME, vec![path]);
        let Some(result) = parsed else {
            summary.facts.push(first_line(text).to_string());
            return summary;
        };
        if result.get("success").and_then(Value::as_bool) == Some(false) {
            let error = result
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("failed");
            return summary.into_error(error);
        }
        if let Some(why) = result.get("skipped").and_then(Value::as_str) {
            summary.facts.push(format!("skipped: {why}"));
            return summary;
        }
        if let Some(n) = result.get("summary_length").and_then(Value::as_u64) {
            summary.facts.push(format!("summary {n} chars"));
        }
        if result.get("stale").and_then(Value::as_bool) == Some(true) {
            summary.facts.push("note had changed meanwhile".to_string());
        }
        summary
    }

    /// Bad arguments get the same `{"success": false, "error": …}` text as every other failure.
    fn invalid_arguments(&self, message: String) -> ToolOutput {
        error_output("", message)
    }
}
