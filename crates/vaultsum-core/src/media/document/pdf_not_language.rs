//! A page's text layer that is not language: a font without a Unicode map whose codes land on
//! punctuation and digits reads `!"# $ %&'( ) * + , - .` (PDFium reads it the same way). Sent
//! as text, a model pays for the noise and may summarize it.

use unicode_normalization::char::is_combining_mark;

/// Whether `text` (one page, cleaned) is not language in any script: at least
/// [`MIN_VISIBLE`] visible characters, almost no letters (fewer than one in ten), not one word
/// of two or more letters in a row, and more punctuation and symbols than digits.
///
/// Letters are letters of any script (`char::is_alphabetic`: Latin, CJK, Arabic, Devanagari);
/// a combining mark continues a word without counting as a letter, so a Devanagari conjunct
/// (`क्ष`: letter, virama, letter) is one word of two letters. The digit test keeps a page of
/// numbers (a table without words, an appendix of figures) as text: its digits outnumber its
/// punctuation, where codes landing from `!` on are mostly punctuation.
pub(super) fn is_not_language(text: &str) -> bool {
    let (mut visible, mut letters, mut digits, mut symbols) = (0usize, 0usize, 0usize, 0usize);
    let mut run_letters = 0usize;
    for c in text.chars() {
        if c.is_alphabetic() {
            letters += 1;
            run_letters += 1;
            if run_letters >= 2 {
                return false;
            }
        } else if !is_combining_mark(c) {
            run_letters = 0;
        }
        if c.is_whitespace() {
            continue;
        }
        visible += 1;
        if c.is_numeric() {
            digits += 1;
        } else if !c.is_alphabetic() && !is_combining_mark(c) {
            symbols += 1;
        }
    }
    visible >= MIN_VISIBLE && letters * 10 < visible && symbols > digits
}

/// Visible characters below which a page is left as it is: a page number, a rule of dashes.
const MIN_VISIBLE: usize = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_landing_on_punctuation_are_not_language() {
        assert!(is_not_language(
            "!\"# $ %&\u{2019}( ) * + , - .\n/ 0 1 !\"# $ %&\u{2019}( ) * + , - .\n2 3 ( ) * 4"
        ));
        // A stray letter among them (a code past `@`) does not make them words.
        assert!(is_not_language(
            "!\"# $ %&'( ) * + , - . A / ! \"# $ %&'( ) * + , - . : ; < = > ?"
        ));
    }

    #[test]
    fn words_of_every_script_are_language() {
        let pages = [
            "Results: 0.12 (0.03), 0.45 (0.07); p < 0.01",
            // Chinese, Japanese, Korean
            "实验结果（表３）：０．１２，０．４５。",
            "結果は表３の通り：０．１２、０．４５。",
            "결과: 0.12, 0.45 (표 3) ...............",
            // Arabic, in letters and in presentation forms (what PDFs often carry)
            "النتائج: ٠٫١٢ (٠٫٠٣)، ٠٫٤٥ (٠٫٠٧) ...............",
            "\u{FE8E}\u{FEDF}\u{FEE8}\u{FE98}\u{FE8E}\u{FE8B}\u{FE9E}: (0.03) ...............",
            // Devanagari: conjuncts with a virama, vowel signs, a nukta
            "परिणाम: क्ष (०.१२), ज़ (०.४५) ...............",
        ];
        for page in pages {
            assert!(!is_not_language(page), "{page}");
        }
    }

    #[test]
    fn a_devanagari_word_joined_by_a_virama_is_a_word() {
        // Two letters joined by a virama (not alphabetic in Unicode, a combining mark), among
        // punctuation: the one word keeps the page as text.
        let page = format!("क्ष {}", "( ) * + , - . ".repeat(4));
        assert!(!is_not_language(&page));
        let without = "क ्ष ( ) * + , - . ( ) * + , - . ( ) * + , - .";
        assert!(is_not_language(without));
    }

    #[test]
    fn numbers_short_pages_and_single_letters_are_left_alone() {
        // A table of numbers without a word: digits outnumber the punctuation.
        assert!(!is_not_language(
            "0.12 0.34 0.56\n1.23 4.56 7.89\n10.1 11.2 12.3\n(3) (4) (5)"
        ));
        // A page number, a short rule.
        assert!(!is_not_language("– 12 –"));
        assert!(!is_not_language("* * * * *"));
        // Formulas with one-letter variables: letters are more than one character in ten.
        assert!(!is_not_language(
            "x = (a + b) / 2; y = x * x - c; z = (x + y) / (a - b)"
        ));
    }
}
