//! Setting one top-level property of a note's frontmatter without touching anything else.
//!
//! The edit is made on the text, never by re-serialising the YAML: the property's own lines are
//! replaced (or one line is added before the closing fence), so every other byte of the note
//! stays as it was (other keys and their order, comments, quoting, list styles, CRLF, a
//! byte-order mark). A YAML parser (saphyr) only *verifies*: the frontmatter must parse before
//! the edit (else it is refused and the note left alone), and after it every other key must
//! have the same value, in the same order, and the property the value that was asked for.

use std::ops::Range;

use saphyr::{LoadableYamlNode, MappingOwned, ScalarOwned, YamlOwned};

use super::note_facts::key_lines;

const BOM: char = '\u{feff}';

/// Why a property could not be set (or read).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrontmatterError {
    /// The frontmatter is not valid YAML.
    #[error("its frontmatter is not valid YAML ({0})")]
    Invalid(String),
    /// The frontmatter is valid YAML but not a set of properties (a list, a plain value).
    #[error("its frontmatter is not a set of properties (key: value lines) but {0}")]
    NotAMapping(&'static str),
    /// The property's key is not a plain word this edit can write safely.
    #[error("{0:?} cannot be written as a frontmatter property name")]
    BadKey(String),
    /// The edited frontmatter did not verify (a shape this edit does not handle); nothing is
    /// written.
    #[error("the edit of property {key:?} could not be verified ({reason})")]
    Unverified { key: String, reason: String },
}

/// Where a note's frontmatter is, by Obsidian's rule: the note starts (after an optional
/// byte-order mark) with a `---` line and a later line is `---` again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontmatterBlock {
    /// From the opening `---` to the end of the closing line (its line end included).
    pub whole: Range<usize>,
    /// The lines between the fences (each with its line end).
    pub inner: Range<usize>,
    /// The opening line's line end (`\r\n` or `\n`).
    pub newline: &'static str,
}

/// The note's frontmatter block, or `None` when it has none.
pub fn frontmatter_block(text: &str) -> Option<FrontmatterBlock> {
    let start = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let rest = &text[start..];
    let (opening, newline) = if rest.starts_with("---\r\n") {
        (5, "\r\n")
    } else if rest.starts_with("---\n") {
        (4, "\n")
    } else {
        return None;
    };
    let inner_start = start + opening;
    let mut offset = inner_start;
    for line in text[inner_start..].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end_matches([' ', '\t']) == "---" {
            return Some(FrontmatterBlock {
                whole: start..offset + line.len(),
                inner: inner_start..offset,
                newline,
            });
        }
        offset += line.len();
    }
    None
}

/// `note` with the top-level frontmatter property `key` set to the string `value`: its lines
/// replaced when it exists, a line added before the closing fence when it does not, and a
/// frontmatter made for a note that has none. Every other byte is kept; the value is written
/// as a double-quoted YAML scalar, valid whatever it holds.
pub fn set_property(note: &str, key: &str, value: &str) -> Result<String, FrontmatterError> {
    if !is_plain_key(key) {
        return Err(FrontmatterError::BadKey(key.to_string()));
    }
    let quoted = double_quoted(value);
    let Some(block) = frontmatter_block(note) else {
        let newline = if uses_crlf(note) { "\r\n" } else { "\n" };
        let at = if note.starts_with(BOM) {
            BOM.len_utf8()
        } else {
            0
        };
        let mut out = String::with_capacity(note.len() + quoted.len() + key.len() + 16);
        out.push_str(&note[..at]);
        out.push_str(&format!("---{newline}{key}: {quoted}{newline}---{newline}"));
        out.push_str(&note[at..]);
        return Ok(out);
    };
    let yaml = &note[block.inner.clone()];
    let before = parse_mapping(yaml)?;
    let (edit, entry) = match key_lines(yaml, key) {
        Some(lines) => {
            // The key as the person wrote it (quoted or not), then the new value.
            let line = &yaml[lines.clone()];
            let token = &line[..line.find(':').unwrap_or(key.len())];
            let newline = if yaml[..lines.end].ends_with("\r\n") {
                "\r\n"
            } else if yaml[..lines.end].ends_with('\n') {
                "\n"
            } else {
                ""
            };
            (lines, format!("{token}: {quoted}{newline}"))
        }
        None => (
            yaml.len()..yaml.len(),
            format!("{key}: {quoted}{}", block.newline),
        ),
    };
    let mut new_yaml = String::with_capacity(yaml.len() + entry.len());
    new_yaml.push_str(&yaml[..edit.start]);
    new_yaml.push_str(&entry);
    new_yaml.push_str(&yaml[edit.end..]);
    verify(&before, &new_yaml, key, value)?;
    let mut out = String::with_capacity(note.len() + entry.len());
    out.push_str(&note[..block.inner.start]);
    out.push_str(&new_yaml);
    out.push_str(&note[block.inner.end..]);
    Ok(out)
}

/// The value of the top-level property `key` as text (`None` when the note has no
/// frontmatter or no such key); a value that is not a string is given as it is written.
pub fn property_value(note: &str, key: &str) -> Result<Option<String>, FrontmatterError> {
    let Some(block) = frontmatter_block(note) else {
        return Ok(None);
    };
    let yaml = &note[block.inner.clone()];
    let Some(lines) = key_lines(yaml, key) else {
        return Ok(None);
    };
    let mapping = parse_mapping(yaml)?;
    Ok(mapping.iter().find_map(|(k, v)| {
        (k.as_str() == Some(key)).then(|| match v.as_str() {
            Some(text) => text.to_string(),
            None => yaml[lines.clone()].to_string(),
        })
    }))
}

