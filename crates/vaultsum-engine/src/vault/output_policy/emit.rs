//! The allow-list for a summary's lines: fenced code blocks are found with pulldown-cmark (the
//! answer parsed as the section will hold it: trimmed, LF, after a heading and a blank line);
//! every other line is its block markers (quote, callout, list, task box, heading, footnote
//! definition), copied, and its text through the inline allow-list (`inline.rs`).
//!
//! Lines outside fenced blocks are written so that they are inert whether a reader takes them
//! for text or for an indented code block (the disagreement the issue found when trimming
//! turned code into a paragraph): nothing in them acts in either reading.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use super::display_languages::{is_display_language, mermaid_is_inert};
use super::inline::{shape_code_text, Inline, BREAK};
use super::summary_options;

/// A fenced code block of the answer, by lines.
struct Fenced {
    opener: usize,
    /// The last line of the block (its closing fence when it has one).
    last: usize,
    closed: bool,
    /// Inside a list item, where Dataview reads `::` in the item's HTML, code included.
    in_item: bool,
    /// Inside a list item, a quote or a footnote definition, whose end closes it.
    in_container: bool,
    /// Byte offset of the first character of its content that is not white space.
    first_content: Option<usize>,
    /// Whether the info string must become `text`.
    retag: bool,
    fence: String,
}

/// `text` (trimmed, LF line breaks, invisible characters gone) written by the allow-list.
pub(super) fn emit(text: &str, inline: &mut Inline<'_>) -> String {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect();
    let line_of = |at: usize| line_starts.partition_point(|start| *start <= at) - 1;
    let (blocks, tables) = fenced_blocks(text, &line_starts, &line_of);
    // Tables in order of their lines: the one holding line `n` by binary search.
    let table_of = |n: usize| {
        let next = tables.partition_point(|(lines, _)| *lines.start() <= n);
        (next > 0 && tables[next - 1].0.contains(&n)).then(|| tables[next - 1].1)
    };
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 16);
    let mut block = blocks.iter().peekable();
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        while block.peek().is_some_and(|b| b.last < n) {
            block.next();
        }
        let start = line_starts[n];
        match block.peek() {
            Some(b) if b.opener == n => {
                out.push_str(&opener_line(line, b, inline));
            }
            Some(b) if b.opener < n && n <= b.last && (n < b.last || !b.closed) => {
                out.push_str(&content_line(line, start, b, inline));
            }
            Some(b) if n == b.last && b.closed => out.push_str(line),
            _ => {
                let prefix = block_markers(line);
                if is_definition(&line[prefix..]) {
                    inline.counts.definitions += 1;
                }
                out.push_str(&line[..prefix]);
                let content = &line[prefix..];
                match table_of(n) {
                    Some(columns) => {
                        let excess = excess_cell_pipes(content, columns);
                        inline.line(content, &mut out, Some(&excess));
                    }
                    None => inline.line(content, &mut out, None),
                }
            }
        }
    }
    // A block the answer left open would take in what follows it in the note: closed here.
    if let Some(open) = blocks
        .iter()
        .find(|b| !b.closed && !b.in_container && b.last + 1 == line_starts.len())
    {
        out.push('\n');
        out.push_str(&open.fence);
    }
    out
}

fn opener_line(line: &str, block: &Fenced, inline: &mut Inline<'_>) -> String {
    let Some(fence_at) = line.find(['`', '~']) else {
        return line.to_string();
    };
    let fence_char = line.as_bytes()[fence_at];
    let fence_len = line[fence_at..]
        .bytes()
        .take_while(|b| *b == fence_char)
        .count();
    let info_at = fence_at + fence_len;
    if block.retag && !line[info_at..].trim().is_empty() {
        inline.counts.code_blocks += 1;
        return format!("{}text", &line[..info_at]);
    }
    line.to_string()
}

fn content_line(line: &str, start: usize, block: &Fenced, inline: &mut Inline<'_>) -> String {
    let mut shaped = if block.in_item {
        shape_code_text(line)
    } else {
        line.replace("<%", "< %")
    };
    if shaped.len() != line.len() && shaped.contains("< %") && !line.contains("< %") {
        inline.counts.templater += 1;
    }
    if let Some(first) = block.first_content {
        if (start..start + line.len()).contains(&first) {
            let at = first - start;
            // Offsets before `at` are unchanged by the shaping (it only inserts after `<`
            // and between colons, neither of which is white space).
            let offset_in_shaped = shaped
                .char_indices()
                .map(|(i, _)| i)
                .find(|i| *i >= at)
                .unwrap_or(shaped.len());
            let body = &shaped[offset_in_shaped..];
            if body.starts_with('=') || body.starts_with("$=") {
                inline.counts.inline_code += 1;
                shaped.insert(offset_in_shaped, BREAK);
            }
        }
    }
    shaped
}

