//! Writing a summary into a note (a `## Summary` section, the summary property, or both)
//! without ever losing a byte of it.

use super::error::VaultError;
use super::inert_check::Live;
use super::note_file::{create_note, OpenedNote, Verified};
use super::output_policy::DefusedText;
use super::paths::{relative_below, VaultPath};
use super::policy::hidden_part;
use super::Vault;
use vaultsum_engine::vault::summary_section;
pub use vaultsum_engine::vault::summary_section::{compose_and_check, compose_with_summary};

/// What a summary write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The note changed while the summary was being made; the summary was appended to the
    /// current content, so those edits survive.
    pub stale: bool,
    /// Size of the note after the write.
    pub bytes_written: usize,
}

/// A write the verifier found live constructs in is refused whole.
pub(super) fn refuse_live(relative: &str, live: Vec<Live>) -> Result<(), VaultError> {
    Ok(summary_section::refuse_live(relative, live)?)
}

pub use vaultsum_engine::vault::summary_edit::{PropertyEdit, SectionEdit, SummaryEdit};

/// Whether a summary may be written to `note`: only notes (`.md`, `.markdown`, `.txt`), never
/// hidden ones or in hidden folders (`.obsidian/`, `.git/`, `.trash/`, `.stversions/`, …; see
/// [`super::policy`]), never through a link that leaves the vault.
/// `summarize_file` checks this before any LLM work, and [`append_summary`] again before writing.
pub fn check_writable(vault: &Vault, note: &VaultPath) -> Result<(), VaultError> {
    let relative = note.relative();
    let real_relative = relative_below(vault.root(), note.absolute());
    let protected =
        hidden_part(relative).or_else(|| real_relative.as_deref().and_then(hidden_part));
    if let Some(dir) = protected {
        let file_name = relative.rsplit('/').next().unwrap_or(relative);
        if dir == file_name {
            return Err(VaultError::HiddenFile(relative.to_string()));
        }
        return Err(VaultError::ForbiddenFolder {
            dir: dir.to_string(),
            path: relative.to_string(),
        });
    }
    if !note.is_note()
        || real_relative
            .as_deref()
            .is_some_and(|r| !super::policy::is_note_name(r))
    {
        return Err(VaultError::NotANote(relative.to_string()));
    }
    if real_relative.is_none() {
        return Err(VaultError::Escapes(relative.to_string()));
    }
    Ok(())
}

/// The checks every summary write makes first (a writable note, a summary that is not empty);
/// returns the note's real vault-relative path (symlinks inside the vault followed).
fn check_summary_write(
    vault: &Vault,
    note: &VaultPath,
    edit: &SummaryEdit<'_>,
) -> Result<String, VaultError> {
    let relative = note.relative();
    check_writable(vault, note)?;
    if edit.is_empty() {
        return Err(VaultError::EmptySummary(relative.to_string()));
    }
    relative_below(vault.root(), note.absolute())
        .ok_or_else(|| VaultError::Escapes(relative.to_string()))
}

/// How many times a write starts over when the note changes under it (another program saving
/// it) before the note is reported busy.
const WRITE_ROUNDS: usize = 3;

/// Writes a summary into `note` without losing a byte of it.
///
/// Refuses anything but notes, anything hidden or in a hidden folder, an empty summary and
/// read-only notes. The note is opened confined beneath the vault (`note_file.rs`) and its
/// *current* bytes read from the open file; if they differ from `original` (what was
/// summarized) the note was edited while the summary was made, and the summary goes after the
/// edits (`stale`). Then:
/// - an append (also a `replace` with no summary to remove) is written in place after those
///   bytes, once they are verified unchanged, keeping the file's identity;
/// - a `replace` that removes an old summary swaps the new content in atomically and verifies
///   that what it swapped out is what it read.
///
/// A change detected between the read and the write starts the round over; after
/// [`WRITE_ROUNDS`] the note is reported busy ([`VaultError::Busy`]) and left as it is. Nothing
/// is written after a detected change.
pub fn append_summary(
    vault: &Vault,
    note: &VaultPath,
    original: &[u8],
    summary: &DefusedText,
    replace: bool,
) -> Result<WriteOutcome, VaultError> {
    write_summary(
        vault,
        note,
        original,
        &SummaryEdit::section(summary, replace),
    )
}

