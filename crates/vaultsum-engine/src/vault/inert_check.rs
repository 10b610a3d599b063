//! The verifier of what is written: the last look at the exact bytes a summary write puts on
//! disk (the section in its note, a generated note's body, a property's value), after every
//! composition step. It shares no parsing with the output policy (`output_policy/`): the whole
//! note is parsed again with pulldown-cmark's own options for CommonMark and GFM (math on,
//! wikilinks off), and Obsidian's own grammars are modelled on the raw lines (wikilinks end at
//! the first `]]` of their line, `%%` comments, `$` math), Dataview's (inline fields on the
//! rendered HTML of `p`, `li`, `td`, …, queries on any code), MathJax's and Mermaid's. A write
//! with anything live in it is refused whole (`summary_section::SectionRefused::Live`).

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};

use super::output_policy::{
    has_image_extension, is_display_language, is_invisible, is_local, mermaid_is_inert,
    never_a_link, LinkRule, BREAK,
};

/// One live construct in written bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    /// What it is (`remote image`, `raw HTML`, `dataview query`, …).
    pub kind: &'static str,
    /// Byte offset in the checked text.
    pub at: usize,
    /// A few characters of it, for the error.
    pub excerpt: String,
}

impl std::fmt::Display for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}: {:?}", self.kind, self.at, self.excerpt)
    }
}

/// MathJax commands that act (links, styles, ids, definitions that can build any of them).
const MATHJAX_ACTS: &[&str] = &[
    "href",
    "url",
    "style",
    "class",
    "cssId",
    "bbox",
    "def",
    "gdef",
    "edef",
    "xdef",
    "let",
    "newcommand",
    "renewcommand",
    "providecommand",
    "DeclareMathOperator",
    "newenvironment",
    "require",
    "html",
    "htmlClass",
    "htmlStyle",
    "htmlId",
    "htmlData",
    "data",
    "unicode",
    "mmlToken",
    "toggle",
    "texttip",
    "tooltip",
    "statusline",
    "includegraphics",
    "input",
    "csname",
    "expandafter",
    "char",
    "mathtip",
];

/// Tags that may stand in written bytes: without attributes, only these.
const TAGS: &[&str] = &["br", "kbd", "sub", "sup", "mark"];

