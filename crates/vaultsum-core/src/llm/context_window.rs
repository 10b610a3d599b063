//! How many tokens a model's context window holds, found out the way each server tells it.
//!
//! In order: `llm.context_tokens` when the person set it; else the server is asked once per
//! model and process (llama.cpp `GET /props` → `default_generation_settings.n_ctx`; vLLM and
//! others `GET /v1/models` → `max_model_len`; Ollama `POST /api/ps` (the loaded window) then
//! `/api/show` (the trained one); Fireworks `GET /v1/{model}` → `contextLength`); else the limit
//! is learned from a context-length error ([`context_limit_in`]) and remembered for the life of
//! the process. Servers that say nothing leave the window unknown: a note is then sent whole,
//! and a context error or a silently truncated prompt sends it in parts after all.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

use super::LlmError;

/// Windows learned from errors or probes, by `base URL + model`, for the life of the process.
static LEARNED: LazyLock<Mutex<HashMap<String, Option<u64>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn key(base_url: &str, model: &str) -> String {
    format!("{base_url}\u{0}{model}")
}

/// The window remembered for `model` at `base_url`: `Some(Some(n))` known, `Some(None)` asked
/// and the server did not say, `None` never asked.
pub fn remembered(base_url: &str, model: &str) -> Option<Option<u64>> {
    LEARNED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key(base_url, model))
        .copied()
}

/// Remembers the window of `model` at `base_url` (a smaller learned limit wins over a larger one).
pub fn remember(base_url: &str, model: &str, tokens: Option<u64>) {
    let mut learned = LEARNED.lock().unwrap_or_else(|p| p.into_inner());
    let entry = learned.entry(key(base_url, model)).or_insert(tokens);
    *entry = match (*entry, tokens) {
        (Some(old), Some(new)) => Some(old.min(new)),
        (old, new) => new.or(old),
    };
}

/// The context window a context-length error names, when it is one:
/// - vLLM, OpenAI, llama-cpp-python: `This model's maximum context length is 8192 tokens. …`
/// - Fireworks: `The prompt is too long: 150000, model maximum context length: 131072`
/// - llama.cpp server: `exceed_context_size_error` with `n_ctx` (kept by `error_body.rs`)
///
/// `Some(None)` for a context error that names no number (Ollama with shifting disabled: `the
/// prompt is longer than the context length`), `None` for any other error.
pub fn context_limit_in(error: &LlmError) -> Option<Option<u64>> {
    static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)maximum context length\s*(?:is|of|:)\s*(\d+)|\bn_ctx\W+(\d+)|context (?:window|length|size) (?:is|of)\s*(\d+) tokens",
        )
        .expect("valid regex")
    });
    static UNNUMBERED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)context length|context size|context window|maximum context|prompt is too long|too many tokens|exceeds? the (?:available )?context",
        )
        .expect("valid regex")
    });
    let LlmError::Http {
        status, message, ..
    } = error
    else {
        return None;
    };
    if !(400..500).contains(status) {
        return None;
    }
    if let Some(captures) = NUMBERED.captures(message) {
        let number = captures
            .iter()
            .skip(1)
            .flatten()
            .find_map(|m| m.as_str().parse::<u64>().ok());
        return Some(number);
    }
    UNNUMBERED.is_match(message).then_some(None)
}

/// What a server says of itself when asked ([`probe`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Probed {
    /// The model's context window in tokens.
    pub window: Option<u64>,
    /// How many requests the server serves at once (llama.cpp's `/props` `total_slots`).
    pub slots: Option<usize>,
}

/// Asks the server at `base_url` (the OpenAI-compatible base, usually ending in `/v1`) for the
/// context window of `model`, trying each server kind's own endpoint, and, from llama.cpp's
/// `/props` read on the way, how many slots it has. `http` carries the authorization; each
/// probe is short and its failure is ignored.
pub async fn probe(http: &reqwest::Client, base_url: &str, model: &str) -> Probed {
    let base = base_url.trim_end_matches('/');
    let root = base.strip_suffix("/v1").unwrap_or(base);
    let props = get_json(http, format!("{root}/props")).await;
    let slots = props
        .as_ref()
        .and_then(|props| props.get("total_slots"))
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| *n > 0);
    Probed {
        window: window_of(http, base, root, model, props.as_ref()).await,
        slots,
    }
}

async fn get_json(http: &reqwest::Client, url: String) -> Option<Value> {
    let reply = http.get(url).timeout(PROBE_TIMEOUT).send().await.ok()?;
    if !reply.status().is_success() {
        return None;
    }
    reply.json::<Value>().await.ok()
}