/// Writes `edit` (a section, the summary property, or both) into `note`, as
/// [`append_summary`] writes a section: an edit that only adds bytes at the end is an append
/// in place, any other (a `replace`, a property set in the frontmatter) a verified swap.
pub fn write_summary(
    vault: &Vault,
    note: &VaultPath,
    original: &[u8],
    edit: &SummaryEdit<'_>,
) -> Result<WriteOutcome, VaultError> {
    let relative = note.relative();
    let real_relative = check_summary_write(vault, note, edit)?;
    let open = || OpenedNote::open(vault, relative, &real_relative, note.absolute());
    // The note stays open from round to round, except after a swap that found it changed
    // (a swap consumes the open note), when the next round opens it again.
    let mut held = Some(open()?);
    for _ in 0..WRITE_ROUNDS {
        let opened = match held.take() {
            Some(opened) => opened,
            None => open()?,
        };
        let Some((current, stamp)) = opened.read(vault.note_limit())? else {
            held = Some(opened);
            continue;
        };
        let content = edit.compose(relative, original, &current)?;
        let edited_meanwhile = current != original;
        if content == current {
            // The property already holds this value: nothing to write.
            return Ok(WriteOutcome {
                stale: edited_meanwhile,
                bytes_written: content.len(),
            });
        }
        if !content.starts_with(&current) {
            match opened.swap_in(&content, &current, &stamp)? {
                Verified::Same => {
                    return Ok(WriteOutcome {
                        stale: edited_meanwhile,
                        bytes_written: content.len(),
                    })
                }
                Verified::Changed => continue,
            }
        }
        let suffix = &content[current.len()..];
        if opened.verify(&current, &stamp)? == Verified::Changed {
            held = Some(opened);
            continue;
        }
        let at = opened.append(suffix)?;
        if !opened.holds_at(at, suffix)? {
            // Replaced by another program's save in the instant between the check and the
            // write: the note is that program's version, without our summary.
            return Err(VaultError::Busy(relative.to_string()));
        }
        return Ok(WriteOutcome {
            // Another program's append landed between the check and ours: ours follows it.
            stale: edited_meanwhile || at != current.len() as u64,
            bytes_written: (at as usize).saturating_add(suffix.len()),
        });
    }
    Err(VaultError::Busy(relative.to_string()))
}

