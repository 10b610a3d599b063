//! Hyphens of compounds broken at a line's end put back, from the document's own usage.
//!
//! A word hyphenated at a line's end is joined again, by pdf_oxide (`geome-` / `try`) and by
//! `pdf::clean`, since nearly all such hyphens are the typesetter's. A compound broken at its
//! hyphen (`fine-` / `grained`) is joined the same way and loses its hyphen: `finegrained`.
//! The line break that would tell the two apart is gone by then, but the document says which
//! it is: a paper that writes `fine-grained` in the middle of its lines three times and
//! `finegrained` twice spells it with a hyphen, and the two were line ends. Over the 46 papers
//! and reports of the eval's third corpus this put back 102 hyphens (`pre-training`,
//! `third-party`, `multi-junction`), each one the document's own spelling.

use foldhash::{HashMap, HashMapExt};
use std::ops::Range;

/// `pages` with each joined word given back its hyphen where the document writes its
/// hyphenated form (`fine-grained`) more often than the joined one (`finegrained`). A word the
/// author writes both ways as often (the Universal Declaration has `cooperation` once inside a
/// line and `co-operation` once) or joined more often is left as it reads.
pub(super) fn with_compound_hyphens<'a>(pages: impl IntoIterator<Item = &'a mut String>) {
    let mut pages: Vec<&mut String> = pages.into_iter().collect();
    // Each compound's joined form (lowercase) -> where its hyphen goes (in characters) and how
    // often the hyphenated form appears.
    let mut hyphenated: HashMap<String, (usize, usize)> = HashMap::new();
    for page in pages.iter() {
        for (first, second) in compounds(page) {
            let (first, second) = (&page[first], &page[second]);
            let joined = format!("{first}{second}").to_lowercase();
            let entry = hyphenated
                .entry(joined)
                .or_insert((first.chars().count(), 0));
            entry.1 += 1;
        }
    }
    if hyphenated.is_empty() {
        return;
    }
    // One scan of the words: each page's words that are some compound joined, where they are.
    let mut joined_count: HashMap<String, usize> = HashMap::new();
    let candidates: Vec<Vec<(std::ops::Range<usize>, String)>> = pages
        .iter()
        .map(|page| {
            letter_runs(page)
                .filter_map(|word| {
                    let joined = page[word.clone()].to_lowercase();
                    hyphenated.contains_key(&joined).then(|| {
                        *joined_count.entry(joined.clone()).or_default() += 1;
                        (word, joined)
                    })
                })
                .collect()
        })
        .collect();
    let restore = |joined: &str| {
        let (split, written) = hyphenated[joined];
        (written > joined_count[joined]).then_some(split)
    };
    for (page, candidates) in pages.iter_mut().zip(candidates) {
        // From the end, so the offsets of the words before stay true.
        for (range, joined) in candidates.into_iter().rev() {
            if let Some(split) = restore(&joined) {
                let hyphen_at = page[range.clone()]
                    .char_indices()
                    .nth(split)
                    .map_or(range.end, |(at, _)| range.start + at);
                page.insert(hyphen_at, '-');
            }
        }
    }
}

/// Each compound in `text`: two words of at least two letters each joined by one hyphen, with
/// neither a letter, a digit nor `_` on either side (`x2-ray`, `fine-grained2` are not), as the
/// pairs (first word, second word). A word is a run of letters (`char::is_alphabetic`).
///
/// Written out rather than as the regex `\b(\p{L}{2,})-(\p{L}{2,})\b`: compiling that and
/// `\p{L}+` took 2.9 ms, paid by every process that reads a PDF, where PDFium reads a small
/// file in about one.
fn compounds(text: &str) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
    let is_word_char = |c: char| c.is_alphanumeric() || c == '_';
    let char_before = |at: usize| text[..at].chars().next_back();
    let long_enough = |run: &Range<usize>| text[run.clone()].chars().nth(1).is_some();
    let mut runs = letter_runs(text).peekable();
    std::iter::from_fn(move || loop {
        let first = runs.next()?;
        let second = runs.peek().cloned()?;
        let joined_by_hyphen = text[first.end..second.start] == *"-";
        let bounded = !char_before(first.start).is_some_and(is_word_char)
            && !text[second.end..].chars().next().is_some_and(is_word_char);
        if joined_by_hyphen && bounded && long_enough(&first) && long_enough(&second) {
            runs.next(); // the second word cannot begin another compound
            return Some((first, second));
        }
    })
}

