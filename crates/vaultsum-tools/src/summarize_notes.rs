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
use super::fact_check::{self, not_found_suffix};
use super::failure::llm_retry;
use super::generated_notes::GeneratedKind;
use super::instructions::{CallChoice, Instructions};
use super::left_out::{left_out_by_read, put_left_out, LeftOut};
use super::long_note::{budget, estimate_tokens, split_into_parts};
use super::rollup_selection::{named_period, Criteria, Day, Selection, SelectionError};
use super::stub::ToolSummary;
use super::summarize_file::clean_summary;
use super::summarizer::{SummarizeError, Summarizer, SummaryRequest};
use super::tool::{schema_for, ToolAnnotations, ToolOutput, TypedTool};
use super::unpaid_reads::UnpaidReads;
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
    Text(String),
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
            Ok(note) => Ok(NoteBody::Text(note.text)),
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

/// `# [[Note]]` and what stands for it, tasks carrying the note's link.
fn push_note(document: &mut String, path: &str, body: &str) {
    let body = with_source_on_tasks(body.trim(), &link_of(path));
    document.push_str(&format!("# {}\n\n{}\n\n", link_of(path), body));
}

/// The failure of a selection left empty, with what the scan left out in its details.
fn empty_selection(selection: &Selection) -> ToolOutput {
    let mut output = failure("empty_selection", empty_selection_message(selection));
    put_left_out(&mut output.details, &selection.left_out);
    output.details["rollups_left_out"] = json!(selection.rollups);
    output
}

/// The dry run's line naming the rollups vaultsum wrote that matched and were left out (empty
/// when there are none).
fn rollups_left_out_line(rollups: &[String]) -> String {
    if rollups.is_empty() {
        return String::new();
    }
    let links: Vec<String> = rollups.iter().map(|path| link_of(path)).collect();
    format!(
        "left out, rollups vaultsum wrote (never a source): {}\n",
        links.join(", ")
    )
}

/// Why nothing is left to roll up: no note matched, some had no date, some were left out.
fn empty_selection_message(selection: &Selection) -> String {
    let mut message = "no note matches the selection".to_string();
    if selection.undated > 0 {
        message.push_str(&format!(
            " ({} notes have no date: neither a daily note's name nor a `date` or `created` \
             property)",
            selection.undated
        ));
    }
    if !selection.rollups.is_empty() {
        message.push_str(&format!(
            "; {} rollups vaultsum wrote matched and were left out, since a rollup is never a \
             source of another: {}",
            selection.rollups.len(),
            selection.rollups.join(", ")
        ));
    }
    if !selection.left_out.is_empty() {
        let named: Vec<String> = selection.left_out.iter().map(LeftOut::describe).collect();
        message.push_str(&format!("; left out: {}", named.join(", ")));
    }
    message
}

fn failure(kind: &str, message: impl Into<String>) -> ToolOutput {
    ToolOutput::error(message.into(), json!({ "error": kind }))
}

/// What the model is told besides the focus: the document is many notes, and each task keeps
/// the link of its note.
fn rollup_focus(focus: Option<&str>, cite_notes: bool) -> String {
    let mut text = String::from(
        "This is not one note but several, each under a heading with its [[link]]: write one \
         summary of all of them together. Keep the ([[link]]) at the end of every action item, \
         so each names the note it came from.",
    );
    if cite_notes {
        text.push_str(
            " End every key point too with the ([[link]]) of the note or notes it comes from.",
        );
    }
    if let Some(focus) = focus.map(str::trim).filter(|f| !f.is_empty()) {
        text.push_str(" Emphasise: ");
        text.push_str(focus);
    }
    text
}

