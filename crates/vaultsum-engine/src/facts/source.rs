//! What the source (the text the model was given: the note with its embeds expanded) holds,
//! indexed once so that each fact of an answer is looked up, not searched for.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use regex::Regex;

use super::dates::{dates_and_times, Day, When};
use super::fold::{fold_word_into, folded_words, word_spans};
use super::numbers::{digit_runs, numbers, Unit};

/// How a value is written in the source: bare, as a percentage, with which currencies and
/// units.
#[derive(Debug, Clone, Default)]
pub(crate) struct Written {
    /// Without a unit this module knows.
    pub bare: bool,
    pub percent: bool,
    pub currencies: Vec<&'static str>,
    pub measures: Vec<&'static str>,
}

/// How often a word may occur before a name made only of such words counts as found without
/// looking (see [`SourceFacts::phrase_within`]).
const COMMON_BEYOND: usize = 10_000;

/// The source text, indexed.
#[derive(Debug, Clone)]
pub struct SourceFacts {
    /// The text with every run of whitespace one space, for code spans and URLs.
    squeezed: String,
    /// Folded word to its positions in the word sequence.
    words: HashMap<String, Vec<u32>>,
    /// The distinct folded words, in order, for a stem's lookup.
    sorted_words: BTreeSet<String>,
    /// Folded words the source writes in lower case somewhere (common words, not names).
    lowercase: HashSet<String>,
    values: HashMap<String, Written>,
    currencies: HashSet<&'static str>,
    /// Every projection of every day of the source onto a subset of its fields (`2026-05-03`
    /// gives `2026-05`, `05-03`, `2026`, …), so a day of the answer is one lookup.
    days: HashSet<Day>,
    /// The same for the days the source gives without a year (`May 3`).
    yearless_days: HashSet<Day>,
    times: HashSet<u16>,
    /// Folded names of the notes the source links or embeds (last path part, no extension).
    link_targets: HashSet<String>,
    /// Folded headings of the note itself (outside what it embeds), and those its own links
    /// name (`[[#Risks]]`): what `[[#Heading]]` may cite.
    own_headings: HashSet<String>,
    /// Folded note name and heading of each heading of an embedded note, and of each heading
    /// the source's links name (`[[Plan#Risks]]`): what `[[Note#Heading]]` may cite.
    note_headings: HashSet<(String, String)>,
}

static WIKILINK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[\[([^\[\]|\n]*?)(?:\|[^\[\]\n]*)?\]\]").expect("a valid pattern")
});
static EMBED_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[Embedded(?: [a-z]+)?: ([^\]\n]+)\]").expect("a valid pattern"));
static MARKDOWN_LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\]\(<?([^)\s>]+)>?\)").expect("a valid pattern"));
static HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:> ?)*#{1,6}[ \t]+(.+?)[ \t#]*$").expect("a valid pattern")
});

/// The note name a link target names: the last path part, without `.md` and percent-escapes,
/// folded.
pub(crate) fn note_name(target: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(target).decode_utf8_lossy();
    let last = decoded.rsplit(['/', '\\']).next().unwrap_or("");
    let last = last
        .strip_suffix(".md")
        .or_else(|| last.strip_suffix(".markdown"))
        .unwrap_or(last);
    folded_words(last).join(" ")
}

/// The value of an English number word (`three` is 3, `dozen` 12), up to a hundred.
fn number_word(word: &str) -> Option<u32> {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const TENS: [(&str, u32); 8] = [
        ("thirty", 30),
        ("forty", 40),
        ("fifty", 50),
        ("sixty", 60),
        ("seventy", 70),
        ("eighty", 80),
        ("ninety", 90),
        ("hundred", 100),
    ];
    WORDS
        .iter()
        .position(|w| *w == word)
        .map(|n| n as u32)
        .or_else(|| TENS.iter().find(|(w, _)| *w == word).map(|(_, n)| *n))
        .or((word == "dozen").then_some(12))
}

/// Whether `ending` is an English inflection or common derivation (`s`, `ed`, `ing`, …), or
/// nothing.
fn is_inflection(ending: &str) -> bool {
    matches!(
        ending,
        "" | "s"
            | "es"
            | "e"
            | "d"
            | "ed"
            | "ing"
            | "er"
            | "ers"
            | "y"
            | "ies"
            | "ied"
            | "ly"
            | "ion"
            | "ions"
            | "ment"
            | "ments"
            | "al"
            | "ally"
    )
}

