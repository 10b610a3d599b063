//! The spans of a note that expansion cares about, found once with pulldown-cmark: embeds
//! (outside code and HTML), `%%comments%%`, headings, blocks and the frontmatter.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

/// How an embed was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedSyntax {
    /// `![[target|alias]]`.
    Wiki,
    /// `![alt](local/path.png)`.
    Markdown,
    /// `![[]]`: an embed with no target at all.
    Empty,
}

/// One embed in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedSpan {
    /// Byte range of the whole `![[…]]` / `![…](…)`.
    pub range: Range<usize>,
    /// The inside of the wikilink (alias included) or the markdown destination.
    pub target: String,
    /// How it was written.
    pub syntax: EmbedSyntax,
    /// Inside a table cell, where a multi-line expansion would break the table.
    pub in_table: bool,
    /// What the author wrote about the file: the alt text of `![alt](img.png)`, or the alias
    /// of `![[img.png|alt]]` when it is not a size (`|300`, `|300x200`). Empty when none.
    pub alt: String,
}

/// A heading and its level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadingSpan {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text as rendered (inline markup removed).
    pub text: String,
    /// Byte range of the heading line(s).
    pub range: Range<usize>,
    /// How many blocks it sits in (0: the note's own heading; 1 and more: inside a callout or
    /// quote, a list item).
    pub depth: usize,
}

/// Kinds of block a `^id` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// A paragraph.
    Paragraph,
    /// A list item, with its nested children.
    Item,
    /// A whole list.
    List,
    /// A quote or callout.
    Quote,
    /// A table.
    Table,
    /// A heading.
    Heading,
    /// Anything else (code block, HTML, rule, ...).
    Other,
}

/// A block-level element with its nesting depth (0 = top level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSpan {
    /// What it is.
    pub kind: BlockKind,
    /// Byte range in the source.
    pub range: Range<usize>,
    /// Nesting depth among blocks.
    pub depth: usize,
}

/// Everything expansion needs to know about one note's source, found in a single parse.
#[derive(Debug, Clone, Default)]
pub struct NoteMap {
    /// The YAML frontmatter, including its closing `---` line.
    pub frontmatter: Option<Range<usize>>,
    /// Embeds outside code, HTML and comments, in source order.
    pub embeds: Vec<EmbedSpan>,
    /// `%%comments%%` (outside code), in source order.
    pub comments: Vec<Range<usize>>,
    /// Headings in source order.
    pub headings: Vec<HeadingSpan>,
    /// Blocks in source order (parents before children).
    pub blocks: Vec<BlockSpan>,
    /// Code spans, code blocks, HTML and frontmatter: text that is not markdown content.
    pub verbatim: Vec<Range<usize>>,
    /// `^block-id` markers (with the space before them, or their whole line when alone on it):
    /// Obsidian syntax, hidden when a note is shown embedded.
    pub block_ids: Vec<Range<usize>>,
}

/// The parser options vaultsum reads notes with (Obsidian's dialect as far as pulldown-cmark has it).
pub fn parser_options() -> Options {
    Options::ENABLE_WIKILINKS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
}

/// Maps a note's source. Never fails: any text is some markdown.
pub fn map_note(source: &str) -> NoteMap {
    let mut map = NoteMap::default();
    let mut open_blocks: Vec<(BlockKind, usize)> = Vec::new();
    let mut heading: Option<(u8, String, Range<usize>, usize)> = None;
    let mut table_depth = 0usize;
    let mut image_depth = 0usize;

    for (event, range) in Parser::new_ext(source, parser_options()).into_offset_iter() {
        match event {
            Event::Start(tag) => {
                if let Some(kind) = block_kind(&tag) {
                    map.blocks.push(BlockSpan {
                        kind,
                        range: range.clone(),
                        depth: open_blocks.len(),
                    });
                    open_blocks.push((kind, map.blocks.len() - 1));
                }
                match tag {
                    Tag::Heading { level, .. } => {
                        // Its own block is open already: the blocks around it are the rest.
                        let depth = open_blocks.len().saturating_sub(1);
                        heading = Some((level as u8, String::new(), range.clone(), depth));
                    }
                    Tag::Table(_) => table_depth += 1,
                    Tag::CodeBlock(_) | Tag::HtmlBlock => map.verbatim.push(range.clone()),
                    Tag::MetadataBlock(_) => {
                        let end = line_end(source, range.end);
                        map.frontmatter = Some(range.start..end);
                        map.verbatim.push(range.start..end);
                    }
                    Tag::Image {
                        link_type,
                        dest_url,
                        ..
                    } => {
                        image_depth += 1;
                        // Images nested in an image's alt text belong to the outer one.
                        if image_depth == 1 {
                            push_image(&mut map, source, range, link_type, &dest_url, table_depth);
                        }
                    }
                    _ => {}
                }
            }
            Event::End(tag_end) => {
                if is_block_end(&tag_end) {
                    open_blocks.pop();
                }
                match tag_end {
                    TagEnd::Heading(_) => {
                        if let Some((level, text, range, depth)) = heading.take() {
                            map.headings.push(HeadingSpan {
                                level,
                                text: text.trim().to_string(),
                                range,
                                depth,
                            });
                        }
                    }
                    TagEnd::Table => table_depth = table_depth.saturating_sub(1),
                    TagEnd::Image => image_depth = image_depth.saturating_sub(1),
                    _ => {}
                }
            }
            Event::Text(text) => {
                if let Some((_, heading_text, _, _)) = heading.as_mut() {
                    heading_text.push_str(&text);
                }
            }
            Event::Code(text) => {
                if let Some((_, heading_text, _, _)) = heading.as_mut() {
                    heading_text.push_str(&text);
                }
                map.verbatim.push(range);
            }
            Event::InlineHtml(_)
            | Event::Html(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_) => {
                map.verbatim.push(range);
            }
            _ => {}
        }
    }
    map.verbatim.sort_by_key(|r| r.start);
    find_empty_embeds(&mut map, source);
    find_comments(&mut map, source);
    find_block_ids(&mut map, source);
    map.embeds.sort_by_key(|e| e.range.start);
    map
}

