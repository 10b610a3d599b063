//! Whether a note's summary is still its summary, and what a run that leaves current
//! summaries alone does with each note: the one policy behind folder runs of `summarize_file`,
//! `--refresh`, `watch.refresh` and `vaultsum status`.
//!
//! The fingerprints themselves (what is hashed, where it is kept) are the vault layer's
//! (`vault/summary_fingerprint.rs`); this file decides from them.

use serde::Serialize;

use crate::config::SummaryInto;
use crate::summarizer::SUMMARIZE_PROMPT;
use crate::vault::content_hash;
pub use crate::vault::summary_fingerprint::{Freshness, SummaryState};

use super::context::{ContextError, ToolContext};

/// The language summaries are written in until prompts and languages are chosen per note:
/// the note's own.
const LANGUAGE: &str = "auto";

/// The identity of the instructions a summary is made with (the prompt and the language): a
/// summary made with other instructions is not current.
pub fn instructions_identity() -> String {
    content_hash(format!("{SUMMARIZE_PROMPT}\0{LANGUAGE}").as_bytes())
}

/// What a run that leaves current summaries alone may rewrite.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefreshPolicy {
    /// Replace stale summaries (`--refresh`).
    pub refresh: bool,
    /// Replace summaries written before fingerprints, too (`--refresh-unmarked`).
    pub refresh_unmarked: bool,
}

/// Why a note is left as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Its summary is current (or unmarked, which counts as current).
    UpToDate,
    /// Its summary was edited after it was written: never replaced by a refresh.
    EditedByHand,
    /// Its summary is stale and the run does not refresh.
    Stale,
}

impl Skip {
    /// The `skipped` text of the tool's result.
    pub fn reason(self) -> &'static str {
        match self {
            Skip::UpToDate => "up to date",
            Skip::EditedByHand => "summary edited by hand",
            Skip::Stale => "summary is stale; refresh to replace it",
        }
    }
}

/// What to do with a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Summarize it; `replace` removes its `## Summary` sections first.
    Write { replace: bool },
    /// Leave it.
    Skip(Skip),
}

/// The plan for a note whose summaries are `freshness`, written `into` the section, the
/// property or both, under `policy`. Only the summaries `into` writes count. A summary edited
/// by hand is never replaced; an unmarked one only with `refresh_unmarked`; a stale one only
/// with a refresh; a missing one is always written.
pub fn plan(freshness: Freshness, into: SummaryInto, policy: RefreshPolicy) -> Plan {
    let states: Vec<SummaryState> = [
        into.section().then_some(freshness.section),
        into.property().then_some(freshness.property),
    ]
    .into_iter()
    .flatten()
    .collect();
    let any = |state: SummaryState| states.contains(&state);
    let replace = into.section() && freshness.section != SummaryState::Missing;
    if any(SummaryState::Edited) {
        Plan::Skip(Skip::EditedByHand)
    } else if any(SummaryState::Unmarked) && !policy.refresh_unmarked {
        Plan::Skip(Skip::UpToDate)
    } else if states.iter().all(|s| *s == SummaryState::Missing) {
        Plan::Write { replace: false }
    } else if any(SummaryState::Stale) {
        if policy.refresh || policy.refresh_unmarked {
            Plan::Write { replace }
        } else {
            Plan::Skip(Skip::Stale)
        }
    } else if any(SummaryState::Missing) || any(SummaryState::Unmarked) {
        Plan::Write { replace }
    } else {
        Plan::Skip(Skip::UpToDate)
    }
}

/// The state of a note's summaries as one word: `missing` when it has none, else the worst of
/// its section's and its property's (edited, stale, unmarked, current).
pub fn overall(freshness: Freshness) -> SummaryState {
    use SummaryState::*;
    let (a, b) = (freshness.section, freshness.property);
    for state in [Edited, Stale, Unmarked, Current] {
        if a == state || b == state {
            return state;
        }
    }
    Missing
}

/// One note in `vaultsum status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NoteStatus {
    /// Vault-relative path.
    pub path: String,
    /// `present` or `missing`.
    pub summary: &'static str,
    /// `current`, `stale`, `edited`, `unmarked` or `missing` ([`overall`]).
    pub state: &'static str,
    /// The last `## Summary` section's state.
    pub section: &'static str,
    /// The summary property's state.
    pub property: &'static str,
}

/// `vaultsum status`: every note below a path, and how many are in each state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StatusReport {
    pub notes: Vec<NoteStatus>,
    /// Notes that could not be read, with why.
    pub unreadable: Vec<(String, String)>,
}

impl StatusReport {
    /// How many notes are in `state` (`missing`, `current`, …).
    pub fn count(&self, state: &str) -> usize {
        self.notes.iter().filter(|n| n.state == state).count()
    }
}

