//! Which failures are worth retrying later: a failed step of a tool keeps, beside its message,
//! the [`RetryHint`] decided here from the typed errors of the layers below, one `From` per
//! error type, so no caller ever guesses from the wording of a message (a note named
//! `rate limit ideas.md` says nothing about rate limits).
//!
//! | failure | retry later? |
//! |---|---|
//! | LLM 429, 5xx, connection failure (after the client's own retries) | yes, after the server's `Retry-After` when it gave one |
//! | note busy (it changed while the summary was being written) | yes |
//! | LLM timeout | no: see [`llm_retry`] |
//! | 400, 401, other statuses, no API key, bad URL, malformed or empty reply | no |
//! | vault errors (not found, outside the vault, read-only, too large, …), empty summary | no |
//! | interrupted (the process is shutting down) | no: the caller is stopping too |

use crate::instructions::InstructionsError;
use serde_json::{json, Value};

use crate::context::ContextError;
use crate::llm::LlmError;
use crate::summarizer::SummarizeError;
use crate::tool::RetryHint;
use crate::vault::VaultError;

/// A failed step: what to tell the model and people, and whether the same call may succeed
/// later.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The error message, saying what failed and what to do.
    pub message: String,
    /// `Some` when trying the same call again later may succeed.
    pub retry: Option<RetryHint>,
    /// A stable name of what failed, for programs that word it themselves (the Obsidian
    /// plugin): `note_busy`, `not_found`, `no_api_key`, `llm_unavailable`, `llm_timeout`, `llm_failed`,
    /// `vault`, `no_vault`, `interrupted`, `nothing_to_summarize`, `window_too_small`,
    /// `invalid_instructions`, `failed`. Sent as `details.code`.
    pub code: &'static str,
}

impl Failure {
    /// A failure the same call would only repeat.
    pub fn permanent(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            retry: None,
            code: "failed",
        }
    }

    /// The same failure under another code.
    pub(crate) fn coded(mut self, code: &'static str) -> Failure {
        self.code = code;
        self
    }

    /// The `details` fields that say so, for people and MCP clients: `retryable`, and
    /// `retry_after_secs` when the provider said how long to wait; and the failure's `code`.
    pub fn retry_details(&self) -> Value {
        let mut details = match self.retry {
            Some(RetryHint::Later { after: Some(after) }) => {
                json!({ "retryable": true, "retry_after_secs": after.as_secs_f64() })
            }
            Some(RetryHint::Later { after: None }) => json!({ "retryable": true }),
            None => json!({ "retryable": false }),
        };
        details["code"] = json!(self.code);
        details
    }
}

/// Whether an LLM failure is worth retrying later.
///
/// The client has already retried what it retries (429, 5xx, connection failures) within
/// `llm.max_attempts` and `llm.max_retry_secs`; when it gives up on one of those, the provider
/// may well be back later, so a later call is worthwhile, no earlier than the `Retry-After` of
/// the last attempt.
///
/// A timeout is not retried, by the client nor later: the model did not finish *this* note
/// within `llm.timeout_secs`, which a later call with the same note is as likely to repeat
/// (a long note is slow every time), each try may be billed for what the model generated
/// before it was cut off, and the fix (a larger `llm.timeout_secs`, which the message names)
/// is the person's to make.
pub fn llm_retry(error: &LlmError) -> Option<RetryHint> {
    match error {
        LlmError::Timeout { .. } => None,
        _ if error.is_retryable() => Some(RetryHint::Later {
            after: error.retry_after(),
        }),
        _ => None,
    }
}

/// Whether a vault failure is worth retrying later: only a note that was busy (another program
/// kept saving it while the summary was being written). Everything else (not found, outside
/// the vault, read-only, too large, an I/O error) needs the person.
pub fn vault_retry(error: &VaultError) -> Option<RetryHint> {
    match error {
        VaultError::Busy(_) | VaultError::Held(_) => Some(RetryHint::Later { after: None }),
        _ => None,
    }
}

impl From<LlmError> for Failure {
    fn from(error: LlmError) -> Failure {
        let retry = llm_retry(&error);
        let code = match error {
            LlmError::MissingApiKey => "no_api_key",
            LlmError::Timeout { .. } => "llm_timeout",
            _ if retry.is_some() => "llm_unavailable",
            _ => "llm_failed",
        };
        Failure {
            retry,
            message: error.to_string(),
            code,
        }
    }
}

impl From<VaultError> for Failure {
    fn from(error: VaultError) -> Failure {
        let code = match error {
            VaultError::Busy(_) | VaultError::Held(_) => "note_busy",
            VaultError::NotFound(_) => "not_found",
            _ => "vault",
        };
        Failure {
            retry: vault_retry(&error),
            message: error.to_string(),
            code,
        }
    }
}

impl From<ContextError> for Failure {
    fn from(error: ContextError) -> Failure {
        match error {
            ContextError::Vault(error) => error.into(),
            ContextError::Llm(error) => error.into(),
            // Interrupted: the process is shutting down; the caller is stopping too, and a new
            // run finds the note as it was.
            ContextError::NoVault => Failure::permanent(error.to_string()).coded("no_vault"),
            ContextError::Interrupted(_) => {
                Failure::permanent(error.to_string()).coded("interrupted")
            }
        }
    }
}

