//! What a note says about itself that decides whether and how a summary is written: its
//! frontmatter (`summarize: false`), its `## Summary` sections, how much body it has and whether
//! it embeds anything.
//!
//! Everything is read from the note's [`NoteMap`] (one pulldown-cmark parse), the same map the
//! embed expander and the summary writer use, so every layer sees one frontmatter and one idea
//! of what a `## Summary` section is.

use std::ops::Range;

use sha2::{Digest, Sha256};

use super::fragment::heading_key;
use super::frontmatter_edit::frontmatter_block;
use super::markdown::{map_note, NoteMap};
use super::summary_fingerprint::fingerprint_property;

/// What a note's text says, independent of where it is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextFacts {
    /// Characters of body text: frontmatter excluded, surrounding whitespace ignored.
    pub body_chars: usize,
    /// The note has a `## Summary` heading outside code, whoever wrote it.
    pub has_summary: bool,
    /// The frontmatter opts the note out of automatic summaries (`summarize: false`, `no`, `off`).
    pub opted_out: bool,
    /// The note embeds something (`![[…]]` or a local Markdown embed), so its expanded text may
    /// be much longer than its own body.
    pub has_embeds: bool,
}

/// A note's facts together with the stamp of the exact bytes they were read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteFacts {
    /// Which version of the file the facts describe.
    pub stamp: ContentStamp,
    /// What that version says.
    pub text: TextFacts,
}

/// Identifies one version of a file: its content hash, size and modification time, all taken
/// from the same open file, so the stamp never describes another version than the bytes read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentStamp {
    /// SHA-256 of the bytes, hex ([`content_hash`]).
    pub hash: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 where unknown).
    pub modified_ns: i128,
}

/// The content hash used wherever vaultsum compares versions of a note: SHA-256, hex.
pub fn content_hash(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The facts of a note's text.
pub fn text_facts(text: &str) -> TextFacts {
    let map = map_note(text);
    let body = match &map.frontmatter {
        Some(range) => &text[range.end..],
        None => text.strip_prefix('\u{feff}').unwrap_or(text),
    };
    TextFacts {
        body_chars: body.trim().chars().count(),
        has_summary: !summary_sections(text, &map).is_empty(),
        opted_out: frontmatter_opts_out(text, &map),
        has_embeds: !map.embeds.is_empty(),
    }
}

/// The byte ranges of the note's `## Summary` sections: from the heading (level 2, matched
/// as Obsidian matches headings: any case, trailing `#`s ignored) to the next heading of level 1
/// or 2, or the end. Only the note's own headings start one: a `## Summary` inside a callout,
/// a quote or a list item, or inside a `%% comment %%`, is the person's text, and a section
/// counted from there would be deleted by a `replace` with what follows it.
pub fn summary_sections(text: &str, map: &NoteMap) -> Vec<Range<usize>> {
    let mut sections = Vec::new();
    let in_comment = |at: usize| map.comments.iter().any(|c| c.start <= at && at < c.end);
    for (i, heading) in map.headings.iter().enumerate() {
        if heading.level == 2
            && heading.depth == 0
            && !in_comment(heading.range.start)
            && heading_key(&heading.text) == "summary"
        {
            let end = map.headings[i + 1..]
                .iter()
                .find(|next| next.level <= 2)
                .map_or(text.len(), |next| next.range.start);
            sections.push(heading.range.start..end);
        }
    }
    sections
}

/// What a summarizer must never receive of a note: its `## Summary` sections, its summary
/// `property` in the frontmatter (the summary's own abstract) and that property's fingerprint
/// (`{property}_fingerprint`). Byte ranges, in order, not
/// overlapping. Without them a summary would summarize the previous summary, and a wrong or
/// stale one would be carried into its own replacement.
pub fn summary_ranges(text: &str, map: &NoteMap, property: &str) -> Vec<Range<usize>> {
    let fingerprint = fingerprint_property(property);
    let mut ranges: Vec<Range<usize>> = frontmatter_key_range(text, property)
        .into_iter()
        .chain(frontmatter_key_range(text, &fingerprint))
        .chain(summary_sections(text, map))
        .collect();
    ranges.sort_by_key(|range| range.start);
    ranges
}

/// The lines of the top-level frontmatter entry `key` (quoted or not): its `key:` line and the
/// lines that continue its value (indented lines, a block list's `- ` items, blank lines inside
/// them), with their line ends. `None` when the frontmatter has no such key.
pub fn frontmatter_key_range(text: &str, key: &str) -> Option<Range<usize>> {
    let block = frontmatter_block(text)?;
    let range = key_lines(&text[block.inner.clone()], key)?;
    Some(block.inner.start + range.start..block.inner.start + range.end)
}

/// The lines of the top-level entry `key` in `yaml`, the lines between a frontmatter's fences
/// (see [`frontmatter_key_range`]). The one reading of "where a property is" for the summary
/// that is left out ([`summary_ranges`]) and the property that is set
/// (`frontmatter_edit.rs`).
pub fn key_lines(yaml: &str, key: &str) -> Option<Range<usize>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        lines.push((offset, line));
        offset += line.len();
    }
    let is_key_line = |line: &str| {
        [
            format!("{key}:"),
            format!("\"{key}\":"),
            format!("'{key}':"),
        ]
        .iter()
        .any(|prefix| line.starts_with(prefix.as_str()))
    };
    let continues = |line: &str| line.starts_with([' ', '\t', '-']);
    let start = lines.iter().position(|(_, line)| is_key_line(line))?;
    let mut end = start + 1;
    let mut next = start + 1;
    while let Some((_, line)) = lines.get(next) {
        if continues(line) {
            end = next + 1;
        } else if !line.trim().is_empty() {
            break;
        }
        next += 1;
    }
    let (first, _) = lines[start];
    let (last, last_line) = lines[end - 1];
    Some(first..last + last_line.len())
}

