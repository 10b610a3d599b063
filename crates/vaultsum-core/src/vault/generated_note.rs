//! Notes vaultsum writes for itself (a rollup's `save_to`, a web page summarized into the
//! vault): created whole when absent; when present, rewritten only when it is that generated
//! note (its owner property says so), never a person's note of the same name.
//!
//! Rewriting one replaces exactly the bytes vaultsum wrote, never a byte a person added. Each
//! part vaultsum writes carries a mark of itself ([`GeneratedMark`]): the `## Summary` section a
//! comment line under its heading, `<!-- vaultsum: generated summary=… lines=… -->` (the hash of
//! the summary and how many lines it has, so where it ends is known), the summary property a
//! `{property}_fingerprint: "generated summary=…"`. A part whose mark still holds is replaced in
//! place, with everything before and after it (a person's line typed under the rollup
//! included) kept byte for byte; a part edited by hand, or one without a mark (written by hand,
//! or by a vaultsum from before the marks), refuses the rewrite whole
//! ([`VaultError::GeneratedEdited`]), since what is the person's in it cannot be told apart.
//! The mark is not a summary fingerprint (`summary_fingerprint.rs`): a generated note's
//! summary is never "stale" to `summarize_file`'s refreshes, so they never rewrite it.

use std::ops::Range;

use super::error::VaultError;
use super::frontmatter_edit::{property_value, set_property};
use super::markdown::map_note;
use super::note_facts::summary_sections;
use super::paths::VaultPath;
use super::summary_fingerprint::{fingerprint_property, summary_hash};
use super::write::{
    create_with_summary, write_summary, PropertyEdit, SectionEdit, SummaryEdit, WriteOutcome,
};
use super::Vault;

/// Which generated note a note must be to be rewritten: its `key` property, and the value it
/// must hold (`None`: any value).
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    /// The property that marks the note as generated (`rollup`, `source`).
    pub key: &'a str,
    /// The value it must hold (the URL of a web page's note); `None` accepts any.
    pub value: Option<&'a str>,
}

impl Owner<'_> {
    /// Whether `note`'s text is that generated note.
    pub fn owns(&self, note: &str) -> bool {
        match property_value(note, self.key) {
            Ok(Some(found)) => self.value.is_none_or(|want| want == found),
            _ => false,
        }
    }
}

const MARK_START: &str = "<!-- vaultsum:";
const MARK_END: &str = "-->";
const MARK_KIND: &str = "generated";

/// What a generated note's summary records of itself: the hash of its text
/// ([`summary_hash`]) and how many lines it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedMark {
    /// [`summary_hash`] of the summary as written.
    pub summary: String,
    /// Its lines, the first right after the blank line under the mark.
    pub lines: usize,
}

impl GeneratedMark {
    /// The mark of `summary` as a write puts it into a note (trimmed, line ends evened out).
    pub fn of(summary: &str) -> GeneratedMark {
        let text = summary.trim().replace("\r\n", "\n");
        GeneratedMark {
            summary: summary_hash(&text),
            lines: text.split('\n').count(),
        }
    }

    /// `generated summary=… lines=…`, the property fingerprint's value.
    pub fn value(&self) -> String {
        format!("{MARK_KIND} summary={} lines={}", self.summary, self.lines)
    }

    /// The comment line under `## Summary` (without its line end).
    pub fn line(&self) -> String {
        format!("{MARK_START} {} {MARK_END}", self.value())
    }

    /// Reads [`GeneratedMark::value`].
    pub fn parse(value: &str) -> Option<GeneratedMark> {
        let mut parts = value.split_whitespace();
        if parts.next()? != MARK_KIND {
            return None;
        }
        let (mut summary, mut lines) = (None, None);
        for part in parts {
            if let Some(hash) = part.strip_prefix("summary=") {
                summary = Some(hash.to_string());
            } else if let Some(count) = part.strip_prefix("lines=") {
                lines = count.parse().ok();
            }
        }
        Some(GeneratedMark {
            summary: summary?,
            lines: lines?,
        })
    }

    /// Reads [`GeneratedMark::line`].
    pub fn parse_line(line: &str) -> Option<GeneratedMark> {
        let inner = line
            .trim()
            .strip_prefix(MARK_START)?
            .strip_suffix(MARK_END)?;
        GeneratedMark::parse(inner)
    }
}

/// Where a generated note's own `## Summary` section stands now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnSection {
    /// The note has no `## Summary` section: a new one is appended.
    Absent,
    /// The bytes vaultsum wrote (heading, mark, blank line, summary), as it wrote them.
    Intact(Range<usize>),
    /// The marked section is not as vaultsum wrote it: what changed.
    Edited(&'static str),
    /// `## Summary` sections, none with vaultsum's mark.
    Unmarked,
}

