//! A fake OpenAI-compatible server (chat completions and audio transcriptions) on 127.0.0.1.
//!
//! It answers with the real wire formats, including Fireworks' `reasoning_content`, and with
//! whatever a test scripts: errors with any body, 429 with `Retry-After`, slow replies,
//! malformed JSON, empty content. It records every request so tests can assert on prompts,
//! headers and multipart fields, and it counts concurrent requests.
//!
//! It runs on its own thread and runtime, so it works from plain `#[test]`s that drive the
//! binary as well as from `#[tokio::test]`s.
//!
//! ```ignore
//! let server = FakeOpenAi::start();
//! server.push(FakeReply::rate_limited("1"));
//! server.push(FakeReply::chat("## Overview\nFine."));
//! let client = ChatClient::new(&server.llm_config()).unwrap();
//! ```
//! Scripted replies are served in order, whatever the path. When none are left, the fallback
//! (see [`FakeOpenAi::set_fallback`]) answers; without one, chat paths get
//! `chat_completion_json("fake summary")`, transcription paths `{"text":"fake transcript"}`.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{json, Value};

use vaultsum_tools::config::{ApiKey, Config, LlmConfig};

/// The API key [`FakeOpenAi::llm_config`] uses; assert it never shows up in output.
pub const TEST_API_KEY: &str = "sk-test-FAKE-0123456789abcdef";

/// Placeholder in a scripted body replaced by the value of the header named in
/// [`FakeReply::echoing`].
pub const ECHO: &str = "{{ECHO}}";

/// A chat completion in the wire format Fireworks sends (`finish_reason` "stop", with usage).
pub fn chat_completion_json(content: &str) -> Value {
    json!({
        "id": "chatcmpl-fake-1",
        "object": "chat.completion",
        "created": 1_767_225_600,
        "model": "accounts/fireworks/models/gpt-oss-120b",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": 120, "total_tokens": 150, "completion_tokens": 30}
    })
}

/// A chat completion from a reasoning model: Fireworks puts the thinking in
/// `message.reasoning_content` beside `content`.
pub fn chat_completion_with_reasoning_json(content: &str, reasoning: &str) -> Value {
    let mut value = chat_completion_json(content);
    value["choices"][0]["message"]["reasoning_content"] = json!(reasoning);
    value
}

/// An http URL on 127.0.0.1 where nothing listens (connection refused).
pub fn unused_local_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/v1")
}

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct FakeReply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
    echo_header: Option<String>,
}

impl FakeReply {
    /// 200 with `body` as JSON.
    pub fn json(status: u16, body: Value) -> FakeReply {
        FakeReply::raw(status, "application/json", body.to_string())
    }

