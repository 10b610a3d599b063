//! The HTTP side: one reqwest client, `Authorization: Bot <key>`, per-endpoint timeouts, and
//! the mapping of every failure to a [`KagiError`] the model can act on.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::{RequestBuilder, Response};
use serde_json::Value;

use super::envelope::Envelope;
use super::error::{KagiError, Operation};
use super::search::SearchResponse;
use super::summarize::{Summary, SummaryRequest};
use crate::config::{ApiKey, KagiConfig};

/// The environment variable holding the Kagi API key.
pub const KAGI_API_KEY_VAR: &str = "KAGI_API_KEY";

/// Where the API key comes from, consulted on every request.
#[derive(Debug, Clone, Default)]
pub enum KeySource {
    /// `KAGI_API_KEY` from the process environment, read at call time.
    #[default]
    Environment,
    /// A key given by the embedding program (or none at all).
    Fixed(Option<ApiKey>),
}

impl KeySource {
    /// The key as of now.
    pub fn key(&self) -> Option<ApiKey> {
        match self {
            KeySource::Environment => std::env::var(KAGI_API_KEY_VAR).ok().and_then(ApiKey::new),
            KeySource::Fixed(key) => key.clone(),
        }
    }
}

/// A client for Kagi's v0 API. Cheap to clone; clones share the connection pool.
#[derive(Debug, Clone)]
pub struct KagiClient {
    /// Built at the first call, not at start: loading the system's certificates costs more
    /// than reading thousands of notes, and most runs never search. Building can fail (TLS
    /// setup); that is reported per call.
    http: Arc<OnceLock<Result<reqwest::Client, String>>>,
    pub(super) base_url: String,
    pub(super) keys: KeySource,
    search_timeout: Duration,
    summarize_timeout: Duration,
}

impl KagiClient {
    /// A client for `config.base_url` with the configured timeouts, reading the key from
    /// `KAGI_API_KEY` at call time.
    pub fn from_config(config: &KagiConfig) -> KagiClient {
        KagiClient {
            http: Arc::default(),
            base_url: config.base_url.trim_end_matches('/').to_string(),
            keys: KeySource::Environment,
            search_timeout: Duration::from_secs(config.search_timeout_secs),
            summarize_timeout: Duration::from_secs(config.summarize_timeout_secs),
        }
    }

    /// Replaces where the key comes from.
    pub fn with_key_source(mut self, keys: KeySource) -> KagiClient {
        self.keys = keys;
        self
    }

    /// Replaces the per-request timeouts.
    pub fn with_timeouts(mut self, search: Duration, summarize: Duration) -> KagiClient {
        self.search_timeout = search;
        self.summarize_timeout = summarize;
        self
    }

    /// `GET {base}/search?q=…&limit=…`. `limit` is also applied to what Kagi returns, so a
    /// server that ignores it cannot flood the model.
    pub async fn search(
        &self,
        query: &str,
        limit: Option<u32>,
    ) -> Result<SearchResponse, KagiError> {
        let op = Operation::Search;
        let (http, key) = self.prepare(op)?;
        let url = format!("{}/search", self.base_url);
        let mut request = http.get(&url).query(&[("q", query)]);
        if let Some(limit) = limit {
            request = request.query(&[("limit", limit)]);
        }
        let envelope = self
            .send(op, &url, &key, request, self.search_timeout)
            .await?;
        if envelope.data.is_null() && !envelope.errors.is_empty() {
            return Err(KagiError::Api {
                operation: op,
                message: redact(&envelope.errors.join("; "), &key),
            });
        }
        let mut response = SearchResponse::from_data(&envelope.data, envelope.meta);
        if let Some(limit) = limit {
            response.results.truncate(limit as usize);
        }
        Ok(response)
    }

