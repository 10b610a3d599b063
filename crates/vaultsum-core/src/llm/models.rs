//! Which models an OpenAI-compatible server offers (`GET {base_url}/models`): one request, not
//! retried and not counted by the limiter, for checking a setup (`vaultsum doctor`), never on
//! the way to a summary.

use std::time::Duration;

use serde_json::Value;

use crate::llm::error_body::error_excerpt;
use crate::llm::redact::Redactor;
use crate::llm::LlmError;

/// The ids the server lists under `data[].id` (OpenAI's list shape), in the server's order.
///
/// `http` carries the authorization. A non-success status is [`LlmError::Http`] (401 and 403
/// mean the key was refused), no answer within `timeout` is [`LlmError::Timeout`], no
/// connection [`LlmError::Connect`], a body without a model list [`LlmError::Malformed`].
pub(crate) async fn list_models(
    http: &reqwest::Client,
    base_url: &str,
    redactor: &Redactor,
    timeout: Duration,
) -> Result<Vec<String>, LlmError> {
    let url = format!("{}/models", base_url.trim_end_matches('/'));
    let network = |error: reqwest::Error| {
        if error.is_timeout() {
            LlmError::Timeout {
                secs: timeout.as_secs(),
                attempts: 1,
            }
        } else {
            LlmError::Connect {
                url: url.clone(),
                message: redactor.apply(&super::transport::with_causes(&error)),
                attempts: 1,
            }
        }
    };
    let reply = http
        .get(&url)
        .timeout(timeout)
        .send()
        .await
        .map_err(network)?;
    let status = reply.status();
    let body = reply.bytes().await.map_err(network)?;
    if !status.is_success() {
        return Err(LlmError::Http {
            status: status.as_u16(),
            message: redactor.apply(&error_excerpt(&body, status.canonical_reason())),
            attempts: 1,
            retry_after: None,
        });
    }
    let listed = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|value| value.get("data").and_then(Value::as_array).cloned())
        .ok_or_else(|| {
            LlmError::Malformed(redactor.apply(&format!(
                "GET {url} did not answer with a model list ({})",
                error_excerpt(&body, None)
            )))
        })?;
    Ok(listed
        .iter()
        .filter_map(|model| model.get("id").and_then(Value::as_str))
        .map(str::to_string)
        .collect())
}
