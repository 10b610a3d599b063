//! Names in a run of plain text: capitalised words and runs of them (`Ana`, `Ana Lopez`,
//! `Bank of America`, `Jean-Luc`), the possessive left out (`Ana's` is `Ana`).
//!
//! A capital at the start of a sentence says nothing about a name, so a sentence's first word
//! is a name only when it is not a common word: not on a short list of English function words
//! and not written in lower case anywhere in the source (the caller's `is_common`).

use std::ops::Range;

use super::fold::{fold_word, word_spans};
use crate::llm::local::tokenize::is_stop_word;

/// A name of the text: its byte range and its folded words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameMention {
    pub span: Range<usize>,
    pub words: Vec<String>,
    /// How closely it must match.
    pub looseness: Looseness,
}

/// How closely a name must match the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Looseness {
    /// Its words, in order.
    Exact,
    /// A single word opening a sentence or in a heading (where capitals are Title Case): by its
    /// stem, since it may be a common word the source writes in another form.
    Stem,
    /// Cut short by an ellipsis (`Reque…`, a table cell the offline engine shortened): its
    /// last word as the start of a word of the source.
    Prefix,
}

/// A run of capitalised words longer than this is split: real names are shorter, and a
/// phrase's lookup costs its length for each place its first word occurs.
const MAX_NAME_WORDS: usize = 6;

/// Words that join the parts of a name when a capitalised word follows.
const CONNECTORS: &[&str] = &[
    "of", "de", "van", "von", "der", "den", "la", "le", "da", "di", "du", "del", "dos", "y",
];

/// Function words and the words summaries open sentences and label lines with, never names.
const COMMON: &[&str] = &[
    "a",
    "about",
    "after",
    "all",
    "also",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "before",
    "both",
    "but",
    "by",
    "can",
    "could",
    "currently",
    "do",
    "does",
    "during",
    "each",
    "either",
    "every",
    "for",
    "from",
    "further",
    "given",
    "has",
    "have",
    "he",
    "her",
    "here",
    "his",
    "how",
    "however",
    "i",
    "if",
    "in",
    "instead",
    "is",
    "it",
    "its",
    "key",
    "later",
    "many",
    "may",
    "more",
    "most",
    "my",
    "neither",
    "new",
    "next",
    "no",
    "none",
    "not",
    "note",
    "now",
    "of",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "our",
    "overall",
    "she",
    "should",
    "since",
    "so",
    "some",
    "summary",
    "that",
    "the",
    "their",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "though",
    "to",
    "two",
    "under",
    "unless",
    "until",
    "use",
    "using",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "why",
    "will",
    "with",
    "without",
    "would",
    "yes",
    "yet",
    "you",
    "your",
    // The frame's and the presets' headings (`### Key Points`, `### Action Items`, …).
    "action",
    "items",
    "points",
    "open",
    "questions",
    "decisions",
    "themes",
    "question",
    "mood",
    "method",
    "limitations",
    "follow",
    "ups",
    "findings",
    "events",
    "discussion",
    "dates",
    "overview",
    "steps",
    "details",
    "notes",
    "highlights",
    "takeaways",
    "context",
    "background",
    "risks",
    "tasks",
    "status",
    "timeline",
    "outcomes",
    "conclusion",
    "conclusions",
    // The offline engine's heading for a table under no heading of its own.
    "table",
];

/// Months and weekdays: the date check reads them, the name check does not.
const CALENDAR: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
];

/// `base`, unless an ellipsis cuts the name short.
fn looseness(text: &str, span: &Range<usize>, base: Looseness) -> Looseness {
    if text[span.end..].starts_with(['…']) || text[span.end..].starts_with("...") {
        Looseness::Prefix
    } else {
        base
    }
}

fn is_common_word(folded: &str) -> bool {
    COMMON.contains(&folded) || is_stop_word(folded)
}

