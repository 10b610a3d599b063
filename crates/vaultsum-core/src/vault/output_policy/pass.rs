//! One round of the policy over a text: parse it once (pulldown-cmark, events with their
//! byte ranges), decide what each construct becomes, and apply the edits in one copy. The
//! policy repeats rounds until one changes nothing (`mod.rs`), so a construct that only an
//! edit reveals is met in the next round.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use super::display_languages::is_display_language;
use super::edits::{apply, code_span, escape_text, free_backtick_run, Edit};
use super::url::{bare_urls, host_label, is_local};
use super::{Defused, LinkRule};
use crate::vault::markdown::parser_options;

/// The options a summary is parsed with: the project's (`vault/markdown.rs`), without YAML
/// metadata blocks. pulldown-cmark takes a `---` block anywhere in a text for metadata and
/// hides its contents, where Obsidian renders them (a rule, then Markdown); only a block at
/// the start is frontmatter, and `mod.rs: drop_frontmatter` deals with that one.
pub(super) fn summary_options() -> Options {
    parser_options() - Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The text after one round, or `None` when the round changes nothing; counts what it made
/// inert into `counts`.
pub(super) fn round(text: &str, rule: &LinkRule<'_>, counts: &mut Defused) -> Option<String> {
    let mut parser = Parser::new_ext(text, summary_options()).into_offset_iter();
    let events: Vec<(Event<'_>, Range<usize>)> = parser.by_ref().collect();
    let mut round = Round {
        text,
        rule,
        fence: free_backtick_run(text),
        edits: Vec::new(),
        code: Vec::new(),
        counts: Defused::default(),
    };
    round.walk(&events);
    for (_, definition) in parser.reference_definitions().iter() {
        // A definition renders as nothing; one the policy would not link to goes, so that no
        // marker or bracketed text of the summary can pick it up as a reference.
        let dest = definition.dest.as_ref();
        if !is_local(dest) && !rule.allows(dest) {
            round.edits.push(Edit::new(definition.span.clone(), ""));
        }
    }
    round.break_templater_tags();
    let changed = apply(text, round.edits);
    if changed.is_some() {
        *counts = counts.plus(round.counts);
    }
    changed
}

struct Round<'t, 'r> {
    text: &'t str,
    rule: &'r LinkRule<'r>,
    /// Backtick count of the code spans this round makes.
    fence: usize,
    edits: Vec<Edit>,
    /// Code spans and code blocks: where `<%` is broken with a space, not a backslash.
    code: Vec<Range<usize>>,
    counts: Defused,
}

impl Round<'_, '_> {
    fn walk(&mut self, events: &[(Event<'_>, Range<usize>)]) {
        let mut text_run: Option<Range<usize>> = None;
        let mut i = 0;
        while i < events.len() {
            let (event, range) = &events[i];
            if let Event::Text(_) = event {
                text_run = match text_run.take() {
                    Some(run) if run.end == range.start => Some(run.start..range.end),
                    Some(run) => {
                        self.bare_urls(run);
                        Some(range.clone())
                    }
                    None => Some(range.clone()),
                };
                i += 1;
                continue;
            }
            if let Some(run) = text_run.take() {
                self.bare_urls(run);
            }
            match event {
                Event::Start(Tag::CodeBlock(kind)) => {
                    let end = super::pass_end(events, i);
                    self.code.push(range.clone());
                    if let CodeBlockKind::Fenced(info) = kind {
                        if !is_display_language(info) {
                            self.retag(range.start);
                        }
                    }
                    i = end + 1;
                    continue;
                }
                Event::Code(content) => {
                    self.code.push(range.clone());
                    let trimmed = content.trim_start();
                    if trimmed.starts_with('=') || trimmed.starts_with("$=") {
                        self.counts.inline_code += 1;
                        self.edits
                            .push(Edit::new(range.clone(), escape_text(content)));
                    }
                }
                Event::Start(Tag::HtmlBlock) => self.counts.html += 1,
                Event::InlineHtml(_) => {
                    self.counts.html += 1;
                    self.escape_html(range.clone());
                }
                Event::Html(_) => self.escape_html(range.clone()),
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    ..
                }) => {
                    let end = super::pass_end(events, i);
                    if !matches!(link_type, LinkType::WikiLink { .. }) && !is_local(dest_url) {
                        self.remote_image(range.clone(), dest_url, &events[i + 1..end]);
                    }
                    i = end + 1;
                    continue;
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    ..
                }) => {
                    let end = super::pass_end(events, i);
                    match link_type {
                        // A note of the vault, by name: nothing to click out to.
                        LinkType::WikiLink { .. } => {
                            i = end + 1;
                            continue;
                        }
                        LinkType::Autolink | LinkType::Email => {
                            let allowed = match link_type {
                                LinkType::Email => self.rule.allows(&format!("mailto:{dest_url}")),
                                _ => self.rule.allows(dest_url),
                            };
                            if !allowed {
                                self.counts.links += 1;
                                let inner = range.start + 1..range.end.saturating_sub(1);
                                let span = self.code_span_at(range.clone(), &self.text[inner]);
                                self.edits.push(span);
                            }
                            i = end + 1;
                            continue;
                        }
                        _ => {
                            if !(is_local(dest_url) || self.rule.allows(dest_url)) {
                                self.unlink(range.clone(), dest_url, &events[i + 1..end]);
                            }
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if let Some(run) = text_run {
            self.bare_urls(run);
        }
    }

    /// A fenced block's info string, from the fence line starting at or after `block_start`,
    /// becomes `text`.
    fn retag(&mut self, block_start: usize) {
        let line_end = self.text[block_start..]
            .find('\n')
            .map_or(self.text.len(), |at| block_start + at);
        let line = &self.text[block_start..line_end];
        let Some(fence_at) = line.find(['`', '~']) else {
            return;
        };
        let fence_char = line.as_bytes()[fence_at];
        let info_start = block_start
            + fence_at
            + line[fence_at..]
                .bytes()
                .take_while(|b| *b == fence_char)
                .count();
        let info = &self.text[info_start..line_end];
        let lead = info.len() - info.trim_start().len();
        let trimmed = info.trim();
        if trimmed.is_empty() {
            return;
        }
        let start = info_start + lead;
        self.counts.code_blocks += 1;
        self.edits
            .push(Edit::new(start..start + trimmed.len(), "text"));
    }

    /// Raw HTML shows as text: every `<` in it becomes `&lt;`, so no tag, comment or
    /// attribute (`src`, `style: url(…)`) is one any more.
    fn escape_html(&mut self, range: Range<usize>) {
        let html = &self.text[range.clone()];
        if html.contains('<') {
            self.edits.push(Edit::new(range, html.replace('<', "&lt;")));
        }
    }

    /// An image from outside the vault, which Obsidian would fetch as soon as the note shows:
    /// a plain link when its URL occurs in the source, else a marker naming its host.
    fn remote_image(&mut self, range: Range<usize>, dest: &str, alt: &[(Event<'_>, Range<usize>)]) {
        self.counts.remote_images += 1;
        let host = host_label(dest);
        let with = match link_destination(dest) {
            Some(written) if self.rule.allows(dest) => {
                let alt = plain_text(alt);
                let label = if alt.trim().is_empty() { host } else { alt };
                format!("[{}]({written})", escape_text(&label))
            }
            _ => format!("[image removed: {host}]"),
        };
        self.edits.push(Edit::new(range, with));
    }

    /// A link whose URL the summary may not have: its text stays, as text, followed by a
    /// marker naming the host it pointed to.
    fn unlink(&mut self, range: Range<usize>, dest: &str, children: &[(Event<'_>, Range<usize>)]) {
        self.counts.links += 1;
        let marker = format!("[link removed: {}]", host_label(dest));
        match (children.first(), children.last()) {
            (Some((_, first)), Some((_, last)))
                if range.start <= first.start && last.end <= range.end =>
            {
                self.edits.push(Edit::new(range.start..first.start, ""));
                self.edits
                    .push(Edit::new(last.end..range.end, format!(" {marker}")));
            }
            _ => self.edits.push(Edit::new(range, marker)),
        }
    }

    /// The bare URLs of a run of text that may not be links become code spans: shown, never
    /// clickable.
    fn bare_urls(&mut self, run: Range<usize>) {
        for found in bare_urls(&self.text[run.clone()]) {
            let at = run.start + found.start..run.start + found.end;
            let url = &self.text[at.clone()];
            if !self.rule.allows(url) {
                self.counts.links += 1;
                let span = self.code_span_at(at, url);
                self.edits.push(span);
            }
        }
    }

    fn code_span_at(&self, range: Range<usize>, content: &str) -> Edit {
        let before = self.text[..range.start].chars().next_back();
        let after = self.text[range.end..].chars().next();
        Edit::new(range, code_span(content, self.fence, before, after))
    }

    /// `<%` never reaches Templater: `<\%` in text (it renders as `<%`), `< %` in code (where a
    /// backslash would show). Last, so a tag inside a range already being replaced (escaped
    /// HTML) is left to that replacement.
    fn break_templater_tags(&mut self) {
        let mut from = 0;
        while let Some(found) = self.text[from..].find("<%") {
            let at = from + found + 1;
            from = at;
            if self.edits.iter().any(|edit| edit.covers(at)) {
                continue;
            }
            let in_code = self
                .code
                .iter()
                .any(|code| code.start < at && at < code.end);
            self.counts.templater += 1;
            self.edits
                .push(Edit::new(at..at, if in_code { " " } else { "\\" }));
        }
    }
}

/// What an image's alt text reads as, markup left out.
fn plain_text(events: &[(Event<'_>, Range<usize>)]) -> String {
    let mut out = String::new();
    for (event, _) in events {
        match event {
            Event::Text(text) | Event::Code(text) => out.push_str(text),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::End(TagEnd::Paragraph) => out.push(' '),
            _ => {}
        }
    }
    out
}

/// `dest` written as a link destination that parses back to exactly `dest`, or `None` when it
/// cannot be (a line break or angle bracket in it).
fn link_destination(dest: &str) -> Option<String> {
    if dest.contains(['<', '>', '\n', '\r']) {
        return None;
    }
    let escaped = dest.replace('\\', "\\\\").replace('&', "\\&");
    if dest.contains(|c: char| c.is_whitespace() || c == '(' || c == ')') {
        Some(format!("<{escaped}>"))
    } else {
        Some(escaped)
    }
}
