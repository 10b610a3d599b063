//! `summarize_notes`: one summary (a rollup) over many notes chosen by paths, tag, dates or the
//! links of a hub note (the choice is `rollup_selection`). Each note contributes its own current
//! summary when it has one (no paid call), else its expanded text; the notes go to the
//! summarizer as one document with a heading per note, so the long-note machinery
//! (`windowed.rs`: parts within the window, then merges) fits any number of notes in any window.

use std::sync::Arc;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::context::ToolContext;
use super::defused_line::defused_suffix;
use super::fact_check::not_found_suffix;
use super::failure::llm_retry;
use super::generated_notes::GeneratedKind;
use super::instructions::{CallChoice, Instructions};
use super::left_out::{left_out_by_read, put_left_out, LeftOut};
use super::long_note::{budget, estimate_tokens, split_into_parts};
use super::note_reader::ExpandedNote;
use super::rollup_selection::{today, Criteria, Selection, SelectionError};
use super::stub::ToolSummary;
use super::summarizer::{SummarizeError, Summarizer, SummaryRequest};
use super::tool::{schema_for, ToolAnnotations, ToolOutput, TypedTool};
use super::unpaid_reads::UnpaidReads;
use crate::summary::rollup::answer::rollup_answer;
use crate::summary::rollup::days::{days_asked, Day};
use crate::summary::rollup::document::{
    describe, dry_run_text, push_note, rollup_focus, would_be_written,
};
use crate::summary::secret_echo::holds_secret;
use crate::vault::{AttachmentReader, DefusedText, SourceLinks, VaultError};

const DESCRIPTION: &str = "\
Summarize many notes of the Obsidian vault into one rollup: a week of daily notes, a folder, \
everything with a tag, or a hub note and the notes it links to. Returns the rollup with a \
`### Sources` list naming every note it drew on; each action item ends with the [[link]] of the \
note it came from. Writes nothing unless save_to names a note to write it into. Use it instead \
of reading every note yourself.

Parameters (every one given narrows the selection; at least one is required; rollups vaultsum \
wrote are never selected):
- paths: notes and folders (vault-relative)
- tag: a tag, nested tags included (`client` matches `#client/acme`)
- from, to: dates `YYYY-MM-DD` (daily notes by their name, other notes by a `date` or `created` property)
- period (instead of from/to): `this-week`, `last-week`, `this-month`, `last-month`, `2026-W47`, \
`2026-11` or `7d`, counted from today (`today`: `YYYY-MM-DD`, the person's local date; default UTC)
- links_of: a hub note; depth (default 1): how many link steps to follow
- focus: what to emphasise
- prompt: a preset (default, meeting, paper, journal, brief) or a prompt note `[[Prompts/Name]]`
- language: the rollup's language, e.g. \"English\" (default: the notes')
- save_to: a note to write the rollup into (created when absent; a note vaultsum did not write \
for a rollup is never overwritten; re-running replaces the rollup vaultsum wrote there and keeps \
what a person added around it, and is refused when a person edited the rollup itself)
- into: with save_to, `section` (default), `property` (an abstract in its `summary` property) or `both`
- max_notes (default 100): refuse a larger selection
- dry_run: list the selection and the paid calls it would make, without making them";

/// Default for `max_notes`.
const DEFAULT_MAX_NOTES: usize = 100;