    /// Any status, content type and body.
    pub fn raw(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> FakeReply {
        FakeReply {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
            echo_header: None,
        }
    }

    /// 200 with a chat completion whose content is `content`.
    pub fn chat(content: &str) -> FakeReply {
        FakeReply::json(200, chat_completion_json(content))
    }

    /// 200 with a chat completion carrying `reasoning_content` too.
    pub fn chat_with_reasoning(content: &str, reasoning: &str) -> FakeReply {
        FakeReply::json(200, chat_completion_with_reasoning_json(content, reasoning))
    }

    /// 200 with a chat completion whose content is the empty string.
    pub fn empty_content() -> FakeReply {
        FakeReply::chat("")
    }

    /// 200 with Fireworks' transcription answer, `{"text": …}` and nothing else.
    pub fn transcription(text: &str) -> FakeReply {
        FakeReply::json(200, json!({ "text": text }))
    }

    /// An error status with `body` as given; the content type follows the body's look
    /// (JSON, HTML or plain text).
    pub fn error(status: u16, body: &str) -> FakeReply {
        let trimmed = body.trim_start();
        let content_type = if trimmed.starts_with('{') || trimmed.starts_with('[') {
            "application/json"
        } else if trimmed.starts_with('<') {
            "text/html; charset=utf-8"
        } else {
            "text/plain; charset=utf-8"
        };
        FakeReply::raw(status, content_type, body)
    }

    /// An OpenAI-shaped error: `{"error":{"message":…,"type":…,"code":…}}`.
    pub fn openai_error(status: u16, message: &str) -> FakeReply {
        FakeReply::json(
            status,
            json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": null}}),
        )
    }

    /// 429 with `Retry-After: retry_after` (seconds or an HTTP date) and an OpenAI error body.
    pub fn rate_limited(retry_after: &str) -> FakeReply {
        FakeReply::openai_error(429, "rate limit exceeded").with_header("retry-after", retry_after)
    }

    /// 200 with a body that is not valid JSON (cut off mid-object).
    pub fn malformed() -> FakeReply {
        FakeReply::raw(
            200,
            "application/json",
            r#"{"id":"chatcmpl-1","choices":[{"message":{"content":"#,
        )
    }

    /// Adds a response header.
    pub fn with_header(mut self, name: &str, value: &str) -> FakeReply {
        self.headers
            .push((name.to_ascii_lowercase(), value.to_string()));
        self
    }

    /// Waits this long before answering (a slow model).
    pub fn with_delay(mut self, delay: Duration) -> FakeReply {
        self.delay = delay;
        self
    }

    /// Replaces [`ECHO`] in the body with the request's value of header `name`, as servers
    /// that quote the request in their errors do.
    pub fn echoing(mut self, name: &str) -> FakeReply {
        self.echo_header = Some(name.to_ascii_lowercase());
        self
    }
}

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct ReceivedRequest {
    pub method: String,
    /// The path, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Header names in lowercase.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// When the request arrived.
    pub at: Instant,
}

/// One field of a `multipart/form-data` body.
#[derive(Debug, Clone)]
pub struct MultipartField {
    pub name: String,
    pub file_name: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

impl ReceivedRequest {
    /// A header's value (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "request body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The `model` of a chat request, or of a multipart transcription request.
    pub fn model(&self) -> Option<String> {
        if let Some(field) = self.multipart_field("model") {
            return Some(String::from_utf8_lossy(&field.data).into_owned());
        }
        self.json()["model"].as_str().map(str::to_string)
    }

    /// All text of messages with `role` (string content or text parts), joined by newlines.
    pub fn message_text(&self, role: &str) -> String {
        let json = self.json();
        let mut out = Vec::new();
        for message in json["messages"].as_array().into_iter().flatten() {
            if message["role"] != role {
                continue;
            }
            match &message["content"] {
                Value::String(s) => out.push(s.clone()),
                Value::Array(parts) => out.extend(
                    parts
                        .iter()
                        .filter_map(|p| p["text"].as_str().map(str::to_string)),
                ),
                _ => {}
            }
        }
        out.join("\n")
    }

    /// The user messages' text: what the model was asked.
    pub fn user_text(&self) -> String {
        self.message_text("user")
    }

    /// The system prompt.
    pub fn system_text(&self) -> String {
        self.message_text("system")
    }

