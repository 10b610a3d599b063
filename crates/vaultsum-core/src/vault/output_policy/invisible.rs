//! Characters a reader cannot see, removed from a model's answer before anything else is
//! decided: Unicode tag characters (U+E0000–U+E007F, which smuggle data into links unseen),
//! zero-width characters, bidi controls (text that reads otherwise than it is), and control
//! characters other than tab, newline and carriage return.
//!
//! Removed first, so that no construct is hidden from the parser by one (`[a]\u{200B}(url)`
//! is a link once the zero-width space is gone).

use std::borrow::Cow;

/// Whether `c` is removed wherever it stands.
fn always_removed(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}'..='\u{9F}'
        // Zero-width space, word joiner, invisible operators, zero-width no-break space.
        | '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}'
        // Bidi marks, embeddings, overrides and isolates.
        | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        // Interlinear annotation and the object replacement character.
        | '\u{FFF9}'..='\u{FFFC}'
        // Tags.
        | '\u{E0000}'..='\u{E007F}')
}

/// A zero-width joiner or non-joiner, kept only between two characters it can join: letters of
/// scripts that need it (Persian `ZWNJ`) or the parts of an emoji sequence (👨‍👩‍👧). Alone,
/// in runs or beside ASCII it carries no meaning and is removed.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

fn joins(c: char) -> bool {
    (c.is_alphabetic() && !c.is_ascii()) || is_pictographic(c)
}

/// Emoji and the variation selector that ends many of them (❤️‍🔥), roughly: enough to tell
/// an emoji sequence's joiner from a hidden one.
fn is_pictographic(c: char) -> bool {
    matches!(c,
        '\u{2600}'..='\u{27BF}' | '\u{2B00}'..='\u{2BFF}' | '\u{FE0F}'
        | '\u{1F000}'..='\u{1FAFF}')
}

/// `text` without its invisible characters, and how many were removed.
pub(super) fn remove_invisible(text: &str) -> (Cow<'_, str>, usize) {
    let needs_work = text
        .chars()
        .any(|c| (always_removed(c) && !matches!(c, '\t' | '\n' | '\r')) || is_joiner(c));
    if !needs_work {
        return (Cow::Borrowed(text), 0);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut removed = 0;
    for (i, &c) in chars.iter().enumerate() {
        let drop = if matches!(c, '\t' | '\n' | '\r') {
            false
        } else if is_joiner(c) {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            !(before.is_some_and(joins) && after.is_some_and(joins))
        } else {
            always_removed(c)
        };
        if drop {
            removed += 1;
        } else {
            out.push(c);
        }
    }
    if removed == 0 {
        return (Cow::Borrowed(text), 0);
    }
    (Cow::Owned(out), removed)
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
    fn joiners_inside_emoji_and_persian_words_stay() {
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(remove_invisible(family).0, family);
        let persian = "می\u{200C}خواهم";
        assert_eq!(remove_invisible(persian).0, persian);
        assert_eq!(remove_invisible("a\u{200D}b").0, "ab");
        assert_eq!(remove_invisible("می\u{200C}\u{200C}خواهم").0, "میخواهم");
    }
}