/// The frontmatter's lines between its fences, or `""` without frontmatter.
pub fn frontmatter_text<'a>(text: &'a str, map: &NoteMap) -> &'a str {
    let Some(range) = &map.frontmatter else {
        return "";
    };
    let block = &text[range.clone()];
    let inner = block.split_once('\n').map_or("", |(_, rest)| rest);
    let inner = inner.trim_end_matches(['\n', '\r']);
    inner.rsplit_once('\n').map_or("", |(lines, _)| lines)
}

/// True when a top-level `summarize:` key of the frontmatter is `false`, `no` or `off`
/// (quoted or not, any case).
fn frontmatter_opts_out(text: &str, map: &NoteMap) -> bool {
    frontmatter_text(text, map).lines().any(|line| {
        let Some(value) = line.strip_prefix("summarize:") else {
            return false;
        };
        let value = value.split('#').next().unwrap_or("").trim();
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        matches!(value.to_ascii_lowercase().as_str(), "false" | "no" | "off")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_heading_inside_a_callout_a_list_or_a_comment_is_the_persons_text() {
        for note in [
            "> [!note]\n> ## Summary\n> quoted\n\nMy paragraph.\n\n## Next\n\nNext text.\n",
            "- item\n\n  ## Summary\n\n  in the item\n\nMy paragraph.\n",
            "%%\n## Summary\nhidden\n%%\n\nMy paragraph.\n",
        ] {
            assert_eq!(
                summary_sections(note, &map_note(note)),
                Vec::<Range<usize>>::new(),
                "{note:?}"
            );
        }
        let own = "# Note\n\nText.\n\n## Summary\n\n- point\n";
        assert_eq!(summary_sections(own, &map_note(own)), vec![15..own.len()]);
    }

    fn key_text<'a>(note: &'a str, key: &str) -> Option<&'a str> {
        frontmatter_key_range(note, key).map(|range| &note[range])
    }

    #[test]
    fn a_frontmatter_key_covers_its_continuation_lines_only() {
        let note = "---\ntitle: A\nsummary: >\n  Old abstract\n\n  more\ntags:\n- a\n---\nBody\n";
        assert_eq!(
            key_text(note, "summary"),
            Some("summary: >\n  Old abstract\n\n  more\n")
        );
        assert_eq!(key_text(note, "tags"), Some("tags:\n- a\n"));
        assert_eq!(key_text(note, "title"), Some("title: A\n"));
        assert_eq!(key_text(note, "missing"), None);
        assert_eq!(key_text("summary: not frontmatter\n", "summary"), None);
        let quoted =
            "---\r\n\"summary\": \"x: y\"\r\n# kept comment\r\nsummary_prompt: p\r\n---\r\n";
        assert_eq!(
            key_text(quoted, "summary"),
            Some("\"summary\": \"x: y\"\r\n")
        );
    }

    #[test]
    fn summary_ranges_cover_the_property_and_every_summary_section() {
        let note = "---\nsummary: old\nkeep: 1\n---\nBody\n\n## Summary\n\nOld.\n\n## Next\nkept\n";
        let ranges = summary_ranges(note, &map_note(note), "summary");
        let cut: Vec<&str> = ranges.iter().map(|r| &note[r.clone()]).collect();
        assert_eq!(cut, ["summary: old\n", "## Summary\n\nOld.\n\n"]);
    }

    #[test]
    fn frontmatter_is_not_counted_as_body() {
        let note = "---\ntags: [a, b]\ntitle: A rather long title here\n---\nHello";
        assert_eq!(text_facts(note).body_chars, 5);
        assert_eq!(text_facts("Hello\n\n").body_chars, 5);
    }

    #[test]
    fn unclosed_frontmatter_is_body() {
        let note = "---\nnot closed\nstill text";
        assert!(map_note(note).frontmatter.is_none());
        assert_eq!(text_facts(note).body_chars, note.chars().count());
    }

    #[test]
    fn body_counts_characters_not_bytes() {
        assert_eq!(text_facts("日本語のメモ").body_chars, 6);
    }

    #[test]
    fn summarize_false_in_frontmatter_opts_out() {
        let opted_out = |text: &str| text_facts(text).opted_out;
        assert!(opted_out("---\nsummarize: false\n---\nbody"));
        assert!(opted_out("---\r\nsummarize: \"no\"\r\n---\r\nbody"));
        assert!(opted_out(
            "---\ntags: x\nsummarize: Off  # not this one\n---\n"
        ));
        assert!(!opted_out("---\nsummarize: true\n---\nbody"));
        assert!(!opted_out("---\nsettings:\n  summarize: false\n---\n"));
        assert!(!opted_out("summarize: false\n\nnot frontmatter"));
    }

    #[test]
    fn summary_heading_is_found_in_any_case_outside_code() {
        let has_summary = |text: &str| text_facts(text).has_summary;
        assert!(has_summary("# Meeting\n\ntext\n\n## Summary\n\n- a\n"));
        assert!(has_summary("text\n## summary ##\n"));
        assert!(!has_summary("text\n### Summary\n"));
        assert!(!has_summary("text\n## Summary of costs\n"));
        assert!(!has_summary("```md\n## Summary\n```\n"));
        assert!(!has_summary("    ## Summary\n"));
        assert!(!has_summary("---\ntitle: x\n---\nA summary is coming"));
    }

    #[test]
    fn embeds_are_recognised() {
        let has_embeds = |text: &str| text_facts(text).has_embeds;
        assert!(has_embeds("![[Recording 2024.m4a]]"));
        assert!(has_embeds("![scan](scan%201.png)"));
        assert!(!has_embeds(
            "just [[a link]] and [a site](https://example.com)"
        ));
    }
}