impl ToolContext {
    /// The state of the summaries of the note at vault-relative `relative` (all missing when
    /// the note does not exist yet, as a document's companion before its first summary).
    pub fn summary_freshness(&self, relative: &str) -> Result<Freshness, ContextError> {
        Ok(self.vault()?.summary_freshness(
            relative,
            &self.config.summarize.property,
            &instructions_identity(),
        )?)
    }

    /// What a refresh would do with the note at `relative`, writing where the configuration
    /// says (`summarize.into`): for the watcher, which refreshes only what this says to write.
    pub fn refresh_plan(
        &self,
        relative: &str,
        policy: RefreshPolicy,
    ) -> Result<Plan, ContextError> {
        let freshness = self.summary_freshness(relative)?;
        Ok(plan(freshness, self.config.summarize.into, policy))
    }

    /// The summary state of every note at or below `path` (a note or a folder; the whole vault
    /// when `None`), in path order. Reads the notes, asks no LLM.
    pub fn summary_status(&self, path: Option<&str>) -> Result<StatusReport, ContextError> {
        let vault = self.vault()?;
        let notes: Vec<String> = match path {
            None => vault
                .walk_notes("")?
                .into_iter()
                .map(|f| f.relative)
                .collect(),
            Some(input) => {
                let resolved = vault.resolve_input(input)?;
                if resolved.absolute().is_dir() {
                    vault
                        .walk_notes(resolved.relative())?
                        .into_iter()
                        .map(|f| f.relative)
                        .collect()
                } else {
                    vec![resolved.relative().to_string()]
                }
            }
        };
        let property = &self.config.summarize.property;
        let instructions = instructions_identity();
        let mut report = StatusReport::default();
        for note in notes {
            match vault.summary_freshness(&note, property, &instructions) {
                Ok(freshness) => {
                    let state = overall(freshness);
                    report.notes.push(NoteStatus {
                        summary: if state == SummaryState::Missing {
                            "missing"
                        } else {
                            "present"
                        },
                        state: state.name(),
                        section: freshness.section.name(),
                        property: freshness.property.name(),
                        path: note,
                    });
                }
                Err(error) => report.unreadable.push((note, error.to_string())),
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SummaryState::*;

    fn fresh(section: SummaryState, property: SummaryState) -> Freshness {
        Freshness { section, property }
    }

    const RUN: RefreshPolicy = RefreshPolicy {
        refresh: false,
        refresh_unmarked: false,
    };
    const REFRESH: RefreshPolicy = RefreshPolicy {
        refresh: true,
        refresh_unmarked: false,
    };
    const UNMARKED: RefreshPolicy = RefreshPolicy {
        refresh: false,
        refresh_unmarked: true,
    };

    #[test]
    fn a_folder_run_writes_missing_summaries_and_skips_the_rest() {
        let section = SummaryInto::Section;
        assert_eq!(
            plan(fresh(Missing, Missing), section, RUN),
            Plan::Write { replace: false }
        );
        for state in [Current, Unmarked] {
            assert_eq!(
                plan(fresh(state, Missing), section, RUN),
                Plan::Skip(Skip::UpToDate)
            );
        }
        assert_eq!(
            plan(fresh(Stale, Missing), section, RUN),
            Plan::Skip(Skip::Stale)
        );
    }

    #[test]
    fn a_refresh_replaces_stale_summaries_but_never_hand_edits() {
        let section = SummaryInto::Section;
        assert_eq!(
            plan(fresh(Stale, Missing), section, REFRESH),
            Plan::Write { replace: true }
        );
        assert_eq!(
            plan(fresh(Edited, Missing), section, REFRESH),
            Plan::Skip(Skip::EditedByHand)
        );
        assert_eq!(
            plan(fresh(Unmarked, Missing), section, REFRESH),
            Plan::Skip(Skip::UpToDate)
        );
        assert_eq!(
            plan(fresh(Unmarked, Missing), section, UNMARKED),
            Plan::Write { replace: true }
        );
        assert_eq!(
            plan(fresh(Edited, Missing), section, UNMARKED),
            Plan::Skip(Skip::EditedByHand)
        );
    }

    #[test]
    fn only_the_summaries_written_count() {
        // A section edited by hand does not stop the property from being written.
        assert_eq!(
            plan(fresh(Edited, Missing), SummaryInto::Property, RUN),
            Plan::Write { replace: false }
        );
        assert_eq!(
            plan(fresh(Current, Missing), SummaryInto::Both, RUN),
            Plan::Write { replace: true }
        );
        assert_eq!(
            plan(fresh(Current, Current), SummaryInto::Both, REFRESH),
            Plan::Skip(Skip::UpToDate)
        );
    }

    #[test]
    fn the_overall_state_is_the_worst() {
        assert_eq!(overall(fresh(Missing, Missing)), Missing);
        assert_eq!(overall(fresh(Current, Stale)), Stale);
        assert_eq!(overall(fresh(Unmarked, Missing)), Unmarked);
        assert_eq!(overall(fresh(Edited, Current)), Edited);
    }
}
