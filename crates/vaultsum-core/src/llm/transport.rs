//! The HTTP transport installed under async-openai: one exchange per call, no retries, every
//! failure turned into an [`LlmError`] that keeps the status and a redacted excerpt.
//!
//! async-openai's default transport retries on its own and, for a 4xx whose body is not
//! OpenAI's `{"error":…}` shape, reports a deserialization error without the status. Answering
//! non-success statuses here, before async-openai sees them, keeps the status of every error
//! shape and keeps response bodies out of its logs.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;

use crate::llm::error_body::error_excerpt;
use crate::llm::quota::{LatestQuota, Quota};
use crate::llm::redact::Redactor;
use crate::llm::repetition;
use crate::llm::retry::{parse_retry_after, Failure};
use crate::llm::stream::{Assembly, STOPPED_AT_TIMEOUT, STOPPED_FOR_LOOP};
use crate::llm::LlmError;

/// How one exchange of [`Transport::chat_streamed`] ended.
enum Streamed {
    /// The answer, as the JSON of a non-streamed completion.
    Answer(serde_json::Value),
    /// A `text/event-stream` answer that ended before its first byte.
    EmptyStream,
}

/// A tower service performing exactly one HTTP exchange.
#[derive(Clone, Debug)]
pub(crate) struct Transport {
    http: reqwest::Client,
    /// For streamed answers: no overall timeout of its own, the exchange keeps the deadline
    /// itself so that what arrived before it can be kept (`Transport::chat_streamed`).
    streaming: reqwest::Client,
    redactor: Redactor,
    timeout_secs: u64,
    /// The quota the last answer announced, for the retry loop to hand to the limiter.
    quota: LatestQuota,
}

/// A [`Failure`] travelling through async-openai inside `OpenAIError::Boxed`.
#[derive(Debug)]
pub(crate) struct TransportFailure(pub(crate) Failure);

impl std::fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.error.fmt(f)
    }
}

impl std::error::Error for TransportFailure {}