/// `body` with `(link)` after every open task that does not name it yet (`- [ ] Call Dana` →
/// `- [ ] Call Dana ([[Journal/2026-11-18]])`), so the rollup's action items say which note each
/// came from, with the LLM and the offline engine alike.
fn with_source_on_tasks(body: &str, link: &str) -> String {
    let mut out = String::with_capacity(body.len() + 64);
    for line in body.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content.trim_end_matches('\r'), &line[content.len()..]),
            None => (line, ""),
        };
        let task = content.trim_start();
        let open = ["- [ ] ", "* [ ] ", "+ [ ] "]
            .iter()
            .any(|marker| task.starts_with(marker));
        if open && !content.contains(link) {
            out.push_str(content.trim_end());
            out.push_str(&format!(" ({link})"));
            out.push_str(end);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// What a rollup covers, for its note's `rollup` property: `Journal, #client, 2026-11-16..2026-11-22`.
/// The days are the resolved ones (`from`, `to`), so a `period` is recorded as the days it
/// meant on the day it ran.
fn describe_selection(args: &SummarizeNotesArgs, from: Option<Day>, to: Option<Day>) -> String {
    let mut parts: Vec<String> = args.paths.clone();
    if let Some(tag) = &args.tag {
        parts.push(format!("#{}", tag.trim_start_matches('#')));
    }
    if from.is_some() || to.is_some() {
        let day = |day: Option<Day>| day.map(|day| day.to_string()).unwrap_or_default();
        parts.push(format!("{}..{}", day(from), day(to)));
    }
    if let Some(hub) = &args.links_of {
        parts.push(format!("links of {hub}"));
    }
    parts.join(", ")
}

/// `rollup` with each open task's trailing `(Name)` (a source link the offline engine showed as
/// its text) made the link `([[Folder/Name]])` again, when `Name` is a selected note's.
fn restore_task_links(rollup: &str, notes: &[String]) -> String {
    let mut out = String::with_capacity(rollup.len() + 64);
    for line in rollup.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let end = &line[content.len()..];
        let is_task = ["- [ ] ", "* [ ] "]
            .iter()
            .any(|marker| content.trim_start().starts_with(marker));
        let restored = is_task
            .then(|| {
                notes.iter().find_map(|path| {
                    let link = link_of(path);
                    let name = link
                        .trim_start_matches("[[")
                        .trim_end_matches("]]")
                        .rsplit('/')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    content
                        .strip_suffix(&format!("({name})"))
                        .map(|head| format!("{head}({link})"))
                })
            })
            .flatten();
        match restored {
            Some(content) => {
                out.push_str(&content);
                out.push_str(end);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// The link a rollup writes for a note: its path without the `.md` extension.
fn link_of(path: &str) -> String {
    let stem = path.strip_suffix(".md").unwrap_or(path);
    format!("[[{stem}]]")
}

fn parse_day(field: &str, value: &Option<String>) -> Result<Option<Day>, Box<ToolOutput>> {
    match value {
        None => Ok(None),
        Some(text) => Day::parse(text).map(Some).ok_or_else(|| {
            Box::new(failure(
                "invalid_arguments",
                format!("{field}: {text:?} is not a date; write it as YYYY-MM-DD"),
            ))
        }),
    }
}

/// The first and last day asked for: `from`/`to`, or the `period` counted from `today`.
fn days_of(args: &SummarizeNotesArgs) -> Result<(Option<Day>, Option<Day>), Box<ToolOutput>> {
    let Some(period) = args.period.as_deref() else {
        return Ok((parse_day("from", &args.from)?, parse_day("to", &args.to)?));
    };
    if args.from.is_some() || args.to.is_some() {
        return Err(Box::new(failure(
            "invalid_arguments",
            "give either period or from/to, not both",
        )));
    }
    let today = parse_day("today", &args.today)?.unwrap_or_else(Day::today);
    named_period(period, today)
        .map(|(first, last)| (Some(first), Some(last)))
        .ok_or_else(|| {
            Box::new(failure(
                "invalid_arguments",
                format!(
                    "period: {period:?} is not a period; write this-week, last-week, \
                     this-month, last-month, 2026-W47, 2026-11 or 7d"
                ),
            ))
        })
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
                            Ok(note) => source.add_text(&note.text),
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
                    Ok(NoteBody::Text(text)) => {
                        source.add_text(&text);
                        push_note(&mut document, &path, &text);
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
                let calls = if paid_calls == 1 { "call" } else { "calls" };
                let mut text = format!(
                    "{count} notes selected ({} with a current summary reused); {paid_calls} paid \
                     {calls} at least ({engine} engine)",
                    reused.len()
                );
                if media > 0 {
                    text.push_str(&format!(
                        ", and {media} embedded pictures or recordings to describe with the \
                         vision and transcription models (those already described cost nothing)"
                    ));
                }
                text.push_str(":\n");
                for path in &selection.notes {
                    text.push_str(&format!("- {}\n", link_of(path)));
                }
                text.push_str(&rollups_left_out_line(&selection.rollups));
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
                    text.push_str(&format!("would be written into {target}\n"));
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
            let Some(summary) = clean_summary(&generated.text) else {
                return failure(
                    "nothing_to_summarize",
                    SummarizeError::NothingToSummarize.to_string(),
                );
            };
            // Checked against what the model was given (the notes, or the summaries reused).
            let checked = fact_check::finish(
                generated.fact_check.as_ref(),
                summary,
                generated.abstract_text,
            );
            // The offline engine shows a link by its text: the task's source becomes a link again.
            let mut rollup = restore_task_links(&checked.summary, &selection.notes);
            rollup.push_str("\n\n### Sources\n");
            for path in &selection.notes {
                rollup.push_str(&format!("- {}\n", link_of(path)));
            }
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
            Ok(NoteBody::Text(text)) if text.contains("Text.")
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
