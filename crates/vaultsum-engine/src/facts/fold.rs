//! Text folded for comparison: words of letters and digits, lower case, in compatibility form
//! without accents, so `Café`, `CAFÉ`, `cafe` and the decomposed `Cafe\u{301}` are one word
//! and `Ana's` is `ana` followed by `s`.

use std::ops::Range;

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// A word of `text` folded: compatibility decomposition, combining marks dropped, lower case.
pub fn fold_word(word: &str) -> String {
    let mut folded = String::new();
    fold_word_into(word, &mut folded);
    folded
}

/// [`fold_word`] into `out`, which is cleared first.
pub fn fold_word_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| char::from(b.to_ascii_lowercase())));
        return;
    }
    out.extend(
        word.nfkd()
            .filter(|c| !is_combining_mark(*c))
            .flat_map(char::to_lowercase),
    );
}

/// Whether `c` belongs to a word: letters, digits, and the combining marks of a decomposed
/// letter (so `e\u{301}` stays one word).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The words of `text` with their byte ranges, unfolded.
pub fn word_spans(text: &str) -> impl Iterator<Item = (Range<usize>, &str)> + '_ {
    let mut chars = text.char_indices().peekable();
    std::iter::from_fn(move || {
        let start = loop {
            let (i, c) = chars.next()?;
            if is_word_char(c) {
                break i;
            }
        };
        let mut end = text.len();
        while let Some(&(i, c)) = chars.peek() {
            if !is_word_char(c) {
                end = i;
                break;
            }
            chars.next();
        }
        Some((start..end, &text[start..end]))
    })
}

/// The folded words of `text`, in order.
pub fn folded_words(text: &str) -> Vec<String> {
    word_spans(text).map(|(_, w)| fold_word(w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_accents_and_unicode_forms_fold_to_one_word() {
        assert_eq!(fold_word("Café"), "cafe");
        assert_eq!(fold_word("CAFE\u{301}"), "cafe");
        assert_eq!(fold_word("ＡＢＣ"), "abc");
        assert_eq!(folded_words("Ana's plan"), ["ana", "s", "plan"]);
    }

    #[test]
    fn a_decomposed_letter_stays_in_its_word() {
        assert_eq!(folded_words("Jose\u{301} Ruiz"), ["jose", "ruiz"]);
    }
}
