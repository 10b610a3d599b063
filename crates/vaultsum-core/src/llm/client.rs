//! [`ChatClient`]: chat completions and transcriptions over any OpenAI-compatible API.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use async_openai::config::OpenAIConfig;
use async_openai::Client;
use bytes::Bytes;
use serde_json::Value;

use crate::config::LlmConfig;
use crate::flight::lock_file::Claim;
use crate::flight::single_flight::{Shared, SingleFlight};
use crate::llm::chat_reply::parse_chat_reply;
use crate::llm::chat_request::CapField;
use crate::llm::context_window;
use crate::llm::finish_reply::{finish_reply, Finished};
use crate::llm::limiter::Limiter;
use crate::llm::local_server;
use crate::llm::redact::Redactor;
use crate::llm::retry::{Failure, RetryPolicy};
use crate::llm::shared_answer::{self, SharedAnswers};
use crate::llm::transcription::TranscriptionForm;
use crate::llm::transport::{failure_from, Transport};
use crate::llm::usage::{Usage, UsageMeter};
use crate::llm::{ChatReply, ChatRequest, LlmError};
use vaultsum_engine::media::transcription::transcript_in;

/// A client for one OpenAI-compatible provider (Fireworks by default).
///
/// Cheap to share behind an `Arc`. Concurrent calls share one [`Limiter`], which adapts how
/// many requests run at once to what the server answers. Requests that fail with 429, 5xx or a
/// network error are retried with exponential backoff, honouring `Retry-After`, within
/// `max_attempts` and `max_retry_secs`.
pub struct ChatClient {
    /// Chat completions are streamed over this transport (`llm/stream.rs`).
    transport: Transport,
    /// `Authorization: Bearer <key>`, marked sensitive.
    auth: reqwest::header::HeaderValue,
    /// `{base_url}/chat/completions`.
    chat_url: String,
    audio: Client<OpenAIConfig>,
    retry: RetryPolicy,
    redactor: Redactor,
    base_url: String,
    audio_base_url: String,
    timeout_secs: u64,
    /// Plain HTTP with the key, for asking the server about a model's context window.
    probe: reqwest::Client,
    /// `llm.max_output_tokens`: the cap of every chat request that sets none itself.
    max_output_tokens: u32,
    /// Set once the server refused `max_tokens` naming `max_completion_tokens`.
    cap_as_completion_tokens: AtomicBool,
    /// Set once the server refused `stream_options` (usage is then read if sent anyway).
    no_stream_options: AtomicBool,
    /// The server queues what it cannot serve (`llm.local_server`, or judged by its address).
    local: bool,
    /// Held while the server is asked about a model, so concurrent notes ask once.
    probing: tokio::sync::Mutex<()>,
    /// Everything this client was answered, for the closing line of a batch and watch's day.
    usage: Arc<UsageMeter>,
    /// Identical chat requests in flight in this process share one call.
    flights: SingleFlight<Result<ChatReply, LlmError>>,
    /// Where processes of this machine hand each other the answers of identical requests
    /// (`llm/shared_answer.rs`); `None`: within this process only.
    shared_answers: Option<SharedAnswers>,
}