/// The window, from the first server kind's endpoint that names it.
async fn window_of(
    http: &reqwest::Client,
    base: &str,
    root: &str,
    model: &str,
    props: Option<&Value>,
) -> Option<u64> {
    let get = |url: String| get_json(http, url);
    // llama.cpp
    if let Some(props) = props {
        if let Some(n) = props
            .pointer("/default_generation_settings/n_ctx")
            .or_else(|| props.get("n_ctx"))
            .and_then(Value::as_u64)
        {
            return Some(n);
        }
    }
    // vLLM (and any server listing `max_model_len`)
    if let Some(models) = get(format!("{base}/models")).await {
        let listed = models.get("data").and_then(Value::as_array);
        let entry = listed.and_then(|list| {
            list.iter()
                .find(|m| m.get("id").and_then(Value::as_str) == Some(model))
                .or_else(|| (list.len() == 1).then(|| &list[0]))
        });
        if let Some(n) = entry
            .and_then(|m| m.get("max_model_len").or_else(|| m.get("context_length")))
            .and_then(Value::as_u64)
        {
            return Some(n);
        }
    }
    // Ollama: the window the model is loaded with, else the one it was trained with.
    if let Some(ps) = get(format!("{root}/api/ps")).await {
        let loaded = ps.get("models").and_then(Value::as_array).and_then(|list| {
            list.iter()
                .find(|m| {
                    m.get("name").and_then(Value::as_str) == Some(model)
                        || m.get("model").and_then(Value::as_str) == Some(model)
                })
                .and_then(|m| m.get("context_length"))
                .and_then(Value::as_u64)
        });
        if loaded.is_some() {
            return loaded;
        }
        let shown = http
            .post(format!("{root}/api/show"))
            .timeout(PROBE_TIMEOUT)
            .json(&serde_json::json!({ "model": model }))
            .send()
            .await
            .ok();
        if let Some(reply) = shown.filter(|r| r.status().is_success()) {
            if let Ok(show) = reply.json::<Value>().await {
                let trained = show
                    .get("model_info")
                    .and_then(Value::as_object)
                    .and_then(|info| {
                        info.iter()
                            .find(|(k, _)| k.ends_with(".context_length"))
                            .and_then(|(_, v)| v.as_u64())
                    });
                if trained.is_some() {
                    return trained;
                }
            }
        }
    }
    // Fireworks: the model's own record.
    if model.starts_with("accounts/") {
        if let Some(record) = get(format!("{base}/{model}")).await {
            if let Some(n) = record.get("contextLength").and_then(Value::as_u64) {
                return Some(n);
            }
        }
    }
    None
}

/// How long one probe may take: the window is a convenience, never worth a slow start.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16, message: &str) -> LlmError {
        LlmError::Http {
            status,
            message: message.to_string(),
            attempts: 1,
            retry_after: None,
        }
    }

    #[test]
    fn each_servers_context_error_gives_its_limit() {
        let cases = [
            ("This model's maximum context length is 8192 tokens. However, you requested 10842 tokens (10842 in the messages, 0 in the completion). Please reduce the length of the messages or completion.", 8192),
            ("The prompt is too long: 150000, model maximum context length: 131072", 131072),
            ("the request exceeds the available context size, try increasing it (n_prompt_tokens 10842, n_ctx 4096)", 4096),
        ];
        for (message, limit) in cases {
            assert_eq!(
                context_limit_in(&http(400, message)),
                Some(Some(limit)),
                "{message}"
            );
        }
    }

    #[test]
    fn a_context_error_without_a_number_is_still_one_and_other_errors_are_not() {
        assert_eq!(
            context_limit_in(&http(400, "the prompt is longer than the context length")),
            Some(None)
        );
        assert_eq!(context_limit_in(&http(401, "invalid api key")), None);
        assert_eq!(context_limit_in(&http(400, "unknown model")), None);
        assert_eq!(
            context_limit_in(&http(500, "maximum context length is 8192 tokens")),
            None,
            "a server error is not a context error"
        );
    }

    #[test]
    fn a_smaller_learned_limit_wins() {
        remember("http://x/v1", "m-test-learn", Some(8192));
        remember("http://x/v1", "m-test-learn", Some(4096));
        remember("http://x/v1", "m-test-learn", Some(16384));
        assert_eq!(remembered("http://x/v1", "m-test-learn"), Some(Some(4096)));
        remember("http://x/v1", "m-test-learn", None);
        assert_eq!(remembered("http://x/v1", "m-test-learn"), Some(Some(4096)));
    }
}
