//! The fact checker: which facts of a model's answer (numbers with their units, currencies
//! and percentages, dates and times, names, quoted phrases, wikilinks, URLs, code spans) the
//! text the model was given does not support.
//!
//! Sans-IO and deterministic: the source is indexed once ([`SourceFacts`], linear in its
//! length), then each answer is parsed once and each of its facts looked up in the index. A
//! fact is found when the source writes it in any form that means the same: `4,000` /
//! `4000` / `4 000` / `4.000`; `2026-05-03` / `3 May 2026` / `May 3, 2026`; `15:00` / `3 pm`;
//! case, accents and Unicode form; a name's possessive; a unit's plural or abbreviation.
//!
//! What it cannot see: a paraphrase that changes the meaning without changing a name or a
//! number ("approved" for "rejected"), a true fact put in the wrong relation (two people of
//! the note swapped), numbers written as words. It checks that each fact is *in* the source,
//! not that the answer says the same thing about it.

mod answer;
mod dates;
mod fact;
mod fold;
mod names;
mod numbers;
mod source;

pub use fact::{Fact, FactKind, Reason, Unsupported};
pub use source::SourceFacts;

use std::sync::LazyLock;

use regex::Regex;

/// An inline HTML element with nothing in it (`<mark></mark>`, `<span x></span>`): it renders
/// nothing, so `L<mark></mark>uis` reads "Luis".
static EMPTY_ELEMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<([A-Za-z][A-Za-z0-9]*)\b[^<>]*>\s*</([A-Za-z][A-Za-z0-9]*)\s*>")
        .expect("a valid pattern")
});

