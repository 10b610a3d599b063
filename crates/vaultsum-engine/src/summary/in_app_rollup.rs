//! A rollup made by the engine inside Obsidian: the binary's `summarize_notes` with no config
//! file, for the selections the plugin makes (a period of daily notes, a tag, the links of a
//! hub note), offline or through a model ([`super::in_app_llm`]), saved into a rollup note.
//!
//! The host gives the vault's file names and, as they are asked for, the notes' texts and the
//! Obsidian settings that name daily notes and excluded files; the engine selects (the binary's
//! `rollup::selection`), builds the document (`rollup::document`), summarizes it, finishes the
//! answer (`rollup::answer`) and composes the rollup note (`vault::generated_note`), which the
//! host writes. What the binary does that the app does not: `paths`, a prompt note, a language
//! other than the notes', the summary property, `watch.exclude`.

use std::collections::HashSet;

use super::defaults;
use super::fact_marks::FactCheckRun;
use super::in_app::{self, AppInstructions};
use super::offline::{self, OfflineRequest};
use super::rollup::answer::{reusable_summary, rollup_answer};
use super::rollup::days::Day;
use super::rollup::document::{describe, push_note, rollup_focus};
use super::rollup::selection::{linked_notes, pick, DailyNotes, Pick, ROLLUP_OWNER};
use crate::vault::exclusions::Exclusions;
use crate::vault::expand::Expansion;
use crate::vault::generated_note::{check_own, generated_seed, GeneratedMark, Owner};
use crate::vault::index::NoteIndex;
use crate::vault::obsidian_settings::ObsidianSettings;
use crate::vault::output_policy::{DefusedText, OutputPolicy, SourceLinks};
use crate::vault::policy::{is_hidden, is_note_name, is_visible_note, not_a_folder};
use crate::vault::summary_edit::{EditRefused, SectionEdit, SummaryEdit};

/// What a rollup draws on and where it goes.
#[derive(Debug, Clone, Default)]
pub struct RollupAsk {
    pub tag: Option<String>,
    pub from: Option<Day>,
    pub to: Option<Day>,
    pub links_of: Option<String>,
    /// Link steps followed from `links_of` (at least 1).
    pub depth: usize,
    pub focus: Option<String>,
    /// The call's prompt (a preset).
    pub prompt: Option<String>,
    /// The rollup note, vault-relative.
    pub save_to: Option<String>,
}

/// Why a rollup was not made: the kind `summarize_notes` names it by, and the words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollupFailure {
    pub kind: &'static str,
    pub message: String,
}

impl RollupFailure {
    fn new(kind: &'static str, message: impl Into<String>) -> RollupFailure {
        RollupFailure {
            kind,
            message: message.into(),
        }
    }
}

/// The notes selected and what was left out, as `summarize_notes` reports them.
#[derive(Debug, Clone, Default)]
pub struct Selected {
    pub notes: Vec<String>,
    pub undated: usize,
    pub rollups: Vec<String>,
}

/// What the host gives the engine of its vault: the file names, and each text asked for
/// (`None`: not given yet, or unreadable; the host knows which and asks again).
pub struct AppNotes<'a> {
    pub index: &'a NoteIndex,
    pub text: &'a dyn Fn(&str) -> Option<String>,
    /// A note's expansion for a summary (its own summaries left out), `None` as `text`.
    pub expanded: &'a dyn Fn(&str) -> Option<Expansion>,
}

/// The settings files a selection reads, vault-relative: Obsidian's (templates, excluded
/// files), then the daily notes' (Periodic Notes, Daily Notes).
pub fn settings_files() -> Vec<&'static str> {
    let mut files: Vec<&str> = crate::vault::obsidian_settings::SETTINGS_FILES.to_vec();
    files.push(super::rollup::selection::PERIODIC_NOTES_SETTINGS);
    files.push(super::rollup::selection::DAILY_NOTES_SETTINGS);
    files
}

