//! What a written summary records about itself, and what that says now: is the summary still
//! the summary of the note as it is (current), was the note edited since (stale), was the
//! summary itself edited since it was written (edited by hand), or was it written before
//! summaries carried fingerprints (unmarked)?
//!
//! A fingerprint is two hashes: `note=`, of what was summarized (the note without its
//! summaries, see [`note_hash`], plus the identity of the instructions: prompt and language),
//! and `summary=`, of the summary text as written. It is kept where Obsidian's reading view does
//! not show it:
//! - in a `## Summary` section, as an HTML comment line right under the heading:
//!   `<!-- vaultsum: note=… summary=… -->`;
//! - for the summary property, in a second property `{property}_fingerprint: "note=… summary=…"`.

use sha2::{Digest, Sha256};

use super::frontmatter_edit::{frontmatter_block, property_value};
use super::markdown::map_note;
use super::note_facts::{summary_ranges, summary_sections};

/// Hex digits kept of each hash: 64 bits, plenty to tell versions of one note apart.
const HASH_HEX: usize = 16;

const MARKER_START: &str = "<!-- vaultsum:";
const MARKER_END: &str = "-->";

/// The property that holds the fingerprint of the summary property `property`.
pub fn fingerprint_property(property: &str) -> String {
    format!("{property}_fingerprint")
}

/// A summary's record of what it summarized and of its own text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// [`note_hash`] of the note that was summarized.
    pub note: String,
    /// [`summary_hash`] of the summary as written.
    pub summary: String,
}

impl Fingerprint {
    /// The fingerprint of `summary` written for a note whose [`note_hash`] is `note`.
    pub fn new(note: String, summary: &str) -> Fingerprint {
        Fingerprint {
            note,
            summary: summary_hash(summary),
        }
    }

    /// `note=… summary=…`, the property's value.
    pub fn value(&self) -> String {
        format!("note={} summary={}", self.note, self.summary)
    }

    /// The comment line under `## Summary` (without its line end).
    pub fn marker_line(&self) -> String {
        format!("{MARKER_START} {} {MARKER_END}", self.value())
    }

    /// Reads `note=… summary=…` (as [`Fingerprint::value`] writes it).
    pub fn parse(value: &str) -> Option<Fingerprint> {
        let mut note = None;
        let mut summary = None;
        for part in value.split_whitespace() {
            if let Some(hash) = part.strip_prefix("note=") {
                note = Some(hash.to_string());
            } else if let Some(hash) = part.strip_prefix("summary=") {
                summary = Some(hash.to_string());
            }
        }
        Some(Fingerprint {
            note: note?,
            summary: summary?,
        })
    }

    /// Reads the comment line `<!-- vaultsum: note=… summary=… -->`.
    pub fn parse_marker(line: &str) -> Option<Fingerprint> {
        let inner = line
            .trim()
            .strip_prefix(MARKER_START)?
            .strip_suffix(MARKER_END)?;
        Fingerprint::parse(inner)
    }
}

/// The hash of what a summary summarizes: the note without its summaries (its `## Summary`
/// sections, the summary property and its fingerprint; see `note_facts::summary_ranges`),
/// line ends and trailing blank space evened out, a frontmatter left empty by that dropped,
/// and the identity of the instructions (`instructions`: prompt and language), so a summary
/// made with other instructions is not current.
pub fn note_hash(text: &str, property: &str, instructions: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map = map_note(text);
    let mut kept = String::with_capacity(text.len());
    let mut pos = 0;
    for range in summary_ranges(text, &map, property) {
        if range.start < pos {
            continue;
        }
        kept.push_str(&text[pos..range.start]);
        pos = range.end;
    }
    kept.push_str(&text[pos..]);
    let mut kept = kept.replace("\r\n", "\n");
    // A frontmatter that held only the summary property was made for it: without it the note
    // is the note that had none.
    if let Some(block) = frontmatter_block(&kept) {
        if kept[block.inner.clone()].trim().is_empty() {
            kept.replace_range(block.whole, "");
        }
    }
    let mut hasher = Sha256::new();
    hasher.update(kept.trim().as_bytes());
    hasher.update(b"\0");
    hasher.update(instructions.as_bytes());
    short(hasher.finalize().as_slice())
}

/// The hash of a summary's text, line ends evened out and surrounding blank space ignored.
pub fn summary_hash(summary: &str) -> String {
    let normalized = summary.replace("\r\n", "\n");
    short(Sha256::digest(normalized.trim().as_bytes()).as_slice())
}

fn short(digest: &[u8]) -> String {
    let mut hex = hex::encode(digest);
    hex.truncate(HASH_HEX);
    hex
}

/// What one summary (a `## Summary` section, or the summary property) says now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SummaryState {
    /// There is none.
    Missing,
    /// Written before fingerprints: counted as current, refreshed only when asked.
    Unmarked,
    /// Its note is as it was summarized, with the same instructions.
    Current,
    /// Its note (or the instructions) changed since it was written.
    Stale,
    /// The summary's own text changed since it was written: someone edited it by hand.
    Edited,
}

impl SummaryState {
    /// `missing`, `unmarked`, `current`, `stale`, `edited`.
    pub fn name(self) -> &'static str {
        match self {
            SummaryState::Missing => "missing",
            SummaryState::Unmarked => "unmarked",
            SummaryState::Current => "current",
            SummaryState::Stale => "stale",
            SummaryState::Edited => "edited",
        }
    }
}

/// What a note's summaries say now: its last `## Summary` section and its summary property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    pub section: SummaryState,
    pub property: SummaryState,
}

