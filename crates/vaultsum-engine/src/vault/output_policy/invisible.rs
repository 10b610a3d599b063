//! Characters a reader cannot see, removed from a model's answer before anything else is
//! decided: every Default_Ignorable_Code_Point of Unicode (tags, zero-width characters, bidi
//! controls, variation selectors, the soft hyphen, Hangul fillers, the combining grapheme
//! joiner, musical formatting controls, …), the Braille blank and other blanks that show as
//! nothing, and control characters other than tab, newline and carriage return.
//!
//! Removed first, so that no construct is hidden from the parser by one (`[a]\u{200B}(url)`
//! is a link once the zero-width space is gone), and so that no sentence rides unseen in a
//! run of variation selectors after an emoji.
//!
//! Kept, where they carry meaning: a zero-width joiner or non-joiner between two characters it
//! can join (Persian words, emoji sequences), one variation selector 15 or 16 after a
//! pictograph (❤️), and the word joiner the policy itself writes (`inline.rs`: `BREAK`) where
//! it writes it.

use std::borrow::Cow;

use super::inline::BREAK;

/// Whether `c` is Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1), or
/// a control or blank that shows nothing.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{9F}'
        | '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}'
        // Shows as nothing, though not default-ignorable: the Braille blank, the interlinear
        // annotation marks and the object replacement character.
        | '\u{2800}' | '\u{FFF9}'..='\u{FFFC}'
        // Line and paragraph separators (no line break in Markdown, a blank in rendering),
        // format controls and fillers of other scripts, private use (no meaning of its own).
        | '\u{2028}' | '\u{2029}' | '\u{13430}'..='\u{1343F}' | '\u{1D159}' | '\u{16FE4}'
        | '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{10FFFF}')
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

fn joins(c: char) -> bool {
    (c.is_alphabetic() && !c.is_ascii()) || is_pictographic(c)
}

/// Emoji, roughly: enough to tell an emoji sequence's joiner or presentation selector from a
/// hidden one.
fn is_pictographic(c: char) -> bool {
    matches!(c,
        '\u{2190}'..='\u{21FF}' | '\u{2300}'..='\u{23FF}' | '\u{2600}'..='\u{27BF}'
        | '\u{2B00}'..='\u{2BFF}' | '\u{1F000}'..='\u{1FAFF}' | '\u{A9}' | '\u{AE}' | '\u{2122}')
}

/// Whether the invisible character at `i` is one that stays (see the module's comment).
fn kept(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    if matches!(c, '\t' | '\n' | '\r') {
        return true;
    }
    if is_joiner(c) {
        return before.is_some_and(|b| joins(b) || b == '\u{FE0F}') && after.is_some_and(joins);
    }
    if matches!(c, '\u{FE0E}' | '\u{FE0F}') {
        return before.is_some_and(is_pictographic);
    }
    false
}

/// Where the policy writes its word joiner: between two colons, and before the `=` or `$` that
/// starts code. One found there stays (the policy would put it back), uncounted.
fn canonical_break(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    let code_start = matches!(before, None | Some('`' | ' ' | '\t' | '\n' | '>'));
    let query = after == Some('=') || (after == Some('$') && chars.get(i + 2) == Some(&'='));
    chars[i] == BREAK && ((before == Some(':') && after == Some(':')) || (code_start && query))
}

/// `text` without its invisible characters, and how many were removed.
pub(crate) fn remove_invisible(text: &str) -> (Cow<'_, str>, usize) {
    if !text.chars().any(is_invisible_or_joiner) {
        return (Cow::Borrowed(text), 0);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    for (i, &c) in chars.iter().enumerate() {
        if !is_invisible_or_joiner(c) || kept(&chars, i) || canonical_break(&chars, i) {
            out.push(c);
        } else {
            removed += 1;
        }
    }
    (Cow::Owned(out), removed)
}

fn is_invisible_or_joiner(c: char) -> bool {
    (is_invisible(c) && !matches!(c, '\t' | '\n' | '\r')) || is_joiner(c)
}

#[cfg(test)]
mod tests {
    use super::remove_invisible;

    #[test]
    fn tags_zero_width_bidi_and_controls_go_tab_newline_and_cr_stay() {
        let text = "a\u{E0041}\u{E0042}b\u{200B}c\u{202E}d\u{2066}e\u{7}f\tg\r\nh";
        let (out, removed) = remove_invisible(text);
        assert_eq!(out, "abcdef\tg\r\nh");
        assert_eq!(removed, 6);
    }

    #[test]
    fn every_default_ignorable_class_goes() {
        // Variation selectors smuggling bytes after an emoji, soft hyphen, Hangul filler,
        // U+206A-206F, musical formatting, CGJ, Braille blank.
        let text = "ok😀\u{FE01}\u{E0101}\u{E01EF} so\u{AD}ft \u{3164}x\u{206A}y\u{1D173}z\u{34F}w\u{2800}v";
        let (out, removed) = remove_invisible(text);
        assert_eq!(out, "ok😀 soft xyzwv");
        assert_eq!(removed, 9);
    }

    #[test]
    fn joiners_inside_emoji_and_persian_words_stay() {
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(remove_invisible(family).0, family);
        let heart = "❤\u{FE0F}";
        assert_eq!(remove_invisible(heart).0, heart);
        let persian = "می\u{200C}خواهم";
        assert_eq!(remove_invisible(persian).0, persian);
        assert_eq!(remove_invisible("a\u{200D}b").0, "ab");
        assert_eq!(remove_invisible("می\u{200C}\u{200C}خواهم").0, "میخواهم");
    }
}
