//! Which notes a rollup (`summarize_notes`) draws on: by paths, tag, dates and the links of a
//! hub note, every criterion given narrowing the selection. Hidden notes, Obsidian's "Excluded
//! files" and the `watch.exclude` globs are never selected (`vault/exclusions.rs`), nor are the
//! rollups vaultsum wrote (a `rollup` property), which are named instead.

use std::collections::BTreeSet;

use super::context::{ContextError, ToolContext};
use crate::left_out::{left_out_by_read, LeftOut};
pub use crate::summary::rollup::days::{named_period, period, Day};
use crate::summary::rollup::selection::{
    linked_notes, pick, DailyNotes, Pick, DAILY_NOTES_SETTINGS, PERIODIC_NOTES_SETTINGS,
};
use crate::vault::exclusions::Exclusions;
use crate::vault::policy::is_visible_note;

/// What to select; `None`/empty means "not narrowed by this".
#[derive(Debug, Clone, Default)]
pub struct Criteria {
    pub paths: Vec<String>,
    pub tag: Option<String>,
    pub from: Option<Day>,
    pub to: Option<Day>,
    pub links_of: Option<String>,
    pub depth: usize,
}

/// The notes selected, in path order, the notes left out of a date range for having no date,
/// the rollups vaultsum wrote that matched and were left out, and the entries the scan could
/// not read (the caller says them all in `details`).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub notes: Vec<String>,
    pub undated: usize,
    /// Notes with a `rollup` property (rollups vaultsum wrote, `generated_notes.rs`) that every
    /// criterion matched: never a source, or each rollup would summarize the ones before it.
    pub rollups: Vec<String>,
    pub left_out: Vec<LeftOut>,
}

/// Today in UTC (the engine's days are counted from a day the host gives).
pub fn today() -> Day {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Day((seconds / 86_400) as i64)
}

/// Why a selection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    #[error(transparent)]
    Context(#[from] ContextError),
    #[error("links_of: {0} is not a note of the vault")]
    HubNotFound(String),
    #[error("{0}")]
    BadExclude(String),
}

impl ToolContext {
    /// The notes matching every given criterion, in path order.
    pub fn select_notes(&self, criteria: &Criteria) -> Result<Selection, SelectionError> {
        let vault = self.vault()?;
        // What the person excluded in Obsidian or from watch is never selected either.
        let excluded = Exclusions::new(&vault.obsidian_settings(), &self.config.watch.exclude)
            .map_err(|e| SelectionError::BadExclude(e.to_string()))?;
        let mut candidates: BTreeSet<String> = BTreeSet::new();
        // One entry the scan may not read (a symlink out of the vault, a loop, a note deleted
        // meanwhile) is left out and said, never the end of the rollup.
        let mut left_out: Vec<LeftOut> = Vec::new();
        if criteria.paths.is_empty() {
            let scan = vault.scan_notes("").map_err(ContextError::from)?;
            left_out.extend(scan.left_out);
            candidates.extend(scan.files.into_iter().map(|note| note.relative));
        } else {
            let targets = self.expand_targets(&criteria.paths)?;
            left_out.extend(targets.left_out);
            for target in targets.notes {
                let relative = vault.resolve_input(&target).map_err(ContextError::from)?;
                candidates.insert(relative.relative().to_string());
            }
        }
        candidates.retain(|rel| is_visible_note(rel) && excluded.check(rel).is_none());
        left_out.retain(|entry| excluded.check(entry.path.trim_end_matches('/')).is_none());
        if let Some(hub) = &criteria.links_of {
            let not_found = || SelectionError::HubNotFound(hub.to_string());
            let start = vault.resolve_input(hub).map_err(|_| not_found())?;
            let read = |note: &str| {
                let path = vault.path(note).ok()?;
                let bytes = vault.read_bytes(&path).ok()?;
                Some(String::from_utf8_lossy(&bytes).into_owned())
            };
            let linked = linked_notes(
                &vault.index(),
                start.relative(),
                criteria.depth.max(1),
                read,
            )
            .ok_or_else(not_found)?;
            candidates.retain(|rel| linked.contains(rel));
        }
        let settings = |relative: &str| {
            let path = vault.path(relative).ok()?;
            String::from_utf8(vault.read_bytes(&path).ok()?).ok()
        };
        let daily = DailyNotes::of(
            settings(PERIODIC_NOTES_SETTINGS).as_deref(),
            settings(DAILY_NOTES_SETTINGS).as_deref(),
        );
        let mut undated = 0;
        let mut notes = Vec::new();
        let mut rollups = Vec::new();
        for rel in candidates {
            // Every candidate is read: its properties say whether it is a rollup.
            let read = vault.path(&rel).and_then(|path| vault.read_bytes(&path));
            let text = match read {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => {
                    left_out.push(left_out_by_read(&rel, &error));
                    continue;
                }
            };
            match pick(
                &rel,
                &text,
                criteria.tag.as_deref(),
                criteria.from,
                criteria.to,
                &daily,
            ) {
                Pick::Note => notes.push(rel),
                Pick::Rollup => rollups.push(rel),
                Pick::Undated => undated += 1,
                Pick::Unmatched => {}
            }
        }
        Ok(Selection {
            notes,
            undated,
            rollups,
            left_out,
        })
    }
}
