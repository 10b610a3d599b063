//! Replacements of byte ranges of a text, applied in one copy: everything between them is
//! copied byte for byte, which is what keeps a legitimate summary exactly as it came.

use std::ops::Range;

/// One replacement: `range` of the text becomes `with` (an empty range inserts).
#[derive(Debug, Clone)]
pub(super) struct Edit {
    pub range: Range<usize>,
    pub with: String,
}

impl Edit {
    pub fn new(range: Range<usize>, with: impl Into<String>) -> Edit {
        Edit {
            range,
            with: with.into(),
        }
    }
}

/// `text` with `edits` applied, or `None` when there are none. Edits are taken in order of
/// position; one that overlaps an earlier one is left out (the next round of the policy sees
/// what it was about, on the text as it is then).
pub(super) fn apply(text: &str, mut edits: Vec<Edit>) -> Option<String> {
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    for edit in edits {
        if edit.range.start < copied || edit.range.end > text.len() {
            continue;
        }
        out.push_str(&text[copied..edit.range.start]);
        out.push_str(&edit.with);
        copied = edit.range.end;
    }
    out.push_str(&text[copied..]);
    (out != text).then_some(out)
}

/// `text` with every ASCII punctuation character backslash-escaped and line breaks made
/// spaces: it renders as exactly these characters and can form no Markdown construct (no
/// link, code, HTML, emphasis or list).
pub(super) fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The shortest length of a backtick run that occurs nowhere in `text`: code spans the policy
/// makes use runs of that length, so none of them pairs with a stray backtick of the text.
pub(super) fn free_backtick_run(text: &str) -> usize {
    let mut seen = Vec::new();
    let mut run = 0;
    for b in text.bytes().chain(std::iter::once(b'\n')) {
        if b == b'`' {
            run += 1;
        } else if run > 0 {
            if seen.len() <= run {
                seen.resize(run + 1, false);
            }
            seen[run] = true;
            run = 0;
        }
    }
    (1..)
        .find(|n| !seen.get(*n).copied().unwrap_or(false))
        .unwrap_or(1)
}

/// `content` as a code span of `fence` backticks, padded with a space where a backtick at its
/// edge, inside or just outside, would lengthen a fence.
pub(super) fn code_span(
    content: &str,
    fence: usize,
    before: Option<char>,
    after: Option<char>,
) -> String {
    let ticks = "`".repeat(fence);
    let inner_pad = content.starts_with('`') || content.ends_with('`');
    let mut out = String::with_capacity(content.len() + 2 * fence + 4);
    if before == Some('`') {
        out.push(' ');
    }
    out.push_str(&ticks);
    if inner_pad {
        out.push(' ');
    }
    out.push_str(content);
    if inner_pad {
        out.push(' ');
    }
    out.push_str(&ticks);
    if after == Some('`') {
        out.push(' ');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_edits_are_left_for_the_next_round() {
        let edits = vec![
            Edit::new(0..3, "x"),
            Edit::new(2..4, "y"),
            Edit::new(5..5, "!"),
        ];
        assert_eq!(apply("abcdefg", edits).as_deref(), Some("xde!fg"));
        assert_eq!(apply("abc", vec![]), None);
    }

    #[test]
    fn a_free_fence_length_avoids_every_run_of_the_text() {
        assert_eq!(free_backtick_run("no ticks"), 1);
        assert_eq!(free_backtick_run("a `b` c"), 2);
        assert_eq!(free_backtick_run("``x`` `y` ```z```"), 4);
        assert_eq!(code_span("`a", 2, Some('`'), None), " `` `a ``");
    }

    #[test]
    fn escaped_text_has_no_markup_left() {
        assert_eq!(escape_text("= [a](b) <x>"), "\\= \\[a\\]\\(b\\) \\<x\\>");
    }
}
