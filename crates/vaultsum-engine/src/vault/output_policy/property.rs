//! The summary property is plain text: Dataview renders a field's value as Markdown, so a link,
//! an image, HTML or code in it would act as in a note. One round strips them, keeping what
//! they say (a link's text, an image's alt text, code's characters escaped).

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Parser, Tag};

use super::edits::{apply, escape_text, Edit};
use super::summary_options;
use super::Defused;

/// The text after one stripping round, or `None` when there was nothing to strip.
pub(super) fn strip_round(text: &str, counts: &mut Defused) -> Option<String> {
    // Without tables: a link in a row's cell past the header's count is no link in a table,
    // but one where the value is shown alone.
    let options = summary_options() - pulldown_cmark::Options::ENABLE_TABLES;
    let events: Vec<(Event<'_>, Range<usize>)> =
        Parser::new_ext(text, options).into_offset_iter().collect();
    let mut edits = Vec::new();
    let mut stripped = 0;
    let mut i = 0;
    while i < events.len() {
        let (event, range) = &events[i];
        match event {
            Event::Start(Tag::Link { link_type, .. } | Tag::Image { link_type, .. }) => {
                stripped += 1;
                let end = super::pass_end(&events, i);
                let children = &events[i + 1..end];
                let wiki = matches!(link_type, LinkType::WikiLink { .. });
                match (children.first(), children.last()) {
                    (Some((_, first)), Some((_, last)))
                        if !wiki && range.start <= first.start && last.end <= range.end =>
                    {
                        edits.push(Edit::new(range.start..first.start, ""));
                        edits.push(Edit::new(last.end..range.end, ""));
                    }
                    _ => {
                        // A wikilink's target or alias, or nothing: its words as text.
                        let words: String = children
                            .iter()
                            .filter_map(|(event, _)| match event {
                                Event::Text(text) | Event::Code(text) => Some(text.as_ref()),
                                _ => None,
                            })
                            .collect();
                        edits.push(Edit::new(range.clone(), escape_text(&words)));
                        i = end + 1;
                        continue;
                    }
                }
            }
            Event::Code(content) => {
                stripped += 1;
                // A URL or an address the summary policy made code (the source did not name
                // it): not even as text, which Obsidian's properties view makes a link.
                let shown = if content.contains("://")
                    || content.to_ascii_lowercase().contains("www.")
                    || content.contains('@')
                {
                    format!("link removed: {}", super::url::host_label(content))
                } else {
                    content.to_string()
                };
                edits.push(Edit::new(range.clone(), escape_text(&shown)));
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                stripped += 1;
                edits.push(Edit::new(range.clone(), escape_text(html)));
            }
            // A code block in one line of text (a fence with nothing after it): its characters.
            Event::Start(Tag::CodeBlock(_)) => {
                stripped += 1;
                let end = super::pass_end(&events, i);
                edits.push(Edit::new(range.clone(), escape_text(&text[range.clone()])));
                i = end + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if edits.is_empty() {
        // Last, footnotes (a reference or a definition kept by the summary policy): their `[`
        // escaped, since the property is plain text.
        let mut from = 0;
        while let Some(found) = text[from..].find("[^") {
            let at = from + found;
            from = at + 1;
            if text[..at].bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0 {
                stripped += 1;
                edits.push(Edit::new(at..at, "\\"));
            }
        }
    }
    let changed = apply(text, edits);
    if changed.is_some() {
        counts.property_markup += stripped;
    }
    changed
}