/// The record `summarize_notes` answers with (MCP `structuredContent`), beside the text: the
/// rollup itself (or, in a dry run, the selection) and the notes it covers, which the text lists
/// under `### Sources` (or as the dry run's list).
#[derive(JsonSchema)]
#[allow(dead_code)] // describes the JSON the tool builds; never built as a value
struct SummarizeNotesRecord {
    /// True when the rollup was made (or the selection listed); false on failure.
    success: bool,
    /// The rollup: one summary of the selected notes, ending with `### Sources` (absent in a
    /// dry run).
    rollup: Option<String>,
    /// The vault-relative paths of the notes summarized, in the rollup's order.
    notes: Option<Vec<String>>,
    /// How many notes were selected.
    note_count: Option<u64>,
    /// How many of them have a current summary of their own, used in place of the note.
    reused_summaries: Option<u64>,
    /// A dry run: true (nothing was summarized or written).
    dry_run: Option<bool>,
    /// A dry run: the fewest paid LLM calls the rollup would take.
    paid_calls: Option<u64>,
    /// The engine that summarizes: llm or offline.
    engine: Option<String>,
    /// The note the rollup was written into (or would be, in a dry run).
    save_to: Option<String>,
    /// Facts of the rollup the notes do not hold, when there are any: each is marked below
    /// the rollup, and listed with why in `_meta.details.unsupported`.
    unsupported: Option<u64>,
    /// What failed, and what to do about it.
    error: Option<String>,
}

/// Arguments of `summarize_notes`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummarizeNotesArgs {
    /// Notes and folders to draw from (vault-relative).
    #[serde(default)]
    pub paths: Vec<String>,
    /// A tag; notes with it or a tag nested below it are selected.
    #[serde(default)]
    pub tag: Option<String>,
    /// First day, `YYYY-MM-DD`.
    #[serde(default)]
    pub from: Option<String>,
    /// Last day, `YYYY-MM-DD`.
    #[serde(default)]
    pub to: Option<String>,
    /// A period instead of from/to: `this-week`, `last-week` (Monday to Sunday), `this-month`,
    /// `last-month`, an ISO week `2026-W47`, a month `2026-11`, or the last N days `7d`.
    #[serde(default)]
    pub period: Option<String>,
    /// The day the period is counted from, `YYYY-MM-DD` (the caller's local date); default
    /// today in UTC.
    #[serde(default)]
    pub today: Option<String>,
    /// A hub note: the notes it links to or embeds are selected.
    #[serde(default)]
    pub links_of: Option<String>,
    /// Link steps followed from `links_of` (default 1).
    #[serde(default)]
    pub depth: Option<usize>,
    /// What the rollup should emphasise.
    #[serde(default)]
    pub focus: Option<String>,
    /// The largest selection accepted (default 100).
    #[serde(default)]
    pub max_notes: Option<usize>,
    /// List the selection and the paid calls it would make, and make none.
    #[serde(default)]
    pub dry_run: bool,
    /// How to summarize: a preset or a prompt note (`[[Prompts/Weekly review]]`).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The rollup's language (`auto`: the notes').
    #[serde(default)]
    pub language: Option<String>,
    /// A note to write the rollup into (vault-relative): created when absent, its summary
    /// replaced when it is a rollup's note, refused when it is any other note.
    #[serde(default)]
    pub save_to: Option<String>,
    /// With `save_to`: `section` (default), `property` or `both`.
    #[serde(default)]
    pub into: Option<crate::config::SummaryInto>,
}

/// The `summarize_notes` tool.
pub struct SummarizeNotesTool {
    context: Arc<ToolContext>,
}

impl SummarizeNotesTool {
    /// Builds the tool over the shared context.
    pub fn new(context: Arc<ToolContext>) -> SummarizeNotesTool {
        SummarizeNotesTool { context }
    }

    /// The vault path of `save_to`, checked before any paid call: writes allowed, a note name,
    /// writable, and either absent or a rollup's note. `None` without `save_to`.
    async fn check_save_to(&self, args: &SummarizeNotesArgs) -> Result<Option<String>, ToolOutput> {
        let Some(save_to) = args.save_to.as_deref() else {
            if args.into.is_some() {
                return Err(failure(
                    "invalid_arguments",
                    "invalid arguments for summarize_notes: into needs save_to (the note to \
                     write the rollup into)",
                ));
            }
            return Ok(None);
        };
        if !self.context.writes_allowed() {
            return Err(failure(
                "read_only",
                "this server is read-only (mcp --read-only): save_to is not available; call \
                 again without it to get the rollup",
            ));
        }
        let context = Arc::clone(&self.context);
        let save_to = save_to.to_string();
        let checked = tokio::task::spawn_blocking(move || {
            context.check_generated_target(&save_to, GeneratedKind::Rollup)
        })
        .await
        .map_err(|e| failure("interrupted", e.to_string()))?;
        checked
            .map(Some)
            .map_err(|error| failure("save_to", error.to_string()))
    }

