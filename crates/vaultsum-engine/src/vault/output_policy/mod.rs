//! A model's answer is data: every text vaultsum writes into a vault from a model or from Kagi
//! (a `## Summary` section, the summary property, a rollup's or a web page's note) is made
//! inert here first, so that a note summarized from someone else's text (a clipped page, a
//! pasted email, a shared transcript) cannot be turned against the person who keeps it.
//!
//! What the policy does, on the parsed Markdown (pulldown-cmark events and their byte ranges,
//! never regular expressions over the text):
//! - images from outside the vault (which Obsidian fetches when the note shows, the
//!   exfiltration shown against Bing Chat, ChatGPT, Copilot, Slack AI) become a plain link when
//!   their URL occurs in the source, else a marker `[image removed: host]`;
//! - raw HTML is escaped, all of it (`<iframe>`, `<img>`, `style` with `url(…)`);
//! - a link stays a link only when its URL occurs in the source ([`SourceLinks`]) or its host
//!   matches `summarize.allow_links`; any other keeps its text and gets a marker
//!   `[link removed: host]` (a bare URL or `<url>` becomes a code span); `obsidian:`,
//!   `javascript:`, `file:`, `data:`, `vbscript:` are never links;
//! - fenced code outside a short list of display languages is re-tagged `text` (plugins run
//!   blocks by their info string); inline code starting with `=` or `$=` (Dataview) is written
//!   as text;
//! - `<%` is broken (Templater), in code too;
//! - invisible characters are removed (Unicode tags, zero-width, bidi, controls);
//! - a leading `---` block is dropped (vaultsum writes a note's frontmatter itself);
//! - the property is plain text: no link, image, HTML or code.
//!
//! Everything else is copied byte for byte, so a legitimate summary (headings, lists, tasks,
//! tables, wikilinks, links from the source, code in display languages, CRLF) comes out as it
//! came. What was changed is counted ([`Defused`]) and marked in the text. The result is a
//! [`DefusedText`], which only this module can make and which the vault's writes take
//! (`vault/write.rs`): there is no way to write a summary around the policy.

mod defused;
mod display_languages;
mod edits;
mod emit;
mod inline;
pub(crate) mod invisible;
mod math;
mod property;
mod source_links;
mod url;

use std::ops::Range;
use std::sync::Arc;

use globset::{Glob, GlobSet, GlobSetBuilder};
use pulldown_cmark::{Event, MetadataBlockKind, Options, Parser, Tag};

pub use defused::Defused;
#[allow(unused_imports)]
pub use display_languages::{is_display_language, mermaid_is_inert};
#[allow(unused_imports)]
pub(crate) use inline::{has_image_extension, BREAK};
#[allow(unused_imports)]
pub(crate) use invisible::is_invisible;
pub use source_links::SourceLinks;
#[allow(unused_imports)]
pub(crate) use url::{is_local, never_a_link};

use crate::vault::markdown::parser_options;

/// How many rounds the writing (and the property's plain-text stripping) may take to reach a
/// fixed point (each round deals with what the previous one revealed; real answers need one).
const MAX_ROUNDS: usize = 8;

/// The output policy, with the configured widening of the link allow-list.
#[derive(Debug, Clone, Default)]
pub struct OutputPolicy {
    allow_links: GlobSet,
}

/// A host pattern of `summarize.allow_links` that is not a glob.
#[derive(Debug, thiserror::Error)]
#[error("summarize.allow_links: {pattern:?} is not a host pattern: {reason}")]
pub struct AllowLinksError {
    /// The pattern as configured.
    pub pattern: String,
    /// Why it does not parse.
    pub reason: String,
}

impl OutputPolicy {
    /// The policy with links to hosts matching `allow_links` (globs over the host name,
    /// case-insensitive: `*.wikipedia.org`, `docs.rs`) kept even when their URL is not in the
    /// source. Only `http`/`https` links are widened; nothing turns the policy off.
    pub fn new(allow_links: &[String]) -> Result<OutputPolicy, AllowLinksError> {
        let mut builder = GlobSetBuilder::new();
        for pattern in allow_links {
            let glob =
                Glob::new(&pattern.trim().to_ascii_lowercase()).map_err(|e| AllowLinksError {
                    pattern: pattern.clone(),
                    reason: e.kind().to_string(),
                })?;
            builder.add(glob);
        }
        let allow_links = builder.build().map_err(|e| AllowLinksError {
            pattern: allow_links.join(", "),
            reason: e.to_string(),
        })?;
        Ok(OutputPolicy { allow_links })
    }

    /// A summary (a `## Summary` section, a generated note's body) made inert; `source` is what
    /// was summarized. The text is trimmed and has LF line breaks, as the section will hold it
    /// (the write changes nothing in it but the line breaks of a CRLF note), so what the policy
    /// decided is what the verifier sees (`vault/inert_check.rs`).
    pub fn summary(&self, answer: &str, source: &SourceLinks) -> DefusedText {
        let rule = self.rule(source);
        let mut counts = Defused::default();
        let text = defuse_markdown(answer, &rule, &mut counts);
        DefusedText {
            text,
            defused: counts,
            links: Arc::new(rule),
        }
    }

    /// A value for the summary property: the summary policy, then plain text (no link, image,
    /// HTML or code; Dataview renders field values as Markdown).
    pub fn property(&self, answer: &str, source: &SourceLinks) -> DefusedText {
        let rule = self.rule(source);
        let mut counts = Defused::default();
        // One line: a property is a sentence or three, and without line breaks no reader finds
        // a list, a quote or a code block in it that another does not.
        let (visible, removed) = invisible::remove_invisible(answer);
        counts.invisible += removed;
        let one_line = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut text = one_line(&visible);
        for _ in 0..MAX_ROUNDS {
            let defused = one_line(&defuse_markdown(&text, &rule, &mut counts));
            match property::strip_round(&defused, &mut counts) {
                Some(stripped) => text = stripped,
                None => {
                    text = defused;
                    break;
                }
            }
        }
        DefusedText {
            text,
            defused: counts,
            links: Arc::new(rule),
        }
    }