    /// The `image_url.url` values of the user message parts.
    pub fn image_urls(&self) -> Vec<String> {
        let json = self.json();
        json["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .filter_map(|p| p["image_url"]["url"].as_str().map(str::to_string))
            .collect()
    }

    /// The fields of a `multipart/form-data` body (empty for other bodies).
    pub fn multipart_fields(&self) -> Vec<MultipartField> {
        let Some(boundary) = self
            .header("content-type")
            .filter(|ct| ct.starts_with("multipart/form-data"))
            .and_then(|ct| ct.split("boundary=").nth(1))
            .map(|b| b.trim_matches('"').to_string())
        else {
            return Vec::new();
        };
        let delimiter = format!("--{boundary}").into_bytes();
        let mut fields = Vec::new();
        for chunk in split_bytes(&self.body, &delimiter).into_iter().skip(1) {
            if chunk.starts_with(b"--") {
                break; // closing delimiter
            }
            let chunk = chunk.strip_prefix(b"\r\n").unwrap_or(chunk);
            let Some(split) = find(chunk, b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&chunk[..split]).into_owned();
            let mut data = chunk[split + 4..].to_vec();
            if data.ends_with(b"\r\n") {
                data.truncate(data.len() - 2);
            }
            let mut field = MultipartField {
                name: String::new(),
                file_name: None,
                content_type: None,
                data,
            };
            for line in head.lines() {
                let lower = line.to_ascii_lowercase();
                if lower.starts_with("content-disposition:") {
                    field.name = quoted_param(line, "name").unwrap_or_default();
                    field.file_name = quoted_param(line, "filename");
                } else if lower.starts_with("content-type:") {
                    field.content_type = Some(line["content-type:".len()..].trim().to_string());
                }
            }
            fields.push(field);
        }
        fields
    }

    /// One multipart field by name.
    pub fn multipart_field(&self, name: &str) -> Option<MultipartField> {
        self.multipart_fields().into_iter().find(|f| f.name == name)
    }
}

fn quoted_param(line: &str, param: &str) -> Option<String> {
    line.split(';').map(str::trim).find_map(|part| {
        let value = part.strip_prefix(param)?.strip_prefix('=')?;
        Some(value.trim_matches('"').to_string())
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(mut data: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    while let Some(at) = find(data, delimiter) {
        parts.push(&data[..at]);
        data = &data[at + delimiter.len()..];
    }
    parts.push(data);
    parts
}

#[derive(Default)]
struct Shared {
    queue: Mutex<VecDeque<FakeReply>>,
    fallback: Mutex<Option<FakeReply>>,
    requests: Mutex<Vec<ReceivedRequest>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

/// Decrements the in-flight count even when the client gives up and the handler is dropped.
struct InFlight(Arc<Shared>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The running fake server. Dropping it stops the server.
pub struct FakeOpenAi {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeOpenAi {
    /// Starts a server on a free port of 127.0.0.1.
    pub fn start() -> FakeOpenAi {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                tokio::select! {
                    _ = axum::serve(listener, app) => {}
                    _ = rx => {}
                }
            });
            runtime.shutdown_background();
        });
        FakeOpenAi {
            addr,
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// A config pointing chat and audio at this server, with [`TEST_API_KEY`], a 5 s timeout,
    /// 3 attempts, a 10 s retry budget and 10 ms initial backoff (fast tests).
    pub fn llm_config(&self) -> LlmConfig {
        let mut cfg = Config::default().llm;
        cfg.api_key = ApiKey::new(TEST_API_KEY);
        cfg.base_url = self.base_url();
        cfg.audio_base_url = self.base_url();
        cfg.timeout_secs = 5;
        cfg.max_attempts = 3;
        cfg.max_retry_secs = 10;
        cfg.initial_backoff_ms = 10;
        cfg
    }

    /// Environment variables pointing the `vaultsum` binary at this server.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("FIREWORKS_API_KEY", TEST_API_KEY.to_string()),
            ("FIREWORKS_BASE_URL", self.base_url()),
            ("FIREWORKS_AUDIO_BASE_URL", self.base_url()),
        ]
    }

    /// Queues a reply; queued replies are served first-in first-out.
    pub fn push(&self, reply: FakeReply) {
        self.shared.queue.lock().unwrap().push_back(reply);
    }

    /// The reply used whenever the queue is empty.
    pub fn set_fallback(&self, reply: FakeReply) {
        *self.shared.fallback.lock().unwrap() = Some(reply);
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<ReceivedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// How many requests arrived.
    pub fn request_count(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// The most requests that were being answered at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// Requests being answered right now.
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight.load(Ordering::SeqCst)
    }

    /// Polls until at least `n` requests arrived or `timeout` passed; returns whether they did.
    pub fn wait_for_requests(&self, n: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.request_count() >= n {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.request_count() >= n
    }
}

impl Drop for FakeOpenAi {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let _guard = InFlight(shared.clone());

    let request = ReceivedRequest {
        method: method.to_string(),
        path: uri.path().to_string(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body.to_vec(),
        at: Instant::now(),
    };
    let reply = shared
        .queue
        .lock()
        .unwrap()
        .pop_front()
        .or_else(|| shared.fallback.lock().unwrap().clone())
        .unwrap_or_else(|| default_reply(&request.path));
    let mut body = reply.body.clone();
    if let Some(name) = &reply.echo_header {
        let value = request.header(name).unwrap_or("").to_string();
        body = String::from_utf8_lossy(&body)
            .replace(ECHO, &value)
            .into_bytes();
    }
    shared.requests.lock().unwrap().push(request);

    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder().status(StatusCode::from_u16(reply.status).unwrap());
    for (name, value) in &reply.headers {
        response = response.header(name, value);
    }
    response.body(Body::from(body)).unwrap()
}

fn default_reply(path: &str) -> FakeReply {
    if path.ends_with("/audio/transcriptions") {
        FakeReply::transcription("fake transcript")
    } else if path.ends_with("/chat/completions") {
        FakeReply::chat("fake summary")
    } else {
        FakeReply::error(404, &format!("{{\"detail\":\"Not Found: {path}\"}}"))
    }
}