    /// Refuses, before any paid call, a `save_to` note whose rollup (or abstract) a person
    /// edited: rewriting it could drop what they wrote (`vault/generated_note.rs`).
    async fn check_rewrite(
        &self,
        target: &str,
        instructions: &Instructions,
    ) -> Result<(), ToolOutput> {
        let context = Arc::clone(&self.context);
        let (target, into) = (target.to_string(), instructions.into);
        tokio::task::spawn_blocking(move || context.check_generated_rewrite(&target, into))
            .await
            .map_err(|e| failure("interrupted", e.to_string()))?
            .map_err(|error| failure("save_to_edited", error.to_string()))
    }

    /// The prompt, language and `into` of the rollup: the call's, else the rules' for the
    /// `save_to` note, else the configuration's. Reads a prompt note.
    async fn instructions(
        &self,
        args: &SummarizeNotesArgs,
        target: Option<&str>,
    ) -> Result<Instructions, ToolOutput> {
        let context = Arc::clone(&self.context);
        let (prompt, language, into) = (args.prompt.clone(), args.language.clone(), args.into);
        let target = target.unwrap_or("").to_string();
        tokio::task::spawn_blocking(move || {
            let call = CallChoice {
                prompt: prompt.as_deref(),
                language: language.as_deref(),
                into,
            };
            context.choose_instructions(&target, None, &call)
        })
        .await
        .map_err(|e| failure("interrupted", e.to_string()))?
        .map_err(|error| failure("prompt", error.to_string()))
    }

    /// Writes the rollup into `target` (a section, the `summary` property or both), holding the
    /// note's turn like every summary write; returns the folders created for it.
    async fn save(
        &self,
        target: &str,
        what: &str,
        rollup: DefusedText,
        abstract_text: Option<DefusedText>,
        instructions: &Instructions,
    ) -> Result<Vec<String>, String> {
        let (_turn, _) = self
            .context
            .lock_note(target)
            .await
            .map_err(|e| e.to_string())?;
        let context = Arc::clone(&self.context);
        let (target, what, into) = (target.to_string(), what.to_string(), instructions.into);
        tokio::task::spawn_blocking(move || {
            context.save_rollup(&target, &what, &rollup, abstract_text.as_ref(), into)
        })
        .await
        .map_err(|e| format!("the write did not finish: {e}"))?
        .map_err(|e| e.to_string())
    }
}

/// What stands for a note in the rollup: its own current summary, or its expanded text.
enum NoteBody {
    Own(String),
    Text(ExpandedNote),
}

/// Why a selected note is not in the rollup: gone or unreadable since the selection (left
/// out), or a failure that ends the rollup (a prompt note that cannot be read, …).
enum NoteReadFailure {
    LeftOut(LeftOut),
    Failed(String),
}

impl SummarizeNotesTool {
    /// A note's own summary unless its fingerprint says it is stale, else its expanded text
    /// without its stale summaries.
    async fn note_body(
        &self,
        path: &str,
        reader: &dyn AttachmentReader,
    ) -> Result<NoteBody, NoteReadFailure> {
        let context = Arc::clone(&self.context);
        let relative = path.to_string();
        let own = tokio::task::spawn_blocking(move || context.reusable_summary(&relative))
            .await
            .map_err(|e| NoteReadFailure::Failed(e.to_string()))?;
        match own {
            Ok(Some(summary)) => return Ok(NoteBody::Own(summary)),
            Ok(None) => {}
            Err(error) => return Err(read_failure(path, error.vault_error(), error.to_string())),
        }
        match self.context.read_for_summary_with(path, reader).await {
            Ok(note) => Ok(NoteBody::Text(note)),
            Err(error) => Err(read_failure(path, error.vault_error(), error.to_string())),
        }
    }
}