/// The notes `ask` selects, in path order: visible notes not in Obsidian's "Excluded files",
/// narrowed by the hub's links, the tag and the days; rollups vaultsum wrote named apart.
pub fn select(ask: &RollupAsk, notes: &AppNotes<'_>) -> Result<Selected, RollupFailure> {
    let settings_text = |file: &str| (notes.text)(file);
    let texts: Vec<Option<String>> = settings_files().iter().map(|f| settings_text(f)).collect();
    let obsidian = ObsidianSettings::from_texts([
        texts[0].as_deref(),
        texts[1].as_deref(),
        texts[2].as_deref(),
    ]);
    // No `watch.exclude` in the app: only Obsidian's own list.
    let excluded = Exclusions::new(&obsidian, &[])
        .map_err(|error| RollupFailure::new("selection", error.to_string()))?;
    let daily = DailyNotes::of(texts[3].as_deref(), texts[4].as_deref());
    let mut candidates: Vec<String> = notes
        .index
        .iter()
        .filter(|rel| is_visible_note(rel) && excluded.check(rel).is_none())
        .map(str::to_string)
        .collect();
    candidates.sort();
    if let Some(hub) = &ask.links_of {
        let not_found = || {
            RollupFailure::new(
                "selection",
                format!("links_of: {hub} is not a note of the vault"),
            )
        };
        // A vault path, as the binary reads `links_of`.
        let start = notes
            .index
            .iter()
            .find(|path| *path == hub.trim_start_matches('/'))
            .ok_or_else(not_found)?
            .to_string();
        let linked = linked_notes(notes.index, &start, ask.depth.max(1), |note| {
            (notes.text)(note)
        })
        .ok_or_else(not_found)?;
        candidates.retain(|rel| linked.contains(rel));
    }
    let mut selected = Selected::default();
    for rel in candidates {
        let Some(text) = (notes.text)(&rel) else {
            continue;
        };
        match pick(&rel, &text, ask.tag.as_deref(), ask.from, ask.to, &daily) {
            Pick::Note => selected.notes.push(rel),
            Pick::Rollup => selected.rollups.push(rel),
            Pick::Undated => selected.undated += 1,
            Pick::Unmatched => {}
        }
    }
    Ok(selected)
}

/// The document of the selected notes, with what the rollup's links may point at and the
/// notes whose own current summary stands for them.
pub struct RollupDocument {
    pub document: String,
    pub source: SourceLinks,
    pub reused: Vec<String>,
}

/// Each selected note as the binary puts it in a rollup: its own current summary (for the
/// instructions chosen for it), or its expanded text, under a heading with its link.
pub fn document(
    selected: &Selected,
    notes: &AppNotes<'_>,
) -> Result<RollupDocument, RollupFailure> {
    let mut document = String::new();
    let mut source = SourceLinks::none();
    let mut reused = Vec::new();
    for path in &selected.notes {
        let text = (notes.text)(path).unwrap_or_default();
        let instructions = in_app::choose(&text, None)
            .map_err(|error| RollupFailure::new("read", format!("{path}: {error}")))?;
        let Some(expanded) = (notes.expanded)(path) else {
            continue;
        };
        // What the note names, not a model's reading of its pictures (`Expansion::named`).
        source.add_text(&expanded.named);
        match reusable_summary(&text, defaults::SUMMARY_PROPERTY, &instructions.identity()) {
            Some(summary) => {
                reused.push(path.clone());
                push_note(&mut document, path, &summary);
            }
            None => push_note(&mut document, path, &expanded.text),
        }
    }
    Ok(RollupDocument {
        document,
        source,
        reused,
    })
}

/// The instructions of a rollup: the call's preset, else the default (the binary with no
/// config file; a rollup has no note of its own to name one).
pub fn instructions(ask: &RollupAsk) -> Result<AppInstructions, RollupFailure> {
    in_app::choose("", ask.prompt.as_deref())
        .map_err(|error| RollupFailure::new("prompt", error.to_string()))
}

/// The focus the model (or the offline engine) is given.
pub fn focus(ask: &RollupAsk) -> String {
    rollup_focus(ask.focus.as_deref(), defaults::CITE_SECTIONS)
}

/// Checks, before any paid call, that the rollup may be written into `target` whose text is
/// `existing` (`None`: it does not exist): a note name, not hidden, no file where a folder on
/// its way must be (`is_file`: whether the vault has a file of that name), a rollup's note when
/// it exists, its rollup not edited by hand.
pub fn check_target(
    target: &str,
    existing: Option<&str>,
    is_file: &dyn Fn(&str) -> bool,
) -> Result<(), RollupFailure> {
    // A vault path as the vault lists it: no way up or out, no `.` or empty part, no `\`.
    let confined = !target.starts_with('/')
        && !target.contains('\\')
        && target
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..");
    if !confined {
        return Err(RollupFailure::new(
            "save_to",
            format!("path escapes the vault or is not a vault path: {target}"),
        ));
    }
    if !is_note_name(target) {
        return Err(RollupFailure::new(
            "save_to",
            format!("not a note (only .md, .markdown and .txt can be written): {target}"),
        ));
    }
    if is_hidden(target) {
        return Err(RollupFailure::new(
            "save_to",
            format!("refusing to write a hidden file: {target}"),
        ));
    }
    let mut folder = String::new();
    for part in target
        .split('/')
        .rev()
        .skip(1)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        if !folder.is_empty() {
            folder.push('/');
        }
        folder.push_str(part);
        if is_file(&folder) {
            return Err(RollupFailure::new("save_to", not_a_folder(&folder)));
        }
    }
    generated_seed(target, existing, rollup_owner(), &[])
        .map_err(|error| RollupFailure::new("save_to", error.to_string()))?;
    if let Some(text) = existing {
        check_own(target, text, true, None)
            .map_err(|error| RollupFailure::new("save_to_edited", error.to_string()))?;
    }
    Ok(())
}

