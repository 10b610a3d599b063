//! The offline engine's answer for a note, as `summarize_file` takes it: the key points, the
//! abstract when the summary property is written, and the first fact check (extractive, so
//! nothing to retry; checked all the same, as every summary is).

use super::fact_marks::FactCheckRun;
use crate::llm::local::{self, LocalOptions};

/// Why the offline engine gives no summary (the binary's error text too).
pub const NOTHING_TO_SUMMARIZE: &str = "nothing to summarize: the text has no prose, tables or \
open tasks outside code, frontmatter and comments";

/// Sentences in an abstract for the summary property (the offline engine's, and the fallback
/// when a model leaves its abstract out).
pub const ABSTRACT_SENTENCES: usize = 2;

/// What the offline engine is asked.
#[derive(Debug, Clone)]
pub struct OfflineRequest {
    /// The note's vault-relative path (the fact check reads it as part of the source).
    pub path: String,
    /// The text summarized: the note as expanded, cut to `summarize.max_chars`.
    pub content: String,
    /// Key points wanted; `None` for the length that scales with the note.
    pub sentences: Option<usize>,
    /// The person's focus, if any.
    pub focus: Option<String>,
    /// Whether each point links the section it comes from.
    pub cite_sections: bool,
    /// Whether an abstract is made too (the summary property is written).
    pub with_abstract: bool,
    /// The fact check's mode name (`retry`, `mark`), or `None` when it is off.
    pub fact_check: Option<&'static str>,
}

/// The offline engine's answer.
#[derive(Debug, Clone)]
pub struct OfflineAnswer {
    /// The key points (Markdown), before cleaning.
    pub text: String,
    /// The abstract, when asked and the note has sentences for one.
    pub abstract_text: Option<String>,
    /// The first fact check, unless it is off.
    pub fact_check: Option<FactCheckRun>,
}

/// The answer for `request`, or `None` when the note has nothing to summarize.
pub fn answer(request: &OfflineRequest) -> Option<OfflineAnswer> {
    let options = LocalOptions {
        sentences: request.sentences,
        focus: request.focus.clone(),
        cite_sections: request.cite_sections,
    };
    let summary = local::summarize(&request.content, &options);
    if summary.is_empty() {
        return None;
    }
    // The abstract is the note's best sentences, ranked as the key points are.
    let abstract_text = request
        .with_abstract
        .then(|| local::abstract_of(&request.content, ABSTRACT_SENTENCES))
        .filter(|text| !text.is_empty());
    let mut text = summary.markdown;
    let fact_check = request
        .fact_check
        .map(|mode| FactCheckRun::first(mode, &request.path, &request.content, &mut text).0);
    Some(OfflineAnswer {
        text,
        abstract_text,
        fact_check,
    })
}
