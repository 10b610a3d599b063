//! A summary on its way into a note, from the model's answer (or the offline engine's) to
//! the text written: what a note gives the model (its expansion cut to `summarize.max_chars`)
//! and what comes back (cleaned, facts marked, made inert by the output policy). The native
//! `summarize_file` and the app's engine both go through here, so they write the same bytes.

use super::clean::clean_summary;
use super::fact_marks::{finish_linking, Checked, FactCheckRun, FactReport};
use crate::vault::output_policy::{DefusedText, OutputPolicy, SourceLinks};

/// What the model is given of a note: at most `max_chars` characters of its expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelInput {
    /// The text sent.
    pub content: String,
    /// Characters of the whole expansion.
    pub total_chars: usize,
    /// Whether `content` is cut.
    pub truncated: bool,
}

impl ModelInput {
    /// The first `max_chars` characters of `expanded`.
    pub fn of(expanded: &str, max_chars: usize) -> ModelInput {
        let total_chars = expanded.chars().count();
        let truncated = total_chars > max_chars;
        let content = if truncated {
            expanded.chars().take(max_chars).collect()
        } else {
            expanded.to_string()
        };
        ModelInput {
            content,
            total_chars,
            truncated,
        }
    }
}

/// Why an answer gives nothing to write (the note is left as it was).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NothingToWrite {
    #[error("the summarizer returned an empty summary; the note was not changed")]
    Empty,
    #[error("the summarizer gave no abstract for the summary property; the note was not changed")]
    NoAbstract,
}

/// What is written: the section's body and the property's abstract as the policy let them
/// in, and what the fact check found in them.
#[derive(Debug, Clone)]
pub struct ToWrite {
    pub summary: DefusedText,
    pub abstract_text: Option<DefusedText>,
    /// `None` when the check is off.
    pub report: Option<FactReport>,
}

/// The answer made what is written: cleaned ([`clean_summary`]), an abstract required when
/// `with_abstract`, facts the note does not hold unlinked or marked ([`finish_linking`]: a
/// wikilink only where `expanded` names it), then made
/// inert by `policy`, its links allowed where `expanded` (the note with everything it embeds,
/// what was summarized, without a model's reading of its pictures and recordings:
/// `Expansion::named`) points.
pub fn to_write(
    answer: &str,
    abstract_text: Option<String>,
    run: Option<&FactCheckRun>,
    with_abstract: bool,
    expanded: &str,
    policy: &OutputPolicy,
) -> Result<ToWrite, NothingToWrite> {
    let summary = clean_summary(answer).ok_or(NothingToWrite::Empty)?;
    if with_abstract && abstract_text.is_none() {
        return Err(NothingToWrite::NoAbstract);
    }
    // What the note does not hold is unlinked or marked before the policy sees the text.
    let Checked {
        summary,
        abstract_text,
        report,
    } = finish_linking(run, summary, abstract_text, Some(expanded));
    let source = SourceLinks::from_text(expanded);
    Ok(ToWrite {
        summary: policy.summary(&summary, &source),
        abstract_text: abstract_text.map(|text| policy.property(&text, &source)),
        report,
    })
}