/// The note's own section: the last `## Summary` section with a [`GeneratedMark`] under its
/// heading, checked line by line against the mark. Linear in the note.
pub fn own_section(text: &str) -> OwnSection {
    let offset = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[offset..];
    let sections = summary_sections(body, &map_note(body));
    if sections.is_empty() {
        return OwnSection::Absent;
    }
    let marked = sections.iter().rev().find_map(|section| {
        let mut lines = body[section.start..].split_inclusive('\n');
        let _heading = lines.next()?;
        let mark = GeneratedMark::parse_line(lines.next()?)?;
        Some((section.start, mark))
    });
    let Some((start, mark)) = marked else {
        return OwnSection::Unmarked;
    };
    let bare = |line: &str| line.trim_end_matches(['\n', '\r']).to_string();
    let mut lines = body[start..].split_inclusive('\n');
    let mut end = start;
    let mut next = |end: &mut usize| {
        let line = lines.next();
        if let Some(line) = line {
            *end += line.len();
        }
        line
    };
    if next(&mut end).map(bare).as_deref() != Some("## Summary") {
        return OwnSection::Edited("its `## Summary` heading was changed");
    }
    next(&mut end);
    if next(&mut end).map(bare).as_deref() != Some("") {
        return OwnSection::Edited("text was added between its mark and the summary");
    }
    let first = end;
    for _ in 0..mark.lines {
        if next(&mut end).is_none() {
            return OwnSection::Edited("lines of the summary were removed");
        }
    }
    let written = body[first..end].replace("\r\n", "\n");
    let written = written.strip_suffix('\n').unwrap_or(&written);
    if written != written.trim() || summary_hash(written) != mark.summary {
        return OwnSection::Edited("the summary was edited since vaultsum wrote it");
    }
    OwnSection::Intact(offset + start..offset + end)
}

/// Refuses a rewrite of the generated note `relative` (its text `text`) that would replace a
/// part no longer as vaultsum wrote it: its `## Summary` when `section`, its `property` when
/// given. A part that is absent is fine (it is added); a frontmatter that does not parse is
/// left to the write to refuse.
pub fn check_own(
    relative: &str,
    text: &str,
    section: bool,
    property: Option<&str>,
) -> Result<(), VaultError> {
    let refused = |what: String, todo: &'static str| VaultError::GeneratedEdited {
        path: relative.to_string(),
        what,
        todo,
    };
    const SECTION_TODO: &str = "move what you wrote out of the `## Summary` section (above its \
        heading, or below the summary's last line), or delete the section to have it written \
        anew, or save to another note";
    if section {
        match own_section(text) {
            OwnSection::Absent | OwnSection::Intact(_) => {}
            OwnSection::Edited(what) => {
                return Err(refused(
                    format!("the summary vaultsum wrote under `## Summary` is not as it was written ({what})"),
                    SECTION_TODO,
                ))
            }
            OwnSection::Unmarked => {
                return Err(refused(
                    "its `## Summary` carries no mark of what vaultsum wrote (written by hand, or \
                     by an earlier vaultsum), so what a person wrote in it cannot be told apart"
                        .to_string(),
                    SECTION_TODO,
                ))
            }
        }
    }
    if let Some(key) = property {
        let Ok(Some(value)) = property_value(text, key) else {
            return Ok(());
        };
        let mark = property_value(text, &fingerprint_property(key))
            .ok()
            .flatten()
            .and_then(|print| GeneratedMark::parse(&print));
        const PROPERTY_TODO: &str = "copy what you wrote elsewhere and delete the property \
            to have it written anew, or save to another note";
        match mark {
            Some(mark) if mark.summary == summary_hash(&value) => {}
            Some(_) => {
                return Err(refused(
                    format!("its `{key}` property was edited since vaultsum wrote it"),
                    PROPERTY_TODO,
                ))
            }
            None => {
                return Err(refused(
                    format!(
                        "its `{key}` property carries no mark of what vaultsum wrote (written \
                         by hand, or by an earlier vaultsum)"
                    ),
                    PROPERTY_TODO,
                ))
            }
        }
    }
    Ok(())
}

