//! A fake OpenAI-compatible server (chat completions and audio transcriptions) on 127.0.0.1.
//!
//! The wire formats of chat completions (with Fireworks' `reasoning_content`), transcriptions
//! and OpenAI errors over [`FakeServer`], which scripts, records and times the exchanges.
//!
//! ```ignore
//! let server = FakeOpenAi::start();
//! server.push(FakeReply::rate_limited("1"));
//! server.push(FakeReply::chat("## Overview\nFine."));
//! let client = ChatClient::new(&server.llm_config()).unwrap();
//! ```
//! Scripted replies are served in order, whatever the path. When none are left, the fallback
//! (see [`FakeServer::set_fallback`]) answers; without one, chat paths get
//! `chat_completion_json("fake summary")`, transcription paths `{"text":"fake transcript"}`,
//! `GET /v1/models` OpenAI's list of [`LISTED_MODELS`].
//!
//! A chat completion scripted as JSON is sent as OpenAI streams it to a request with
//! `"stream": true` (what vaultsum sends): `data:` chunks of a few words each, the
//! `finish_reason` in the last, `usage` in a chunk of its own when the request set
//! `stream_options.include_usage`, then `data: [DONE]` ([`streamed_chat`]).

use std::ops::Deref;

use serde_json::{json, Value};

use vaultsum_tools::config::{ApiKey, Config, LlmConfig};

pub use super::fake_server::{
    Ended, FakeReply, FakeServer, Gate, ReceivedRequest, StreamScript, ECHO,
};

/// The API key [`FakeOpenAi::llm_config`] uses; assert it never shows up in output.
pub const TEST_API_KEY: &str = "sk-test-FAKE-0123456789abcdef";

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

/// One `data:` event of a chat completion stream.
pub fn sse_event(chunk: &Value) -> Vec<u8> {
    format!("data: {chunk}\n\n").into_bytes()
}

/// `data: [DONE]`, the end of a stream.
pub const SSE_DONE: &[u8] = b"data: [DONE]\n\n";

/// A `chat.completion.chunk` with one `delta` and a `finish_reason` (null until the last).
pub fn chat_chunk(delta: Value, finish_reason: Option<&str>) -> Value {
    json!({
        "id": "chatcmpl-fake-1",
        "object": "chat.completion.chunk",
        "created": 1_767_225_600,
        "model": "accounts/fireworks/models/gpt-oss-120b",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]
    })
}

/// The events OpenAI streams for `completion`: the role, the reasoning and the content in
/// pieces of a few words, the `finish_reason`, the usage when asked for, `[DONE]`.
pub fn chat_events(completion: &Value, include_usage: bool) -> Vec<Vec<u8>> {
    let choice = &completion["choices"][0];
    let message = &choice["message"];
    let mut events = vec![sse_event(&chat_chunk(
        json!({"role": "assistant", "content": ""}),
        None,
    ))];
    for (field, text) in [
        ("reasoning_content", &message["reasoning_content"]),
        ("content", &message["content"]),
    ] {
        let text = text.as_str().unwrap_or_default();
        for piece in text.split_inclusive(' ').collect::<Vec<_>>().chunks(3) {
            events.push(sse_event(&chat_chunk(
                json!({ field: piece.concat() }),
                None,
            )));
        }
    }
    events.push(sse_event(&chat_chunk(
        json!({}),
        choice["finish_reason"].as_str(),
    )));
    if include_usage && !completion["usage"].is_null() {
        let mut last = chat_chunk(json!({}), None);
        last["choices"] = json!([]);
        last["usage"] = completion["usage"].clone();
        events.push(sse_event(&last));
    }
    events.push(SSE_DONE.to_vec());
    events
}

/// A scripted chat completion as a stream, for a chat request that asks for one.
pub fn streamed_chat(request: &ReceivedRequest, body: &[u8]) -> Option<StreamScript> {
    if !request.path.ends_with("/chat/completions") {
        return None;
    }
    let asked: Value = serde_json::from_slice(&request.body).ok()?;
    if asked["stream"] != true {
        return None;
    }
    let completion: Value = serde_json::from_slice(body).ok()?;
    // A stream always ends with a `finish_reason`: a completion scripted without one is sent
    // as JSON, as by a server that ignores `stream`.
    if completion["object"] != "chat.completion"
        || completion["choices"][0]["finish_reason"].is_null()
    {
        return None;
    }
    let include_usage = asked["stream_options"]["include_usage"] == true;
    Some(StreamScript {
        events: chat_events(&completion, include_usage),
        ..StreamScript::default()
    })
}

/// An http URL on 127.0.0.1 where nothing listens (connection refused).
pub fn unused_local_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/v1")
}

/// The OpenAI answers.
impl FakeReply {
    /// 200 with a chat completion whose content is `content`.
    pub fn chat(content: &str) -> FakeReply {
        FakeReply::json(200, chat_completion_json(content))
    }

    /// 200 with a chat completion carrying `reasoning_content` too.
    pub fn chat_with_reasoning(content: &str, reasoning: &str) -> FakeReply {
        FakeReply::json(200, chat_completion_with_reasoning_json(content, reasoning))
    }

    /// 200 with a chat completion that stopped at the output cap: `finish_reason` "length".
    pub fn chat_cut_at_cap(content: &str) -> FakeReply {
        let mut value = chat_completion_json(content);
        value["choices"][0]["finish_reason"] = json!("length");
        FakeReply::json(200, value)
    }

