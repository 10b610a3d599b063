//! Why an image could not be described or an audio file not transcribed.

use crate::llm::LlmError;
use vaultsum_engine::media::refusal::MediaRefusal;

/// A media failure, naming the file. Callers turn it into an inline marker or placeholder.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// No API key is configured, so there is no model to ask.
    #[error("cannot {action} {file_name}: no LLM is configured (set FIREWORKS_API_KEY)")]
    NotConfigured {
        /// The file as the note names it.
        file_name: String,
        /// `describe` or `transcribe`.
        action: &'static str,
    },

    /// Refused before any request: its type, an empty file, a file over the limit.
    #[error(transparent)]
    Refused(#[from] MediaRefusal),

    /// The model call failed.
    #[error("cannot {action} {file_name}: {source}")]
    Llm {
        /// The file as the note names it.
        file_name: String,
        /// `describe` or `transcribe`.
        action: &'static str,
        /// The client's error (status, excerpt, attempts).
        #[source]
        source: LlmError,
    },

    /// A document (PDF, office file, CSV/TSV) could not be extracted.
    #[error(transparent)]
    Document(#[from] crate::media::document::DocumentFileError),

    /// The same work, done at this moment for another caller in this process (single flight),
    /// failed: its message.
    #[error("{0}")]
    SharedFailure(String),

    /// Work on the blocking pool ended without an answer (the runtime is shutting down).
    #[error("interrupted: {0}")]
    Interrupted(String),
}