/// How many `>` a line is quoted in, and the line without them.
fn quote_depth(line: &str) -> (usize, &str) {
    let mut depth = 0;
    let mut rest = line.trim_start();
    while let Some(inner) = rest.strip_prefix('>') {
        depth += 1;
        rest = inner.strip_prefix(' ').unwrap_or(inner).trim_start();
    }
    (depth, rest)
}

/// `text` with every run of whitespace one space.
pub(crate) fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

impl SourceFacts {
    /// Indexes `text`, in time linear in its length.
    pub fn new(text: &str) -> SourceFacts {
        let mut facts = SourceFacts {
            squeezed: squeeze(text),
            words: HashMap::new(),
            sorted_words: BTreeSet::new(),
            lowercase: HashSet::new(),
            values: HashMap::new(),
            currencies: HashSet::new(),
            days: HashSet::new(),
            yearless_days: HashSet::new(),
            times: HashSet::new(),
            link_targets: HashSet::new(),
            own_headings: HashSet::new(),
            note_headings: HashSet::new(),
        };
        let mut folded = String::new();
        for (position, (_, word)) in word_spans(text).enumerate() {
            // Folded into one buffer: a word seen before costs no allocation.
            fold_word_into(word, &mut folded);
            match facts.words.get_mut(folded.as_str()) {
                Some(positions) => positions.push(position as u32),
                None => {
                    facts.words.insert(folded.clone(), vec![position as u32]);
                }
            }
            if word.chars().next().is_some_and(char::is_lowercase)
                && !facts.lowercase.contains(folded.as_str())
            {
                facts.lowercase.insert(folded.clone());
            }
        }
        facts.sorted_words = facts.words.keys().cloned().collect();
        let whens = dates_and_times(text);
        for mention in &whens {
            match &mention.when {
                When::Date(days) => {
                    for day in days {
                        let set = if day.year.is_some() {
                            &mut facts.days
                        } else {
                            &mut facts.yearless_days
                        };
                        set.extend(day.projections());
                    }
                }
                When::Time(minutes) => facts.times.extend(minutes.iter().copied()),
            }
        }
        // Numbers written as words (`three weeks`) hold their value, bare; `half` is 50%.
        for (_, word) in word_spans(text) {
            let folded = word.to_lowercase();
            if let Some(value) = number_word(&folded) {
                facts.values.entry(value.to_string()).or_default().bare = true;
            } else if folded == "half" {
                facts.values.entry("50".to_string()).or_default().percent = true;
            }
        }
        // Digits inside something else (a date, a version, `Q3`) hold the value, with no
        // unit: an entry with nothing set.
        for run in digit_runs(text) {
            facts.values.entry(run).or_default();
        }
        // Numbers outside dates and times: a date's day is no bare `3`.
        let when_spans: Vec<_> = whens.iter().map(|m| m.span.clone()).collect();
        for mention in numbers(text, &when_spans) {
            for value in mention.values {
                let written = facts.values.entry(value).or_default();
                match mention.unit {
                    Unit::None => written.bare = true,
                    Unit::Percent => written.percent = true,
                    Unit::Currency(code) => {
                        written.currencies.push(code);
                        facts.currencies.insert(code);
                    }
                    Unit::Measure(unit) => written.measures.push(unit),
                }
            }
        }
        for c in WIKILINK
            .captures_iter(text)
            .chain(EMBED_LABEL.captures_iter(text))
        {
            let (note, heading) = c[1].split_once('#').unwrap_or((&c[1], ""));
            facts.link_targets.insert(note_name(note));
            if !heading.is_empty() {
                facts.add_heading(&note_name(note), heading);
            }
        }
        for c in MARKDOWN_LINK.captures_iter(text) {
            let target = c[1].split('#').next().unwrap_or("");
            if !target.contains("://") && !target.is_empty() {
                facts.link_targets.insert(note_name(target));
            }
        }
        facts.index_headings(text);
        facts
    }