    /// A streamed answer that starts with `first` and then sends `again` every `pace`, without
    /// end: a model that never stops (until the client closes the connection).
    pub fn chat_stream_forever(first: &str, again: &str, pace: std::time::Duration) -> FakeReply {
        FakeReply::stream(StreamScript {
            events: vec![
                sse_event(&chat_chunk(
                    json!({"role": "assistant", "content": ""}),
                    None,
                )),
                sse_event(&chat_chunk(json!({ "content": first }), None)),
            ],
            forever: Some(sse_event(&chat_chunk(json!({ "content": again }), None))),
            pace,
        })
    }

    /// A streamed answer of `pieces` that ends with `[DONE]` and no `finish_reason`: what
    /// llama-cpp-python's server sends when it cuts an answer short for another request.
    pub fn chat_stream_cut_short(pieces: &[&str]) -> FakeReply {
        let mut events: Vec<Vec<u8>> = pieces
            .iter()
            .map(|piece| sse_event(&chat_chunk(json!({ "content": piece }), None)))
            .collect();
        events.push(SSE_DONE.to_vec());
        FakeReply::stream(StreamScript {
            events,
            ..StreamScript::default()
        })
    }

    /// 200 with a chat completion whose content is the empty string.
    pub fn empty_content() -> FakeReply {
        FakeReply::chat("")
    }

    /// 200 with Fireworks' transcription answer, `{"text": …}` and nothing else.
    pub fn transcription(text: &str) -> FakeReply {
        FakeReply::json(200, json!({ "text": text }))
    }

    /// 200 with Fireworks' `verbose_json` answer to `diarize=true`: `text`, `segments` and
    /// `words`, each segment and word with its `speaker_id`. `turns` are
    /// `(speaker_id, start, end, text)`; each turn's words are spread evenly over it.
    pub fn diarized_transcription(turns: &[(&str, f64, f64, &str)]) -> FakeReply {
        let mut segments = Vec::new();
        let mut words = Vec::new();
        for (id, (speaker, start, end, text)) in turns.iter().enumerate() {
            segments.push(json!({
                "id": id, "start": start, "end": end, "text": text, "speaker_id": speaker,
            }));
            let parts: Vec<&str> = text.split_whitespace().collect();
            let step = (end - start) / parts.len().max(1) as f64;
            for (i, word) in parts.iter().enumerate() {
                let at = start + step * i as f64;
                words.push(json!({
                    "word": word, "start": at, "end": at + step, "speaker_id": speaker,
                }));
            }
        }
        let text: Vec<&str> = turns.iter().map(|t| t.3).collect();
        FakeReply::json(
            200,
            json!({
                "task": "transcribe",
                "language": "en",
                "duration": turns.last().map_or(0.0, |t| t.2),
                "text": text.join(" "),
                "segments": segments,
                "words": words,
            }),
        )
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

    /// 200 with OpenAI's model list (`GET /v1/models`) naming these ids.
    pub fn model_list(ids: &[&str]) -> FakeReply {
        let data: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "object": "model", "created": 1_767_225_600, "owned_by": "fireworks"}))
            .collect();
        FakeReply::json(200, json!({"object": "list", "data": data}))
    }

    /// 200 with a body that is not valid JSON (cut off mid-object).
    pub fn malformed() -> FakeReply {
        FakeReply::raw(
            200,
            "application/json",
            r#"{"id":"chatcmpl-1","choices":[{"message":{"content":"#,
        )
    }
}

/// What an OpenAI request asked.
impl ReceivedRequest {
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
}

/// The fake OpenAI server: a [`FakeServer`] whose unscripted chat requests get
/// `chat_completion_json("fake summary")` and transcription requests `{"text":"fake transcript"}`.
pub struct FakeOpenAi {
    server: FakeServer,
}

impl Deref for FakeOpenAi {
    type Target = FakeServer;
    fn deref(&self) -> &FakeServer {
        &self.server
    }
}

impl FakeOpenAi {
    /// Starts a server on a free port of 127.0.0.1.
    pub fn start() -> FakeOpenAi {
        let server = FakeServer::start_with_queue_for(default_reply, is_model_call);
        server.stream_replies_with(streamed_chat);
        FakeOpenAi { server }
    }

    /// The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.url())
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
}

/// What the fake lists at `GET /v1/models` unless told otherwise: the default chat, vision and
/// speech models.
pub const LISTED_MODELS: [&str; 3] = [
    "accounts/fireworks/models/gpt-oss-120b",
    "accounts/fireworks/models/qwen3-vl-30b-a3b-instruct",
    "whisper-v3",
];

/// Chat completions and transcriptions take the queued replies; a client's questions about the
/// model (`/props`, `/v1/models`, Ollama's `/api/*`) get routes or the default 404.
fn is_model_call(request: &ReceivedRequest) -> bool {
    request.path.ends_with("/chat/completions") || request.path.ends_with("/audio/transcriptions")
}

fn default_reply(request: &ReceivedRequest) -> FakeReply {
    let path = &request.path;
    if path.ends_with("/audio/transcriptions") {
        FakeReply::transcription("fake transcript")
    } else if path.ends_with("/chat/completions") {
        FakeReply::chat("fake summary")
    } else if request.method == "GET" && path.ends_with("/v1/models") {
        FakeReply::model_list(&LISTED_MODELS)
    } else {
        FakeReply::error(404, &format!("{{\"detail\":\"Not Found: {path}\"}}"))
    }
}
