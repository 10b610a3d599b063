//! HTML made plain text, for the places where HTML reaches a person or a model: Kagi titles and
//! snippets (`<b>rust</b> &amp; tokio`) and the error pages that proxies return instead of JSON.
//! One tag rule for both, so they cannot drift apart.

use std::sync::LazyLock;

use regex::Regex;

/// An opening or closing tag (`<b>`, `</p>`, `<br/>`) or a declaration (`<!DOCTYPE html>`).
/// A `<` not followed by a letter, `/` or `!` is text (`a < b`).
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<(?:/?([A-Za-z][A-Za-z0-9]*)[^<>]*|![^<>]*)>").expect("valid tag pattern")
});

/// Elements that start a new line when a browser shows them; their tags become a space so the
/// words on either side do not run together. Inline tags (`<b>`, `<i>`, `<a>`) vanish, so
/// `<b>Rust</b>'s` stays `Rust's`.
const BLOCK_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "title",
    "tr",
    "ul",
];

/// The text without its tags; entities are left as they are.
pub fn strip_tags(html: &str) -> String {
    TAG.replace_all(html, |tag: &regex::Captures<'_>| {
        let is_block = tag.get(1).is_some_and(|name| {
            BLOCK_ELEMENTS
                .iter()
                .any(|block| block.eq_ignore_ascii_case(name.as_str()))
        });
        if is_block {
            " "
        } else {
            ""
        }
    })
    .into_owned()
}

/// Strips HTML tags, then decodes entities, then collapses runs of whitespace.
///
/// Tags go first so an escaped `&lt;b&gt;` written by the page author survives as the text
/// `<b>` instead of vanishing as if it were markup.
pub fn clean_text(fragment: &str) -> String {
    let without_tags = strip_tags(fragment);
    let decoded = html_escape::decode_html_entities(&without_tags);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn inline_tags_join_and_block_tags_separate() {
        assert_eq!(clean_text("<b>Rust</b>'s"), "Rust's");
        assert_eq!(
            clean_text("<!DOCTYPE html><h1>Bad Gateway</h1><p>nginx</p>"),
            "Bad Gateway nginx"
        );
    }
}