    /// A heading of the note named `note` (folded; empty for the note itself).
    fn add_heading(&mut self, note: &str, heading: &str) {
        let heading = folded_words(heading.trim_start_matches('^')).join(" ");
        if note.is_empty() {
            self.own_headings.insert(heading);
        } else {
            self.note_headings.insert((note.to_string(), heading));
        }
    }

    /// Every heading of `text`, each given to the note it belongs to: an embed is expanded as
    /// a quote opened by `[Embedded: Note#…]`, and the headings inside it (at its depth or
    /// deeper, up to the next embed) are that note's; the others are the note's own.
    fn index_headings(&mut self, text: &str) {
        // Open embeds: their quote depth and folded note name, innermost last.
        let mut open: Vec<(usize, String)> = Vec::new();
        for line in text.lines() {
            let (depth, rest) = quote_depth(line);
            while open.last().is_some_and(|(d, _)| depth < *d) {
                open.pop();
            }
            if let Some(c) = EMBED_LABEL
                .captures(rest)
                .filter(|c| c.get(0).unwrap().start() == 0)
            {
                let note = c[1].split_once('#').map_or(&c[1], |(note, _)| note);
                open.push((depth.max(1), note_name(note)));
                continue;
            }
            if let Some(c) = HEADING.captures(rest) {
                let note = open.last().map_or(String::new(), |(_, note)| note.clone());
                self.add_heading(&note, &c[1]);
            }
        }
    }

    /// The text with every run of whitespace one space (how code spans and URLs are found).
    pub(crate) fn squeezed(&self) -> &str {
        &self.squeezed
    }

    pub(crate) fn has_word(&self, word: &str) -> bool {
        self.words.contains_key(word)
    }

    /// Whether the source writes `word` in lower case somewhere: a common word, not a name.
    pub(crate) fn is_common(&self, word: &str) -> bool {
        self.lowercase.contains(word)
    }

    /// Whether some word of the source shares `word`'s stem: all but its last three letters,
    /// and at least four (`decision` for `decided`; `luis` only for `luis…`).
    pub(crate) fn has_stem_of(&self, word: &str) -> bool {
        let chars: Vec<char> = word.chars().collect();
        // Stems of the word's last three lengths (at least four letters), each matched only
        // where both words go on with an inflection: `Decided`/`decides`, `Reviewing`/`review`,
        // never `Fernanda`/`Fernando` (a swapped person is no inflection).
        let shortest = chars.len().saturating_sub(3).max(4).min(chars.len());
        (shortest..=chars.len()).any(|keep| {
            let stem: String = chars[..keep].iter().collect();
            let rest: String = chars[keep..].iter().collect();
            is_inflection(&rest)
                && self
                    .sorted_words
                    .range(stem.clone()..)
                    .take_while(|w| w.starts_with(&stem))
                    .any(|w| is_inflection(&w[stem.len()..]))
        })
    }

    /// Whether some word of the source starts with `prefix`.
    pub(crate) fn has_word_starting(&self, prefix: &str) -> bool {
        self.sorted_words
            .range(prefix.to_string()..)
            .next()
            .is_some_and(|w| w.starts_with(prefix))
    }

    /// Whether the folded `words` occur one after the other.
    pub(crate) fn has_phrase(&self, words: &[String]) -> bool {
        self.phrase_within(words, 0)
    }