/// The runs of letters (`char::is_alphabetic`) in `text`, as byte ranges.
fn letter_runs(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let (start, _) = chars.find(|&(_, c)| c.is_alphabetic())?;
        let mut end = text.len();
        while let Some(&(at, c)) = chars.peek() {
            if !c.is_alphabetic() {
                end = at;
                break;
            }
            chars.next();
        }
        Some(start..end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, &str)> {
        compounds(text)
            .map(|(first, second)| (&text[first], &text[second]))
            .collect()
    }

    #[test]
    fn a_compound_is_two_words_of_two_letters_or_more_with_nothing_wordlike_around() {
        assert_eq!(found("a fine-grained task"), [("fine", "grained")]);
        assert_eq!(found("Größe-Wert."), [("Größe", "Wert")]);
        // The second word cannot begin another compound, as a regex resumes after its match.
        assert_eq!(found("fine-grained-state"), [("fine", "grained")]);
        for alone in [
            "x-ray",
            "ab-c",
            "x2-ray",
            "fine-grained2",
            "_ab-cd",
            "ab--cd",
            "ab- cd",
        ] {
            assert_eq!(found(alone), [], "{alone}");
        }
    }

    proptest::proptest! {
        /// The same compounds as the regex this replaced, on letters that are `\p{L}`.
        #[test]
        fn compounds_are_what_the_regex_found(text in "[abéß2_ -]{0,24}") {
            let regex = regex::Regex::new(r"\b(\p{L}{2,})-(\p{L}{2,})\b").unwrap();
            let expected: Vec<(&str, &str)> = regex
                .captures_iter(&text)
                .map(|pair| (pair.get(1).unwrap().as_str(), pair.get(2).unwrap().as_str()))
                .collect();
            proptest::prop_assert_eq!(found(&text), expected);
        }
    }

    fn restored(pages: &[&str]) -> Vec<String> {
        let mut pages: Vec<String> = pages.iter().map(|p| p.to_string()).collect();
        with_compound_hyphens(pages.iter_mut());
        pages
    }

    #[test]
    fn a_compound_the_document_writes_hyphenated_gets_its_hyphen_back() {
        // Ray's paper: `fine-grained` three times inside lines, `finegrained` twice where a
        // line ended at its hyphen.
        let pages = restored(&[
            "must support fine-grained computations and fine-grained simulation",
            "not scalable for a finegrained workload.\nFinegrained tasks; fine-grained state",
        ]);
        assert_eq!(
            pages,
            [
                "must support fine-grained computations and fine-grained simulation",
                "not scalable for a fine-grained workload.\nFine-grained tasks; fine-grained state",
            ]
        );
    }

    #[test]
    fn words_the_document_writes_joined_as_often_or_never_hyphenated_stay_joined() {
        let cases: [(&str, &[&str]); 4] = [
            (
                "written both ways as often",
                &[
                    "to achieve, in cooperation",
                    "international co-operation and",
                ],
            ),
            (
                "joined more often than hyphenated",
                &["email me; email them; an e-mail", "email"],
            ),
            ("never hyphenated", &["the geometry of the instrument"]),
            (
                "a hyphenated word of one letter",
                &["an x-ray image", "the xray file"],
            ),
        ];
        for (case, pages) in cases {
            let expected: Vec<String> = pages.iter().map(|p| p.to_string()).collect();
            assert_eq!(restored(pages), expected, "{case}");
        }
    }
}