/// A read that failed on the note itself leaves it out; anything else ends the rollup.
fn read_failure(path: &str, vault_error: Option<&VaultError>, message: String) -> NoteReadFailure {
    match vault_error {
        Some(error) => NoteReadFailure::LeftOut(left_out_by_read(path, error)),
        None => NoteReadFailure::Failed(message),
    }
}

/// The failure of a selection left empty, with what the scan left out in its details.
fn empty_selection(selection: &Selection) -> ToolOutput {
    let mut output = failure("empty_selection", empty_selection_message(selection));
    put_left_out(&mut output.details, &selection.left_out);
    output.details["rollups_left_out"] = json!(selection.rollups);
    output
}

/// Why nothing is left to roll up (the engine's `empty_selection`).
fn empty_selection_message(selection: &Selection) -> String {
    let named: Vec<String> = selection.left_out.iter().map(LeftOut::describe).collect();
    crate::summary::rollup::document::empty_selection_message(
        selection.undated,
        &selection.rollups,
        &named,
    )
}

fn failure(kind: &str, message: impl Into<String>) -> ToolOutput {
    ToolOutput::error(message.into(), json!({ "error": kind }))
}

/// What a rollup covers, for its note's `rollup` property (the engine's `describe`).
fn describe_selection(args: &SummarizeNotesArgs, from: Option<Day>, to: Option<Day>) -> String {
    describe(
        &args.paths,
        args.tag.as_deref(),
        from,
        to,
        args.links_of.as_deref(),
    )
}

/// The first and last day asked for: `from`/`to`, or the `period` counted from `today`.
fn days_of(args: &SummarizeNotesArgs) -> Result<(Option<Day>, Option<Day>), Box<ToolOutput>> {
    days_asked(
        args.period.as_deref(),
        args.from.as_deref(),
        args.to.as_deref(),
        args.today.as_deref(),
        today,
    )
    .map_err(|message| Box::new(failure("invalid_arguments", message)))
}

#[async_trait]
impl TypedTool for SummarizeNotesTool {
    type Args = SummarizeNotesArgs;
    const NAME: &'static str = "summarize_notes";
    const TITLE: &'static str = "Summarize many notes into one rollup";
    const DESCRIPTION: &'static str = DESCRIPTION;
    // Writes only with `save_to`, never destroying a person's note; read-only on a server that
    // forbids writes (`mcp --read-only`), where `save_to` is refused.
    const ANNOTATIONS: ToolAnnotations = ToolAnnotations::WRITES_NOT_DESTRUCTIVE;

    fn output_schema(&self) -> Option<Value> {
        Some(schema_for::<SummarizeNotesRecord>())
    }

    fn current_annotations(&self) -> ToolAnnotations {
        if self.context.writes_allowed() {
            Self::ANNOTATIONS
        } else {
            ToolAnnotations::READ_ONLY
        }
    }

