//! The checkable facts of an answer: its Markdown parsed (pulldown-cmark, as the output
//! policy parses it), each block's plain text read for numbers, dates, names, quotes and bare
//! URLs, and its code spans, wikilinks and links taken whole.

use std::ops::Range;
use std::sync::LazyLock;

use pulldown_cmark::{Event, LinkType, Parser, Tag, TagEnd};
use regex::Regex;

use super::dates::{dates_and_times, Day, When};
use super::fact::{Fact, FactKind};
use super::fold::folded_words;
use super::names::{names, Looseness};
use super::numbers::{numbers, Unit};
use super::source::{note_name, SourceFacts};
use crate::llm::local::render::MORE_ROWS;
use crate::vault::output_policy::summary_options;

/// What a fact means, for its lookup.
#[derive(Debug, Clone)]
pub(crate) enum Meaning {
    Number {
        values: Vec<String>,
        unit: Unit,
    },
    Date(Vec<Day>),
    Time(Vec<u16>),
    Name {
        words: Vec<String>,
        looseness: Looseness,
    },
    /// The quote's parts (split at an ellipsis), folded.
    Quote(Vec<Vec<String>>),
    /// The note's folded name (empty for the note itself) and the folded heading.
    Wikilink {
        note: String,
        heading: String,
    },
    Url(String),
    Code(String),
}

/// A fact and what it means.
#[derive(Debug, Clone)]
pub(crate) struct Extracted {
    pub fact: Fact,
    pub meaning: Meaning,
}

/// Separates what the plain text must not run across (a code span, a link's place): no
/// word, no sentence end.
const GAP: char = '\u{1f}';
/// Ends a sentence where the Markdown does (a hard break).
const BREAK: char = '\u{1e}';

static BARE_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)(?:https?://|www\.)[^\s<>\[\]()`]+").expect("a valid pattern")
});
static QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#""([^"\n]{3,300})"|“([^”\n]{3,300})”|«\s?([^»\n]{3,300}?)\s?»|„([^“”\n]{3,300})[“”]"#,
    )
    .expect("a valid pattern")
});
static ELLIPSIS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\s*(?:…|\.\.\.|\[…\]|\[\.\.\.\])\s*").expect("a valid pattern"));

/// One block's plain text, with where its pieces came from in the answer.
#[derive(Default)]
struct Block {
    text: String,
    /// (offset in `text`, offset in the answer) at each piece's start.
    anchors: Vec<(usize, usize)>,
    heading: bool,
}

impl Block {
    fn push(&mut self, piece: &str, answer_at: usize) {
        self.anchors.push((self.text.len(), answer_at));
        self.text.push_str(piece);
    }

    fn answer_range(&self, range: &Range<usize>) -> Range<usize> {
        let map = |at: usize| {
            let index = self.anchors.partition_point(|(t, _)| *t <= at);
            let (t, a) = self.anchors[index.saturating_sub(1)];
            a + (at - t)
        };
        if self.anchors.is_empty() {
            return 0..0;
        }
        map(range.start)..map(range.end).max(map(range.start))
    }
}

/// The facts of `answer`, in order.
pub(crate) fn extract(answer: &str, source: &SourceFacts) -> Vec<Extracted> {
    // Words the answer itself writes in lower case are common words where it capitalises them
    // to open a line (`Total: 4` after `the total`), not names.
    let lower: foldhash::HashSet<String> = crate::facts::fold::word_spans(answer)
        .filter(|(_, w)| w.chars().next().is_some_and(char::is_lowercase))
        .map(|(_, w)| crate::facts::fold::fold_word(w))
        .collect();
    let mut found = Vec::new();
    let mut block = Block::default();
    let mut skip_text = 0usize;
    let mut code_block = false;
    for (event, range) in Parser::new_ext(answer, summary_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { .. }) => {
                flush(&mut block, answer, source, &lower, &mut found);
                block.heading = true;
            }
            Event::Start(
                Tag::Paragraph
                | Tag::Item
                | Tag::TableCell
                | Tag::BlockQuote(_)
                | Tag::FootnoteDefinition(_),
            )
            | Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::BlockQuote(_)
                | TagEnd::FootnoteDefinition,
            ) => flush(&mut block, answer, source, &lower, &mut found),
            Event::Start(Tag::CodeBlock(_)) => code_block = true,
            Event::End(TagEnd::CodeBlock) => code_block = false,
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => {
                if matches!(link_type, LinkType::WikiLink { .. }) {
                    let (note, heading) = dest_url.split_once('#').unwrap_or((&dest_url, ""));
                    found.push(Extracted {
                        fact: Fact {
                            kind: FactKind::Wikilink,
                            text: answer[range.clone()].to_string(),
                            span: range.clone(),
                        },
                        meaning: Meaning::Wikilink {
                            note: note_name(note),
                            heading: folded_words(heading).join(" "),
                        },
                    });
                    skip_text += 1;
                    block.push(&GAP.to_string(), range.start);
                } else if dest_url.starts_with("http://") || dest_url.starts_with("https://") {
                    found.push(Extracted {
                        fact: Fact {
                            kind: FactKind::Url,
                            text: dest_url.to_string(),
                            span: range.clone(),
                        },
                        meaning: Meaning::Url(dest_url.to_string()),
                    });
                    if link_type == LinkType::Autolink {
                        skip_text += 1;
                    }
                }
            }
            Event::End(TagEnd::Link) if skip_text > 0 => skip_text -= 1,
            Event::Start(Tag::Image { .. }) => skip_text += 1,
            Event::End(TagEnd::Image) => skip_text = skip_text.saturating_sub(1),
            Event::Text(text) if skip_text == 0 && !code_block => block.push(&text, range.start),
            Event::Code(code) if skip_text == 0 => {
                found.push(Extracted {
                    fact: Fact {
                        kind: FactKind::Code,
                        text: answer[range.clone()].to_string(),
                        span: range.clone(),
                    },
                    meaning: Meaning::Code(code.to_string()),
                });
                block.push(&GAP.to_string(), range.start);
            }
            Event::SoftBreak => block.push(" ", range.start),
            Event::HardBreak => block.push(&BREAK.to_string(), range.start),
            Event::Html(_) | Event::InlineHtml(_) | Event::FootnoteReference(_) => {
                block.push(&GAP.to_string(), range.start)
            }
            _ => {}
        }
    }
    flush(&mut block, answer, source, &lower, &mut found);
    found.sort_by_key(|e| e.fact.span.start);
    found
}

