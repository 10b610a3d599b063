//! Whether a note's summary is still its summary, and what a run that leaves current
//! summaries alone does with each note: the one policy behind folder runs of `summarize_file`,
//! `--refresh`, `watch.refresh` and `vaultsum status`.
//!
//! The fingerprints themselves (what is hashed, where it is kept) are the vault layer's
//! (`vault/summary_fingerprint.rs`); this file decides from them. A summary is current only for
//! the instructions it was made with (`instructions.rs`: prompt and language).

use serde::Serialize;

use crate::config::SummaryInto;
use crate::summary::rollup::answer::reusable_summary;
use crate::vault::summary_fingerprint::freshness;
pub use crate::vault::summary_fingerprint::{Freshness, SummaryState};
use crate::vault::{Vault, VaultError};

use super::context::{ContextError, ToolContext};
use super::instructions::{CallChoice, Instructions, InstructionsError};
use super::left_out::{left_out_by_read, LeftOut};

use crate::summary::refresh_plan;
pub use crate::summary::refresh_plan::{Plan, RefreshPolicy, Skip};

/// The plan for a note whose summaries are `freshness`, written `into` the section, the
/// property or both, under `policy` (the engine's [`refresh_plan::plan`]).
pub fn plan(freshness: Freshness, into: SummaryInto, policy: RefreshPolicy) -> Plan {
    refresh_plan::plan(freshness, into.section(), into.property(), policy)
}

