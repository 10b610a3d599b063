//! Summarizing text that is not a vault note (`vaultsum summarize-text` reads it from stdin).
//!
//! The engine is chosen as for `summarize_file`: `--engine` or the configured engine; `auto`
//! means `llm` when an API key is configured and `local` otherwise.

use super::summarize_file::clean_summary;
use super::summarizer::{SummarizeError, Summarizer, SummaryRequest};
use crate::config::{Config, Engine};
use crate::llm::{ChatClient, LlmError};

/// What to summarize with.
#[derive(Debug, Clone, Default)]
pub struct SummarizeTextRequest {
    /// Overrides the configured engine (`summarize.engine`, `VAULTSUM_ENGINE`).
    pub engine: Option<Engine>,
    /// Number of key points for the local engine; `None` scales with the text.
    pub sentences: Option<usize>,
    /// What to emphasise.
    pub focus: Option<String>,
}

/// A finished summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummarizeTextResult {
    /// The summary markdown (no top-level heading, no trailing newline).
    pub summary: String,
    /// The engine that actually ran (`llm` or `local`, never `auto`).
    pub engine: Engine,
    /// True when `auto` chose `local` because no API key is configured; front ends say so once.
    pub fell_back_to_local: bool,
}

/// Why a text could not be summarized.
#[derive(Debug, thiserror::Error)]
pub enum SummarizeTextError {
    /// The input was empty or only white space.
    #[error("no text to summarize: the input is empty")]
    EmptyInput,
    /// The engine produced nothing (only code, frontmatter or comments; or an empty LLM reply).
    #[error("nothing to summarize: the text has no prose, tables or open tasks outside code, frontmatter and comments")]
    NothingToSummarize,
    /// The LLM engine failed (no key, HTTP error, timeout, …).
    #[error(transparent)]
    Llm(#[from] LlmError),
}

/// Summarizes `text` with the engine the request and configuration select, through the same
/// [`Summarizer`] and prompt as `summarize_file`.
pub async fn summarize_text(
    config: &Config,
    text: &str,
    request: &SummarizeTextRequest,
) -> Result<SummarizeTextResult, SummarizeTextError> {
    if text.trim().is_empty() {
        return Err(SummarizeTextError::EmptyInput);
    }
    let requested = request.engine.unwrap_or(config.summarize.engine);
    let client = match requested {
        Engine::Local => None,
        Engine::Auto | Engine::Llm => ChatClient::from_config_if_keyed(&config.llm)?,
    };
    let fell_back_to_local = requested == Engine::Auto && client.is_none();
    let summarizer = Summarizer::for_engine(requested, client, &config.llm);
    let engine = match summarizer {
        Summarizer::Local => Engine::Local,
        Summarizer::Llm { .. } => Engine::Llm,
    };
    let max_chars = config.summarize.max_chars;
    let total_chars = text.chars().count();
    let content: String = text.chars().take(max_chars).collect();
    let summary_request = SummaryRequest {
        path: "stdin",
        content: &content,
        focus: request.focus.as_deref().filter(|f| !f.trim().is_empty()),
        truncated_from: (total_chars > max_chars).then_some(total_chars),
        sentences: request.sentences,
    };
    let generated = summarizer
        .summarize(&summary_request)
        .await
        .map_err(|e| match e {
            SummarizeError::Llm(e) => SummarizeTextError::Llm(e),
            SummarizeError::NothingToSummarize => SummarizeTextError::NothingToSummarize,
        })?;
    let summary = clean_summary(&generated.text).ok_or(SummarizeTextError::NothingToSummarize)?;
    Ok(SummarizeTextResult {
        summary,
        engine,
        fell_back_to_local,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Env;

    fn config(pairs: &[(&str, &str)]) -> Config {
        Config::load(None, &Env::from_pairs(pairs.iter().copied())).unwrap()
    }

    fn run(
        config: &Config,
        text: &str,
        request: SummarizeTextRequest,
    ) -> Result<SummarizeTextResult, SummarizeTextError> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(summarize_text(config, text, &request))
    }

    #[test]
    fn auto_without_key_falls_back_to_local_and_says_so() {
        let result = run(
            &config(&[("VAULTSUM_CONFIG", "/dev/null")]),
            "Rust is fast. It is also safe.",
            SummarizeTextRequest::default(),
        )
        .unwrap();
        assert_eq!(result.engine, Engine::Local);
        assert!(result.fell_back_to_local);
        assert!(result.summary.contains("Rust is fast."));
    }

    #[test]
    fn explicit_local_is_not_reported_as_a_fallback() {
        let request = SummarizeTextRequest {
            engine: Some(Engine::Local),
            ..Default::default()
        };
        let result = run(
            &config(&[("FIREWORKS_API_KEY", "k")]),
            "Rust is fast.",
            request,
        )
        .unwrap();
        assert!(!result.fell_back_to_local);
    }

    #[test]
    fn auto_with_key_picks_llm_and_reports_its_failure() {
        // Port 9 (discard) on loopback refuses connections: the llm engine was chosen and ran.
        let err = run(
            &config(&[
                ("FIREWORKS_API_KEY", "k"),
                ("FIREWORKS_BASE_URL", "http://127.0.0.1:9/v1"),
            ]),
            "Rust is fast.",
            SummarizeTextRequest::default(),
        )
        .unwrap_err();
        assert!(matches!(err, SummarizeTextError::Llm(_)), "{err:?}");
    }

    #[test]
    fn whitespace_only_input_is_empty() {
        let err = run(&config(&[]), " \n\t\n", SummarizeTextRequest::default()).unwrap_err();
        assert!(matches!(err, SummarizeTextError::EmptyInput));
    }

    #[test]
    fn code_only_input_has_nothing_to_summarize() {
        let request = SummarizeTextRequest {
            engine: Some(Engine::Local),
            ..Default::default()
        };
        let err = run(&config(&[]), "```rust\nfn main() {}\n```\n", request).unwrap_err();
        assert!(matches!(err, SummarizeTextError::NothingToSummarize));
    }
}