/// Labels and verbs summaries open lines with (`Owner: Ana`, `Call Dana`), and ordinals.
const OPENERS: &[&str] = &[
    "regardless",
    "afterwards",
    "again",
    "although",
    "besides",
    "despite",
    "earlier",
    "even",
    "hence",
    "indeed",
    "meanwhile",
    "moreover",
    "furthermore",
    "nevertheless",
    "nonetheless",
    "often",
    "still",
    "such",
    "therefore",
    "thus",
    "today",
    "tomorrow",
    "unlike",
    "whereas",
    "yesterday",
    "agenda",
    "ask",
    "assigned",
    "attendees",
    "book",
    "budget",
    "buy",
    "call",
    "check",
    "confirm",
    "contact",
    "cost",
    "costs",
    "deadline",
    "decide",
    "discuss",
    "draft",
    "due",
    "email",
    "fifth",
    "first",
    "fix",
    "finish",
    "follow",
    "fourth",
    "goal",
    "goals",
    "impact",
    "lead",
    "location",
    "meet",
    "owner",
    "owners",
    "participants",
    "pay",
    "plan",
    "prepare",
    "priority",
    "purpose",
    "read",
    "result",
    "results",
    "review",
    "schedule",
    "second",
    "send",
    "share",
    "submit",
    "talk",
    "third",
    "update",
    "write",
];

/// English endings of verbs, adverbs and abstract nouns (`Stopped`, `Reviewing`, `Briefly`,
/// `Agreement`), in words long enough that a given name rarely has them.
const WORD_ENDINGS: &[&str] = &[
    "ed", "ing", "ly", "tion", "sion", "ment", "ness", "ity", "ous", "able", "ible", "ful", "less",
    "ize", "ized", "izes",
];

/// Whether a capitalised word opening a sentence reads as a word rather than a name: an opener
/// or ordinal ([`OPENERS`]), or a word of six letters or more with an English ending
/// ([`WORD_ENDINGS`]). A swapped person opening a sentence (`Luis approved…`) is still a name.
fn opens_like_a_word(folded: &str) -> bool {
    // A plural has the ending before its `s` (`Experiments`, `Developments`).
    let singular = folded.strip_suffix('s').unwrap_or(folded);
    OPENERS.contains(&folded)
        || (folded.chars().count() >= 6 && WORD_ENDINGS.iter().any(|e| singular.ends_with(e)))
}

fn is_capitalised(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase) && word.chars().count() >= 2
}

/// Whether the text between two words ends a sentence (or a label: `Decision: Move`).
fn ends_sentence(between: &str) -> bool {
    between.contains(['.', '!', '?', ':', ';', '\n', '\u{1e}'])
}