/// What lies in `written` of `document` (a note as it will be on disk) that acts when the note
/// is shown: checked with the note around it. `heading_at`: where the `## Summary` heading the
/// write put must stand as a heading (the note leaves no block open around it).
pub fn live_in_note(
    document: &str,
    written: Range<usize>,
    links: &LinkRule,
    heading_at: Option<usize>,
) -> Vec<Live> {
    let mut found = Vec::new();
    let within = |range: &Range<usize>| range.start < written.end && range.end > written.start;
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM;
    // Frontmatter only at the very start (pulldown-cmark's option takes a `---` block anywhere,
    // which would hide written text): blanked, offsets kept.
    let masked = mask_frontmatter(document);
    let mut parser = Parser::new_ext(&masked, options).into_offset_iter();
    let mut heading_found = heading_at.is_none();
    let mut code: Vec<Range<usize>> = Vec::new();
    // Links (checked by their destination): no bare URL is looked for inside one.
    let mut linked: Vec<Range<usize>> = Vec::new();
    let mut items = 0usize;
    let mut in_block: Option<(String, Range<usize>, bool, String)> = None;
    let mut top_level_code: Vec<Range<usize>> = Vec::new();
    for (event, range) in parser.by_ref() {
        match &event {
            Event::Start(Tag::Item) => items += 1,
            Event::End(TagEnd::Item) => items = items.saturating_sub(1),
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) if Some(range.start) == heading_at => heading_found = true,
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                in_block = Some((info, range.clone(), items > 0, String::new()));
                code.push(range.clone());
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((info, block, in_item, content)) = in_block.take() {
                    // A block of the note that runs past its end takes in what was written
                    // only if written text (not just line breaks) lies inside it.
                    let takes_in = block.start >= written.start
                        || document
                            .get(written.start..block.end.min(written.end))
                            .is_some_and(|inside| !inside.trim().is_empty());
                    if within(&block) && takes_in {
                        check_code_block(document, &info, &block, in_item, &content, &mut found);
                        if !in_item {
                            top_level_code.push(block);
                        }
                    }
                }
            }
            _ => {}
        }
        if let Some((_, _, _, content)) = in_block.as_mut() {
            if let Event::Text(text) = &event {
                content.push_str(text);
            }
            continue;
        }
        if !within(&range) {
            continue;
        }
        let live = |kind: &'static str| Live {
            kind,
            at: range.start,
            excerpt: excerpt(document, &range),
        };
        match &event {
            Event::Html(html) | Event::InlineHtml(html)
                if !only_allowed_tags(html) && !fingerprint_line(html) =>
            {
                found.push(live("raw HTML"));
            }
            Event::Start(Tag::Image { dest_url, .. }) if !vault_image(dest_url) => {
                found.push(live("image from outside the vault"));
            }
            Event::Start(Tag::Image { dest_url, .. }) if !has_image_extension(dest_url) => {
                found.push(live("embed of a note or file"));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                let url = match link_type {
                    LinkType::Email => format!("mailto:{dest_url}"),
                    _ => dest_url.to_string(),
                };
                if never_a_link(&url) || !(is_local(&url) || links.allows(&url)) {
                    found.push(live("link the source did not name"));
                }
                linked.push(range.clone());
            }
            Event::Code(text) => {
                code.push(range.clone());
                if dataview_query(text) {
                    found.push(live("Dataview query in code"));
                }
            }
            Event::InlineMath(math) | Event::DisplayMath(math) => {
                if let Some(command) = acting_command(math) {
                    found.push(Live {
                        kind: "MathJax command that acts",
                        at: range.start,
                        excerpt: command.to_string(),
                    });
                }
            }
            _ => {}
        }
    }
    for (_, definition) in parser.reference_definitions().iter() {
        if within(&definition.span) {
            found.push(Live {
                kind: "link reference definition",
                at: definition.span.start,
                excerpt: excerpt(document, &definition.span),
            });
        }
    }
    if !heading_found {
        found.push(Live {
            kind: "summary heading inside a block the note leaves open",
            at: heading_at.unwrap_or(written.start),
            excerpt: excerpt(document, &written),
        });
    }
    let checked = Checked {
        code: &code,
        top_level_code: &top_level_code,
        linked: &linked,
    };
    check_raw(document, &written, &checked, links, &mut found);
    found
}

/// What acts in a property's value (Dataview renders a text field as Markdown, in tables too).
pub fn live_in_property(value: &str, links: &LinkRule) -> Vec<Live> {
    let mut found = live_in_note(value, 0..value.len(), links, None);
    for (event, range) in Parser::new_ext(value, Options::ENABLE_MATH).into_offset_iter() {
        let kind = match event {
            Event::Start(Tag::Link { .. }) => "link in the property",
            Event::Start(Tag::Image { .. }) => "image in the property",
            Event::Code(_) => "code in the property",
            _ => continue,
        };
        found.push(Live {
            kind,
            at: range.start,
            excerpt: excerpt(value, &range),
        });
    }
    found
}

fn check_code_block(
    document: &str,
    info: &str,
    block: &Range<usize>,
    in_item: bool,
    content: &str,
    found: &mut Vec<Live>,
) {
    let live = |kind: &'static str| Live {
        kind,
        at: block.start,
        excerpt: excerpt(document, block),
    };
    let language = info.split_whitespace().next().unwrap_or("");
    if !info.trim().is_empty() && (!is_display_language(info) || info.trim() != language) {
        found.push(live("code block a plugin runs"));
    }
    if language.eq_ignore_ascii_case("mermaid") && !mermaid_is_inert(&document[block.clone()]) {
        found.push(live("Mermaid directive, click or link"));
    }
    if dataview_query(content) {
        found.push(live("Dataview query in a code block"));
    }
    if in_item && content.contains("::") {
        found.push(live("Dataview inline field in a list item's code"));
    }
}