impl Transport {
    /// `local`: the server is on this machine or network (`llm/local_server.rs`), where a
    /// streamed answer is sent on a connection of its own (see `streaming`).
    pub(crate) fn new(
        timeout_secs: u64,
        redactor: Redactor,
        local: bool,
    ) -> Result<Transport, LlmError> {
        let timeout_secs = timeout_secs.max(1);
        let builder = || {
            reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(timeout_secs.min(30)))
                .user_agent(concat!("vaultsum/", env!("CARGO_PKG_VERSION")))
        };
        let built = |result: reqwest::Result<reqwest::Client>| {
            result.map_err(|e| LlmError::Request(format!("cannot create the HTTP client: {e}")))
        };
        let http = built(builder().timeout(Duration::from_secs(timeout_secs)).build())?;
        // A local server's connection is not kept for the next answer: llama-cpp-python's
        // server closes a connection whose stream failed (a prompt over the window, an image
        // for a text model) a moment after the stream ends, and the next request sent on it
        // (the same request unstreamed, the next note) met "connection reset by peer" four
        // times over and failed its note. A new connection on this machine costs well under a
        // millisecond; a remote server's (TLS) is kept.
        let mut streaming = builder();
        if local {
            streaming = streaming.pool_max_idle_per_host(0);
        }
        let streaming = built(streaming.build())?;
        Ok(Transport {
            http,
            streaming,
            redactor,
            timeout_secs,
            quota: LatestQuota::default(),
        })
    }

    /// Where every answer's announced quota is left (shared by clones of this transport).
    pub(crate) fn latest_quota(&self) -> LatestQuota {
        self.quota.clone()
    }

    async fn exchange(&self, factory: HttpRequestFactory) -> Result<reqwest::Response, Failure> {
        let request = factory
            .build()
            .await
            .map_err(|e| LlmError::Request(self.redactor.apply(&e.to_string())))?;
        let url = self.display_url(request.url());
        let response = self
            .http
            .execute(request)
            .await
            .map_err(|e| self.network_error(&url, e))?;
        let status = response.status();
        let headers = response.headers().clone();
        if let Some(quota) = Quota::from_headers(&headers) {
            self.quota.set(quota);
        }
        let body = response
            .bytes()
            .await
            .map_err(|e| self.network_error(&url, e))?;

        if !status.is_success() {
            return Err(self.refusal(status, &headers, &body));
        }
        self.checked_json(&url, &body)?;
        let mut rebuilt = http::Response::new(body);
        *rebuilt.status_mut() = status;
        *rebuilt.headers_mut() = headers;
        Ok(reqwest::Response::from(rebuilt))
    }

    /// The failure of a non-success answer: its status and a redacted excerpt of its body.
    fn refusal(
        &self,
        status: reqwest::StatusCode,
        headers: &reqwest::header::HeaderMap,
        body: &[u8],
    ) -> Failure {
        let retry_after = headers
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, SystemTime::now()));
        let message = self.excerpt(body, status.canonical_reason());
        Failure {
            error: LlmError::Http {
                status: status.as_u16(),
                message,
                attempts: 1,
                // Carried in the failure while the client decides; put into the error by
                // the retry loop when it gives up (`RetryPolicy::run`).
                retry_after: None,
            },
            retry_after,
        }
    }

    /// `body` when it is JSON, else a malformed-reply error naming `url`.
    fn checked_json(&self, url: &str, body: &[u8]) -> Result<(), Failure> {
        if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
            return Err(LlmError::Malformed(format!(
                "expected JSON from {url}, got: {} (check FIREWORKS_BASE_URL)",
                self.excerpt(body, Some("an empty body"))
            ))
            .into());
        }
        Ok(())
    }

    fn timed_out(&self) -> Failure {
        LlmError::Timeout {
            secs: self.timeout_secs,
            attempts: 1,
        }
        .into()
    }

    /// One streamed chat completion (`body` asks for `"stream": true`), read chunk by chunk
    /// within the request timeout and returned as the JSON of a non-streamed one
    /// (`llm/stream.rs`). The timeout counts from the request, or from the last bytes the
    /// server sent before the answer's first piece (keep-alives while it reads the prompt).
    /// The connection is closed, which stops the server generating, as
    /// soon as the answer is no longer wanted: when it goes round in a loop
    /// ([`crate::llm::repetition`], `finish_reason` [`STOPPED_FOR_LOOP`]), at the timeout (what
    /// arrived is kept, `finish_reason` [`STOPPED_AT_TIMEOUT`]; nothing arrived: a timeout
    /// error), or when the caller drops the future. A server that answers plain JSON instead
    /// is read like a non-streamed answer. A stream that ends with `[DONE]` but no
    /// `finish_reason` was cut by the server for another request ([`LlmError::Interrupted`]);
    /// one that just stops is a broken exchange ([`LlmError::Connect`]).
    ///
    /// A stream that ends before the server sent a single byte is asked once more without
    /// streaming: llama-cpp-python's server answers 200 and starts the stream before it
    /// renders the prompt, so a prompt over the model's window or a message its chat template
    /// cannot take (an image for a text model) ends the stream empty, where the same request
    /// unstreamed gets the error in its body (a context-length error, learned from and split
    /// on like any other).
    pub(crate) async fn chat_streamed(
        &self,
        url: &str,
        auth: &reqwest::header::HeaderValue,
        body: &serde_json::Value,
    ) -> Result<serde_json::Value, Failure> {
        match self.stream_exchange(url, auth, body).await? {
            Streamed::Answer(completion) => Ok(completion),
            Streamed::EmptyStream => {
                tracing::debug!("the server ended the stream before sending anything; asking once more unstreamed");
                let mut unstreamed = body.clone();
                if let Some(fields) = unstreamed.as_object_mut() {
                    fields.insert("stream".to_string(), serde_json::Value::Bool(false));
                    fields.remove("stream_options");
                }
                match self.stream_exchange(url, auth, &unstreamed).await? {
                    Streamed::Answer(completion) => Ok(completion),
                    Streamed::EmptyStream => Err(self.closed_early(url)),
                }
            }
        }
    }

    fn closed_early(&self, url: &str) -> Failure {
        LlmError::Connect {
            url: self.shown(url),
            message: "the server closed the stream before the answer ended".to_string(),
            attempts: 1,
        }
        .into()
    }

    /// `url` as it may be shown: its query and any credentials in it redacted.
    fn shown(&self, url: &str) -> String {
        reqwest::Url::parse(url)
            .map(|u| self.display_url(&u))
            .unwrap_or_else(|_| self.redactor.apply(url))
    }

    /// One exchange of [`Transport::chat_streamed`].
    async fn stream_exchange(
        &self,
        url: &str,
        auth: &reqwest::header::HeaderValue,
        body: &serde_json::Value,
    ) -> Result<Streamed, Failure> {
        let timeout = Duration::from_secs(self.timeout_secs);
        let mut deadline = tokio::time::Instant::now() + timeout;
        let request = self
            .streaming
            .post(url)
            .header(reqwest::header::AUTHORIZATION, auth.clone())
            .header(
                reqwest::header::ACCEPT,
                "text/event-stream, application/json",
            )
            .json(body);
        let shown = self.shown(url);
        let mut response = tokio::time::timeout_at(deadline, request.send())
            .await
            .map_err(|_| self.timed_out())?
            .map_err(|e| self.network_error(&shown, e))?;
        let status = response.status();
        let headers = response.headers().clone();
        if let Some(quota) = Quota::from_headers(&headers) {
            self.quota.set(quota);
        }
        let streamed = headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
        if !status.is_success() || !streamed {
            let body = tokio::time::timeout_at(deadline, response.bytes())
                .await
                .map_err(|_| self.timed_out())?
                .map_err(|e| self.network_error(&shown, e))?;
            if !status.is_success() {
                return Err(self.refusal(status, &headers, &body));
            }
            self.checked_json(&shown, &body)?;
            return serde_json::from_slice(&body)
                .map(Streamed::Answer)
                .map_err(|e| LlmError::Malformed(format!("cannot decode the reply: {e}")).into());
        }
        let mut assembly = Assembly::default();
        let mut watched = 0;
        let mut received = 0;
        loop {
            let chunk = match tokio::time::timeout_at(deadline, response.chunk()).await {
                Err(_) if assembly.content().trim().is_empty() => return Err(self.timed_out()),
                Err(_) => {
                    tracing::warn!(
                        pieces = assembly.pieces(),
                        "the answer was still coming at the request timeout; it was closed there"
                    );
                    return Ok(Streamed::Answer(
                        assembly.into_completion(Some(STOPPED_AT_TIMEOUT)),
                    ));
                }
                Ok(chunk) => chunk.map_err(|e| self.network_error(&shown, e))?,
            };
            let Some(chunk) = chunk else { break };
            received += chunk.len();
            let nothing_yet = assembly.pieces() == 0;
            assembly
                .feed(&chunk)
                .map_err(|e| Failure::from(self.redact(e)))?;
            if assembly.is_done() {
                break;
            }
            // Until the answer's first piece, whatever the server sends (its keep-alive
            // comments while it reads a long prompt on a busy CPU, or waits for its slot)
            // shows it at work: the timeout counts from there. From the first piece, the
            // answer has `llm.timeout_secs` to come.
            if nothing_yet {
                deadline = tokio::time::Instant::now() + timeout;
            }
            // Looked for each time the answer has grown by a line or a sentence.
            let content = assembly.content();
            let grown = &content[watched..];
            if grown.contains('\n') || grown.contains(". ") {
                watched = content.len();
                if repetition::loop_start(content).is_some() {
                    tracing::warn!(
                        pieces = assembly.pieces(),
                        "the model went round in a loop; the answer was closed there"
                    );
                    return Ok(Streamed::Answer(
                        assembly.into_completion(Some(STOPPED_FOR_LOOP)),
                    ));
                }
            }
        }
        if received == 0 {
            return Ok(Streamed::EmptyStream);
        }
        assembly
            .finish()
            .map_err(|e| Failure::from(self.redact(e)))?;
        if !assembly.is_done() && !assembly.has_finish_reason() {
            // Closed without its end: a server failing mid-answer.
            return Err(self.closed_early(url));
        }
        if !assembly.has_finish_reason() {
            return Err(LlmError::Interrupted {
                pieces: assembly.pieces(),
            }
            .into());
        }
        Ok(Streamed::Answer(assembly.into_completion(None)))
    }

    fn redact(&self, error: LlmError) -> LlmError {
        match error {
            LlmError::Malformed(text) => LlmError::Malformed(self.redactor.apply(&text)),
            other => other,
        }
    }

    /// Redacts the whole body before cutting it, so no part of a key survives a cut, and the
    /// excerpt after decoding it.
    fn excerpt(&self, body: &[u8], reason: Option<&str>) -> String {
        let text = self.redactor.apply(&String::from_utf8_lossy(body));
        // Again once read: a key written with JSON escapes or HTML entities is plain only now.
        self.redactor.apply(&error_excerpt(text.as_bytes(), reason))
    }

    fn network_error(&self, url: &str, error: reqwest::Error) -> Failure {
        if error.is_timeout() && !error.is_connect() {
            return self.timed_out();
        }
        let message = with_causes(&error.without_url());
        LlmError::Connect {
            url: url.to_string(),
            message: self.redactor.apply(&message),
            attempts: 1,
        }
        .into()
    }

    /// The endpoint without query or credentials, for messages.
    fn display_url(&self, url: &reqwest::Url) -> String {
        let mut url = url.clone();
        url.set_query(None);
        let _ = url.set_password(None);
        let _ = url.set_username("");
        self.redactor.apply(url.as_str())
    }
}

impl tower::Service<HttpRequestFactory> for Transport {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = Pin<Box<dyn Future<Output = Result<reqwest::Response, OpenAIError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, factory: HttpRequestFactory) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            this.exchange(factory)
                .await
                .map_err(|failure| OpenAIError::Boxed(Box::new(TransportFailure(failure))))
        })
    }
}

/// Recovers the [`Failure`] from an async-openai error; anything async-openai produced itself
/// is a request or parsing problem on our side.
pub(crate) fn failure_from(error: OpenAIError, redactor: &Redactor) -> Failure {
    match error {
        OpenAIError::Boxed(boxed) => match boxed.downcast::<TransportFailure>() {
            Ok(failure) => failure.0,
            Err(other) => LlmError::Request(redactor.apply(&other.to_string())).into(),
        },
        OpenAIError::JSONDeserialize(e, _) => {
            LlmError::Malformed(format!("cannot decode the reply: {e}")).into()
        }
        other => LlmError::Request(redactor.apply(&other.to_string())).into(),
    }
}

/// What the network layer said, causes included ("connection refused" sits under reqwest's
/// top-level "error sending request").
pub(super) fn with_causes(error: &reqwest::Error) -> String {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}