/// The names of `text`, outside `skip` (sorted byte ranges of numbers, dates, links and code
/// already taken). `is_common(folded)` says the source writes the word in lower case.
///
/// In a heading (`title`), every word may be capitalised for the title's sake, so each word
/// that is not a common one is a name of its own, compared by its stem.
pub fn names(
    text: &str,
    skip: &[Range<usize>],
    is_common: impl Fn(&str) -> bool,
    title: bool,
) -> Vec<NameMention> {
    // `skip` is sorted and disjoint: the first range ending after `r` starts is the only one
    // that can overlap it.
    let skipped = |r: &Range<usize>| {
        let index = skip.partition_point(|s| s.end <= r.start);
        skip.get(index).is_some_and(|s| s.start < r.end)
    };
    let words: Vec<(Range<usize>, &str)> = word_spans(text).collect();
    if title {
        return words
            .into_iter()
            .filter(|(span, word)| is_capitalised(word) && !skipped(span))
            .map(|(span, word)| (span, fold_word(word)))
            .filter(|(_, w)| !is_common_word(w) && !is_common(w) && !CALENDAR.contains(&w.as_str()))
            .map(|(span, w)| NameMention {
                looseness: looseness(text, &span, Looseness::Stem),
                span,
                words: vec![w],
            })
            .collect();
    }
    let mut found = Vec::new();
    let mut i = 0;
    let mut previous_end = 0;
    while i < words.len() {
        let (span, word) = words[i].clone();
        let at_start = ends_sentence(&text[previous_end..span.start]) || previous_end == 0;
        if skipped(&span) || !is_capitalised(word) {
            previous_end = span.end;
            i += 1;
            continue;
        }
        // The run: capitalised words joined by one space or a hyphen, connectors between.
        let mut end = i;
        let mut j = i + 1;
        while j < words.len() && j - i < MAX_NAME_WORDS {
            let gap = &text[words[j - 1].0.end..words[j].0.start];
            if !(gap == " " || gap == "-" || gap == "\u{a0}") || skipped(&words[j].0) {
                break;
            }
            if is_capitalised(words[j].1) {
                end = j;
                j += 1;
            } else if CONNECTORS.contains(&words[j].1) && j + 1 < words.len() {
                j += 1;
            } else {
                break;
            }
        }
        let mut run: Vec<(Range<usize>, String)> = words[i..=end]
            .iter()
            .map(|(r, w)| (r.clone(), fold_word(w)))
            .collect();
        if at_start
            && run
                .first()
                .is_some_and(|(_, w)| is_common_word(w) || is_common(w) || opens_like_a_word(w))
        {
            run.remove(0);
            while run
                .first()
                .is_some_and(|(_, w)| CONNECTORS.contains(&w.as_str()))
            {
                run.remove(0);
            }
        }
        run.retain(|(_, w)| !CALENDAR.contains(&w.as_str()));
        let only_common = run.len() == 1 && is_common_word(&run[0].1);
        if !run.is_empty() && !only_common {
            let sentence_start = at_start && run.len() == 1 && run[0].0.start == span.start;
            let span = run[0].0.start..run[run.len() - 1].0.end;
            let base = if sentence_start {
                Looseness::Stem
            } else {
                Looseness::Exact
            };
            found.push(NameMention {
                looseness: looseness(text, &span, base),
                span,
                words: run.into_iter().map(|(_, w)| w).collect(),
            });
        }
        previous_end = words[end].0.end;
        i = end + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        names(text, &[], |w| w == "decision", false)
            .into_iter()
            .map(|n| n.words.join(" "))
            .collect()
    }

    #[test]
    fn capitalised_runs_are_names_and_the_possessive_is_dropped() {
        assert_eq!(
            all("the budget Ana Lopez's team and Bank of America approved in Berlin"),
            ["ana lopez", "bank of america", "berlin"]
        );
        assert_eq!(all("met with Jean-Luc"), ["jean luc"]);
    }

    #[test]
    fn a_sentence_opening_common_word_is_no_name() {
        assert_eq!(all("The plan works. Decision: Ana pays."), ["ana"]);
        assert_eq!(all("Luis approved it."), ["luis"]);
        assert_eq!(
            names("Luis approved it.", &[], |_| false, false)[0].looseness,
            Looseness::Stem
        );
    }

    #[test]
    fn a_verb_label_or_ordinal_opening_a_line_is_no_name_but_a_person_is() {
        assert_eq!(
            all("Stopped part-way. Second run. Owner: Ana. Call Dana today. Reviewing notes."),
            ["ana", "dana"]
        );
        assert_eq!(all("Olga approved it. Priya said so."), ["olga", "priya"]);
    }

    #[test]
    fn in_a_heading_each_uncommon_word_is_a_name_of_its_own() {
        let found = names(
            "Key Points of the Budget with Ana Lopez",
            &[],
            |_| false,
            true,
        );
        let words: Vec<_> = found.iter().map(|n| n.words.join(" ")).collect();
        assert_eq!(words, ["budget", "ana", "lopez"]);
        assert!(found.iter().all(|n| n.looseness == Looseness::Stem));
    }

    #[test]
    fn a_name_cut_by_an_ellipsis_is_a_prefix() {
        let found = names("see the Tas… column", &[], |_| false, false);
        assert_eq!(found[0].looseness, Looseness::Prefix);
    }

    #[test]
    fn months_and_single_letters_are_not_names() {
        assert_eq!(all("due in May, see A and B"), Vec::<String>::new());
    }
}
