//! The watcher's own retry of a note whose summary failed for a passing reason.
//!
//! The LLM client already retries each request (429 with `Retry-After`, 5xx, connection errors)
//! within a bounded time. When it gives up, a note that failed for one of those reasons is tried
//! again later by the watcher, a bounded number of times with a doubling delay; any other failure
//! (a note that cannot be read, an empty summary, a 400) waits for the person to edit the note.

use std::sync::OnceLock;
use std::time::Duration;

use regex::Regex;

/// True when the tool's error message says the provider was rate-limiting, overloaded or
/// unreachable (the texts of `LlmError`: `HTTP 429`, `HTTP 5xx`, `timed out`, `cannot reach`).
pub fn is_transient(message: &str) -> bool {
    static TRANSIENT: OnceLock<Regex> = OnceLock::new();
    TRANSIENT
        .get_or_init(|| {
            Regex::new(
                r"(?i)\bHTTP (429|5\d\d)\b|rate.?limit|too many requests|timed out|cannot reach|connection (refused|reset|closed)",
            )
            .expect("valid regex")
        })
        .is_match(message)
}

/// Delay before the watcher's retry number `attempt` (1-based): `base`, then doubled each time.
pub fn backoff(base: Duration, attempt: u32) -> Duration {
    base.saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_server_errors_and_network_failures_are_transient() {
        for message in [
            "LLM request failed with HTTP 429: Too Many Requests (after 4 attempts)",
            "LLM request failed with HTTP 503: overloaded",
            "LLM request timed out after 120s (raise llm.timeout_secs if the model is slow)",
            "cannot reach the LLM at http://127.0.0.1:9/v1: connection refused",
        ] {
            assert!(is_transient(message), "{message}");
        }
    }

    #[test]
    fn permanent_failures_are_not_retried() {
        for message in [
            "LLM request failed with HTTP 400: context length exceeded",
            "LLM request failed with HTTP 401: invalid api key",
            "the summarizer returned an empty summary; the note was not changed",
            "note not found: Inbox/x.md",
        ] {
            assert!(!is_transient(message), "{message}");
        }
    }

    #[test]
    fn backoff_doubles_from_the_base() {
        let base = Duration::from_secs(30);
        assert_eq!(backoff(base, 1), Duration::from_secs(30));
        assert_eq!(backoff(base, 2), Duration::from_secs(60));
        assert_eq!(backoff(base, 3), Duration::from_secs(120));
    }
}
