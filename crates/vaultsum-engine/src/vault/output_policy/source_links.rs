//! The URLs a summary may link to: those that occur in what was summarized (the note as
//! expanded, with what it embeds; for a web page, the page's own URL), collected where the
//! text is read, before any model sees it. The vault's own places count the same way: a link
//! to a vault path (`[x](Folder/Note.md)`) or an embedded image (`![[photo.png]]`) stays only
//! when the source named that file, by a link, an embed or a wikilink.

use std::collections::HashSet;

use pulldown_cmark::{Event, Parser, Tag};

use super::url::{bare_emails, bare_urls, is_local, long_bare_urls};
use crate::vault::markdown::parser_options;

/// The URLs that occur in a summary's source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLinks {
    urls: HashSet<String>,
    /// The vault files the source names: local link destinations and wikilink targets, by
    /// [`vault_name`].
    local: HashSet<String>,
}

/// A vault file as a link or a wikilink names it, for comparing: percent-escapes decoded, a
/// `#heading` or `?query` and a leading `./` or `/` dropped, the folder path dropped (Obsidian
/// resolves a bare name anywhere), case folded.
pub(crate) fn vault_name(target: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(target.trim()).decode_utf8_lossy();
    let path = decoded.split(['#', '?', '|']).next().unwrap_or("");
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.trim().to_lowercase()
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
        // Wikilinks and embeds name vault files: `[[Note]]`, `![[photo.png|200]]`.
        let mut rest = text;
        while let Some(open) = rest.find("[[") {
            let inner = &rest[open + 2..];
            let Some(close) = inner.find("]]") else { break };
            let target = &inner[..close];
            if !target.contains('\n') {
                self.add_local(target);
                // A note named without its extension is the same file as `Note.md`.
                self.add_local(&format!(
                    "{}.md",
                    target.split(['#', '|']).next().unwrap_or("")
                ));
            }
            rest = &inner[close..];
        }
        // An expansion's labels name what the note embeds: `[Embedded image: Attachments/a.png]`,
        // `> [Embedded: Note#Heading]`, `[Embed failed: chart.png: not found]` (`vault/expand.rs`).
        for (at, _) in text.match_indices("[Embed") {
            let label = &text[at + 1..];
            let Some(end) = label.find([']', '\n']) else {
                continue;
            };
            let label = &label[..end];
            let named = if let Some(failed) = label.strip_prefix("Embed failed: ") {
                failed.rsplit_once(": ").map_or(failed, |(named, _)| named)
            } else if label.starts_with("Embedded") {
                let Some((_, named)) = label.split_once(": ") else {
                    continue;
                };
                named.split(" (alt text: ").next().unwrap_or(named)
            } else {
                continue;
            };
            self.add_local(named);
            self.add_local(&format!(
                "{}.md",
                named.split(['#', '|']).next().unwrap_or("")
            ));
        }
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

    /// Adds one URL (a vault path among the vault files named).
    pub fn add_url(&mut self, url: &str) {
        let url = url.trim();
        if (!url.is_empty() && !is_local(url)) || url.starts_with("www.") {
            self.urls.insert(url.to_string());
        } else if !url.is_empty() {
            self.add_local(url);
        }
    }

    fn add_local(&mut self, target: &str) {
        let name = vault_name(target);
        if !name.is_empty() {
            self.local.insert(name);
        }
    }

    /// Whether the source names the vault file `target` (a link's destination, a wikilink's
    /// or an embed's target), by [`vault_name`].
    pub fn names_local(&self, target: &str) -> bool {
        let name = vault_name(target);
        !name.is_empty() && self.local.contains(&name)
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
    fn a_vault_file_the_source_did_not_name_is_neither_shown_nor_linked() {
        use crate::vault::output_policy::OutputPolicy;
        let source =
            SourceLinks::from_text("See ![[whiteboard.png|200]] and [plan](Projects/Plan.md).");
        let policy = OutputPolicy::default();
        let kept = policy.summary(
            "- ![[whiteboard.png]] and [the plan](Projects/Plan.md)",
            &source,
        );
        assert!(
            kept.as_str().contains("![[whiteboard.png]]"),
            "{}",
            kept.as_str()
        );
        assert!(
            kept.as_str().contains("[the plan](Projects/Plan.md)"),
            "{}",
            kept.as_str()
        );
        let answer = "- ![[evil.png]] and [z](Secret%20Note.md) and ![x](Private/photo.jpg)";
        let defused = policy.summary(answer, &source);
        let text = defused.as_str();
        assert!(
            !text.contains("[[evil.png]]"),
            "neither embed nor link: {text}"
        );
        assert!(!text.contains("](Secret%20Note.md)"), "{text}");
        assert!(!text.contains("](Private/photo.jpg)"), "{text}");
        // What an expansion says the note embeds is named by it too.
        let expanded = SourceLinks::from_text(
            "> [Embedded image: Attachments/whiteboard.png (alt text: the board)]\n> …\n\
             [Embed failed: chart.png: not found]\n> [Embedded: Plan#Risks]",
        );
        for named in [
            "Attachments/whiteboard.png",
            "whiteboard.png",
            "chart.png",
            "Plan.md",
        ] {
            assert!(expanded.names_local(named), "{named}");
        }
        assert!(!expanded.names_local("evil.png"));
        // The file name a removed link named is said, and can only be text.
        let hostile = policy.summary("[x](<a%3Cscript%3E[[y]]%25%25b.md>)", &source);
        assert!(
            !hostile.as_str().contains("<script"),
            "{}",
            hostile.as_str()
        );
        assert!(!hostile.as_str().contains("[[y"), "{}", hostile.as_str());
    }

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
