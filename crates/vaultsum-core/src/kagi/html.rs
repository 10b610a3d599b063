//! Kagi titles and snippets arrive as HTML fragments (`<b>rust</b> &amp; tokio`); the model
//! should read plain text.

use std::sync::LazyLock;

use regex::Regex;

static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"</?[A-Za-z][^<>]*>").expect("valid tag pattern"));

/// Strips HTML tags, then decodes entities, then collapses runs of whitespace.
///
/// Tags go first so an escaped `&lt;b&gt;` written by the page author survives as the text
/// `<b>` instead of vanishing as if it were markup.
pub fn clean_text(fragment: &str) -> String {
    let without_tags = TAG.replace_all(fragment, "");
    let decoded = html_escape::decode_html_entities(&without_tags);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::clean_text;

    #[test]
    fn tags_are_removed_and_entities_decoded() {
        assert_eq!(
            clean_text("<b>Rust</b> &amp; <i>Tokio</i> &#8211; &quot;async&quot; &#x27;io&#x27;"),
            "Rust & Tokio \u{2013} \"async\" 'io'"
        );
    }

    #[test]
    fn escaped_markup_written_by_the_author_stays_visible() {
        assert_eq!(clean_text("use &lt;b&gt; for bold"), "use <b> for bold");
    }

    #[test]
    fn comparisons_are_not_mistaken_for_tags() {
        assert_eq!(clean_text("a < b and c > d"), "a < b and c > d");
    }

    #[test]
    fn whitespace_and_newlines_collapse_to_single_spaces() {
        assert_eq!(clean_text("  one\n\t two  "), "one two");
    }
}
