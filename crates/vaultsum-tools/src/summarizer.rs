//! The engines behind `summarize_file` and `summarize-text`: the OpenAI-compatible LLM with the
//! chosen instructions (`instructions.rs`), or the built-in offline extractive summarizer.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::config::{Engine, FactCheckMode, LlmConfig};
use crate::fact_check::{self, FactCheckRun};
use crate::instructions::Instructions;
use crate::llm::local;
use crate::llm::{ChatClient, LlmError};
use crate::summary::llm_request;
use crate::summary::offline::{self, OfflineRequest, ABSTRACT_SENTENCES};

/// What to summarize.
#[derive(Debug, Clone)]
pub struct SummaryRequest<'a> {
    /// Where the text comes from (a vault path, or `stdin`), shown to the model.
    pub path: &'a str,
    /// The (expanded) note, already cut to the configured maximum.
    pub content: &'a str,
    /// What to emphasise.
    pub focus: Option<&'a str>,
    /// Set when `content` was cut: the full length in characters, so the model is told.
    pub truncated_from: Option<usize>,
    /// Fixed number of key sentences (offline engine only).
    pub sentences: Option<usize>,
    /// The prompt and language (`instructions.rs`); the offline engine follows only `brief`.
    pub instructions: &'a Instructions,
    /// Also ask for a one-to-three-sentence abstract (for the summary property), in the same
    /// call: see [`ABSTRACT_INSTRUCTION`].
    pub with_abstract: bool,
    /// What is done with facts of the answer `content` does not hold (`fact_check.rs`).
    pub fact_check: FactCheckMode,
}

pub use crate::summary::llm_request::{split_abstract, ABSTRACT_INSTRUCTION};

/// `system` with [`ABSTRACT_INSTRUCTION`] when `request` wants an abstract.
pub fn instructions_for(system: &str, request: &SummaryRequest<'_>) -> String {
    llm_request::instructions_for(system, request.with_abstract)
}

/// Why no summary could be produced.
#[derive(Debug, thiserror::Error)]
pub enum SummarizeError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// The offline engine found no prose, table or open task to summarize.
    #[error("{}", offline::NOTHING_TO_SUMMARIZE)]
    NothingToSummarize,
    /// The model's window cannot hold the summary prompt and a useful part of the note.
    #[error("the model's context window ({window} tokens) is too small to summarize in parts; set llm.context_tokens if the server reported it wrong, or use a model with a larger window")]
    WindowTooSmall { window: u64 },
    /// The offline engine's task ended without an answer (the runtime is shutting down).
    #[error("the offline summarizer was interrupted: {0}")]
    Interrupted(String),
}

/// A generated summary with metadata for `details`.
#[derive(Debug, Clone)]
pub struct SummaryText {
    pub text: String,
    pub details: Value,
    /// The abstract, when the request asked for one ([`SummaryRequest::with_abstract`]).
    pub abstract_text: Option<String>,
    /// The fact check of the answer, and its retry (`None` with `fact_check = off`); the
    /// writer finishes it on what it writes ([`fact_check::finish`]).
    pub fact_check: Option<FactCheckRun>,
}

/// One of the two engines.
#[derive(Debug, Clone)]
pub enum Summarizer {
    /// The chat API; `client` is `None` when no key is configured (an error at call time).
    Llm {
        client: Option<Arc<ChatClient>>,
        model: String,
        /// `llm.context_tokens`: the model's window when the person set it.
        context_tokens: Option<u64>,
    },
    /// The offline extractive summarizer.
    Local,
}

impl Summarizer {
    /// The engine that `engine` selects; `auto` picks `llm` when a client (an API key) exists.
    pub fn for_engine(
        engine: Engine,
        client: Option<Arc<ChatClient>>,
        config: &LlmConfig,
    ) -> Summarizer {
        match engine {
            Engine::Offline => Summarizer::Local,
            Engine::Auto if client.is_none() => Summarizer::Local,
            Engine::Llm | Engine::Auto => Summarizer::llm(client, config),
        }
    }

    /// The LLM engine with the configured summarize model.
    pub fn llm(client: Option<Arc<ChatClient>>, config: &LlmConfig) -> Summarizer {
        Summarizer::Llm {
            client,
            context_tokens: config.context_tokens,
            model: config.summarize_model.clone(),
        }
    }

    /// Produces the summary text (not yet cleaned of a stray heading).
    pub async fn summarize(
        &self,
        request: &SummaryRequest<'_>,
    ) -> Result<SummaryText, SummarizeError> {
        match self {
            Summarizer::Local => {
                let offline = OfflineRequest {
                    path: request.path.to_string(),
                    content: request.content.to_string(),
                    sentences: request
                        .sentences
                        .or_else(|| request.instructions.offline_sentences()),
                    focus: request.focus.map(str::to_string),
                    cite_sections: request.instructions.cite_sections,
                    with_abstract: request.with_abstract,
                    fact_check: (request.fact_check != FactCheckMode::Off)
                        .then(|| request.fact_check.name()),
                };
                // The ranking is CPU work proportional to the note: on the blocking pool, so
                // a long note never stalls the async workers other calls run on.
                let answer = tokio::task::spawn_blocking(move || offline::answer(&offline))
                    .await
                    .map_err(|e| SummarizeError::Interrupted(e.to_string()))?
                    .ok_or(SummarizeError::NothingToSummarize)?;
                Ok(SummaryText {
                    text: answer.text,
                    details: json!({ "engine": "offline" }),
                    abstract_text: answer.abstract_text,
                    fact_check: answer.fact_check,
                })
            }
            Summarizer::Llm {
                client,
                model,
                context_tokens,
            } => {
                let client = client.as_ref().ok_or(LlmError::MissingApiKey)?;
                let mut summary =
                    crate::windowed::summarize(client, model, *context_tokens, request).await?;
                // Checked with its abstract, before the two are parted: one corrective request
                // covers both.
                summary.fact_check =
                    fact_check::check_and_retry(Some((client, model)), request, &mut summary).await;
                if request.with_abstract {
                    let (text, abstract_text) = split_abstract(&summary.text);
                    // A model that left the abstract out: the summary's best sentences.
                    summary.abstract_text = abstract_text.or_else(|| {
                        Some(local::abstract_of(&text, ABSTRACT_SENTENCES))
                            .filter(|text| !text.is_empty())
                    });
                    summary.text = text;
                }
                Ok(summary)
            }
        }
    }
}

/// The user message of `request` (the engine's `summary::llm_request::user_message`).
pub fn user_message(request: &SummaryRequest<'_>) -> String {
    llm_request::user_message(
        request.path,
        request.content,
        request.focus,
        request.truncated_from,
    )
}