fn rollup_owner() -> Owner<'static> {
    Owner {
        key: ROLLUP_OWNER,
        value: None,
    }
}

/// The offline engine's answer for `document`, with its fact check.
pub fn offline_answer(
    document: &str,
    focus: &str,
    instructions: AppInstructions,
) -> Result<(String, Option<FactCheckRun>), RollupFailure> {
    let request = OfflineRequest {
        path: "rollup".to_string(),
        content: document.to_string(),
        sentences: instructions.offline_sentences(),
        focus: Some(focus.to_string()),
        cite_sections: false,
        with_abstract: false,
        fact_check: Some(defaults::FACT_CHECK),
    };
    let answer = offline::answer(&request)
        .ok_or_else(|| RollupFailure::new("nothing_to_summarize", offline::NOTHING_TO_SUMMARIZE))?;
    Ok((answer.text, answer.fact_check))
}

/// The rollup as written: the answer finished (`rollup::answer`), made inert; its links may
/// point where the notes point.
pub fn finished(
    answer: &str,
    run: Option<&FactCheckRun>,
    selected: &Selected,
    source: &SourceLinks,
) -> Result<DefusedText, RollupFailure> {
    let checked = rollup_answer(answer, None, run, &selected.notes)
        .ok_or_else(|| RollupFailure::new("nothing_to_summarize", offline::NOTHING_TO_SUMMARIZE))?;
    Ok(OutputPolicy::default().summary(&checked.summary, source))
}

/// The rollup note's new bytes: `rollup` as its marked `## Summary`, `rollup: "<what>"` marking
/// it; a new note when `existing` is `None`, else its own summary replaced where it stands.
pub fn compose_note(
    target: &str,
    existing: Option<&str>,
    ask: &RollupAsk,
    rollup: &DefusedText,
) -> Result<Vec<u8>, EditRefused> {
    let what = describe(
        &[],
        ask.tag.as_deref(),
        ask.from,
        ask.to,
        ask.links_of.as_deref(),
    );
    let properties = [(ROLLUP_OWNER, what.as_str())];
    let seed = generated_seed(target, existing, rollup_owner(), &properties)?;
    let mark = GeneratedMark::of(rollup.as_str()).line();
    let mut edit = SummaryEdit {
        section: Some(SectionEdit {
            summary: rollup,
            marker: Some(&mark),
            replace: false,
        }),
        property: None,
        properties: &[],
        generated: true,
    };
    match seed {
        Some(seed) => edit.compose(target, seed.as_bytes(), seed.as_bytes()),
        None => {
            edit.properties = &properties;
            let text = existing.unwrap_or_default().as_bytes();
            edit.compose(target, text, text)
        }
    }
}

/// The paid calls a rollup takes at the least: none offline, one with a model (the app sends a
/// rollup in one request).
pub fn paid_calls(offline: bool) -> usize {
    usize::from(!offline)
}

/// Notes named once each (for the host's reads).
pub fn unique(paths: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    paths
        .into_iter()
        .filter(|p| seen.insert(p.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_files(_: &str) -> bool {
        false
    }

    #[test]
    fn a_rollup_note_is_a_vault_path_and_not_a_persons_note() {
        for outside in [
            "../Outside/R.md",
            "/R.md",
            "./R.md",
            "Reviews/../R.md",
            "a\\b.md",
            "Reviews//R.md",
        ] {
            let refused = check_target(outside, None, &no_files).unwrap_err();
            assert_eq!(refused.kind, "save_to", "{outside}");
        }
        assert!(check_target(".obsidian/R.md", None, &no_files).is_err());
        assert!(check_target("Reviews/R.md", None, &no_files).is_ok());
        let person = check_target("Reviews/R.md", Some("# Mine\n"), &no_files).unwrap_err();
        assert!(
            person.message.contains("is not a note vaultsum wrote"),
            "{}",
            person.message
        );
    }

    #[test]
    fn a_file_where_a_folder_must_be_is_refused_before_anything_is_paid() {
        let reviews_is_a_file = |path: &str| path == "Reviews";
        let refused = check_target("Reviews/2026/R.md", None, &reviews_is_a_file).unwrap_err();
        assert_eq!(refused.kind, "save_to");
        assert_eq!(
            refused.message,
            "Reviews exists and is not a folder, so no note can be created inside it"
        );
        let deeper = |path: &str| path == "Reviews/2026";
        assert!(check_target("Reviews/2026/R.md", None, &deeper).is_err());
        // The note itself being a file is the rewrite, not a folder in the way.
        let itself = |path: &str| path == "Reviews/R.md";
        assert!(check_target("Reviews/R.md", None, &itself).is_ok());
    }
}
