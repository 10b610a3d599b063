//! What a run does with a note's summaries: write it, replace it, or leave it and why (a
//! summary edited by hand is never replaced; a stale one only when the run refreshes).

use crate::vault::summary_fingerprint::{Freshness, SummaryState};

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

/// The plan for a note whose summaries are `freshness`, written into the `section`, the
/// `property` or both, under `policy`. Only the summaries `into` writes count. A summary edited
/// by hand is never replaced; an unmarked one only with `refresh_unmarked`; a stale one only
/// with a refresh; a missing one is always written.
pub fn plan(freshness: Freshness, section: bool, property: bool, policy: RefreshPolicy) -> Plan {
    let states: Vec<SummaryState> = [
        section.then_some(freshness.section),
        property.then_some(freshness.property),
    ]
    .into_iter()
    .flatten()
    .collect();
    let any = |state: SummaryState| states.contains(&state);
    let replace = section && freshness.section != SummaryState::Missing;
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

/// What a folder run (`only`: `missing`, `stale`, `missing_and_stale`) does with one note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderChoice {
    /// Summarized: `stale` (a summary replaced) or `missing`; `replace` removes its sections.
    Write { kind: &'static str, replace: bool },
    /// Left as it is, and why (`up to date`, `no summary to refresh`, …).
    Skip(&'static str),
}

/// The choice for a note whose summaries are `freshness`, in a run over `only` (`stale` and
/// `missing_and_stale` refresh stale summaries; only `stale` leaves notes without one).
pub fn folder_choice(
    freshness: Freshness,
    section: bool,
    property: bool,
    only: &str,
) -> FolderChoice {
    let policy = RefreshPolicy {
        refresh: only != "missing",
        refresh_unmarked: false,
    };
    let written: Vec<SummaryState> = [
        section.then_some(freshness.section),
        property.then_some(freshness.property),
    ]
    .into_iter()
    .flatten()
    .collect();
    let has_none = written.iter().all(|s| *s == SummaryState::Missing);
    match plan(freshness, section, property, policy) {
        Plan::Skip(why) => FolderChoice::Skip(why.reason()),
        Plan::Write { .. } if has_none && only == "stale" => {
            FolderChoice::Skip("no summary to refresh")
        }
        Plan::Write { replace } => FolderChoice::Write {
            kind: if written.contains(&SummaryState::Stale) {
                "stale"
            } else {
                "missing"
            },
            replace,
        },
    }
}