/// What the parse found that the raw checks skip.
struct Checked<'a> {
    code: &'a [Range<usize>],
    top_level_code: &'a [Range<usize>],
    linked: &'a [Range<usize>],
}

/// The checks on the raw bytes, as Obsidian and its plugins read them.
fn check_raw(
    document: &str,
    written: &Range<usize>,
    checked: &Checked<'_>,
    links: &LinkRule,
    found: &mut Vec<Live>,
) {
    let (code, top_level_code) = (checked.code, checked.top_level_code);
    let text = &document[written.clone()];
    let in_code = |at: usize| within_any(code, at);
    let in_top_code = |at: usize| within_any(top_level_code, at);
    let at = |i: usize| written.start + i;
    let push = |found: &mut Vec<Live>, kind: &'static str, i: usize| {
        found.push(Live {
            kind,
            at: at(i),
            excerpt: text[i..].chars().take(40).collect(),
        })
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (n, &(i, c)) in chars.iter().enumerate() {
        let before = n.checked_sub(1).map(|m| chars[m].1);
        let after = chars.get(n + 1).map(|p| p.1);
        if is_invisible(c)
            && !matches!(c, '\t' | '\n' | '\r')
            && !allowed_invisible(c, before, after)
        {
            push(found, "invisible character", i);
        }
    }
    if text.contains("<%") {
        push(found, "Templater tag", text.find("<%").unwrap_or(0));
    }
    // `::` outside code a plugin shows as code at the top level (Dataview reads fields in the
    // HTML of `p`, `li`, `td`, …), `%%` outside any code: the first of each.
    let first_outside = |pattern: &str, inside: &dyn Fn(usize) -> bool| {
        text.match_indices(pattern)
            .map(|(i, _)| i)
            .find(|i| !inside(at(*i)))
    };
    if let Some(i) = first_outside("::", &in_top_code) {
        push(found, "Dataview inline field", i);
    }
    if let Some(i) = first_outside("%%", &in_code) {
        push(found, "Obsidian comment", i);
    }
    // Obsidian's math: any unescaped `$` outside code, with a command that acts anywhere in
    // the text outside code, may be math that runs it, wherever a reader starts the math.
    let unescaped_dollar = text
        .char_indices()
        .any(|(i, c)| c == '$' && !in_code(at(i)) && !escaped(text, i));
    if unescaped_dollar {
        if let Some((i, command)) =
            commands(text).find(|(i, command)| !in_code(at(*i)) && MATHJAX_ACTS.contains(command))
        {
            let _ = command;
            push(found, "MathJax command that acts", i);
        }
    }
    // Obsidian's wikilinks: on one line, from `[[` to the first `]]`; an embed `![[`.
    for (line_start, line) in lines(text) {
        // Each `[[` closes at the first `]]` after it: the closings found once per line.
        let closings: Vec<usize> = line.match_indices("]]").map(|(at, _)| at).collect();
        let mut from = 0;
        while let Some(open) = line[from..].find("[[") {
            let i = from + open;
            from = i + 2;
            if in_code(at(line_start + i)) || escaped(line, i) {
                continue;
            }
            let embed = i > 0 && line.as_bytes()[i - 1] == b'!' && !escaped(line, i - 1);
            let first = closings[closings.partition_point(|c| *c < i + 2)..].first();
            match first.map(|c| c - (i + 2)) {
                Some(close) => {
                    let inner = &line[i + 2..i + 2 + close];
                    if inner.contains(['`', '<', '[', '!', '$']) || inner.contains("://") {
                        push(found, "wikilink that other readers split", line_start + i);
                    } else if embed && inner.contains(':') {
                        push(
                            found,
                            "embed of something not in the vault",
                            line_start + i - 1,
                        );
                    }
                    from = i + 2 + close + 2;
                }
                None if embed => push(found, "unclosed embed", line_start + i - 1),
                None => {}
            }
        }
    }
    // Bare e-mail addresses, which Obsidian links too.
    for (i, _) in text.match_indices('@') {
        let local = text[..i]
            .bytes()
            .rev()
            .take_while(|b| {
                b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
            })
            .count();
        let domain: String = text[i + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
            .collect();
        let domain = domain.trim_end_matches(['.', '-']);
        let tld_ok = domain.rsplit_once('.').is_some_and(|(name, tld)| {
            !name.is_empty() && tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic())
        });
        let start = i - local;
        if local > 0 && tld_ok && !in_code(at(start)) {
            let address = format!("mailto:{}@{domain}", &text[start..i]);
            let in_link = within_any(checked.linked, at(start));
            if !in_link && !links.allows(&address) {
                push(found, "e-mail address the source did not name", start);
            }
        }
    }
    // Bare URLs, which Obsidian makes clickable: outside code, each one the source named.
    for (i, url) in bare_urls(text) {
        let in_link = within_any(checked.linked, at(i));
        if !in_code(at(i)) && !in_link && !escaped(text, i) && !links.allows(url) {
            push(found, "bare URL the source did not name", i);
        }
    }
}