impl From<SummarizeError> for Failure {
    fn from(error: SummarizeError) -> Failure {
        match error {
            SummarizeError::Llm(error) => error.into(),
            SummarizeError::NothingToSummarize => {
                Failure::permanent(error.to_string()).coded("nothing_to_summarize")
            }
            SummarizeError::Interrupted(_) => {
                Failure::permanent(error.to_string()).coded("interrupted")
            }
            SummarizeError::WindowTooSmall { .. } => {
                Failure::permanent(error.to_string()).coded("window_too_small")
            }
        }
    }
}

/// A message without a typed cause (an empty summary, bad arguments): never retried.
impl From<InstructionsError> for Failure {
    fn from(error: InstructionsError) -> Failure {
        match error {
            InstructionsError::Context(error) => error.into(),
            // A wrong prompt or language stays wrong until someone fixes it.
            error => Failure::permanent(error.to_string()).coded("invalid_instructions"),
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::permanent(message)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn http(status: u16, retry_after: Option<Duration>) -> LlmError {
        LlmError::Http {
            status,
            message: "from the server".into(),
            attempts: 4,
            retry_after,
        }
    }

    const LATER: Option<RetryHint> = Some(RetryHint::Later { after: None });

    #[test]
    fn rate_limits_server_errors_and_connection_failures_are_retried_later() {
        for status in [429, 500, 502, 503, 504] {
            assert_eq!(Failure::from(http(status, None)).retry, LATER, "{status}");
        }
        let refused = LlmError::Connect {
            url: "http://127.0.0.1:9/v1".into(),
            message: "connection refused".into(),
            attempts: 4,
        };
        assert_eq!(Failure::from(refused).retry, LATER);
    }

    #[test]
    fn retry_after_from_the_provider_travels_with_the_hint() {
        let failure = Failure::from(http(429, Some(Duration::from_secs(42))));
        assert_eq!(
            failure.retry,
            Some(RetryHint::Later {
                after: Some(Duration::from_secs(42))
            })
        );
        assert_eq!(
            failure.retry_details(),
            json!({ "retryable": true, "retry_after_secs": 42.0, "code": "llm_unavailable" })
        );
    }

    #[test]
    fn timeouts_are_not_retried() {
        let timeout = LlmError::Timeout {
            secs: 120,
            attempts: 1,
        };
        assert_eq!(Failure::from(timeout).retry, None);
    }

    #[test]
    fn requests_the_server_refused_and_unusable_replies_are_never_retried() {
        for error in [
            http(400, None),
            http(401, None),
            http(404, None),
            http(413, None),
            LlmError::MissingApiKey,
            LlmError::Malformed("not JSON".into()),
            LlmError::EmptyReply {
                finish_reason: Some("length".into()),
            },
            LlmError::Request("bad".into()),
        ] {
            let text = error.to_string();
            assert_eq!(Failure::from(error).retry, None, "{text}");
        }
    }

    #[test]
    fn a_busy_note_is_retried_later_other_vault_errors_never() {
        let busy = ContextError::Vault(VaultError::Busy("Inbox/x.md".into()));
        assert_eq!(Failure::from(busy).retry, LATER);
        let held = ContextError::Vault(VaultError::Held("Inbox/x.md".into()));
        assert_eq!(Failure::from(held).retry, LATER);
        for error in [
            VaultError::NotFound("rate limit ideas.md".into()),
            VaultError::ReadOnly("Inbox/x.md".into()),
            VaultError::EmptySummary("Inbox/x.md".into()),
            VaultError::Escapes("../x.md".into()),
        ] {
            let text = error.to_string();
            assert_eq!(Failure::from(error).retry, None, "{text}");
        }
        assert_eq!(Failure::from(ContextError::NoVault).retry, None);
    }

    #[test]
    fn the_wording_of_a_message_decides_nothing() {
        let failure = Failure::from(
            "HTTP 429 rate limit: too many requests, timed out, cannot reach".to_string(),
        );
        assert_eq!(failure.retry, None);
        assert_eq!(
            failure.retry_details(),
            json!({ "retryable": false, "code": "failed" })
        );
    }

    #[test]
    fn each_failure_has_a_stable_code_from_its_type() {
        let code = |failure: Failure| failure.code;
        assert_eq!(code(VaultError::Busy("a.md".into()).into()), "note_busy");
        assert_eq!(
            code(VaultError::NotFound("a.md".into()).into()),
            "not_found"
        );
        assert_eq!(code(http(503, None).into()), "llm_unavailable");
        assert_eq!(code(http(401, None).into()), "llm_failed");
        let timeout = LlmError::Timeout {
            secs: 1,
            attempts: 1,
        };
        assert_eq!(code(timeout.into()), "llm_timeout");
        assert_eq!(code(ContextError::NoVault.into()), "no_vault");
        assert_eq!(code(LlmError::MissingApiKey.into()), "no_api_key");
    }

    #[test]
    fn summarizer_errors_keep_the_llm_classification() {
        let failure = Failure::from(SummarizeError::Llm(http(503, None)));
        assert_eq!(failure.retry, LATER);
        assert_eq!(
            Failure::from(SummarizeError::NothingToSummarize).retry,
            None
        );
    }
}