    /// `POST {base}/summarize` with a JSON body; returns `data.output` and `data.tokens`.
    pub async fn summarize(&self, request: &SummaryRequest) -> Result<Summary, KagiError> {
        let op = Operation::Summarize;
        let (http, key) = self.prepare(op)?;
        let url = format!("{}/summarize", self.base_url);
        let builder = http.post(&url).json(request);
        let envelope = self
            .send(op, &url, &key, builder, self.summarize_timeout)
            .await?;
        let output = envelope.data.get("output").and_then(Value::as_str);
        match output {
            Some(text) if !text.trim().is_empty() => Ok(Summary {
                output: text.to_string(),
                tokens: envelope.data.get("tokens").and_then(Value::as_u64),
                meta: envelope.meta,
            }),
            _ if !envelope.errors.is_empty() => Err(KagiError::Api {
                operation: op,
                message: redact(&envelope.errors.join("; "), &key),
            }),
            Some(_) => Err(KagiError::Api {
                operation: op,
                message: "Kagi returned an empty summary".to_string(),
            }),
            None => Err(KagiError::Decode {
                operation: op,
                reason: "the answer has no data.output".to_string(),
            }),
        }
    }

    /// The HTTP client, built on first use and shared by every clone.
    pub(super) fn http(&self) -> &Result<reqwest::Client, String> {
        self.http.get_or_init(|| {
            reqwest::Client::builder()
                .user_agent(concat!("vaultsum/", env!("CARGO_PKG_VERSION")))
                .build()
                .map_err(|e| format!("the HTTP client could not start: {e}"))
        })
    }

    fn prepare(&self, op: Operation) -> Result<(&reqwest::Client, ApiKey), KagiError> {
        let http = self.http().as_ref().map_err(|reason| KagiError::Setup {
            operation: op,
            reason: reason.clone(),
        })?;
        let key = self
            .keys
            .key()
            .ok_or(KagiError::MissingKey { operation: op })?;
        Ok((http, key))
    }

    async fn send(
        &self,
        op: Operation,
        url: &str,
        key: &ApiKey,
        request: RequestBuilder,
        timeout: Duration,
    ) -> Result<Envelope, KagiError> {
        let network = |e: reqwest::Error| network_error(op, url, timeout, e);
        let response: Response = request
            .header(
                reqwest::header::AUTHORIZATION,
                format!("Bot {}", key.expose()),
            )
            .timeout(timeout)
            .send()
            .await
            .map_err(network)?;
        let status = response.status();
        let body = response.text().await.map_err(network)?;
        let envelope = Envelope::parse(&body);
        if !status.is_success() {
            let message = match envelope {
                Some(env) if !env.errors.is_empty() => env.errors.join("; "),
                _ => excerpt(&body).unwrap_or_else(|| "(empty response body)".to_string()),
            };
            return Err(KagiError::Http {
                operation: op,
                status: status.to_string(),
                message: redact(&message, key),
            });
        }
        envelope.ok_or_else(|| KagiError::Decode {
            operation: op,
            reason: match excerpt(&body) {
                Some(text) => format!("expected a JSON envelope, got: {}", redact(&text, key)),
                None => "the response body is empty".to_string(),
            },
        })
    }
}

pub(super) fn network_error(
    op: Operation,
    url: &str,
    timeout: Duration,
    error: reqwest::Error,
) -> KagiError {
    if error.is_timeout() {
        return KagiError::Timeout {
            operation: op,
            secs: timeout.as_secs_f64(),
        };
    }
    // The top-level message repeats the URL; the causes say what actually went wrong.
    let mut causes: Vec<String> = Vec::new();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        let text = cause.to_string();
        // hyper's wrapper ("client error (Connect)") adds nothing to the causes under it.
        if !text.starts_with("client error") && causes.last() != Some(&text) {
            causes.push(text);
        }
        source = cause.source();
    }
    let what = if error.is_connect() {
        "could not connect"
    } else if error.is_body() || error.is_decode() {
        "the response was cut off"
    } else {
        "no response"
    };
    let reason = if causes.is_empty() {
        what.to_string()
    } else {
        format!("{what} ({})", causes.join(": "))
    };
    KagiError::Network {
        operation: op,
        url: url.to_string(),
        reason,
    }
}

/// The start of a body, on one line, for error messages.
fn excerpt(body: &str) -> Option<String> {
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.is_empty() {
        return None;
    }
    let mut cut: String = flat.chars().take(300).collect();
    if cut.len() < flat.len() {
        cut.push('…');
    }
    Some(cut)
}

/// Servers sometimes echo the credentials they rejected; never pass the key on.
pub(super) fn redact(text: &str, key: &ApiKey) -> String {
    text.replace(key.expose(), "***")
}
