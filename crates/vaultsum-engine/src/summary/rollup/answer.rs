//! What stands for a note in a rollup when it has a summary of its own, and the rollup made of
//! the model's answer: cleaned, its facts finished, each action item's source link put back,
//! the notes listed under `### Sources`. The binary's `summarize_notes` and the app's engine
//! both go through here.

use super::document::{link_of, restore_task_links};
use crate::summary::clean::clean_summary;
use crate::summary::fact_marks::{finish, Checked, FactCheckRun};
use crate::vault::summary_fingerprint::{freshness, last_section, SummaryState};

/// The summary a rollup may use in place of the note whose text is `text`: its last
/// `## Summary` section unless that is stale for the instructions `identity` (a summary edited
/// by hand is the person's and is used; an unmarked one counts as current). `None` when the
/// note has none, or a stale one. `property`: the summary property's name.
pub fn reusable_summary(text: &str, property: &str, identity: &str) -> Option<String> {
    let state = freshness(text, property, identity).section;
    if matches!(state, SummaryState::Missing | SummaryState::Stale) {
        return None;
    }
    last_section(text)
        .map(|(_, summary)| summary.trim().to_string())
        .filter(|summary| !summary.is_empty())
}

/// The rollup of the selected `notes` from the model's `answer` (and its abstract), checked
/// with `run`: `None` when the answer is empty once cleaned.
pub fn rollup_answer(
    answer: &str,
    abstract_text: Option<String>,
    run: Option<&FactCheckRun>,
    notes: &[String],
) -> Option<Checked> {
    let summary = clean_summary(answer)?;
    // Checked against what the model was given (the notes, or the summaries reused).
    let mut checked = finish(run, summary, abstract_text);
    // The offline engine shows a link by its text: the task's source becomes a link again.
    let mut rollup = restore_task_links(&checked.summary, notes);
    rollup.push_str("\n\n### Sources\n");
    for path in notes {
        rollup.push_str(&format!("- {}\n", link_of(path)));
    }
    checked.summary = rollup;
    Some(checked)
}