/// Reads one block's plain text for facts, then starts the next block.
fn flush(
    block: &mut Block,
    answer: &str,
    source: &SourceFacts,
    lower: &foldhash::HashSet<String>,
    found: &mut Vec<Extracted>,
) {
    let block = std::mem::take(block);
    let text = block.text.as_str();
    if text.trim().is_empty() {
        return;
    }
    let mut taken: Vec<Range<usize>> = Vec::new();
    let add =
        |range: Range<usize>, kind: FactKind, meaning: Meaning, found: &mut Vec<Extracted>| {
            let span = block.answer_range(&range);
            let text = answer
                .get(span.clone())
                .unwrap_or(&text[range.clone()])
                .to_string();
            found.push(Extracted {
                fact: Fact { kind, text, span },
                meaning,
            });
        };
    // Each pattern only where it can match: most blocks have no URL, quote or digit, and a
    // regex scan costs more than the byte search that rules it out.
    let urls = memchr::memmem::find(text.as_bytes(), b"http").is_some() || text.contains("www.");
    let quotes = text.contains(['"', '“', '«', '„']);
    let digits = text.bytes().any(|b| b.is_ascii_digit());
    for m in BARE_URL.find_iter(if urls { text } else { "" }) {
        let url = m
            .as_str()
            .trim_end_matches(['.', ',', ';', ':', '!', '?', '\'', '"']);
        let range = m.start()..m.start() + url.len();
        add(
            range.clone(),
            FactKind::Url,
            Meaning::Url(url.to_string()),
            found,
        );
        taken.push(range);
    }
    for c in QUOTE.captures_iter(if quotes { text } else { "" }) {
        let Some(inner) = c.iter().skip(1).flatten().next() else {
            continue;
        };
        let parts: Vec<Vec<String>> = ELLIPSIS
            .split(inner.as_str())
            .map(folded_words)
            .filter(|words| !words.is_empty())
            .collect();
        if !parts.is_empty() {
            let whole = c.get(0).map_or(inner.range(), |m| m.range());
            add(whole, FactKind::Quote, Meaning::Quote(parts), found);
        }
    }
    let whens = if digits {
        dates_and_times(text)
    } else {
        Vec::new()
    };
    // The URLs taken so far are in text order, and so are the dates: one sweep.
    let urls_taken = taken.clone();
    let mut url_index = 0;
    for mention in whens {
        while urls_taken
            .get(url_index)
            .is_some_and(|t| t.end <= mention.span.start)
        {
            url_index += 1;
        }
        if urls_taken
            .get(url_index)
            .is_some_and(|t| t.start < mention.span.end)
        {
            continue;
        }
        let (kind, meaning) = match mention.when {
            When::Date(days) => (FactKind::Date, Meaning::Date(days)),
            When::Time(minutes) => (FactKind::Time, Meaning::Time(minutes)),
        };
        taken.push(mention.span.clone());
        add(mention.span, kind, meaning, found);
    }
    taken.sort_by_key(|r| r.start);
    for mention in numbers(text, &taken) {
        taken.push(mention.span.clone());
        if text[mention.span.end..].starts_with(MORE_ROWS) {
            continue;
        }
        add(
            mention.span,
            FactKind::Number,
            Meaning::Number {
                values: mention.values,
                unit: mention.unit,
            },
            found,
        );
    }
    taken.sort_by_key(|r| r.start);
    for name in names(
        text,
        &taken,
        |w| source.is_common(w) || lower.contains(w),
        block.heading,
    ) {
        add(
            name.span,
            FactKind::Name,
            Meaning::Name {
                words: name.words,
                looseness: name.looseness,
            },
            found,
        );
    }
}