impl Freshness {
    /// The state of a note's summaries as one word: `missing` when it has none, else the
    /// worst of its section's and its property's (edited, stale, unmarked, current).
    pub fn overall(self) -> SummaryState {
        use SummaryState::*;
        for state in [Edited, Stale, Unmarked, Current] {
            if self.section == state || self.property == state {
                return state;
            }
        }
        Missing
    }

    /// `present` when the note has a summary (section or property), else `missing`: what
    /// `summary_status` says first.
    pub fn presence(self) -> &'static str {
        if self.overall() == SummaryState::Missing {
            "missing"
        } else {
            "present"
        }
    }
}

/// The state of the note's summaries, for the instructions `instructions` (see [`note_hash`]).
/// The last `## Summary` section counts (the newest); a summary property whose fingerprint
/// cannot be read (a frontmatter that does not parse) is unmarked.
pub fn freshness(text: &str, property: &str, instructions: &str) -> Freshness {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut note = None;
    let mut note_hash_once = || {
        note.get_or_insert_with(|| note_hash(body, property, instructions))
            .clone()
    };
    let section = match last_section(body) {
        None => SummaryState::Missing,
        Some((None, _)) => SummaryState::Unmarked,
        Some((Some(print), summary)) => judge(&print, summary, &note_hash_once()),
    };
    let property_state = match property_value(body, property) {
        Ok(None) => SummaryState::Missing,
        Err(_) => SummaryState::Unmarked,
        Ok(Some(value)) => match property_value(body, &fingerprint_property(property)) {
            Ok(Some(print)) => match Fingerprint::parse(&print) {
                Some(print) => judge(&print, &value, &note_hash_once()),
                None => SummaryState::Unmarked,
            },
            _ => SummaryState::Unmarked,
        },
    };
    Freshness {
        section,
        property: property_state,
    }
}

/// The note's last `## Summary` section: its fingerprint (when it has one) and its summary text
/// (what follows the heading and the fingerprint line).
pub fn last_section(text: &str) -> Option<(Option<Fingerprint>, &str)> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let map = map_note(body);
    let range = summary_sections(body, &map).last()?.clone();
    let section = &body[range];
    // The heading line, then the marker line when there is one, then the summary.
    let after_heading = section.split_once('\n').map_or("", |(_, rest)| rest);
    let (marker, summary) = after_heading
        .split_once('\n')
        .unwrap_or((after_heading, ""));
    match Fingerprint::parse_marker(marker) {
        Some(print) => Some((Some(print), summary)),
        None => Some((None, after_heading)),
    }
}

fn judge(print: &Fingerprint, summary: &str, note: &str) -> SummaryState {
    if summary_hash(summary) != print.summary {
        SummaryState::Edited
    } else if print.note != note {
        SummaryState::Stale
    } else {
        SummaryState::Current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INSTRUCTIONS: &str = "prompt v1";

    fn with_section(body: &str, summary: &str) -> String {
        let print = Fingerprint::new(note_hash(body, "summary", INSTRUCTIONS), summary);
        format!(
            "{body}\n\n## Summary\n{}\n\n{summary}\n",
            print.marker_line()
        )
    }

    #[test]
    fn a_fresh_section_is_current_until_the_note_changes() {
        let note = with_section("# Plan\n\nShip on Monday.", "- Ship Monday.");
        assert_eq!(
            freshness(&note, "summary", INSTRUCTIONS).section,
            SummaryState::Current
        );
        let edited = note.replace("Ship on Monday.", "Ship on Tuesday.\n");
        assert_eq!(
            freshness(&edited, "summary", INSTRUCTIONS).section,
            SummaryState::Stale
        );
        assert_eq!(
            freshness(&note, "summary", "prompt v2").section,
            SummaryState::Stale
        );
    }

    #[test]
    fn a_summary_edited_by_hand_is_edited() {
        let note = with_section("Body.", "- Point.");
        let edited = note.replace("- Point.", "- Point, corrected.");
        assert_eq!(
            freshness(&edited, "summary", INSTRUCTIONS).section,
            SummaryState::Edited
        );
    }

    #[test]
    fn unmarked_and_missing() {
        let state = freshness("Body\n\n## Summary\n\nOld.\n", "summary", INSTRUCTIONS);
        assert_eq!(state.section, SummaryState::Unmarked);
        assert_eq!(state.property, SummaryState::Missing);
        let state = freshness("---\nsummary: x\n---\nBody", "summary", INSTRUCTIONS);
        assert_eq!(state.section, SummaryState::Missing);
        assert_eq!(state.property, SummaryState::Unmarked);
    }

    #[test]
    fn the_note_hash_ignores_summaries_line_ends_and_a_frontmatter_made_for_them() {
        let plain = note_hash("Body\n", "summary", INSTRUCTIONS);
        let with_property = "---\nsummary: \"x\"\nsummary_fingerprint: \"note=a summary=b\"\n---\nBody\r\n\n## Summary\n\nS\n";
        assert_eq!(note_hash(with_property, "summary", INSTRUCTIONS), plain);
        assert_ne!(note_hash("Body 2\n", "summary", INSTRUCTIONS), plain);
    }

    #[test]
    fn a_marker_reads_back() {
        let print = Fingerprint::new("0123456789abcdef".into(), "S");
        assert_eq!(Fingerprint::parse_marker(&print.marker_line()), Some(print));
        assert_eq!(Fingerprint::parse_marker("<!-- other -->"), None);
    }
}
