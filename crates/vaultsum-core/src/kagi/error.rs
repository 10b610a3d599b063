//! Everything that can go wrong talking to Kagi, worded for the model that reads it.

use std::fmt;

/// Which Kagi endpoint a failure concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `GET /search`.
    Search,
    /// `POST /summarize`.
    Summarize,
    /// The free reachability check (`GET /summarize` without a URL; see `kagi/ping.rs`).
    Ping,
}

impl Operation {
    /// The feature name used in the missing-key message (`… to use web search.`).
    pub fn feature(self) -> &'static str {
        match self {
            Operation::Search => "web search",
            Operation::Summarize => "summarize",
            Operation::Ping => "the Kagi check",
        }
    }

    /// The config key of this endpoint's timeout.
    pub fn timeout_setting(self) -> &'static str {
        match self {
            Operation::Search => "kagi.search_timeout_secs",
            Operation::Summarize => "kagi.summarize_timeout_secs",
            // The check never reports a timeout as such (see `kagi/ping.rs`); its limit is
            // the caller's.
            Operation::Ping => "the check's timeout",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operation::Search => "search",
            Operation::Summarize => "summarizer",
            Operation::Ping => "reachability check",
        })
    }
}

/// A failed Kagi request. No variant ever carries the API key.
#[derive(Debug, thiserror::Error)]
pub enum KagiError {
    /// `KAGI_API_KEY` is unset or blank at call time.
    #[error(
        "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use {}.",
        .operation.feature()
    )]
    MissingKey { operation: Operation },

    /// Kagi answered with a non-2xx status; `message` is Kagi's `error[].msg` (or the body).
    #[error("Kagi {operation} request failed: HTTP {status}: {message}")]
    Http {
        operation: Operation,
        /// Status code and reason, e.g. `401 Unauthorized`.
        status: String,
        message: String,
    },

    /// Kagi answered 2xx but reported errors (or no data) in the envelope.
    #[error("Kagi {operation} request failed: {message}")]
    Api {
        operation: Operation,
        message: String,
    },

    /// No answer within the configured time.
    #[error(
        "Kagi {operation} request timed out after {secs} s (raise {} in the config file to wait longer)",
        .operation.timeout_setting()
    )]
    Timeout {
        operation: Operation,
        /// The limit that was reached, in seconds.
        secs: f64,
    },

    /// The request never got an HTTP answer: DNS, connection refused, TLS, reset.
    #[error("Kagi {operation} request to {url} failed: {reason}")]
    Network {
        operation: Operation,
        url: String,
        reason: String,
    },

    /// The answer was not the JSON envelope Kagi documents.
    #[error("Kagi {operation} returned a response that could not be read: {reason}")]
    Decode {
        operation: Operation,
        reason: String,
    },

    /// The request could not even be built (bad base URL, HTTP client failed to start).
    #[error("cannot send the Kagi {operation} request: {reason}")]
    Setup {
        operation: Operation,
        reason: String,
    },
}

impl KagiError {
    /// A short machine-readable kind for `details.error`.
    pub fn kind(&self) -> &'static str {
        match self {
            KagiError::MissingKey { .. } => "missing_api_key",
            KagiError::Http { .. } => "http_status",
            KagiError::Api { .. } => "api_error",
            KagiError::Timeout { .. } => "timeout",
            KagiError::Network { .. } => "network",
            KagiError::Decode { .. } => "bad_response",
            KagiError::Setup { .. } => "setup",
        }
    }
}