/// True when an embed ends right at `caret`: `![[image.png]]^id` is a block id with no space
/// before it (Obsidian's own help vault writes an embed's id this way, and Obsidian finds it).
pub fn ends_an_embed(map: &NoteMap, caret: usize) -> bool {
    map.embeds.iter().any(|embed| embed.range.end == caret)
}

fn find_block_ids(map: &mut NoteMap, source: &str) {
    let bytes = source.as_bytes();
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'^', &bytes[from..]) {
        let caret = from + found;
        from = caret + 1;
        let id_len = bytes[caret + 1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-' || **b == b'_')
            .count();
        let id_end = caret + 1 + id_len;
        let end = line_end(source, id_end);
        let rest = &source[id_end..end];
        if id_len == 0 || !rest.trim().is_empty() || inside_any(&map.verbatim, caret) {
            continue;
        }
        let start_of_line = line_start(source, caret);
        let before = &source[start_of_line..caret];
        let range = if before.bytes().all(|b| b == b' ' || b == b'\t' || b == b'>') {
            start_of_line..end
        } else if before.ends_with([' ', '\t']) {
            (caret - (before.len() - before.trim_end_matches([' ', '\t']).len()))..id_end
        } else if ends_an_embed(map, caret) {
            caret..id_end
        } else {
            continue;
        };
        map.block_ids.push(range);
    }
}

fn push_image(
    map: &mut NoteMap,
    source: &str,
    range: Range<usize>,
    link_type: LinkType,
    dest_url: &str,
    table_depth: usize,
) {
    let Some(raw) = source.get(range.clone()) else {
        return;
    };
    let (syntax, target) = match link_type {
        LinkType::WikiLink { .. } => {
            // The raw text keeps `\|` inside tables, which dest_url has already cut.
            let inner = raw
                .strip_prefix("![[")
                .and_then(|s| s.strip_suffix("]]"))
                .unwrap_or(dest_url);
            (EmbedSyntax::Wiki, inner.to_string())
        }
        _ => {
            if dest_url.trim().is_empty() || super::link::is_external(dest_url) {
                return;
            }
            (EmbedSyntax::Markdown, dest_url.to_string())
        }
    };
    let alt = match syntax {
        EmbedSyntax::Wiki => target
            .split_once('|')
            .map(|(_, alias)| alias.trim())
            .filter(|alias| !is_size(alias))
            .unwrap_or_default()
            .to_string(),
        _ => raw
            .strip_prefix("![")
            .and_then(|rest| rest.rsplit_once("]("))
            .map(|(alt, _)| alt.trim().to_string())
            .unwrap_or_default(),
    };
    map.embeds.push(EmbedSpan {
        range,
        target,
        syntax,
        in_table: table_depth > 0,
        alt,
    });
}

/// `300` or `300x200`: an embed's size, not its alt text.
fn is_size(alias: &str) -> bool {
    let mut parts = alias.splitn(2, 'x');
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    parts.next().is_some_and(all_digits) && parts.next().is_none_or(all_digits)
}

/// `![[]]` is not a wikilink for pulldown-cmark; it is found in the text so it is reported
/// rather than passed over in silence.
fn find_empty_embeds(map: &mut NoteMap, source: &str) {
    let mut from = 0;
    while let Some(found) = find_ascii(&source[from..], "![[") {
        let start = from + found;
        from = start + 3;
        let rest = &source[start + 3..];
        let inner_len = find_ascii(rest, "]]").unwrap_or(usize::MAX);
        if inner_len == usize::MAX || !rest[..inner_len].trim().is_empty() {
            continue;
        }
        let range = start..start + 3 + inner_len + 2;
        if inside_any(&map.verbatim, start) || map.embeds.iter().any(|e| overlaps(&e.range, &range))
        {
            continue;
        }
        let in_table = map
            .blocks
            .iter()
            .any(|b| b.kind == BlockKind::Table && b.range.contains(&start));
        map.embeds.push(EmbedSpan {
            range,
            target: String::new(),
            syntax: EmbedSyntax::Empty,
            in_table,
            alt: String::new(),
        });
    }
}