/// A YAML double-quoted scalar holding exactly `value`: `\` and `"` escaped, line breaks, tabs
/// and every other control character as escapes, so the value is one line whatever it holds.
pub fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            // Line and paragraph separators and the BOM are line breaks or invisible to YAML
            // readers; escaped, they stay in the value.
            '\u{85}' | '\u{2028}' | '\u{2029}' | BOM => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A key written bare: letters, digits, `_` and `-`, not starting with `-`.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('-')
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// The frontmatter's properties; an empty frontmatter has none.
fn parse_mapping(yaml: &str) -> Result<MappingOwned, FrontmatterError> {
    let documents =
        YamlOwned::load_from_str(yaml).map_err(|e| FrontmatterError::Invalid(e.to_string()))?;
    let mut documents = documents.into_iter();
    let root = documents.next();
    if documents.next().is_some() {
        return Err(FrontmatterError::Invalid(
            "it holds more than one YAML document".to_string(),
        ));
    }
    match root {
        None | Some(YamlOwned::Value(ScalarOwned::Null)) => Ok(MappingOwned::new()),
        Some(YamlOwned::Mapping(mapping)) => Ok(mapping),
        Some(YamlOwned::Sequence(_)) => Err(FrontmatterError::NotAMapping("a list")),
        Some(_) => Err(FrontmatterError::NotAMapping("a single value")),
    }
}

/// The edited frontmatter parses, holds every key it held before with the same value in the
/// same order, and `key` is `value`.
fn verify(
    before: &MappingOwned,
    new_yaml: &str,
    key: &str,
    value: &str,
) -> Result<(), FrontmatterError> {
    let unverified = |reason: String| FrontmatterError::Unverified {
        key: key.to_string(),
        reason,
    };
    let after = parse_mapping(new_yaml).map_err(|e| unverified(e.to_string()))?;
    let is_key = |k: &YamlOwned| k.as_str() == Some(key);
    let others_before: Vec<_> = before.iter().filter(|(k, _)| !is_key(k)).collect();
    let others_after: Vec<_> = after.iter().filter(|(k, _)| !is_key(k)).collect();
    if others_before != others_after {
        return Err(unverified("other properties would change".to_string()));
    }
    match after.iter().find(|(k, _)| is_key(k)) {
        Some((_, v)) if v.as_str() == Some(value) => Ok(()),
        _ => Err(unverified(
            "the property would not hold the value".to_string(),
        )),
    }
}

/// True when most line breaks are CRLF.
fn uses_crlf(text: &str) -> bool {
    let breaks = text.matches('\n').count();
    let crlf = text.matches("\r\n").count();
    crlf > 0 && crlf * 2 >= breaks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_added_property_goes_before_the_closing_fence() {
        let note = "---\ntitle: A\n---\nBody\n";
        assert_eq!(
            set_property(note, "summary", "S.").unwrap(),
            "---\ntitle: A\nsummary: \"S.\"\n---\nBody\n"
        );
    }

    #[test]
    fn a_note_without_frontmatter_gets_one_after_its_bom() {
        assert_eq!(
            set_property("\u{feff}a\r\nb\r\n", "summary", "S").unwrap(),
            "\u{feff}---\r\nsummary: \"S\"\r\n---\r\na\r\nb\r\n"
        );
    }

    #[test]
    fn an_existing_block_value_is_replaced_whole() {
        let note = "---\nsummary: |\n  old\n  lines\ntags:\n- a\n---\n";
        assert_eq!(
            set_property(note, "summary", "new").unwrap(),
            "---\nsummary: \"new\"\ntags:\n- a\n---\n"
        );
    }

    #[test]
    fn any_value_is_valid_yaml_and_reads_back() {
        for value in [
            "a: b # c",
            "- leading dash",
            "quote \" and \\ backslash",
            "line\nbreak\ttab",
            "[not a list]",
            "'single'",
            "null",
            "\u{2028}\u{7}",
        ] {
            let note = set_property("---\nx: 1\n---\n", "summary", value).unwrap();
            assert_eq!(
                property_value(&note, "summary").unwrap().as_deref(),
                Some(value)
            );
        }
    }

    #[test]
    fn invalid_yaml_is_refused() {
        let err = set_property("---\na: [b\n---\n", "summary", "S").unwrap_err();
        assert!(matches!(err, FrontmatterError::Invalid(_)), "{err}");
        let err = set_property("---\n- a\n---\n", "summary", "S").unwrap_err();
        assert_eq!(err, FrontmatterError::NotAMapping("a list"));
    }

    #[test]
    fn the_block_is_found_by_obsidians_rule() {
        assert!(frontmatter_block("---\n---\n").is_some());
        assert!(frontmatter_block("\u{feff}---\r\na: 1\r\n---\r\n").is_some());
        assert!(frontmatter_block("---\nnot closed\n").is_none());
        assert!(frontmatter_block("text\n---\na: 1\n---\n").is_none());
    }
}
