//! The one error type of the OpenAI-compatible client. Every message is built from redacted
//! text (see [`crate::llm::redact`]), so printing an `LlmError` can never show the API key.

use std::time::Duration;

/// Why a request to the OpenAI-compatible API failed. `Clone`, so that callers that waited on
/// one request (`llm/shared_answer.rs`) each get its error.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LlmError {
    /// No `FIREWORKS_API_KEY` was configured.
    #[error(
        "FIREWORKS_API_KEY is not set: export FIREWORKS_API_KEY=<your Fireworks API key> to use \
         the LLM, or pass --engine offline to use the built-in offline summarizer"
    )]
    MissingApiKey,

    /// The configured base URL cannot be used.
    #[error("invalid LLM base URL {url:?}: {reason} (set FIREWORKS_BASE_URL or llm.base_url)")]
    InvalidBaseUrl {
        /// The URL as configured.
        url: String,
        /// What is wrong with it.
        reason: String,
    },

    /// The server answered with a non-success HTTP status.
    #[error("LLM request failed with HTTP {status}: {message}{}", attempts_suffix(*.attempts))]
    Http {
        /// The HTTP status code, kept as the server sent it.
        status: u16,
        /// A short, redacted excerpt of the server's error message.
        message: String,
        /// Requests made, including retries.
        attempts: u32,
        /// The wait the server asked for in `Retry-After` on the last attempt, if it did: set
        /// when the client gave up, so a caller retrying later can wait at least that long.
        retry_after: Option<Duration>,
    },

    /// No complete answer arrived within the request timeout.
    #[error(
        "LLM request timed out after {secs}s{} (raise llm.timeout_secs if the model is slow)",
        attempts_suffix(*.attempts)
    )]
    Timeout {
        /// The configured per-request timeout.
        secs: u64,
        /// Requests made, including retries.
        attempts: u32,
    },

    /// The server could not be reached, or the connection broke before an answer arrived.
    #[error("cannot reach the LLM at {url}: {message}{}", attempts_suffix(*.attempts))]
    Connect {
        /// The endpoint that was called.
        url: String,
        /// What the network layer reported (redacted).
        message: String,
        /// Requests made, including retries.
        attempts: u32,
    },

    /// A success status with a body that is not a usable reply.
    #[error("the LLM sent a malformed reply: {0}")]
    Malformed(String),

    /// A well-formed reply without any text.
    #[error("the LLM returned an empty reply (finish_reason: {})", .finish_reason.as_deref().unwrap_or("none"))]
    EmptyReply {
        /// The `finish_reason` the server gave, e.g. `length` when max_tokens ran out.
        finish_reason: Option<String>,
    },

    /// The answer stopped at the output cap (`finish_reason: length`): it is not used, since a
    /// cut summary (or one a model looped in until the cap) would be written as if it were whole.
    #[error(
        "the LLM's answer was cut off at the output cap of {cap} tokens (finish_reason: length); \
         nothing was written (raise llm.max_output_tokens if the model needs more)"
    )]
    CutOff {
        /// The cap the request carried (`llm.max_output_tokens`, or the caller's own).
        cap: u32,
    },

    /// A streamed answer ended (`[DONE]`) without a `finish_reason`: the server cut it short.
    /// llama-cpp-python's server does so to a streamed answer as soon as another request waits
    /// for its one slot (`interrupt_requests`, on by default). Retried; a local server is then
    /// sent one request at a time.
    #[error(
        "the LLM server ended its answer before finishing it (no finish_reason after {pieces} \
         pieces): it was cut short, likely to serve another request"
    )]
    Interrupted {
        /// Chunks of answer that had arrived.
        pieces: u64,
    },

    /// The request could not be built (a bug or an unusable input, not a server problem).
    #[error("cannot build the LLM request: {0}")]
    Request(String),
}

fn attempts_suffix(attempts: u32) -> String {
    if attempts > 1 {
        format!(" (after {attempts} attempts)")
    } else {
        String::new()
    }
}

impl LlmError {
    /// The HTTP status the server answered with, when there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            LlmError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether trying again later may succeed: rate limits, server errors and network failures.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Http { status, .. } => *status == 429 || (500..600).contains(status),
            LlmError::Connect { .. } | LlmError::Interrupted { .. } => true,
            _ => false,
        }
    }

    /// The wait the server asked for (`Retry-After`) on the last attempt before the client gave
    /// up, when it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Requests made before giving up (1 for errors that happen before any request).
    pub fn attempts(&self) -> u32 {
        match self {
            LlmError::Http { attempts, .. }
            | LlmError::Timeout { attempts, .. }
            | LlmError::Connect { attempts, .. } => *attempts,
            _ => 1,
        }
    }

    pub fn with_attempts(mut self, n: u32) -> LlmError {
        if let LlmError::Http { attempts, .. }
        | LlmError::Timeout { attempts, .. }
        | LlmError::Connect { attempts, .. } = &mut self
        {
            *attempts = n;
        }
        self
    }

    pub fn with_retry_after(mut self, wait: Option<Duration>) -> LlmError {
        if let LlmError::Http { retry_after, .. } = &mut self {
            *retry_after = wait;
        }
        self
    }
}