/// Obsidian comments: `%%` to the next `%%`, across lines, not inside code. An unclosed `%%`
/// is left as text (hiding the rest of the note from the summarizer would lose content).
fn find_comments(map: &mut NoteMap, source: &str) {
    let mut from = 0;
    let mut opening: Option<usize> = None;
    while let Some(found) = find_ascii(&source[from..], "%%") {
        let at = from + found;
        from = at + 2;
        if inside_any(&map.verbatim, at) {
            continue;
        }
        match opening.take() {
            None => opening = Some(at),
            Some(start) => map.comments.push(start..at + 2),
        }
    }
    let comments = &map.comments;
    map.embeds
        .retain(|e| !comments.iter().any(|c| overlaps(c, &e.range)));
}

/// The first `needle` in `haystack` (SIMD substring search: these scans run over every note
/// read and every note embedded).
fn find_ascii(haystack: &str, needle: &str) -> Option<usize> {
    memchr::memmem::find(haystack.as_bytes(), needle.as_bytes())
}

fn block_kind(tag: &Tag) -> Option<BlockKind> {
    Some(match tag {
        Tag::Paragraph => BlockKind::Paragraph,
        Tag::Item => BlockKind::Item,
        Tag::List(_) => BlockKind::List,
        Tag::BlockQuote(_) => BlockKind::Quote,
        Tag::Table(_) => BlockKind::Table,
        Tag::Heading { .. } => BlockKind::Heading,
        Tag::CodeBlock(_)
        | Tag::HtmlBlock
        | Tag::FootnoteDefinition(_)
        | Tag::DefinitionList
        | Tag::MetadataBlock(_) => BlockKind::Other,
        _ => return None,
    })
}

fn is_block_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Paragraph
            | TagEnd::Item
            | TagEnd::List(_)
            | TagEnd::BlockQuote(_)
            | TagEnd::Table
            | TagEnd::Heading(_)
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::FootnoteDefinition
            | TagEnd::DefinitionList
            | TagEnd::MetadataBlock(_)
    )
}

/// True when `at` lies in one of the ranges.
pub fn inside_any(ranges: &[Range<usize>], at: usize) -> bool {
    ranges.iter().any(|r| r.contains(&at))
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The index just past the line break at or after `at` (or the end of the text).
pub fn line_end(source: &str, at: usize) -> usize {
    match source
        .get(at..)
        .and_then(|rest| memchr::memchr(b'\n', rest.as_bytes()))
    {
        Some(offset) => at + offset + 1,
        None => source.len(),
    }
}

/// The index of the start of the line containing `at`.
pub fn line_start(source: &str, at: usize) -> usize {
    source
        .get(..at)
        .and_then(|before| memchr::memrchr(b'\n', before.as_bytes()))
        .map_or(0, |newline| newline + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(source: &str) -> Vec<String> {
        map_note(source)
            .embeds
            .into_iter()
            .map(|e| e.target)
            .collect()
    }

    #[test]
    fn embeds_in_code_spans_and_blocks_and_html_are_not_embeds() {
        let src = "`![[a]]`\n\n```\n![[b]]\n```\n\n    ![[c]]\n\n<div>\n![[d]]\n</div>\n\n![[e]]\n";
        assert_eq!(targets(src), vec!["e"]);
    }

    #[test]
    fn embed_ranges_cover_exactly_the_embed() {
        let src = "see ![[Note#H|alias]] and ![pic](a%20b.png)\n";
        let map = map_note(src);
        let spans: Vec<&str> = map.embeds.iter().map(|e| &src[e.range.clone()]).collect();
        assert_eq!(spans, vec!["![[Note#H|alias]]", "![pic](a%20b.png)"]);
    }

    #[test]
    fn web_images_are_not_local_embeds() {
        assert!(targets("![x](https://example.com/a.png)\n").is_empty());
    }

    #[test]
    fn comments_hide_their_embeds() {
        let src = "a %%secret ![[x]]\nstill secret%% b ![[y]]\n`%%` ![[z]]\n";
        let map = map_note(src);
        assert_eq!(map.comments.len(), 1);
        assert_eq!(
            &src[map.comments[0].clone()],
            "%%secret ![[x]]\nstill secret%%"
        );
        assert_eq!(targets(src), vec!["y", "z"]);
    }

    #[test]
    fn empty_embed_outside_code_is_found() {
        let map = map_note("a ![[]] b `![[]]`\n");
        assert_eq!(map.embeds.len(), 1);
        assert_eq!(map.embeds[0].syntax, EmbedSyntax::Empty);
    }

    #[test]
    fn table_embeds_keep_the_escaped_pipe_and_know_they_are_in_a_table() {
        let map = map_note("| a |\n|---|\n| ![[pic.png\\|300]] |\n");
        assert_eq!(map.embeds[0].target, "pic.png\\|300");
        assert!(map.embeds[0].in_table);
    }

    #[test]
    fn frontmatter_range_includes_the_closing_line() {
        let src = "---\ntags: [a]\n---\nBody\n";
        let map = map_note(src);
        assert_eq!(&src[map.frontmatter.unwrap()], "---\ntags: [a]\n---\n");
    }
}
