//! Splitting a block of plain text into sentences.
//!
//! A sentence ends at `.`, `!` or `?` followed by white space. A full stop does not end a
//! sentence after a known abbreviation ("e.g.", "Dr."), an initial ("J. Smith") or an ellipsis
//! running on in lower case. Decimals, versions and URLs ("3.5", "1.2.3", "obsidian.md/x") have
//! no white space after the dot, so they never split. Notes are often typed quickly, so a
//! lower-case letter after a full stop still starts a new sentence.

/// Abbreviations after which a full stop never ends a sentence (lower case, without the dot).
const NEVER_FINAL: &[&str] = &[
    "al", "approx", "cf", "ch", "co", "dept", "dr", "e.g", "eg", "est", "fig", "figs", "i.e", "ie",
    "inc", "jr", "lt", "mr", "mrs", "ms", "mt", "no", "nos", "p", "pp", "prof", "rev", "sec", "sr",
    "st", "vol", "vs",
];

/// Abbreviations that usually sit mid-sentence but may end one: split only before a capital.
const MAYBE_FINAL: &[&str] = &[
    "etc", "ltd", "approx", "min", "max", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec",
];

/// Splits `text` into trimmed, non-empty sentences, in order.
pub fn split_sentences(text: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (_, c) = chars[i];
        if !matches!(c, '.' | '!' | '?' | '…') {
            i += 1;
            continue;
        }
        // Take the whole run of terminators and closing marks: `?!`, `...`, `.)`, `."`.
        let mut end = i + 1;
        while end < chars.len() && matches!(chars[end].1, '.' | '!' | '?' | '…') {
            end += 1;
        }
        let run_end = end;
        while end < chars.len()
            && matches!(chars[end].1, ')' | ']' | '"' | '\'' | '”' | '’' | '*' | '_')
        {
            end += 1;
        }
        let followed_by_space = end == chars.len() || chars[end].1.is_whitespace();
        if !followed_by_space {
            i = run_end;
            continue;
        }
        let next = chars[end..]
            .iter()
            .map(|&(_, c)| c)
            .find(|c| !c.is_whitespace());
        let byte_at = |k: usize| chars.get(k).map_or(text.len(), |&(b, _)| b);
        let run: String = chars[i..run_end].iter().map(|&(_, c)| c).collect();
        let terminator = if run.contains(['!', '?']) {
            Terminator::Hard
        } else if run.chars().count() > 1 || c == '…' {
            Terminator::Ellipsis
        } else {
            Terminator::Period
        };
        let word = word_before(&text[byte_at(start)..chars[i].0]);
        if ends_sentence(terminator, word, next) {
            let sentence = text[byte_at(start)..byte_at(end)].trim();
            if !sentence.is_empty() {
                sentences.push(sentence.to_string());
            }
            start = end;
        }
        i = end;
    }
    let rest = text
        .get(byte_at_or_len(&chars, start, text.len())..)
        .unwrap_or("")
        .trim();
    if !rest.is_empty() {
        sentences.push(rest.to_string());
    }
    sentences
}

fn byte_at_or_len(chars: &[(usize, char)], k: usize, len: usize) -> usize {
    chars.get(k).map_or(len, |&(b, _)| b)
}

/// The word right before a terminator, without opening brackets or quotes.
fn word_before(head: &str) -> &str {
    let word = head.rsplit(char::is_whitespace).next().unwrap_or("");
    word.trim_start_matches(['(', '[', '"', '\'', '“', '‘', '*', '_'])
}

/// How a run of terminators reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Terminator {
    /// `!`, `?` or a mix: always final.
    Hard,
    /// `...` or `…`: final only before a capital.
    Ellipsis,
    /// A single full stop: final unless it closes an abbreviation.
    Period,
}

fn ends_sentence(terminator: Terminator, word: &str, next: Option<char>) -> bool {
    let Some(next) = next else { return true };
    let next_is_upper = next.is_uppercase();
    match terminator {
        Terminator::Hard => return true,
        Terminator::Ellipsis => return next_is_upper,
        Terminator::Period => {}
    }
    let lower = word.to_lowercase();
    if lower.is_empty() {
        return true;
    }
    if NEVER_FINAL.contains(&lower.as_str()) {
        return false;
    }
    if MAYBE_FINAL.contains(&lower.as_str()) {
        return next_is_upper;
    }
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    // "J. Smith": a lone capital is an initial.
    if letters == 1 && word.chars().count() == 1 && word.chars().all(char::is_uppercase) {
        return false;
    }
    // "a.k.a", "U.S": dotted abbreviations run on before lower case.
    if word.contains('.')
        && word
            .split('.')
            .all(|part| part.chars().count() <= 2 && part.chars().all(char::is_alphabetic))
    {
        return next_is_upper;
    }
    true
}