/// Whether `at` lies in one of `ranges` (sorted by start, none inside another).
fn within_any(ranges: &[Range<usize>], at: usize) -> bool {
    let next = ranges.partition_point(|r| r.start <= at);
    next > 0 && at < ranges[next - 1].end
}

/// Whether the invisible character `c` stands where the policy or Unicode gives it meaning.
fn allowed_invisible(c: char, before: Option<char>, after: Option<char>) -> bool {
    let non_ascii = |x: Option<char>| x.is_some_and(|x| !x.is_ascii() && !x.is_whitespace());
    match c {
        // One joiner where the policy writes it (or a `\$` it escaped follows): no text hides
        // in one character.
        BREAK => {
            (before == Some(':') && after == Some(':')) || matches!(after, Some('=' | '$' | '\\'))
        }
        '\u{200C}' | '\u{200D}' => non_ascii(before) && non_ascii(after),
        '\u{FE0E}' | '\u{FE0F}' => non_ascii(before),
        _ => false,
    }
}

fn dataview_query(code: &str) -> bool {
    let trimmed = code.trim();
    trimmed.starts_with('=') || trimmed.starts_with("$=")
}

fn acting_command(math: &str) -> Option<&str> {
    commands(math)
        .map(|(_, c)| c)
        .find(|c| MATHJAX_ACTS.contains(c))
}

/// The `\name` commands of `text`, with their offsets.
fn commands(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.match_indices('\\').filter_map(move |(i, _)| {
        // `\\href` is an escaped backslash and a word, not a command.
        if escaped(text, i) {
            return None;
        }
        let name_len = text[i + 1..]
            .bytes()
            .take_while(u8::is_ascii_alphabetic)
            .count();
        (name_len > 0).then(|| (i, &text[i + 1..i + 1 + name_len]))
    })
}

/// Whether the character at `i` is backslash-escaped.
fn escaped(text: &str, i: usize) -> bool {
    text[..i].bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 1
}

/// The summary's fingerprint, the one comment vaultsum writes under its heading:
/// `<!-- vaultsum: note=… summary=… -->`, nothing in it but words, `=` and hex.
fn fingerprint_line(html: &str) -> bool {
    html.trim_end()
        .strip_prefix("<!-- vaultsum: ")
        .and_then(|rest| rest.strip_suffix(" -->"))
        .is_some_and(|inner| {
            inner
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'=' | b' ' | b'_' | b'.'))
        })
}

