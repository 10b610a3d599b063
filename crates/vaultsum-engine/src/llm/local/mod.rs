//! The built-in offline extractive summarizer (engine `offline`, formerly `local`).
//!
//! No network, no model: the summary is made of the note's own sentences, chosen by
//! [`rank::select`], plus its tables and open tasks. Pure, synchronous and deterministic: the
//! same note and options always give the same summary.

pub mod document;
pub mod rank;
pub mod render;
pub mod sentences;
pub mod tokenize;

pub use document::{parse, Document};
pub use rank::Weights;
pub use sentences::split_sentences;

/// How to summarize.
#[derive(Debug, Clone, Default)]
pub struct LocalOptions {
    /// Exactly this many key points (fewer if the note has fewer sentences). `None`: the length
    /// scales with the note, see [`default_sentence_count`].
    pub sentences: Option<usize>,
    /// Terms to favour: sentences that mention them rank higher.
    pub focus: Option<String>,
    /// End each key point with a link to its section (`([[#Risks]])`), where it has one.
    pub cite_sections: bool,
}

/// A local summary and what went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSummary {
    /// The summary markdown; empty when the note has no prose, tables or open tasks.
    pub markdown: String,
    /// Sentences chosen as key points.
    pub key_points: usize,
    /// Tables carried over.
    pub tables: usize,
    /// Open tasks listed under Action Items.
    pub action_items: usize,
    /// Sentences the note offered.
    pub candidate_sentences: usize,
}

impl LocalSummary {
    /// Whether there was nothing to summarize.
    pub fn is_empty(&self) -> bool {
        self.markdown.trim().is_empty()
    }
}

/// Summarizes `markdown` (a note, possibly with embeds already expanded).
pub fn summarize(markdown: &str, options: &LocalOptions) -> LocalSummary {
    summarize_with(markdown, options, &Weights::default())
}

/// [`summarize`] with explicit ranking weights (for evaluation and tuning).
pub fn summarize_with(markdown: &str, options: &LocalOptions, weights: &Weights) -> LocalSummary {
    let doc = parse(markdown);
    let count = options
        .sentences
        .unwrap_or_else(|| default_sentence_count(doc.sentences.len()));
    let chosen = rank::select(&doc, count, options.focus.as_deref().unwrap_or(""), weights);
    let rendered = render::render(&doc, &chosen, options.cite_sections);
    LocalSummary {
        markdown: rendered.markdown,
        key_points: chosen.len(),
        tables: rendered.tables,
        action_items: rendered.action_items,
        candidate_sentences: doc.sentences.len(),
    }
}

/// A short abstract of `markdown`: its `sentences` best sentences (by the same ranking as the
/// summary's key points) in note order, as one line of plain text; empty when it has no prose.
pub fn abstract_of(markdown: &str, sentences: usize) -> String {
    let doc = parse(markdown);
    let chosen = rank::select(&doc, sentences, "", &Weights::default());
    let text: Vec<&str> = chosen
        .iter()
        .map(|&i| doc.sentences[i].text.trim())
        .filter(|s| !s.is_empty())
        .collect();
    text.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Key points for a note of `sentences` sentences: about the square root, so a short note gets
/// 2–3 and a long one up to 12; never more than the note has.
pub fn default_sentence_count(sentences: usize) -> usize {
    let scaled = (sentences as f64).sqrt().round() as usize;
    scaled.clamp(3, 12).min(sentences)
}