/// The fenced code blocks of `text`, and the lines of its tables (whose cells GFM splits at
/// `|` before it reads code or math).
fn fenced_blocks(
    text: &str,
    line_starts: &[usize],
    line_of: &dyn Fn(usize) -> usize,
) -> (Vec<Fenced>, Vec<(std::ops::RangeInclusive<usize>, usize)>) {
    let mut blocks = Vec::new();
    let mut tables = Vec::new();
    let mut items = 0usize;
    let mut quotes = 0usize;
    let mut current: Option<(Fenced, Range<usize>, String)> = None;
    // Parsed with every `<` made a letter: the answer's HTML blocks are not blocks once written
    // (`inline.rs` writes their `<` as `&lt;`), so a fence inside one is a fence in the note.
    let probe = text.replace('<', "x");
    for (event, range) in Parser::new_ext(&probe, summary_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => items += 1,
            Event::End(TagEnd::Item) => items = items.saturating_sub(1),
            Event::Start(Tag::Table(alignments)) => tables.push((
                line_of(range.start)..=line_of(range.end.max(range.start + 1) - 1),
                alignments.len(),
            )),
            Event::Start(Tag::BlockQuote(_) | Tag::FootnoteDefinition(_)) => quotes += 1,
            Event::End(TagEnd::BlockQuote(_) | TagEnd::FootnoteDefinition) => {
                quotes = quotes.saturating_sub(1)
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let opener = line_of(range.start);
                let line_start = text[..range.start].rfind('\n').map_or(0, |at| at + 1);
                let line_end = text[range.start..]
                    .find('\n')
                    .map_or(text.len(), |at| range.start + at);
                let line = &text[line_start..line_end];
                let fence_at = line.find(['`', '~']).unwrap_or(0);
                let fence_char = line.as_bytes().get(fence_at).copied().unwrap_or(b'`');
                let fence: String = line[fence_at..]
                    .chars()
                    .take_while(|c| *c as u32 == u32::from(fence_char))
                    .collect();
                current = Some((
                    Fenced {
                        opener,
                        last: opener,
                        closed: false,
                        in_item: items > 0,
                        in_container: items + quotes > 0,
                        first_content: None,
                        retag: !is_display_language(&info),
                        fence,
                    },
                    range,
                    info.to_string(),
                ));
            }
            Event::Text(content) => {
                if let Some((block, _, _)) = current.as_mut() {
                    if block.first_content.is_none() {
                        let lead = content.len() - content.trim_start().len();
                        if lead < content.len() {
                            block.first_content = Some(range.start + lead);
                        }
                    }
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((mut block, range, info)) = current.take() {
                    block.last = line_of(range.end.max(range.start + 1) - 1);
                    let last_start = line_starts[block.last];
                    let last_line = text[last_start..]
                        .split('\n')
                        .next()
                        .unwrap_or_default()
                        .trim_start_matches([' ', '\t', '>'])
                        .trim_end();
                    block.closed = block.last > block.opener
                        && last_line.starts_with(&block.fence)
                        && last_line.chars().all(|c| block.fence.starts_with(c));
                    if info.split_whitespace().next() == Some("mermaid") {
                        let content = &text[range.clone()];
                        block.retag = !mermaid_is_inert(content);
                    }
                    blocks.push(block);
                }
            }
            _ => {}
        }
    }
    (blocks, tables)
}

/// How many bytes at the start of `line` are block markers: indentation, `>` (and a callout's
/// `[!type]` right after the first), list markers with a task box, a heading's `#`s, a
/// footnote definition's `[^label]:`. What follows is the line's text.
fn block_markers(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut quotes = 0;
    loop {
        let before = i;
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        if bytes.get(i) == Some(&b'>') {
            i += 1;
            quotes += 1;
            if bytes.get(i) == Some(&b' ') {
                i += 1;
            }
            if quotes == 1 {
                if let Some(len) = callout(&line[i..]) {
                    i += len;
                    break;
                }
            }
            continue;
        }
        if let Some(len) = list_marker(&line[i..]) {
            i += len;
            if let Some(len) = task_box(&line[i..]) {
                i += len;
            }
            continue;
        }
        if i == before || i >= bytes.len() {
            break;
        }
        break;
    }
    let hashes = bytes[i..].iter().take_while(|b| **b == b'#').count();
    if (1..=6).contains(&hashes) && matches!(bytes.get(i + hashes), None | Some(b' ' | b'\t')) {
        return i + hashes;
    }
    if let Some(label) = line[i..].strip_prefix("[^") {
        if let Some(end) = label.find("]:") {
            if end > 0
                && label[..end]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
            {
                return i + 2 + end + 2;
            }
        }
    }
    i
}