/// Creates `note` (which must not exist) as `seed` followed by the summary, whole or not at all;
/// for the companion note of a document (see [`super::companion`]). Someone else creating the
/// note first makes this [`VaultError::Busy`], and nothing is written.
pub fn create_with_summary(
    vault: &Vault,
    note: &VaultPath,
    seed: &str,
    edit: &SummaryEdit<'_>,
) -> Result<WriteOutcome, VaultError> {
    let relative = note.relative();
    let real_relative = check_summary_write(vault, note, edit)?;
    let content = edit.compose(relative, seed.as_bytes(), seed.as_bytes())?;
    create_note(vault, relative, &real_relative, note.absolute(), &content)?;
    Ok(WriteOutcome {
        stale: false,
        bytes_written: content.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::output_policy::{OutputPolicy, SourceLinks};

    fn compose(current: &str, replace: bool) -> String {
        String::from_utf8(compose_with_summary(current.as_bytes(), "Short.", replace).unwrap())
            .unwrap()
    }

    #[test]
    fn a_section_another_writer_put_in_meanwhile_is_not_appended_twice() {
        for newline in ["\n", "\r\n"] {
            let marker = "<!-- vaultsum: note=aa summary=bb -->";
            let short = OutputPolicy::default().summary("Short.", &SourceLinks::none());
            let edit = SummaryEdit {
                section: Some(SectionEdit {
                    summary: &short,
                    marker: Some(marker),
                    replace: false,
                }),
                property: None,
                properties: &[],
                generated: false,
            };
            let note = format!("# Standup{newline}Text{newline}");
            let note = note.as_bytes();
            let once = edit.compose("n.md", note, note).unwrap();
            assert_eq!(
                edit.compose("n.md", note, &once).unwrap(),
                once,
                "written by another process since the note was read: left as it is"
            );
            // Read with that summary and asked again: appended again.
            let twice = edit.compose("n.md", &once, &once).unwrap();
            assert_eq!(
                String::from_utf8(twice)
                    .unwrap()
                    .matches("## Summary")
                    .count(),
                2
            );
            // The marker in the body, not under the heading, is no summary of ours.
            let quoted = [note, marker.as_bytes(), newline.as_bytes()].concat();
            assert!(edit
                .compose("n.md", note, &quoted)
                .unwrap()
                .ends_with(format!("Short.{newline}").as_bytes()));
        }
    }

    #[test]
    fn a_generated_section_is_replaced_where_it_stands_and_every_other_byte_stays() {
        use crate::vault::generated_note::GeneratedMark;
        let policy = OutputPolicy::default();
        fn edit_of<'a>(summary: &'a DefusedText, mark: &'a str) -> SummaryEdit<'a> {
            SummaryEdit {
                section: Some(SectionEdit {
                    summary,
                    marker: Some(mark),
                    replace: false,
                }),
                property: None,
                properties: &[],
                generated: true,
            }
        }
        let old = policy.summary("- Old point.\n- Another.", &SourceLinks::none());
        let old_mark = GeneratedMark::of(old.as_str()).line();
        let seed = "---\nrollup: \"x\"\n---\n";
        let first = edit_of(&old, &old_mark)
            .compose("R.md", seed.as_bytes(), seed.as_bytes())
            .unwrap();
        let mine = "Mine, typed under it.\n\n## Later\nKept.\n";
        let with_mine = [
            seed.as_bytes(),
            b"Above.\n",
            &first[seed.len()..],
            mine.as_bytes(),
        ]
        .concat();
        let new = policy.summary("- New point.", &SourceLinks::none());
        let new_mark = GeneratedMark::of(new.as_str()).line();
        let out = edit_of(&new, &new_mark)
            .compose("R.md", &with_mine, &with_mine)
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            format!("{seed}Above.\n\n## Summary\n{new_mark}\n\n- New point.\n{mine}")
        );
        // Edited inside: refused, whatever the rest.
        let edited = String::from_utf8(with_mine.clone())
            .unwrap()
            .replace("- Another.", "- Another, mine.");
        assert!(matches!(
            edit_of(&new, &new_mark).compose("R.md", edited.as_bytes(), edited.as_bytes()),
            Err(vaultsum_engine::vault::summary_edit::EditRefused::GeneratedEdited { .. })
        ));
    }

    #[test]
    fn exactly_one_blank_line_before_the_summary() {
        assert_eq!(compose("Text", false), "Text\n\n## Summary\n\nShort.\n");
        assert_eq!(compose("Text\n", false), "Text\n\n## Summary\n\nShort.\n");
        assert_eq!(compose("Text\n\n", false), "Text\n\n## Summary\n\nShort.\n");
        assert_eq!(compose("", false), "## Summary\n\nShort.\n");
    }

    #[test]
    fn existing_extra_blank_lines_are_kept_not_removed() {
        assert_eq!(
            compose("Text\n\n\n", false),
            "Text\n\n\n## Summary\n\nShort.\n"
        );
    }

    #[test]
    fn crlf_notes_get_crlf_throughout() {
        let out = compose("a\r\nb\r\n", false);
        assert_eq!(out, "a\r\nb\r\n\r\n## Summary\r\n\r\nShort.\r\n");
        let multi = compose_with_summary(b"a\r\n", "x\ny", false).unwrap();
        assert!(String::from_utf8(multi).unwrap().ends_with("x\r\ny\r\n"));
    }

    #[test]
    fn byte_order_mark_alone_is_an_empty_note() {
        let out = compose_with_summary(b"\xEF\xBB\xBF", "S", false).unwrap();
        assert_eq!(out, b"\xEF\xBB\xBF## Summary\n\nS\n");
    }

    #[test]
    fn second_summary_is_appended_without_replace() {
        let once = compose("Body\n", false);
        let twice = compose(&once, false);
        assert!(twice.starts_with(&once));
        assert_eq!(twice.matches("## Summary").count(), 2);
    }

    #[test]
    fn replace_removes_the_old_summary_up_to_the_next_level_two_heading() {
        let note = "Body\n\n## Summary\n\nOld.\n### Action Items\n- [ ] x\n\n## Later\nkept\n";
        let out = compose(note, true);
        assert_eq!(out, "Body\n\n## Later\nkept\n\n## Summary\n\nShort.\n");
    }

    #[test]
    fn replace_at_the_end_leaves_one_blank_line() {
        let out = compose("Body\n\n\n## Summary\n\nOld.\n", true);
        assert_eq!(out, "Body\n\n## Summary\n\nShort.\n");
    }

    #[test]
    fn summary_heading_inside_a_code_block_is_not_replaced() {
        let note = "```\n## Summary\n```\n";
        assert!(compose(note, true).starts_with(note));
    }
}