fn only_allowed_tags(html: &str) -> bool {
    html.match_indices('<').all(|(i, _)| {
        let rest = &html[i + 1..];
        let Some(end) = rest.find('>') else {
            return false;
        };
        let name = rest[..end]
            .trim_start_matches('/')
            .trim_end_matches('/')
            .trim();
        TAGS.iter().any(|t| t.eq_ignore_ascii_case(name))
    })
}

fn vault_image(dest: &str) -> bool {
    let lower = dest.to_ascii_lowercase();
    is_local(dest)
        && !dest.starts_with(['/', '\\'])
        && !dest.split(['/', '\\']).any(|p| p == "..")
        && !lower.contains("%2e")
        && !dest.contains(':')
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    text.split('\n').map(move |line| {
        let at = start;
        start += line.len() + 1;
        (at, line)
    })
}

/// Bare URLs as Obsidian links them: `scheme://…` or `www.…` after a non-word character, to
/// white space or `<`.
fn bare_urls(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let start = i;
            let boundary = start == 0 || !bytes[start - 1].is_ascii_alphanumeric();
            if boundary && bytes[start].is_ascii_alphabetic() {
                let scheme = bytes[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
                    .count();
                let www = bytes.len() > start + 4
                    && bytes[start..start + 4].eq_ignore_ascii_case(b"www.")
                    && bytes[start + 4].is_ascii_alphanumeric();
                if bytes[start + scheme..].starts_with(b"://") || www {
                    let end = text[start..]
                        .find(|c: char| c.is_whitespace() || c == '<')
                        .map_or(text.len(), |e| start + e);
                    let url = trim_unbalanced(&text[start..end]);
                    i = end;
                    return Some((start, url));
                }
                i = start + scheme.max(1);
                continue;
            }
            i += 1;
        }
        None
    })
}

/// `url` without what ends the sentence around it: trailing punctuation and closing brackets
/// it does not open, one at a time from the end.
fn trim_unbalanced(url: &str) -> &str {
    // The balance is counted once and kept as characters come off (linear on `x)))…`).
    let balance = |open: char, close: char| {
        url.matches(close).count() as isize - url.matches(open).count() as isize
    };
    let (mut parens, mut brackets) = (balance('(', ')'), balance('[', ']'));
    let mut end = url.len();
    loop {
        let Some(last) = url[..end].chars().next_back() else {
            return "";
        };
        let unbalanced = (last == ')' && parens > 0) || (last == ']' && brackets > 0);
        if matches!(
            last,
            '.' | ',' | ';' | ':' | '!' | '?' | '*' | '_' | '~' | '|'
        ) || unbalanced
        {
            match last {
                ')' => parens -= 1,
                ']' => brackets -= 1,
                _ => {}
            }
            end -= last.len_utf8();
        } else {
            return &url[..end];
        }
    }
}

/// `document` with a leading frontmatter block's characters made spaces (line breaks kept).
fn mask_frontmatter(document: &str) -> std::borrow::Cow<'_, str> {
    let body = document.strip_prefix('\u{FEFF}').unwrap_or(document);
    let offset = document.len() - body.len();
    if !(body.starts_with("---\n") || body.starts_with("---\r\n")) {
        return std::borrow::Cow::Borrowed(document);
    }
    let mut end = None;
    let mut at = body.find('\n').map_or(body.len(), |n| n + 1);
    for line in body[at..].split_inclusive('\n') {
        at += line.len();
        if matches!(line.trim_end(), "---" | "...") {
            end = Some(offset + at);
            break;
        }
    }
    let Some(end) = end else {
        return std::borrow::Cow::Borrowed(document);
    };
    let mut masked = String::with_capacity(document.len());
    for c in document[..end].chars() {
        if c == '\n' || c == '\r' {
            masked.push(c);
        } else {
            masked.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    masked.push_str(&document[end..]);
    std::borrow::Cow::Owned(masked)
}

fn excerpt(text: &str, range: &Range<usize>) -> String {
    let end = range.end.min(text.len());
    text.get(range.start..end)
        .unwrap_or_default()
        .chars()
        .take(60)
        .collect()
}