/// The state of a note's summaries as one word (the engine's [`Freshness::overall`]).
pub fn overall(freshness: Freshness) -> SummaryState {
    freshness.overall()
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusReport {
    pub notes: Vec<NoteStatus>,
    /// Entries the scan could not read (a symlink out of the vault, an unreadable file, a
    /// note deleted meanwhile, …), each with its reason: left out, never the end of the scan.
    pub left_out: Vec<LeftOut>,
    /// Notes read whose instructions could not be chosen (a prompt note that is missing, a
    /// frontmatter that does not parse), with why.
    pub unreadable: Vec<(String, String)>,
}

impl StatusReport {
    /// How many notes are in `state` (`missing`, `current`, …).
    pub fn count(&self, state: &str) -> usize {
        self.notes.iter().filter(|n| n.state == state).count()
    }
}

impl ToolContext {
    /// The text of the note at vault-relative `relative`, `None` when it does not exist (a
    /// document's companion before its first summary). Reads the disk: call it off the async
    /// workers.
    pub fn note_text(&self, relative: &str) -> Result<Option<String>, ContextError> {
        match self.vault()?.read_note_text(relative) {
            Ok(text) => Ok(Some(text)),
            Err(VaultError::NotFound(_)) => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    /// The state of the summaries of a note whose text is `text` (`None`: not written yet,
    /// every summary missing), for `instructions`.
    pub fn summary_freshness(&self, text: Option<&str>, instructions: &Instructions) -> Freshness {
        match text {
            Some(text) => freshness(
                text,
                &self.config.summarize.property,
                instructions.identity(),
            ),
            None => Freshness {
                section: SummaryState::Missing,
                property: SummaryState::Missing,
            },
        }
    }

    /// Why the watcher should not refresh the note at `relative` (`None`: refresh it): only a
    /// note with a summary that is stale, for the instructions chosen for it, is refreshed;
    /// a missing, current, unmarked or hand-edited summary is a reason to leave it. Reads
    /// the disk.
    pub fn refresh_existing(
        &self,
        relative: &str,
    ) -> Result<Option<&'static str>, InstructionsError> {
        let text = self.note_text(relative)?;
        let instructions =
            self.choose_instructions(relative, text.as_deref(), &CallChoice::default())?;
        let freshness = self.summary_freshness(text.as_deref(), &instructions);
        let written = [
            instructions.into.section().then_some(freshness.section),
            instructions.into.property().then_some(freshness.property),
        ];
        if written
            .iter()
            .flatten()
            .all(|s| *s == SummaryState::Missing)
        {
            return Ok(Some("it has no summary to refresh"));
        }
        let policy = RefreshPolicy {
            refresh: true,
            refresh_unmarked: false,
        };
        Ok(match plan(freshness, instructions.into, policy) {
            Plan::Skip(why) => Some(why.reason()),
            Plan::Write { .. } => None,
        })
    }

    /// The summary a rollup may use in place of the note at `relative`: its last `## Summary`
    /// section unless that is stale (a summary edited by hand is the person's and is used; an
    /// unmarked one counts as current). `None` when the note has none, or a stale one. Reads
    /// the disk.
    pub fn reusable_summary(&self, relative: &str) -> Result<Option<String>, InstructionsError> {
        let Some(text) = self.note_text(relative)? else {
            return Ok(None);
        };
        let instructions =
            self.choose_instructions(relative, Some(&text), &CallChoice::default())?;
        Ok(reusable_summary(
            &text,
            &self.config.summarize.property,
            instructions.identity(),
        ))
    }

    /// The summary state of every note at or below `path` (a note or a folder; the whole vault
    /// when `None`), in path order, each judged with the instructions chosen for it. Reads the
    /// notes, asks no LLM.
    pub fn summary_status(&self, path: Option<&str>) -> Result<StatusReport, ContextError> {
        let vault = self.vault()?;
        let folder = match path {
            None => String::new(),
            Some(input) => {
                let resolved = vault.resolve_input(input)?;
                if !resolved.absolute().is_dir() {
                    // A note named by itself: one not written yet has its summary missing.
                    let note = resolved.relative().to_string();
                    let mut report = StatusReport::default();
                    match self.note_text(&note) {
                        Ok(text) => self.add_status(&mut report, note, text.as_deref()),
                        Err(error) => report.unreadable.push((note, error.to_string())),
                    }
                    return Ok(report);
                }
                resolved.relative().to_string()
            }
        };
        let scan = vault.scan_notes(&folder)?;
        let notes = scan.files.into_iter().map(|f| f.relative).collect();
        Ok(self.status_of(vault, notes, scan.left_out))
    }

    /// The status of each of `notes` (found by a scan that left out `left_out`): a note that
    /// cannot be read when its turn comes (deleted meanwhile, unreadable) is left out too.
    fn status_of(
        &self,
        vault: &Vault,
        notes: Vec<String>,
        mut left_out: Vec<LeftOut>,
    ) -> StatusReport {
        let mut report = StatusReport::default();
        for note in notes {
            let text = match vault.read_note_text(&note) {
                Ok(text) => text,
                Err(error) => {
                    left_out.push(left_out_by_read(&note, &error));
                    continue;
                }
            };
            self.add_status(&mut report, note, Some(&text));
        }
        report.left_out = left_out;
        report
    }

    /// Adds the status of `note`, whose text is `text` (`None`: not written yet).
    fn add_status(&self, report: &mut StatusReport, note: String, text: Option<&str>) {
        match self.note_status(&note, text) {
            Ok(freshness) => {
                let state = overall(freshness);
                report.notes.push(NoteStatus {
                    summary: freshness.presence(),
                    state: state.name(),
                    section: freshness.section.name(),
                    property: freshness.property.name(),
                    path: note,
                });
            }
            Err(error) => report.unreadable.push((note, error.to_string())),
        }
    }

    fn note_status(
        &self,
        relative: &str,
        text: Option<&str>,
    ) -> Result<Freshness, InstructionsError> {
        let instructions = self.choose_instructions(relative, text, &CallChoice::default())?;
        Ok(self.summary_freshness(text, &instructions))
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

    /// A note deleted between the walk and its read (the deletion put exactly there) is left
    /// out as deleted, not reported missing a summary, and the rest of the scan goes on.
    #[test]
    fn a_note_deleted_while_status_scans_is_left_out_and_the_scan_finishes() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["A.md", "B.md", "C.md"] {
            std::fs::write(dir.path().join(name), "# Note\n\nText.\n").unwrap();
        }
        let config = crate::config::Config {
            vault: Some(dir.path().to_path_buf()),
            ..crate::config::Config::default()
        };
        let context = ToolContext::new(config).unwrap();
        let vault = context.vault().unwrap();
        let scan = vault.scan_notes("").unwrap();
        let notes: Vec<String> = scan.files.into_iter().map(|f| f.relative).collect();
        assert_eq!(notes, ["A.md", "B.md", "C.md"]);
        std::fs::remove_file(dir.path().join("B.md")).unwrap();

        let report = context.status_of(vault, notes, scan.left_out);
        let listed: Vec<&str> = report.notes.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(listed, ["A.md", "C.md"]);
        assert_eq!(
            report.left_out,
            [LeftOut {
                path: "B.md".into(),
                reason: crate::left_out::LeftOutReason::Deleted,
            }]
        );
        assert!(report.unreadable.is_empty());
    }
}