/// The `|` of a table row that would start cells past the header's `columns`, as offsets in
/// `row`: GFM drops such cells unseen (text hidden in plain sight), so they are escaped and
/// their text joins the last cell. Cells split at every `|` not escaped, code or not.
fn excess_cell_pipes(row: &str, columns: usize) -> Vec<usize> {
    let bytes = row.as_bytes();
    let pipes: Vec<usize> = (0..bytes.len())
        .filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\'))
        .collect();
    let leading = pipes.first().filter(|&&p| row[..p].trim().is_empty());
    let trailing = pipes.last().filter(|&&p| row[p + 1..].trim().is_empty());
    let separators: Vec<usize> = pipes
        .iter()
        .copied()
        .filter(|p| Some(p) != leading && Some(p) != trailing)
        .collect();
    separators
        .into_iter()
        .skip(columns.saturating_sub(1))
        .collect()
}

/// Whether `text` starts as a link reference definition does (`[label]: …`).
fn is_definition(text: &str) -> bool {
    text.strip_prefix('[')
        .filter(|label| !label.starts_with(['^', '[']))
        .and_then(|label| label.find(']').map(|end| (label, end)))
        .is_some_and(|(label, end)| end > 0 && label[end..].starts_with("]:"))
}

/// `- `, `* `, `+ `, `1. `, `1) ` (or the marker alone at the end of the line).
fn list_marker(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let marker = match bytes.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(bytes.get(digits), Some(b'.' | b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    match bytes.get(marker) {
        None => Some(marker),
        Some(b' ' | b'\t') => Some(marker + 1),
        _ => None,
    }
}

/// A task box `[ ] `, `[x] `, `[-] ` (any one character Tasks knows as a status).
fn task_box(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices();
    if chars.next()?.1 != '[' {
        return None;
    }
    let (_, status) = chars.next()?;
    let (close_at, close) = chars.next()?;
    if close != ']' || matches!(status, '[' | ']' | '\\' | '`' | '<' | '\n') {
        return None;
    }
    let after = close_at + 1;
    match rest.as_bytes().get(after) {
        None => Some(after),
        Some(b' ' | b'\t') => Some(after + 1),
        _ => None,
    }
}

/// A callout's `[!type]` (with `+` or `-` for folding).
fn callout(rest: &str) -> Option<usize> {
    let kind = rest.strip_prefix("[!")?;
    let end = kind.find(']')?;
    if end == 0
        || !kind[..end]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
    {
        return None;
    }
    let mut len = 2 + end + 1;
    if matches!(rest.as_bytes().get(len), Some(b'+' | b'-')) {
        len += 1;
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::block_markers;

    #[test]
    fn cells_past_the_header_are_joined_to_the_last() {
        use super::excess_cell_pipes;
        assert_eq!(excess_cell_pipes("| a | b |", 2), Vec::<usize>::new());
        assert_eq!(excess_cell_pipes("| a | b | hidden |", 2), vec![8]);
        assert_eq!(excess_cell_pipes("a | b | c", 1), vec![2, 6]);
        assert_eq!(excess_cell_pipes("| `a|b` | c |", 2), vec![8]);
    }

    #[test]
    fn block_markers_are_quotes_callouts_lists_tasks_headings_and_footnotes() {
        fn marked(line: &str) -> &str {
            &line[..block_markers(line)]
        }
        assert_eq!(marked("> [!note]- Title"), "> [!note]-");
        assert_eq!(marked("- [ ] Call Ana"), "- [ ] ");
        assert_eq!(marked("  1. [x] Done"), "  1. [x] ");
        assert_eq!(marked("### Decisions"), "###");
        assert_eq!(marked("[^1]: The source."), "[^1]:");
        assert_eq!(marked("> > - quoted item"), "> > - ");
        assert_eq!(marked("Plain [link](x)"), "");
        assert_eq!(marked("[!note] not after a quote"), "");
    }
}
