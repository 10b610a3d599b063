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

use super::error::VaultError;
use super::paths::VaultPath;
use super::write::{
    create_with_summary, write_summary, PropertyEdit, SectionEdit, SummaryEdit, WriteOutcome,
};
use super::Vault;
pub use vaultsum_engine::vault::generated_note::{
    check_own, generated_seed, own_section, GeneratedMark, OwnSection, Owner,
};

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
    let existing = match vault.read_note_text(relative) {
        Ok(text) => Some(text),
        Err(VaultError::NotFound(_)) => None,
        Err(error) => return Err(error),
    };
    match generated_seed(relative, existing.as_deref(), owner, properties)? {
        Some(seed) => create_with_summary(vault, note, &seed, &edit),
        None => {
            edit.properties = properties;
            let text = existing.unwrap_or_default();
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