/// `answer` as a reader sees it, for the check and for what is written: without the
/// characters that render as nothing (zero-width, soft hyphen, tags: the output policy's
/// table) and without empty inline HTML elements, so nothing invisible can cut a name or a
/// number in two for the checker (`L\u{200b}uis`, `4<mark></mark>000`) while it reads whole.
pub fn as_read(answer: &str) -> String {
    let visible = crate::vault::output_policy::invisible::remove_invisible(answer).0;
    EMPTY_ELEMENT
        .replace_all(&visible, |c: &regex::Captures<'_>| {
            if c[1].eq_ignore_ascii_case(&c[2]) {
                String::new()
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

use aho_corasick::AhoCorasick;
use foldhash::HashMap;

use answer::{extract, Meaning};
use dates::Day;
use names::Looseness;
use numbers::Unit;

/// What the check found in one answer.
#[derive(Debug, Clone, Default)]
pub struct FactCheck {
    /// Every checkable fact of the answer, in order.
    pub facts: Vec<Fact>,
    /// The facts the source does not support, in order, each with why.
    pub unsupported: Vec<Unsupported>,
}

impl FactCheck {
    /// Entity precision (Nan et al. 2021, "Entity-level Factual Consistency of Abstractive Text
    /// Summarization"): the share of the answer's entities (names, numbers, dates, times)
    /// found in the source; `None` for an answer with no entity.
    pub fn entity_precision(&self) -> Option<f64> {
        let entities = self.facts.iter().filter(|f| f.kind.is_entity()).count();
        let missing = self
            .unsupported
            .iter()
            .filter(|u| u.fact.kind.is_entity())
            .count();
        (entities > 0).then(|| (entities - missing) as f64 / entities as f64)
    }

    /// Whether every fact was found.
    pub fn is_supported(&self) -> bool {
        self.unsupported.is_empty()
    }
}

/// Checks `answer` against `source` (the text the model was given). For several answers
/// against one source, index it once with [`SourceFacts::new`] and call
/// [`SourceFacts::check`].
pub fn check(answer: &str, source: &str) -> FactCheck {
    SourceFacts::new(source).check(answer)
}

impl SourceFacts {
    /// Checks `answer` against this source.
    pub fn check(&self, answer: &str) -> FactCheck {
        let extracted = extract(answer, self);
        let verbatim = self.verbatim(&extracted);
        let mut check = FactCheck::default();
        // A name said again is looked up once.
        let mut names: HashMap<(&[String], Looseness), Option<Reason>> = HashMap::default();
        for (index, item) in extracted.iter().enumerate() {
            let reason = match &item.meaning {
                Meaning::Url(_) | Meaning::Code(_) => {
                    (!verbatim[index]).then_some(Reason::NotInSource)
                }
                Meaning::Name { words, looseness } => *names
                    .entry((words.as_slice(), *looseness))
                    .or_insert_with(|| self.name(words, *looseness)),
                meaning => self.support(meaning),
            };
            if let Some(reason) = reason {
                check.unsupported.push(Unsupported {
                    fact: item.fact.clone(),
                    reason,
                });
            }
            check.facts.push(item.fact.clone());
        }
        check
    }

    /// For each fact, whether it is a URL or code span that occurs verbatim in the source
    /// (ASCII case ignored, whitespace squeezed), found in one pass over the source for all.
    fn verbatim(&self, extracted: &[answer::Extracted]) -> Vec<bool> {
        let mut found = vec![false; extracted.len()];
        // Each text once, however often the answer says it.
        let mut facts_of: HashMap<String, Vec<usize>> = HashMap::default();
        for (i, e) in extracted.iter().enumerate() {
            let pattern = match &e.meaning {
                Meaning::Url(url) => url.trim_end_matches('/').to_string(),
                Meaning::Code(code) => source::squeeze(code),
                _ => continue,
            };
            if pattern.is_empty() {
                // An empty code span (`` ` ` ``) says nothing to check.
                found[i] = true;
            } else {
                facts_of.entry(pattern).or_default().push(i);
            }
        }
        let patterns: Vec<(String, Vec<usize>)> = facts_of.into_iter().collect();
        if patterns.is_empty() {
            return found;
        }
        let Ok(automaton) = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(patterns.iter().map(|(p, _)| p))
        else {
            return found;
        };
        let mut seen = vec![false; patterns.len()];
        for m in automaton.find_overlapping_iter(self.squeezed()) {
            seen[m.pattern().as_usize()] = true;
        }
        for ((_, facts), seen) in patterns.iter().zip(seen) {
            for &i in facts {
                found[i] = seen;
            }
        }
        found
    }

    /// Why the source does not support `meaning`, or `None` when it does.
    fn support(&self, meaning: &Meaning) -> Option<Reason> {
        match meaning {
            Meaning::Number { values, unit } => self.number(values, *unit),
            Meaning::Date(days) => self.date(days),
            Meaning::Time(minutes) => {
                (!minutes.iter().any(|m| self.has_time(*m))).then_some(Reason::NotInSource)
            }
            Meaning::Name { words, looseness } => self.name(words, *looseness),
            Meaning::Quote(parts) => {
                (!parts.iter().all(|p| self.has_phrase(p))).then_some(Reason::NotInSource)
            }
            Meaning::Wikilink { note, heading } => {
                if !note.is_empty() && !self.links_to(note) {
                    Some(Reason::NotLinkedInSource)
                } else if !heading.is_empty() && !self.has_heading(note, heading) {
                    Some(Reason::NoSuchHeading)
                } else {
                    None
                }
            }
            Meaning::Url(_) | Meaning::Code(_) => None,
        }
    }

    fn number(&self, values: &[String], unit: Unit) -> Option<Reason> {
        let written: Vec<_> = values.iter().filter_map(|v| self.written(v)).collect();
        if written.is_empty() {
            return Some(Reason::NotInSource);
        }
        let fits = |w: &&source::Written| match unit {
            Unit::None => true,
            Unit::Percent => w.percent,
            // An amount the source gives bare, in a note that names the currency elsewhere.
            Unit::Currency(code) => {
                w.currencies.contains(&code) || (w.bare && self.names_currency(code))
            }
            Unit::Measure(m) => w.measures.contains(&m) || w.bare,
        };
        if written.iter().any(fits) {
            return None;
        }
        Some(match unit {
            Unit::Percent => Reason::NotAPercentageInSource,
            Unit::Currency(_) => Reason::OtherCurrency,
            _ => Reason::OtherUnit,
        })
    }

    fn date(&self, days: &[Day]) -> Option<Reason> {
        let found = days.iter().any(|day| {
            self.has_day(day)
                // A year only the answer gives must be somewhere in the source.
                || day.year.is_some_and(|y| {
                    self.has_yearless_day(day) && self.written(&y.to_string()).is_some()
                })
        });
        (!found).then_some(Reason::NoSuchDate)
    }

    fn name(&self, words: &[String], looseness: Looseness) -> Option<Reason> {
        if self.has_phrase(words) {
            return None;
        }
        match (looseness, words) {
            (Looseness::Prefix, [.., last]) if self.has_word_starting(last) => return None,
            (Looseness::Stem, [word]) if self.has_stem_of(word) => return None,
            (_, [_]) => return Some(Reason::NotInSource),
            _ => {}
        }
        if !words.iter().all(|w| self.has_word(w)) {
            return Some(Reason::NotInSource);
        }
        // A middle initial or a title between the parts (`Ana M. Lopez`, `Ana (PM) Lopez`).
        (!self.phrase_within(words, 3)).then_some(Reason::WordsApart)
    }
}

#[cfg(test)]
mod tests;