    /// Whether the folded `words` occur in order with at most `slack` other words among them
    /// (`Ana M. Lopez` holds `Ana Lopez` with slack 1).
    ///
    /// The lookup starts from each place of the name's rarest word and looks for the others
    /// around it, so its cost is that word's count, not the first word's. A name whose every
    /// word occurs more than [`COMMON_BEYOND`] times counts as found: only a hostile text has
    /// names of nothing but such words, and checking each place would make the check
    /// quadratic in it.
    pub(crate) fn phrase_within(&self, words: &[String], slack: u32) -> bool {
        let lists: Option<Vec<&Vec<u32>>> = words.iter().map(|w| self.words.get(w)).collect();
        let Some(lists) = lists else { return false };
        let Some((rarest, anchors)) = lists.iter().enumerate().min_by_key(|(_, l)| l.len()) else {
            return false;
        };
        if anchors.len() > COMMON_BEYOND {
            return true;
        }
        anchors.iter().any(|&anchor| {
            let mut used = 0;
            // Forward from the anchor: the first place of each next word after the last.
            let mut at = anchor;
            let forward = lists[rarest + 1..].iter().all(|positions| {
                let index = positions.partition_point(|&p| p <= at);
                match positions.get(index) {
                    Some(&p) if p - at - 1 + used <= slack => {
                        used += p - at - 1;
                        at = p;
                        true
                    }
                    _ => false,
                }
            });
            // Backward from the anchor: the last place of each word before the next.
            let mut at = anchor;
            forward
                && lists[..rarest].iter().rev().all(|positions| {
                    let index = positions.partition_point(|&p| p < at);
                    match index.checked_sub(1).map(|i| positions[i]) {
                        Some(p) if at - p - 1 + used <= slack => {
                            used += at - p - 1;
                            at = p;
                            true
                        }
                        _ => false,
                    }
                })
        })
    }

    pub(crate) fn written(&self, value: &str) -> Option<&Written> {
        self.values.get(value)
    }

    pub(crate) fn names_currency(&self, code: &str) -> bool {
        self.currencies.contains(code)
    }

    /// Whether a day of the source has every field `day` gives, equal.
    pub(crate) fn has_day(&self, day: &Day) -> bool {
        self.days.contains(day) || (day.year.is_none() && self.yearless_days.contains(day))
    }

    /// Whether a day of the source without a year has every other field `day` gives.
    pub(crate) fn has_yearless_day(&self, day: &Day) -> bool {
        self.yearless_days.contains(&Day { year: None, ..*day })
    }

    pub(crate) fn has_time(&self, minutes: u16) -> bool {
        self.times.contains(&minutes)
    }

    pub(crate) fn links_to(&self, note: &str) -> bool {
        self.link_targets.contains(note)
    }

    /// Whether the note named `note` (folded; empty for the note itself) has `heading`
    /// (folded), as far as the source shows.
    pub(crate) fn has_heading(&self, note: &str, heading: &str) -> bool {
        if note.is_empty() {
            self.own_headings.contains(heading)
        } else {
            self.note_headings
                .contains(&(note.to_string(), heading.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        folded_words(text)
    }

    #[test]
    fn phrases_are_found_in_order_with_slack() {
        let source = SourceFacts::new("Budget by Ana M. Lopez, then Luis.");
        assert!(source.has_phrase(&words("Ana M")));
        assert!(!source.has_phrase(&words("Ana Lopez")));
        assert!(source.phrase_within(&words("Ana Lopez"), 1));
        assert!(!source.phrase_within(&words("Lopez Ana"), 3));
    }

    #[test]
    fn links_embeds_and_headings_are_indexed() {
        let source = SourceFacts::new(
            "See [[Projects/Budget Plan#Costs|costs]] and [x](Other%20Note.md).\n\n\
             > [Embedded: Meeting#Decisions]\n> text\n\n## Next steps ##\n",
        );
        for note in ["budget plan", "other note", "meeting"] {
            assert!(source.links_to(note), "{note}");
        }
        for (note, heading) in [
            ("budget plan", "costs"),
            ("meeting", "decisions"),
            ("", "next steps"),
        ] {
            assert!(source.has_heading(note, heading), "{note}#{heading}");
        }
    }

    #[test]
    fn a_heading_belongs_to_the_note_it_is_written_in() {
        let source = SourceFacts::new(
            "# Day

## Morning

Work.

> [Embedded: Plan#Why]
> ## Why
>
> Cost.
             > > [Embedded: Budget]
> > ### Totals
> ## After

## Recap

             > [Embedded: #Morning]
> ## Morning
",
        );
        for heading in ["day", "morning", "recap"] {
            assert!(source.has_heading("", heading), "own {heading}");
        }
        // Embedded headings are their notes', never the note's own.
        assert!(!source.has_heading("", "why"));
        assert!(source.has_heading("plan", "why"));
        assert!(source.has_heading("budget", "totals"));
        assert!(!source.has_heading("plan", "totals"));
        // Back at the outer embed's depth after the nested one.
        assert!(source.has_heading("plan", "after"));
        assert!(!source.has_heading("", "after"));
    }
}
