//! Notes vaultsum writes for itself (a rollup's `save_to`, a web page summarized into the
//! vault), as their text says: which generated note a note is (its owner property), the mark
//! each part vaultsum wrote carries, whether that part is still as vaultsum wrote it, and what
//! a new one starts with. With no I/O: the binary's `vault/generated_note.rs` writes them, the
//! app's engine composes them for `Vault.process`. The rules are the binary's module's docs.

use std::ops::Range;

use super::frontmatter_edit::{property_value, set_property};
use super::markdown::map_note;
use super::note_facts::summary_sections;
use super::summary_edit::EditRefused;
use super::summary_fingerprint::{fingerprint_property, summary_hash};

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
) -> Result<(), EditRefused> {
    let refused = |what: String, todo: &'static str| EditRefused::GeneratedEdited {
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

/// What writing a generated note at `relative` starts from: `Some(seed)`, its properties (the
/// owner's first) in a new frontmatter, when it does not exist (`existing` is `None`); `None`
/// when it exists and `owner` says it is that note (its summary is then rewritten where it
/// stands, its properties set again); refused when it is any other note.
pub fn generated_seed(
    relative: &str,
    existing: Option<&str>,
    owner: Owner<'_>,
    properties: &[(&str, &str)],
) -> Result<Option<String>, EditRefused> {
    match existing {
        None => {
            let mut seed = String::new();
            for (key, value) in properties {
                seed =
                    set_property(&seed, key, value).map_err(|source| EditRefused::Frontmatter {
                        path: relative.to_string(),
                        source,
                    })?;
            }
            Ok(Some(seed))
        }
        Some(text) if !owner.owns(text) => Err(EditRefused::NotGenerated {
            path: relative.to_string(),
            key: owner.key.to_string(),
        }),
        Some(_) => Ok(None),
    }
}