    async fn run(&self, args: SummarizeNotesArgs) -> ToolOutput {
        let (from, to) = match days_of(&args) {
            Ok(days) => days,
            Err(output) => return *output,
        };
        // Every answer says which days were asked for, as the binary resolved a period (a
        // caller names its note by them, a person sees what "last week" meant).
        let mut output = async {
            if args.paths.is_empty()
                && args.tag.is_none()
                && from.is_none()
                && to.is_none()
                && args.links_of.is_none()
            {
                return failure(
                    "invalid_arguments",
                    "invalid arguments for summarize_notes: no notes selected: give paths, tag, \
                     from/to or links_of",
                );
            }
            let criteria = Criteria {
                paths: args.paths.clone(),
                tag: args.tag.clone(),
                from,
                to,
                links_of: args.links_of.clone(),
                depth: args.depth.unwrap_or(1),
            };
            let context = Arc::clone(&self.context);
            let selection =
                match tokio::task::spawn_blocking(move || context.select_notes(&criteria)).await {
                    Ok(Ok(selection)) => selection,
                    Ok(Err(SelectionError::Context(error))) => {
                        return failure("selection", error.to_string())
                    }
                    Ok(Err(error)) => return failure("selection", error.to_string()),
                    Err(error) => return failure("interrupted", error.to_string()),
                };
            let count = selection.notes.len();
            if count == 0 {
                return empty_selection(&selection);
            }
            let max_notes = args.max_notes.unwrap_or(DEFAULT_MAX_NOTES);
            if count > max_notes {
                return failure(
                    "too_many_notes",
                    format!(
                        "{count} notes selected, more than max_notes ({max_notes}); narrow the \
                         selection or raise max_notes (--max-notes {count})"
                    ),
                );
            }

            // Where the rollup goes and how it is made are settled before any paid call.
            let target = match self.check_save_to(&args).await {
                Ok(target) => target,
                Err(output) => return output,
            };
            let (instructions, cite_notes) = match self.instructions(&args, target.as_deref()).await
            {
                Ok(instructions) => instructions.for_rollup(),
                Err(output) => return output,
            };
            if let Some(target) = &target {
                if let Err(output) = self.check_rewrite(target, &instructions).await {
                    return output;
                }
            }

            // Reading, summarizing (with its parts), and writing when there is somewhere to write.
            crate::progress::expect_steps(if target.is_some() { 3 } else { 2 });
            crate::progress::step(format!("reading {count} notes"));
            // Each note: its current summary, or its expanded text without its stale summaries.
            let mut document = String::new();
            let mut source = SourceLinks::none();
            let mut reused = Vec::new();
            let mut selection = selection;
            let mut included = Vec::with_capacity(count);
            // A dry run is a count before a paid run: it pays for nothing, not even the
            // pictures and recordings the notes embed (counted instead).
            let unpaid = UnpaidReads::over(self.context.attachments());
            let reader: &dyn AttachmentReader = if args.dry_run {
                &unpaid
            } else {
                self.context.attachments()
            };
            for path in std::mem::take(&mut selection.notes) {
                match self.note_body(&path, reader).await {
                    Ok(NoteBody::Own(summary)) => {
                        // The links the rollup may keep are the note's own, never its summary's:
                        // a URL a summary named (as code, say) is not laundered into a link.
                        match self.context.read_for_summary_with(&path, reader).await {
                            Ok(note) => source.add_text(&note.named),
                            Err(error) => {
                                match read_failure(&path, error.vault_error(), error.to_string()) {
                                    NoteReadFailure::LeftOut(entry) => {
                                        selection.left_out.push(entry);
                                        continue;
                                    }
                                    NoteReadFailure::Failed(error) => {
                                        return failure("read", format!("{path}: {error}"))
                                    }
                                }
                            }
                        }
                        reused.push(path.clone());
                        push_note(&mut document, &path, &summary);
                    }
                    Ok(NoteBody::Text(note)) => {
                        source.add_text(&note.named);
                        push_note(&mut document, &path, &note.text);
                    }
                    // A note deleted or made unreadable since it was selected is left out and
                    // said, like any entry the scan could not read.
                    Err(NoteReadFailure::LeftOut(entry)) => {
                        selection.left_out.push(entry);
                        continue;
                    }
                    Err(NoteReadFailure::Failed(error)) => {
                        return failure("read", format!("{path}: {error}"))
                    }
                }
                included.push(path);
            }
            selection.notes = included;
            let count = selection.notes.len();
            if count == 0 {
                return empty_selection(&selection);
            }

            let choice = self.context.engine_choice();
            let (engine, window) = match &choice.summarizer {
                Summarizer::Local => ("offline", None),
                Summarizer::Llm { context_tokens, .. } => ("llm", *context_tokens),
            };
            let tokens = estimate_tokens(&document);
            // A lower bound of the paid calls: the parts the window needs (one when it fits or the
            // window is unknown), and one merge when there is more than one part.
            let parts = match (engine, window) {
                ("offline", _) => 0,
                (_, Some(window)) => {
                    split_into_parts(&document, budget(window).prompt_tokens).len()
                }
                _ => 1,
            };
            let paid_calls = if parts > 1 { parts + 1 } else { parts };
            let mut details = json!({
                "engine": engine,
                "fell_back_to_local": choice.fell_back_to_local,
                "notes": selection.notes,
                "note_count": count,
                "reused_summaries": reused,
                "undated_left_out": selection.undated,
                "rollups_left_out": selection.rollups,
                "estimated_tokens": tokens,
                "prompt": instructions.prompt,
                "prompt_from": instructions.prompt_from,
                "language": instructions.language,
            });
            put_left_out(&mut details, &selection.left_out);
            if args.dry_run {
                let media = unpaid.media.load(std::sync::atomic::Ordering::Relaxed);
                details["dry_run"] = json!(true);
                details["paid_calls"] = json!(paid_calls);
                details["media_to_read"] = json!(media);
                let mut text = dry_run_text(
                    &selection.notes,
                    reused.len(),
                    paid_calls,
                    engine,
                    media,
                    &selection.rollups,
                );
                let mut record = json!({
                    "success": true,
                    "dry_run": true,
                    "notes": selection.notes,
                    "note_count": count,
                    "reused_summaries": reused.len(),
                    "paid_calls": paid_calls,
                    "engine": engine,
                });
                if let Some(target) = &target {
                    text.push_str(&would_be_written(target));
                    details["save_to"] = json!(target);
                    record["save_to"] = json!(target);
                }
                return ToolOutput::ok(text, details).with_record(record);
            }

            let focus = rollup_focus(args.focus.as_deref(), cite_notes);
            let request = SummaryRequest {
                instructions: &instructions,
                path: "rollup",
                content: &document,
                focus: Some(&focus),
                truncated_from: None,
                sentences: None,
                with_abstract: target.is_some() && instructions.into.property(),
                fact_check: self.context.config.summarize.fact_check,
            };
            crate::progress::step("summarizing");
            let generated = match choice.summarizer.summarize(&request).await {
                Ok(generated) => generated,
                Err(SummarizeError::Llm(error)) => {
                    let retry = llm_retry(&error);
                    return failure("llm", error.to_string()).with_retry(retry);
                }
                Err(error) => return failure("summarize", error.to_string()),
            };
            let Some(checked) = rollup_answer(
                &generated.text,
                generated.abstract_text,
                generated.fact_check.as_ref(),
                &selection.notes,
            ) else {
                return failure(
                    "nothing_to_summarize",
                    SummarizeError::NothingToSummarize.to_string(),
                );
            };
            let rollup = checked.summary.clone();
            // The rollup is the model's answer to what the notes say: made inert before it is
            // written or handed back (an agent may write it somewhere itself). Its links may point
            // where the notes point.
            let context = Arc::clone(&self.context);
            let abstract_text = checked.abstract_text;
            let (rollup, abstract_text) = match tokio::task::spawn_blocking(move || {
                // `source`: the selected notes' own text, summaries left out (above).
                let policy = context.output_policy();
                let abstract_text = abstract_text.map(|text| policy.property(&text, &source));
                (policy.summary(&rollup, &source), abstract_text)
            })
            .await
            {
                Ok(defused) => defused,
                Err(error) => return failure("interrupted", error.to_string()),
            };
            if let Some(key) = &self.context.config.llm.api_key {
                if holds_secret(rollup.as_str(), key.expose()) {
                    return failure(
                        "key_in_answer",
                        "the model's answer holds the API key (sent back split or escaped past the mask); nothing was written".to_string(),
                    );
                }
            }
            let defused = abstract_text.as_ref().map_or(rollup.defused(), |text| {
                rollup.defused().plus(text.defused())
            });
            details["summary_length"] = json!(rollup.chars());
            details["defused"] = defused.to_json();
            details["summarizer"] = generated.details;
            let mut not_found = 0;
            if let Some(report) = &checked.report {
                report.put_into(&mut details);
                not_found = report.unsupported.len();
            }
            let text = rollup.as_str().to_string();
            let mut record = json!({
                "success": true,
                "rollup": text,
                "notes": selection.notes,
                "note_count": count,
                "reused_summaries": reused.len(),
                "engine": engine,
            });
            if not_found > 0 {
                record["unsupported"] = json!(not_found);
            }
            if let Some(target) = target {
                crate::progress::step(format!("writing {target}"));
                let what = describe_selection(&args, from, to);
                let written = self
                    .save(&target, &what, rollup, abstract_text, &instructions)
                    .await;
                match written {
                    Ok(created) => details["created_folders"] = json!(created),
                    Err(message) => return failure("write", message),
                }
                details["save_to"] = json!(target);
                details["into"] = json!(instructions.into);
                record["save_to"] = json!(target);
            }
            ToolOutput::ok(text, details).with_record(record)
        }
        .await;
        if let Some(details) = output.details.as_object_mut() {
            details.insert("from".into(), json!(from.map(|day| day.to_string())));
            details.insert("to".into(), json!(to.map(|day| day.to_string())));
        }
        output
    }