/// Writes `edit` into the generated note `note`: a new note made of `properties` (the owner's
/// first) and the summary when there is none; the same note again with its properties set and
/// its own summary replaced where it is as vaultsum wrote it when `owner` says it is that note
/// (a part edited by hand: [`VaultError::GeneratedEdited`], nothing written); else
/// [`VaultError::NotGenerated`] and nothing written. The marks are added here.
pub fn save_generated(
    vault: &Vault,
    note: &VaultPath,
    owner: Owner<'_>,
    properties: &[(&str, &str)],
    edit: &SummaryEdit<'_>,
) -> Result<WriteOutcome, VaultError> {
    let relative = note.relative();
    let section_mark = edit
        .section
        .map(|section| GeneratedMark::of(section.summary.as_str()).line());
    let property_mark = edit
        .property
        .map(|property| GeneratedMark::of(property.value.as_str()).value());
    let mut edit = SummaryEdit {
        section: edit.section.map(|section| SectionEdit {
            marker: section_mark.as_deref(),
            replace: false,
            ..section
        }),
        property: edit.property.map(|property| PropertyEdit {
            fingerprint: property_mark.as_deref(),
            ..property
        }),
        properties: &[],
        generated: true,
    };
    match vault.read_note_text(relative) {
        Err(VaultError::NotFound(_)) => {
            let mut seed = String::new();
            for (key, value) in properties {
                seed =
                    set_property(&seed, key, value).map_err(|source| VaultError::Frontmatter {
                        path: relative.to_string(),
                        source,
                    })?;
            }
            create_with_summary(vault, note, &seed, &edit)
        }
        Err(error) => Err(error),
        Ok(text) if !owner.owns(&text) => Err(VaultError::NotGenerated {
            path: relative.to_string(),
            key: owner.key.to_string(),
        }),
        Ok(text) => {
            edit.properties = properties;
            write_summary(vault, note, text.as_bytes(), &edit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROLLUP: &str =
        "### Key Points\n\n- A good week.\n\n### Sources\n- [[Journal/2026-12-28]]";

    /// A generated note as `save_generated` writes it: properties, then the marked section.
    fn written(summary: &str, newline: &str) -> String {
        let mark = GeneratedMark::of(summary).line();
        format!("---\nrollup: \"2026-12-28..2027-01-03\"\n---\n\n## Summary\n{mark}\n\n{summary}\n")
            .replace('\n', newline)
    }

    #[test]
    fn the_section_vaultsum_wrote_is_found_exactly_and_what_follows_is_not_its() {
        for newline in ["\n", "\r\n"] {
            let note = written(ROLLUP, newline);
            let OwnSection::Intact(range) = own_section(&note) else {
                panic!("{:?}", own_section(&note));
            };
            assert_eq!(range.end, note.len());
            assert!(note[range.start..].starts_with("## Summary"));
            let added = format!("{note}My takeaway: hire a second designer.{newline}");
            assert_eq!(own_section(&added), OwnSection::Intact(range.clone()));
            let lazy = format!("{note}## Notes{newline}Mine.{newline}");
            assert_eq!(own_section(&lazy), OwnSection::Intact(range));
        }
    }

    #[test]
    fn an_edit_inside_the_section_is_seen_and_refused() {
        let note = written(ROLLUP, "\n");
        for edited in [
            note.replace("A good week.", "A great week."),
            note.replace("[[Journal/2026-12-28]]", "[[Journal/2026-12-28]] mine"),
            note.replace("- A good week.\n", "- A good week.\n- Mine.\n"),
            note.replace("\n### Sources", "\n\n### Sources"),
            note.replace("## Summary\n", "## summary\n"),
            note.replace("-->\n\n", "-->\nMine.\n\n"),
            note.replace("\n- [[Journal/2026-12-28]]\n", "\n"),
        ] {
            assert!(
                matches!(own_section(&edited), OwnSection::Edited(_)),
                "{edited}"
            );
            let refused = check_own("R.md", &edited, true, None).unwrap_err();
            assert!(
                refused
                    .to_string()
                    .starts_with("R.md: the summary vaultsum wrote"),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_section_without_the_mark_cannot_be_told_apart() {
        let old = "---\nrollup: \"x\"\n---\n\n## Summary\n\n- Old.\n";
        assert_eq!(own_section(old), OwnSection::Unmarked);
        assert!(check_own("R.md", old, true, None)
            .unwrap_err()
            .to_string()
            .contains("carries no mark"));
        // Without a section nothing is at stake; a property-only rewrite leaves it alone.
        assert_eq!(own_section("---\nrollup: \"x\"\n---\n"), OwnSection::Absent);
        assert!(check_own("R.md", old, false, Some("summary")).is_ok());
    }

    #[test]
    fn the_summary_property_is_rewritten_only_over_its_own_marked_value() {
        let mark = GeneratedMark::of("A calm week.").value();
        let note = format!(
            "---\nrollup: \"x\"\nsummary: \"A calm week.\"\nsummary_fingerprint: \"{mark}\"\n---\n"
        );
        assert!(check_own("R.md", &note, false, Some("summary")).is_ok());
        let edited = note.replace("A calm week.\"", "A calm week, mostly.\"");
        assert!(check_own("R.md", &edited, false, Some("summary"))
            .unwrap_err()
            .to_string()
            .contains("`summary` property was edited"));
        let unmarked = "---\nrollup: \"x\"\nsummary: \"Mine.\"\n---\n";
        assert!(check_own("R.md", unmarked, false, Some("summary")).is_err());
    }

    #[test]
    fn the_mark_reads_back_and_is_no_summary_fingerprint() {
        let mark = GeneratedMark::of("a\nb\n");
        assert_eq!(mark.lines, 2);
        assert_eq!(GeneratedMark::parse_line(&mark.line()), Some(mark.clone()));
        assert_eq!(
            super::super::summary_fingerprint::Fingerprint::parse_marker(&mark.line()),
            None
        );
    }
}