    fn rule(&self, source: &SourceLinks) -> LinkRule {
        LinkRule {
            source: source.clone(),
            allow: self.allow_links.clone(),
        }
    }
}

/// Text the output policy made inert: the only kind of text the vault's summary writes take.
/// Only [`OutputPolicy`] makes one.
#[derive(Debug, Clone)]
pub struct DefusedText {
    text: String,
    defused: Defused,
    /// Which URLs it may link to, for the verifier of the bytes written.
    links: Arc<LinkRule>,
}

impl PartialEq for DefusedText {
    fn eq(&self, other: &DefusedText) -> bool {
        self.text == other.text && self.defused == other.defused
    }
}

impl Eq for DefusedText {}

impl DefusedText {
    /// The text to write.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// What the policy changed to make it.
    pub fn defused(&self) -> Defused {
        self.defused
    }

    /// Which URLs it may link to (the source's, `summarize.allow_links`).
    pub fn links(&self) -> &LinkRule {
        &self.links
    }

    /// Its length in characters (`summary_length`: what was written).
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }
}

/// Which URLs a summary may link to: those its source named, and hosts of
/// `summarize.allow_links`.
#[derive(Debug, Clone, Default)]
pub struct LinkRule {
    source: SourceLinks,
    allow: GlobSet,
}

impl LinkRule {
    /// Whether the vault file `target` (a local link's destination, an embedded image's
    /// name) was named by the source: only then does a link or an image of it stay.
    pub fn names_local(&self, target: &str) -> bool {
        self.source.names_local(target)
    }

    /// Whether a link to `url` stays a link: never for a scheme that acts by itself; else when
    /// it occurs in the source or its web host matches `summarize.allow_links`.
    pub fn allows(&self, url: &str) -> bool {
        if url::never_a_link(url) {
            return false;
        }
        self.source.contains(url)
            || url::web_host(url).is_some_and(|host| self.allow.is_match(host.as_str()))
            || (url.trim_start().to_ascii_lowercase().starts_with("www.")
                && url::web_host(&format!("https://{}", url.trim()))
                    .is_some_and(|host| self.allow.is_match(host.as_str())))
    }
}

/// The options a summary is parsed with: the project's (`vault/markdown.rs`), without YAML
/// metadata blocks. pulldown-cmark takes a `---` block anywhere in a text for metadata and
/// hides its contents, where Obsidian renders them (a rule, then Markdown); only a block at
/// the start is frontmatter, and `drop_frontmatter` deals with that one.
pub(crate) fn summary_options() -> Options {
    parser_options() - Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The summary rules on `answer`: invisible characters out, a leading `---` block dropped,
/// trimmed with LF line breaks, then the allow-list (`emit.rs`, `inline.rs`); written a second
/// time with every `$` escaped when the text holds a command that is not typesetting.
fn defuse_markdown(answer: &str, rule: &LinkRule, counts: &mut Defused) -> String {
    let (visible, removed) = invisible::remove_invisible(answer);
    counts.invisible += removed;
    let text = visible.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim();
    let dropped = drop_frontmatter(text, counts);
    let text = dropped.as_deref().unwrap_or(text).trim();
    let fence = edits::free_backtick_run(text);
    let mut inline = inline::Inline {
        rule,
        math: math::MathRule { allowed: true },
        fence,
        counts: Defused::default(),
        saw_unsafe_command: false,
    };
    let mut out = emit::emit(text, &mut inline);
    if inline.saw_unsafe_command {
        inline.math.allowed = false;
        inline.counts = Defused::default();
        out = emit::emit(text, &mut inline);
    }
    // Escaping can change where a block ends (a fence-like line in a table row no longer one):
    // written again until nothing changes, so what is written is a fixed point, the same when a
    // rollup takes a summary in again (real answers settle in one pass).
    // A text the first pass left as it was is a fixed point already (the pass is a function of
    // the text): only a changed one is written again.
    if out != text {
        for _ in 0..MAX_ROUNDS {
            let next = emit::emit(&out, &mut inline);
            if next == out {
                break;
            }
            out = next;
        }
    }
    *counts = counts.plus(inline.counts);
    out
}

/// `text` without a leading `---` block (it would be a created note's frontmatter: `tags`,
/// `cssclasses`, plugin settings), a marker in its place; `None` when it has none.
fn drop_frontmatter(text: &str, counts: &mut Defused) -> Option<String> {
    if !text.starts_with("---") {
        return None;
    }
    let mut events = Parser::new_ext(text, parser_options()).into_offset_iter();
    let (Event::Start(Tag::MetadataBlock(MetadataBlockKind::YamlStyle)), block) = events.next()?
    else {
        return None;
    };
    if block.start != 0 {
        return None;
    }
    counts.frontmatter += 1;
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let rest = text[block.end..].trim_start_matches(['\r', '\n']);
    Some(format!(
        "\\[front matter removed\\]{newline}{newline}{rest}"
    ))
}

/// The index of the event that ends the one started at `start` (shared by the rounds).
fn pass_end(events: &[(Event<'_>, Range<usize>)], start: usize) -> usize {
    let mut depth = 0usize;
    for (i, (event, _)) in events.iter().enumerate().skip(start) {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    events.len().saturating_sub(1)
}

// The policy's tests are in vaultsum-core (`vault/output_policy_tests.rs`): they judge the
// policy by what the writer puts on disk and the verifier finds there.