    /// `summarize_notes Journal, 2026-11-16..2026-11-22 (depth 2) → Reviews/W47.md (dry run)`.
    fn render_call(&self, args: &SummarizeNotesArgs) -> String {
        // The days as the call will resolve them; a period that does not read shows no days
        // (the call itself says why).
        let (from, to) = days_of(args).unwrap_or((None, None));
        let mut line = format!("summarize_notes {}", describe_selection(args, from, to));
        if args.links_of.is_some() {
            line.push_str(&format!(" (depth {})", args.depth.unwrap_or(1)));
        }
        if let Some(save_to) = &args.save_to {
            line.push_str(&format!(" → {save_to}"));
        }
        if args.dry_run {
            line.push_str(" (dry run)");
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
            "✓ rollup of {} notes ({} summaries reused){}{}",
            output.details["note_count"],
            output.details["reused_summaries"]
                .as_array()
                .map_or(0, Vec::len),
            not_found_suffix(&output.details),
            defused_suffix(&output.details)
        )
    }

    /// `[✓ summarize_notes: 7 notes | rollup 812 chars]`.
    fn stub(&self, _args: &Value, output: &ToolOutput) -> ToolSummary {
        let sources = output
            .text
            .split("### Sources")
            .nth(1)
            .map_or(0, |s| s.lines().filter(|l| l.starts_with("- [[")).count());
        ToolSummary::success(
            Self::NAME,
            vec![
                format!("{sources} notes"),
                format!("rollup {} chars", output.text.chars().count()),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::left_out::LeftOutReason;

    /// A selected note deleted before its turn to be read (the deletion put between the
    /// selection and the read) is left out as deleted; a note still there is read.
    #[test]
    fn a_note_deleted_after_the_selection_is_left_out_not_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["A.md", "B.md"] {
            std::fs::write(dir.path().join(name), "# Note\n\nText.\n").unwrap();
        }
        let config = crate::config::Config {
            vault: Some(dir.path().to_path_buf()),
            ..crate::config::Config::default()
        };
        let context = Arc::new(ToolContext::new(config).unwrap());
        let selection = context
            .select_notes(&Criteria {
                paths: vec![".".into()],
                ..Criteria::default()
            })
            .unwrap();
        assert_eq!(selection.notes, ["A.md", "B.md"]);
        std::fs::remove_file(dir.path().join("B.md")).unwrap();

        let tool = SummarizeNotesTool::new(context);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        assert!(matches!(
            runtime.block_on(tool.note_body("A.md", tool.context.attachments())),
            Ok(NoteBody::Text(note)) if note.text.contains("Text.")
        ));
        match runtime.block_on(tool.note_body("B.md", tool.context.attachments())) {
            Err(NoteReadFailure::LeftOut(entry)) => {
                assert_eq!(entry.path, "B.md");
                assert_eq!(entry.reason, LeftOutReason::Deleted);
            }
            _ => panic!("a deleted note must be left out"),
        }
    }
}