impl std::fmt::Debug for ChatClient {
    // Hand-written so no field that holds the key (async-openai's config) is ever printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatClient")
            .field("base_url", &self.base_url)
            .field("audio_base_url", &self.audio_base_url)
            .field("timeout_secs", &self.timeout_secs)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl ChatClient {
    /// A client for the configured provider. Fails when no API key is set, when the key cannot
    /// be sent in an HTTP header, or when a base URL is not an http(s) URL.
    pub fn new(cfg: &LlmConfig) -> Result<ChatClient, LlmError> {
        let key = cfg.api_key.clone().ok_or(LlmError::MissingApiKey)?;
        // async-openai builds the Authorization header with `parse().unwrap()`: a key with
        // control characters would panic there, so it is checked here first.
        if reqwest::header::HeaderValue::from_str(&format!("Bearer {}", key.expose())).is_err() {
            return Err(LlmError::Request(
                "FIREWORKS_API_KEY contains characters that cannot be sent in an HTTP header \
                 (check for stray quotes or line breaks)"
                    .to_string(),
            ));
        }
        let base_url = checked_base_url(&cfg.base_url)?;
        let audio_base_url = checked_base_url(&cfg.audio_base_url)?;
        let redactor = Redactor::new(Some(key.clone()));
        let local = local_server::treat_as_local(&base_url, cfg.local_server);
        let transport = Transport::new(cfg.timeout_secs, redactor.clone(), local)?;
        let make = |base: &str| {
            let config = OpenAIConfig::new()
                .with_api_base(base)
                .with_api_key(key.expose())
                // Not inherited from OPENAI_* variables: they belong to another provider.
                .with_org_id("")
                .with_project_id("");
            Client::with_config(config).with_http_service(transport.clone())
        };
        let mut auth = reqwest::header::HeaderValue::from_str(&format!("Bearer {}", key.expose()))
            .map_err(|e| LlmError::Request(e.to_string()))?;
        auth.set_sensitive(true);
        let probe = reqwest::Client::builder()
            .default_headers(
                [(reqwest::header::AUTHORIZATION, auth.clone())]
                    .into_iter()
                    .collect(),
            )
            .build()
            .map_err(|e| LlmError::Request(redactor.apply(&e.to_string())))?;
        let mut retry = RetryPolicy::from_config(cfg);
        retry.set_quota_source(transport.latest_quota());
        if local {
            retry.limiter().sense_queueing();
            retry
                .limiter()
                .set_timeout(std::time::Duration::from_secs(cfg.timeout_secs));
        }
        Ok(ChatClient {
            probe,
            chat_url: format!("{base_url}/chat/completions"),
            audio: make(&audio_base_url),
            transport,
            auth,
            retry,
            redactor,
            base_url,
            audio_base_url,
            timeout_secs: cfg.timeout_secs,
            max_output_tokens: cfg.max_output_tokens.max(1),
            cap_as_completion_tokens: AtomicBool::new(false),
            no_stream_options: AtomicBool::new(false),
            local,
            probing: tokio::sync::Mutex::new(()),
            usage: Arc::default(),
            flights: SingleFlight::default(),
            shared_answers: None,
        })
    }

    /// Every request of this client goes through `limiter` (by default, an adaptive one within
    /// the default `summarize.concurrency`).
    /// A server on this machine or network queues what it cannot serve: the limiter watches
    /// answer times for that, from one request at a time (`llm/local_server.rs`).
    pub fn with_limiter(mut self, limiter: Limiter) -> ChatClient {
        if self.local {
            limiter.sense_queueing();
            limiter.set_timeout(std::time::Duration::from_secs(self.timeout_secs));
        }
        self.retry.set_limiter(limiter);
        self
    }

    /// Identical chat requests made by other processes of this machine at the same moment are
    /// answered once, through `dir` (`<cache_dir>/answers`; see `llm/shared_answer.rs`).
    pub fn with_shared_answers(mut self, dir: impl Into<std::path::PathBuf>) -> ChatClient {
        self.shared_answers = Some(SharedAnswers::new(dir));
        self
    }

    /// The limiter every request of this client goes through.
    pub fn limiter(&self) -> &Limiter {
        self.retry.limiter()
    }

    /// A shareable client whose requests all go through `limiter` and whose identical requests
    /// are answered once on this machine through `answers_dir`, or `None` when no API key is
    /// configured (the offline case).
    pub fn from_config_if_keyed(
        cfg: &LlmConfig,
        limiter: Limiter,
        answers_dir: &std::path::Path,
    ) -> Result<Option<Arc<ChatClient>>, LlmError> {
        match ChatClient::new(cfg) {
            Ok(client) => Ok(Some(Arc::new(
                client
                    .with_limiter(limiter)
                    .with_shared_answers(answers_dir),
            ))),
            Err(LlmError::MissingApiKey) => Ok(None),
            Err(other) => Err(other),
        }
    }

    /// What this client was answered so far (every front end of the process shares it).
    pub fn usage(&self) -> Usage {
        self.usage.read()
    }

    /// Counts one paid call made for embedded media (the request itself is counted by
    /// [`ChatClient::chat`] or the transcription).
    pub fn record_media_call(&self) {
        self.usage.record(Usage {
            media_calls: 1,
            ..Usage::default()
        });
    }

    /// The chat endpoint's base URL, e.g. `https://api.fireworks.ai/inference/v1`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// One chat completion (`POST {base_url}/chat/completions`), retried as described on
    /// [`ChatClient`]. A reply without text is [`LlmError::EmptyReply`].
    ///
    /// Every request carries an output cap: `req.max_tokens`, else `llm.max_output_tokens`,
    /// sent as `max_tokens`; a server that refuses that name with a 400 naming
    /// `max_completion_tokens` is asked again once under that name, which the client then
    /// keeps. An answer caught in a repetition loop is cut before its first repeat, with a
    /// marker ([`crate::llm::repetition`]); one that otherwise stopped at the cap
    /// (`finish_reason: length`) is kept up to its last whole item with another marker
    /// ([`crate::llm::cut_answer`]), or is [`LlmError::CutOff`] when nothing whole is left: a
    /// cut answer must never be written as if it were whole.
    ///
    /// A request identical to one in flight (in this process, or in another one sharing the
    /// answers folder) is not sent: it gets that call's answer, marked [`ChatReply::shared`],
    /// or, within the process, its error ([`crate::llm::shared_answer`]).
    pub async fn chat(&self, req: &ChatRequest) -> Result<ChatReply, LlmError> {
        let capped = self.capped(req);
        let key = shared_answer::key(&self.base_url, &capped);
        let work = || self.chat_once_per_machine(&key, &capped);
        match self.flights.run(&key, work, Clone::clone).await {
            Shared::Led(result) => result,
            Shared::Waited(result) => result.map(ChatReply::shared),
        }
    }

    /// How many callers wait on the call in flight for a request identical to `req` in this
    /// process (for tests and logs).
    pub fn callers_waiting_on(&self, req: &ChatRequest) -> usize {
        self.flights
            .waiting(&shared_answer::key(&self.base_url, &self.capped(req)))
    }

    /// `req` as it is sent: with its own output cap, else `llm.max_output_tokens`.
    fn capped(&self, req: &ChatRequest) -> ChatRequest {
        let mut capped = req.clone();
        capped.max_tokens = Some(req.max_tokens.unwrap_or(self.max_output_tokens));
        capped
    }

    /// `capped` asked of the server, unless another process of this machine is asking it at
    /// this moment: then its answer.
    async fn chat_once_per_machine(
        &self,
        key: &str,
        capped: &ChatRequest,
    ) -> Result<ChatReply, LlmError> {
        let Some(answers) = &self.shared_answers else {
            return self.chat_paid(capped).await;
        };
        let lock = match answers.claim(key, &capped.model).await {
            Claim::Done(reply) => return Ok(reply.shared()),
            Claim::Held(lock) => Some(lock),
            Claim::Unlocked => None,
        };
        let result = self.chat_paid(capped).await;
        if let (Some(lock), Ok(reply)) = (&lock, &result) {
            answers.hand_over(key, lock, reply);
        }
        result
    }

    /// The request itself, with its retries, cleaned of loops and cut ends.
    async fn chat_paid(&self, capped: &ChatRequest) -> Result<ChatReply, LlmError> {
        let cap = capped.max_tokens.unwrap_or(self.max_output_tokens);
        let what = format!("chat completion with {}", capped.model);
        let field = if self.cap_as_completion_tokens.load(Ordering::Relaxed) {
            CapField::MaxCompletionTokens
        } else {
            CapField::MaxTokens
        };
        let body = self.wire(capped, field);
        let sent = match self.retry.run(&what, || self.chat_once(&body)).await {
            Err(error) if field == CapField::MaxTokens && refuses_max_tokens(&error) => {
                tracing::debug!("the server takes max_completion_tokens, not max_tokens");
                self.cap_as_completion_tokens.store(true, Ordering::Relaxed);
                let body = self.wire(capped, CapField::MaxCompletionTokens);
                self.retry.run(&what, || self.chat_once(&body)).await
            }
            Err(error)
                if body.get("stream_options").is_some() && refuses_stream_options(&error) =>
            {
                tracing::debug!("the server takes no stream_options");
                self.no_stream_options.store(true, Ordering::Relaxed);
                let body = self.wire(capped, field);
                self.retry.run(&what, || self.chat_once(&body)).await
            }
            other => other,
        };
        let (value, attempts) = sent?;
        // Counted before it is judged: a cut answer was paid for all the same.
        self.usage.record(Usage::of_chat(value.get("usage")));
        let mut reply = parse_chat_reply(&value).map_err(|e| self.redact_error(e))?;
        reply.attempts = attempts;
        tracing::debug!(
            model = %capped.model,
            attempts,
            finish_reason = reply.finish_reason.as_deref().unwrap_or("none"),
            chars = reply.content.len(),
            "chat completion done"
        );
        // Loops and cut ends are taken off as everywhere an answer is read (the engine's
        // `llm::finish_reply`); what was done is logged here.
        let answer_chars = reply.content.len();
        let (reply, finished) = finish_reply(reply, cap, self.timeout_secs)?;
        let why = match finished {
            Finished::Whole => return Ok(reply),
            Finished::LoopCut => "the model repeated itself; its answer was cut before the repeats",
            Finished::CapCut => {
                "the answer reached the output cap; it was kept up to its last whole item"
            }
            Finished::TimeoutCut => {
                "the answer was still coming at the timeout; it was kept up to its last whole item"
            }
        };
        tracing::warn!(
            model = %capped.model,
            cap,
            kept_chars = reply.content.len(),
            answer_chars,
            "{why}"
        );
        Ok(reply)
    }

    /// The body of `capped` as sent to this server.
    fn wire(&self, capped: &ChatRequest, field: CapField) -> Value {
        let mut body = capped.to_wire(field);
        if self.no_stream_options.load(Ordering::Relaxed) {
            if let Some(fields) = body.as_object_mut() {
                fields.remove("stream_options");
            }
        }
        body
    }

    /// One streamed exchange. A local server that cut an answer short to serve another
    /// request (llama-cpp-python does, whatever its slots) serves one at a time: the limiter
    /// is told so, and the request is retried behind the one that took its place.
    async fn chat_once(&self, body: &Value) -> Result<Value, Failure> {
        let result = self
            .transport
            .chat_streamed(&self.chat_url, &self.auth, body)
            .await;
        if let Err(Failure {
            error: LlmError::Interrupted { pieces },
            ..
        }) = &result
        {
            tracing::warn!(
                pieces,
                "the LLM server cut an answer short to serve another request; retrying it"
            );
            if self.local {
                self.limiter().set_capacity(1);
            }
        }
        result
    }

    /// Transcribes audio (`POST {audio_base_url}/audio/transcriptions`, multipart `file` and
    /// `model`). Fireworks answers `{"text": …}` without usage; only `text` is read.
    pub async fn transcribe(
        &self,
        file_name: &str,
        bytes: Vec<u8>,
        model: &str,
    ) -> Result<String, LlmError> {
        let reply = self.transcription(file_name, bytes, model, false).await?;
        Ok(transcript_in(&reply)?.trim().to_string())
    }

    /// Transcribes audio asking for speaker diarization (`diarize=true`, `verbose_json`, word
    /// and segment timestamps) and returns the whole reply for `media::diarize` to render; it
    /// has at least the plain `text`, which a server without diarization still sends.
    pub async fn transcribe_diarized(
        &self,
        file_name: &str,
        bytes: Vec<u8>,
        model: &str,
    ) -> Result<Value, LlmError> {
        self.transcription(file_name, bytes, model, true).await
    }

    /// One transcription request with its retries; the reply must have a `text`.
    async fn transcription(
        &self,
        file_name: &str,
        bytes: Vec<u8>,
        model: &str,
        diarize: bool,
    ) -> Result<Value, LlmError> {
        let form = TranscriptionForm {
            file_name: file_name.to_string(),
            bytes: Bytes::from(bytes),
            model: model.to_string(),
            diarize,
        };
        let what = format!("transcription of {file_name} with {model}");
        let (value, attempts) = self
            .retry
            .run(&what, || self.transcribe_once(form.clone()))
            .await?;
        // Billed by the second of audio, not by tokens: counted as a request only.
        self.usage.record(Usage {
            requests: 1,
            ..Usage::default()
        });
        let text = transcript_in(&value).map_err(|e| self.redact_error(e))?;
        tracing::debug!(
            file = file_name,
            attempts,
            diarize,
            chars = text.len(),
            "transcription done"
        );
        Ok(value)
    }

    async fn transcribe_once(&self, form: TranscriptionForm) -> Result<Value, Failure> {
        self.audio
            .audio()
            .transcription()
            .create_byot::<TranscriptionForm, Value>(form)
            .await
            .map_err(|e| failure_from(e, &self.redactor))
    }

    /// The context window of `model` in tokens: `configured` (`llm.context_tokens`) when set,
    /// else what this process learned or the server says (asked once per model; see
    /// [`crate::llm::context_window`]). `None` when nobody knows.
    pub async fn context_window(&self, model: &str, configured: Option<u64>) -> Option<u64> {
        if configured.is_some() {
            return configured;
        }
        if let Some(known) = context_window::remembered(&self.base_url, model) {
            return known;
        }
        // Asked once: the notes of a batch all want it at their start.
        let _asking = self.probing.lock().await;
        if let Some(known) = context_window::remembered(&self.base_url, model) {
            return known;
        }
        let probed = context_window::probe(&self.probe, &self.base_url, model).await;
        tracing::debug!(model, window = ?probed.window, slots = ?probed.slots, "context window asked of the server");
        if let Some(slots) = probed.slots {
            self.limiter().set_capacity(slots);
        }
        context_window::remember(&self.base_url, model, probed.window);
        context_window::remembered(&self.base_url, model).flatten()
    }

    /// The ids of the models the server lists (`GET {base_url}/models`), asked once within
    /// `timeout`, without retries: for checking a setup (`llm/models.rs`).
    pub async fn list_models(&self, timeout: std::time::Duration) -> Result<Vec<String>, LlmError> {
        crate::llm::models::list_models(&self.probe, &self.base_url, &self.redactor, timeout).await
    }

    /// When `error` is a context-length error, remembers the window it names for `model` and
    /// says so: `Some(window)` (the window, when the error named one), `None` for other errors.
    pub fn learn_from_error(&self, model: &str, error: &LlmError) -> Option<Option<u64>> {
        let limit = context_window::context_limit_in(error)?;
        if limit.is_some() {
            context_window::remember(&self.base_url, model, limit);
        }
        Some(limit)
    }

    /// Remembers a window found otherwise (a silently truncated prompt's token count).
    pub fn learn_window(&self, model: &str, tokens: u64) {
        context_window::remember(&self.base_url, model, Some(tokens));
    }

    /// Replies can quote the request back; their excerpts are redacted like error bodies.
    fn redact_error(&self, error: LlmError) -> LlmError {
        match error {
            LlmError::Malformed(text) => LlmError::Malformed(self.redactor.apply(&text)),
            other => other,
        }
    }
}

/// A 400 that names `max_completion_tokens` (OpenAI's answer to `max_tokens` on its reasoning
/// models: "Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead.").
fn refuses_max_tokens(error: &LlmError) -> bool {
    matches!(error, LlmError::Http { status: 400, message, .. } if message.contains("max_completion_tokens"))
}

/// A 400 that names `stream_options` (a server that refuses fields it does not know).
fn refuses_stream_options(error: &LlmError) -> bool {
    matches!(error, LlmError::Http { status: 400, message, .. } if message.contains("stream_options"))
}

/// The base URL without a trailing slash, if it is an absolute http(s) URL.
fn checked_base_url(raw: &str) -> Result<String, LlmError> {
    let trimmed = raw.trim().trim_end_matches('/');
    let bad = |reason: &str| LlmError::InvalidBaseUrl {
        url: raw.to_string(),
        reason: reason.to_string(),
    };
    let url = reqwest::Url::parse(trimmed).map_err(|e| bad(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad("only http and https are supported"));
    }
    Ok(trimmed.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ApiKey, Config};

    fn cfg_with(base: &str) -> LlmConfig {
        let mut cfg = Config::default().llm;
        cfg.api_key = ApiKey::new("sk-unit");
        cfg.base_url = base.to_string();
        cfg.audio_base_url = base.to_string();
        cfg
    }

    #[test]
    fn missing_key_names_the_variable_and_the_offline_engine() {
        let mut cfg = cfg_with("http://127.0.0.1:1/v1");
        cfg.api_key = None;
        let text = ChatClient::new(&cfg).unwrap_err().to_string();
        assert!(text.contains("FIREWORKS_API_KEY"), "{text}");
        assert!(text.contains("--engine offline"), "{text}");
        let answers = tempfile::tempdir().unwrap();
        assert!(
            ChatClient::from_config_if_keyed(&cfg, Limiter::default(), answers.path())
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn base_url_must_be_http_and_loses_its_trailing_slash() {
        let client = ChatClient::new(&cfg_with("http://127.0.0.1:1/v1/")).unwrap();
        assert_eq!(client.base_url(), "http://127.0.0.1:1/v1");
        let err = ChatClient::new(&cfg_with("ftp://example.com")).unwrap_err();
        assert!(matches!(err, LlmError::InvalidBaseUrl { .. }), "{err:?}");
        let err = ChatClient::new(&cfg_with("not a url")).unwrap_err();
        assert!(err.to_string().contains("FIREWORKS_BASE_URL"), "{err}");
    }

    #[test]
    fn key_with_a_line_break_is_refused_instead_of_panicking() {
        let mut cfg = cfg_with("http://127.0.0.1:1/v1");
        cfg.api_key = ApiKey::new("sk-one\nsk-two");
        let err = ChatClient::new(&cfg).unwrap_err();
        assert!(!err.to_string().contains("sk-one"), "{err}");
    }

    #[test]
    fn debug_output_never_shows_the_key() {
        let client = ChatClient::new(&cfg_with("http://127.0.0.1:1/v1")).unwrap();
        assert!(!format!("{client:?}").contains("sk-unit"));
    }
}
