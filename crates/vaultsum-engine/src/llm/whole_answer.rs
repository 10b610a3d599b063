//! A chat completion from a whole HTTP response, for a host that gets the body at once
//! (Obsidian's `requestUrl` reads a streamed answer to its end): the same readings as the
//! native client's streamed exchange (`vaultsum-core`'s `llm/transport.rs`), from the status,
//! the content type and the body. The host masks its API key in the body before it comes
//! here, as the native client masks it before any excerpt.

use serde_json::Value;

use crate::llm::error_body::error_excerpt;
use crate::llm::repetition;
use crate::llm::stream::{Assembly, STOPPED_FOR_LOOP};
use crate::llm::LlmError;

/// The JSON of a non-streamed chat completion from the response to a request sent to `url`
/// (as it may be shown): `status` and `content_type` as the server sent them, `body` whole.
pub fn completion_of(
    url: &str,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> Result<Value, LlmError> {
    check_status(status, body)?;
    if !content_type.trim_start().starts_with("text/event-stream") {
        return json_of(url, body);
    }
    let closed_early = || LlmError::Connect {
        url: url.to_string(),
        message: "the server closed the stream before the answer ended".to_string(),
        attempts: 1,
    };
    if body.is_empty() {
        return Err(closed_early());
    }
    let mut assembly = Assembly::default();
    assembly.feed(body)?;
    assembly.finish()?;
    // The native client closes a looping answer at its third copy; here it came whole, and is
    // read as closed there (`finish_reply` cuts it before the first repeat either way).
    if repetition::loop_start(assembly.content()).is_some() {
        return Ok(assembly.into_completion(Some(STOPPED_FOR_LOOP)));
    }
    if !assembly.is_done() && !assembly.has_finish_reason() {
        return Err(closed_early());
    }
    if !assembly.has_finish_reason() {
        return Err(LlmError::Interrupted {
            pieces: assembly.pieces(),
        });
    }
    Ok(assembly.into_completion(None))
}

/// A status other than 2xx as the error it is, the server's words excerpted from `body`.
pub fn check_status(status: u16, body: &[u8]) -> Result<(), LlmError> {
    if (200..300).contains(&status) {
        return Ok(());
    }
    Err(LlmError::Http {
        status,
        message: error_excerpt(body, canonical_reason(status)),
        attempts: 1,
        retry_after: None,
    })
}

/// `body`, a whole JSON reply from `url`; anything else is malformed, shown in part.
pub fn json_of(url: &str, body: &[u8]) -> Result<Value, LlmError> {
    serde_json::from_slice(body).map_err(|_| {
        LlmError::Malformed(format!(
            "expected JSON from {url}, got: {} (check FIREWORKS_BASE_URL)",
            error_excerpt(body, Some("an empty body"))
        ))
    })
}

/// The reason phrase of the statuses LLM servers answer with, standing in for an empty body.
fn canonical_reason(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "http://127.0.0.1:1/v1/chat/completions";

    #[test]
    fn a_streamed_body_becomes_one_completion() {
        let body = "data: {\"choices\":[{\"delta\":{\"content\":\"- A.\"}}]}\n\n\
                    data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n\
                    data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5}}\n\ndata: [DONE]\n\n";
        let completion = completion_of(URL, 200, "text/event-stream", body.as_bytes()).unwrap();
        assert_eq!(completion["choices"][0]["message"]["content"], "- A.");
        assert_eq!(completion["usage"]["prompt_tokens"], 5);
    }

    #[test]
    fn a_plain_json_answer_is_read_as_it_is() {
        let body = br#"{"choices":[{"message":{"content":"- A."},"finish_reason":"stop"}]}"#;
        let completion = completion_of(URL, 200, "application/json", body).unwrap();
        assert_eq!(completion["choices"][0]["message"]["content"], "- A.");
        let err = completion_of(URL, 200, "text/html", b"<html>login</html>").unwrap_err();
        assert!(err.to_string().contains("expected JSON from"), "{err}");
    }

    #[test]
    fn a_refusal_says_the_status_and_the_servers_words() {
        let err = completion_of(
            URL,
            429,
            "application/json",
            br#"{"error":{"message":"slow down"}}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "LLM request failed with HTTP 429: slow down"
        );
        let err = completion_of(URL, 502, "text/plain", b"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "LLM request failed with HTTP 502: Bad Gateway"
        );
    }

    #[test]
    fn a_stream_without_its_end_is_an_error() {
        let body = b"data: {\"choices\":[{\"delta\":{\"content\":\"- A\"}}]}\n\n";
        let err = completion_of(URL, 200, "text/event-stream", body).unwrap_err();
        assert!(matches!(err, LlmError::Connect { .. }), "{err:?}");
        let body = b"data: {\"choices\":[{\"delta\":{\"content\":\"- A\"}}]}\n\ndata: [DONE]\n\n";
        let err = completion_of(URL, 200, "text/event-stream", body).unwrap_err();
        assert!(
            matches!(err, LlmError::Interrupted { pieces: 1 }),
            "{err:?}"
        );
    }
}
