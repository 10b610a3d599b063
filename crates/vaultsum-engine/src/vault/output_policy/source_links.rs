//! The URLs a summary may link to: those that occur in what was summarized (the note as
//! expanded, with what it embeds; for a web page, the page's own URL), collected where the
//! text is read, before any model sees it.

use std::collections::HashSet;

use pulldown_cmark::{Event, Parser, Tag};

use super::url::{bare_emails, bare_urls, is_local, long_bare_urls};
use crate::vault::markdown::parser_options;

/// The URLs that occur in a summary's source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLinks {
    urls: HashSet<String>,
}

impl SourceLinks {
    /// No URL at all: every link of a summary made of this becomes text.
    pub fn none() -> SourceLinks {
        SourceLinks::default()
    }

    /// The URLs of `text` (Markdown: link and image destinations, reference definitions, and
    /// every bare `scheme://…` or `www.…` anywhere, inside HTML and code too).
    pub fn from_text(text: &str) -> SourceLinks {
        let mut links = SourceLinks::none();
        links.add_text(text);
        links
    }

    /// A web page's own URL (a Kagi summary's source).
    pub fn from_url(url: &str) -> SourceLinks {
        let mut links = SourceLinks::none();
        links.add_url(url);
        links
    }

    /// Adds the URLs of `text` (see [`SourceLinks::from_text`]).
    pub fn add_text(&mut self, text: &str) {
        for range in bare_urls(text).into_iter().chain(long_bare_urls(text)) {
            self.add_url(&text[range]);
        }
        for email in bare_emails(text) {
            self.add_url(&email);
        }
        if !text.contains(['[', '<']) {
            return;
        }
        let mut parser = Parser::new_ext(text, parser_options());
        for event in parser.by_ref() {
            if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = event {
                self.add_url(&dest_url);
            }
        }
        let defined: Vec<String> = parser
            .reference_definitions()
            .iter()
            .map(|(_, def)| def.dest.to_string())
            .collect();
        for dest in defined {
            self.add_url(&dest);
        }
    }

    /// Adds one URL.
    pub fn add_url(&mut self, url: &str) {
        let url = url.trim();
        if (!url.is_empty() && !is_local(url)) || url.starts_with("www.") {
            self.urls.insert(url.to_string());
        }
    }

    /// How many distinct URLs.
    pub fn len(&self) -> usize {
        self.urls.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.urls.is_empty()
    }

    /// Whether `url` occurs in the source: the same URL, give or take a final `/`, and a bare
    /// `www.` name as its `http(s)://` form.
    pub fn contains(&self, url: &str) -> bool {
        let url = url.trim();
        if url.is_empty() {
            return false;
        }
        let toggled = match url.strip_suffix('/') {
            Some(without) => without.to_string(),
            None => format!("{url}/"),
        };
        if self.urls.contains(url) || self.urls.contains(&toggled) {
            return true;
        }
        if let Some(name) = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"))
        {
            if name.starts_with("www.") && self.urls.contains(name) {
                return true;
            }
        }
        if url.starts_with("www.") {
            return ["http://", "https://"]
                .iter()
                .any(|scheme| self.urls.contains(&format!("{scheme}{url}")));
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::SourceLinks;

    #[test]
    fn links_images_definitions_and_bare_urls_of_the_source_count() {
        let source = SourceLinks::from_text(
            "[a](https://a.example/x) ![i](https://img.example/p.png)\n\n\
             see https://bare.example/y. and <a href=\"https://html.example/\">x</a>\n\n\
             [ref]: https://def.example/z\n",
        );
        for url in [
            "https://a.example/x",
            "https://img.example/p.png",
            "https://bare.example/y",
            "https://html.example",
            "https://def.example/z",
        ] {
            assert!(source.contains(url), "{url}");
        }
        assert!(!source.contains("https://a.example/x?d=secret"));
        assert!(!source.contains("https://attacker.example/"));
    }

    #[test]
    fn www_names_match_their_web_form() {
        let source = SourceLinks::from_text("at www.site.example today");
        assert!(source.contains("https://www.site.example"));
        assert!(source.contains("www.site.example"));
        assert!(SourceLinks::from_url("https://page.example/a").contains("https://page.example/a/"));
    }
}
