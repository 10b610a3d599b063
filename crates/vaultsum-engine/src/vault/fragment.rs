//! The part of a note an embed asks for: a heading's section or a `^id` block.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;

use super::markdown::{ends_an_embed, inside_any, line_end, line_start, BlockKind, NoteMap};

/// A block chosen by its id: the source range, and the `^id` marker text to leave out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSelection {
    /// The block (a paragraph, a list item with its children, or a whole list/quote/table).
    pub range: Range<usize>,
    /// Marker text inside `range` that is Obsidian syntax, not content.
    pub strip: Vec<Range<usize>>,
}

/// The comparable form of a heading: Unicode NFC, lower case, the characters Obsidian replaces
/// in heading links (`# | ^ : % [ ]`) turned into spaces, runs of spaces collapsed.
pub fn heading_key(text: &str) -> String {
    if text.is_ascii() {
        let mapped = text.bytes().map(|b| {
            if b"#|^:%[]".contains(&b) {
                ' '
            } else {
                b.to_ascii_lowercase() as char
            }
        });
        return mapped
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mapped: String = text
        .nfc()
        .flat_map(char::to_lowercase)
        .map(|c| if "#|^:%[]".contains(c) { ' ' } else { c })
        .collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// True when `heading_key(text) == key`, for a `key` made by [`heading_key`]; ASCII headings
/// (the usual case) are compared word by word without building their key.
fn has_key(text: &str, key: &str) -> bool {
    if !text.is_ascii() {
        return heading_key(text) == key;
    }
    let mut words = text
        .split(|c: char| c.is_whitespace() || "#|^:%[]".contains(c))
        .filter(|w| !w.is_empty());
    let mut wanted = key.split(' ').filter(|w| !w.is_empty());
    loop {
        match (words.next(), wanted.next()) {
            (None, None) => return true,
            (Some(word), Some(want)) if word.eq_ignore_ascii_case(want) => {}
            _ => return false,
        }
    }
}

/// The section under a heading: from the heading line to the next heading of the same or a
/// higher level (sub-headings included), or the end of the note. With several names
/// (`#H1#H2`) each one is looked for inside the previous one's section.
pub fn heading_section(source: &str, map: &NoteMap, path: &[String]) -> Option<Range<usize>> {
    let mut scope = 0..source.len();
    for name in path {
        let key = heading_key(name);
        let (index, heading) = map
            .headings
            .iter()
            .enumerate()
            .find(|(_, h)| scope.contains(&h.range.start) && has_key(&h.text, &key))?;
        let end = map.headings[index + 1..]
            .iter()
            .find(|next| next.level <= heading.level)
            .map_or(scope.end, |next| next.range.start)
            .min(scope.end);
        scope = heading.range.start..end;
    }
    Some(scope)
}

/// The block named `^id`.
///
/// `^id` at the end of a paragraph or list item names that paragraph or item (with the item's
/// nested children). `^id` alone on a line names the block right before it — the whole list,
/// quote, callout or table — whether a blank line separates them or not.
pub fn block_with_id(source: &str, map: &NoteMap, id: &str) -> Option<BlockSelection> {
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return None;
    }
    // ASCII lower-casing keeps byte offsets, so positions found here are valid in `source`.
    let lowered = source.to_ascii_lowercase();
    let needle = format!("^{}", id.to_ascii_lowercase());
    let mut from = 0;
    while let Some(found) = lowered[from..].find(&needle) {
        let at = from + found;
        from = at + needle.len();
        let after = &source[from..line_end(source, from)];
        let start_of_line = line_start(source, at);
        let before = &source[start_of_line..at];
        let ends_line = after.trim().is_empty();
        let separated =
            before.is_empty() || before.ends_with([' ', '\t', '>']) || ends_an_embed(map, at);
        if !ends_line || !separated || inside_any(&map.verbatim, at) {
            continue;
        }
        if before.chars().all(|c| c.is_whitespace() || c == '>') {
            return standalone_block(source, map, at, start_of_line);
        }
        let strip_start = at - (before.len() - before.trim_end().len());
        return inline_block(map, at, strip_start..from);
    }
    None
}

fn inline_block(map: &NoteMap, at: usize, marker: Range<usize>) -> Option<BlockSelection> {
    let containing = |kinds: &[BlockKind]| {
        map.blocks
            .iter()
            .filter(|b| kinds.contains(&b.kind) && b.range.contains(&at))
            .max_by_key(|b| b.depth)
    };
    let block = containing(&[BlockKind::Item])
        .or_else(|| containing(&[BlockKind::Paragraph, BlockKind::Heading, BlockKind::Table]))?;
    Some(BlockSelection {
        range: block.range.clone(),
        strip: vec![marker],
    })
}

fn standalone_block(
    source: &str,
    map: &NoteMap,
    at: usize,
    start_of_line: usize,
) -> Option<BlockSelection> {
    let marker_line = start_of_line..line_end(source, at);
    let top = map
        .blocks
        .iter()
        .find(|b| b.depth == 0 && b.range.contains(&at))?;
    let alone = top.kind == BlockKind::Paragraph
        && source[top.range.clone()]
            .trim()
            .trim_start_matches(['>', ' '])
            .starts_with('^');
    if !alone {
        // A lazy continuation line: the marker is part of the list, quote or table it follows.
        return Some(BlockSelection {
            range: top.range.clone(),
            strip: vec![marker_line],
        });
    }
    let previous = map
        .blocks
        .iter()
        .filter(|b| b.depth == 0 && b.range.end <= top.range.start)
        .max_by_key(|b| b.range.start)?;
    Some(BlockSelection {
        range: previous.range.clone(),
        strip: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::markdown::map_note;

    fn section(src: &str, path: &[&str]) -> Option<String> {
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        heading_section(src, &map_note(src), &path).map(|r| src[r].to_string())
    }

    fn block(src: &str, id: &str) -> Option<String> {
        let sel = block_with_id(src, &map_note(src), id)?;
        let mut out = String::new();
        let mut pos = sel.range.start;
        for strip in &sel.strip {
            out.push_str(&src[pos..strip.start]);
            pos = strip.end;
        }
        out.push_str(&src[pos..sel.range.end]);
        Some(out)
    }

    const DOC: &str =
        "# Title\nintro\n## Goals\ngoal text\n### Detail\ndeep\n## Risks\nrisk\n# Next\nend\n";

    #[test]
    fn heading_embed_stops_at_same_level_heading() {
        assert_eq!(
            section(DOC, &["Goals"]).unwrap(),
            "## Goals\ngoal text\n### Detail\ndeep\n"
        );
    }

    #[test]
    fn heading_embed_stops_at_higher_level_heading() {
        assert_eq!(section(DOC, &["Risks"]).unwrap(), "## Risks\nrisk\n");
        assert_eq!(section(DOC, &["Next"]).unwrap(), "# Next\nend\n");
    }

    #[test]
    fn heading_match_ignores_case_and_punctuation_obsidian_replaces() {
        assert!(section(DOC, &["gOaLs"]).is_some());
        let src = "## Q3: Plans [draft]\nx\n";
        assert_eq!(section(src, &["Q3 Plans draft"]).unwrap(), src);
    }

    #[test]
    fn nested_heading_path_is_searched_inside_the_parent() {
        let src = "# A\n## Notes\na notes\n# B\n## Notes\nb notes\n";
        assert_eq!(
            section(src, &["B", "Notes"]).unwrap(),
            "## Notes\nb notes\n"
        );
        assert_eq!(section(src, &["A", "Missing"]), None);
    }

    #[test]
    fn headings_inside_code_blocks_are_not_headings() {
        let src = "```\n# Fake\n```\n# Real\nbody\n";
        assert_eq!(section(src, &["Fake"]), None);
        assert_eq!(section(src, &["Real"]).unwrap(), "# Real\nbody\n");
    }

    #[test]
    fn heading_comparison_without_a_key_agrees_with_the_key() {
        let names = [
            "Goals",
            "Q3: Plans [draft]",
            "  two   spaces ",
            "a|b^c%d",
            "",
            "::",
            "Caf\u{e9}",
            "tab\there",
            "vt\u{b}sep",
        ];
        for text in names {
            for name in names {
                assert_eq!(
                    has_key(text, &heading_key(name)),
                    heading_key(text) == heading_key(name),
                    "{text:?} vs {name:?}"
                );
            }
        }
    }

    #[test]
    fn block_id_at_end_of_paragraph_is_the_paragraph() {
        let src = "first para\n\nsecond para ^p2\n\nthird\n";
        assert_eq!(block(src, "p2").unwrap().trim_end(), "second para");
    }

    #[test]
    fn block_id_on_a_list_item_includes_its_children() {
        let src = "- one\n- two ^t\n  - child\n- three\n";
        assert_eq!(block(src, "t").unwrap(), "- two\n  - child\n");
    }

    #[test]
    fn standalone_block_id_after_a_list_is_the_whole_list() {
        let src = "- a\n- b\n\n^whole\n\nafter\n";
        assert_eq!(block(src, "whole").unwrap().trim_end(), "- a\n- b");
        let lazy = "- a\n- b\n^lazy\n";
        assert_eq!(block(lazy, "lazy").unwrap().trim_end(), "- a\n- b");
    }

    #[test]
    fn standalone_block_id_after_a_quote_or_table_is_the_whole_block() {
        let quote = "> [!note] Callout\n> body\n\n^c\n";
        assert_eq!(
            block(quote, "c").unwrap().trim_end(),
            "> [!note] Callout\n> body"
        );
        let table = "| a | b |\n|---|---|\n| 1 | 2 |\n\n^tbl\n";
        assert_eq!(
            block(table, "tbl").unwrap().trim_end(),
            "| a | b |\n|---|---|\n| 1 | 2 |"
        );
    }

    #[test]
    fn an_embed_carries_its_block_id_without_a_space() {
        assert_eq!(
            block("Intro.\n\n![[pic.png]]^fig1\n\nAfter.\n", "fig1")
                .unwrap()
                .trim_end(),
            "![[pic.png]]"
        );
        // A link is not an embed: its caret still needs the space.
        assert_eq!(block("[[Note]]^nope\n", "nope"), None);
    }

    #[test]
    fn block_ids_must_end_their_line_and_stand_apart() {
        assert_eq!(block("text^nope\n", "nope"), None);
        assert_eq!(block("text ^id more\n", "id"), None);
        assert_eq!(block("`code ^id`\n", "id"), None);
        assert_eq!(block("x ^a.b\n", "a.b"), None);
    }
}
