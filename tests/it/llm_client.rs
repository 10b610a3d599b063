//! The OpenAI-compatible client against a fake server speaking the real wire format.

use crate::support;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use serde_json::json;
use support::fake_openai::{
    chat_completion_json, unused_local_url, FakeOpenAi, FakeReply, ECHO, TEST_API_KEY,
};
use vaultsum_core::llm::{ChatClient, ChatRequest, LlmError};
use vaultsum_tools::config::LlmConfig;

fn request() -> ChatRequest {
    ChatRequest::text("test-model", "You summarize.", "Summarize this note.")
}

async fn chat(cfg: &LlmConfig) -> Result<vaultsum_core::llm::ChatReply, LlmError> {
    ChatClient::new(cfg).unwrap().chat(&request()).await
}

#[tokio::test]
async fn chat_sends_model_prompts_and_bearer_key_and_returns_the_reply() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat("### Overview\nA note."));
    let mut req = request();
    req.max_tokens = Some(512);
    let reply = ChatClient::new(&server.llm_config())
        .unwrap()
        .chat(&req)
        .await
        .unwrap();

    assert_eq!(reply.content, "### Overview\nA note.");
    assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
    assert_eq!(reply.usage.as_ref().unwrap()["total_tokens"], 150);
    assert_eq!(reply.attempts, 1);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(sent.method, "POST");
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {TEST_API_KEY}").as_str())
    );
    assert_eq!(sent.model().as_deref(), Some("test-model"));
    assert_eq!(sent.system_text(), "You summarize.");
    assert_eq!(sent.user_text(), "Summarize this note.");
    assert_eq!(sent.json()["max_tokens"], 512);
    assert_eq!(sent.json()["stream"], true);
    assert_eq!(sent.json()["stream_options"]["include_usage"], true);
}

#[tokio::test]
async fn unknown_or_null_finish_reason_is_accepted() {
    let server = FakeOpenAi::start();
    let mut eos = chat_completion_json("done");
    eos["choices"][0]["finish_reason"] = json!("eos");
    server.push(FakeReply::json(200, eos));
    let mut null = chat_completion_json("done too");
    null["choices"][0]["finish_reason"] = json!(null);
    server.push(FakeReply::json(200, null));
    let client = ChatClient::new(&server.llm_config()).unwrap();

    let first = client.chat(&request()).await.unwrap();
    assert_eq!(first.finish_reason.as_deref(), Some("eos"));
    assert_eq!(first.content, "done");
    let second = client.chat(&request()).await.unwrap();
    assert_eq!(second.finish_reason, None);
    assert_eq!(second.content, "done too");
}

#[tokio::test]
async fn reply_without_usage_and_with_extra_fields_is_accepted() {
    let server = FakeOpenAi::start();
    let mut body = chat_completion_json("fine");
    body.as_object_mut().unwrap().remove("usage");
    body["system_fingerprint"] = json!("fp_x");
    body["choices"][0]["logprobs"] = json!(null);
    body["choices"][0]["message"]["tool_calls"] = json!([]);
    body["perf_metrics"] = json!({"ttft": 0.1});
    server.push(FakeReply::json(200, body));

    let reply = chat(&server.llm_config()).await.unwrap();
    assert_eq!(reply.content, "fine");
    assert_eq!(reply.usage, None);
}

#[tokio::test]
async fn reasoning_content_is_kept_apart_from_the_answer() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_with_reasoning(
        "The summary.",
        "The user wants a summary...",
    ));
    let reply = chat(&server.llm_config()).await.unwrap();
    assert_eq!(reply.content, "The summary.");
    assert_eq!(
        reply.reasoning.as_deref(),
        Some("The user wants a summary...")
    );
}

#[tokio::test]
async fn empty_content_is_an_empty_reply_error() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::empty_content());
    let err = chat(&server.llm_config()).await.unwrap_err();
    assert!(matches!(err, LlmError::EmptyReply { .. }), "{err:?}");
    assert_eq!(server.request_count(), 1, "an empty reply is not retried");
}

#[tokio::test]
async fn every_chat_request_carries_the_configured_output_cap() {
    let server = FakeOpenAi::start();
    let mut cfg = server.llm_config();
    cfg.max_output_tokens = 777;
    let client = ChatClient::new(&cfg).unwrap();
    client.chat(&request()).await.unwrap();
    let mut own = request();
    own.max_tokens = Some(64);
    client.chat(&own).await.unwrap();
    let caps: Vec<_> = server
        .requests()
        .iter()
        .map(|r| r.json()["max_tokens"].clone())
        .collect();
    assert_eq!(caps, vec![json!(777), json!(64)]);
}

#[tokio::test]
async fn an_answer_cut_at_the_output_cap_is_kept_to_its_last_whole_item_with_a_marker() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_cut_at_cap(
        "### Overview\n- The budget was approved.\n- Hiring starts in May.\n\n### Risks\n- Supplier la",
    ));
    let mut cfg = server.llm_config();
    cfg.max_output_tokens = 300;
    let reply = chat(&cfg).await.unwrap();
    let marker = vaultsum_core::llm::cut_answer::CAP_MARKER;
    assert_eq!(
        reply.content,
        format!("### Overview\n- The budget was approved.\n- Hiring starts in May.\n\n{marker}")
    );
    assert!(reply.cut_at_cap);
    assert!(marker.contains("llm.max_output_tokens"), "{marker}");
    assert_eq!(server.request_count(), 1, "a cut answer is not retried");
}

#[tokio::test]
async fn an_answer_cut_at_the_output_cap_with_nothing_whole_is_an_error_not_a_reply() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_cut_at_cap(
        "### Overview\n- The budget was appr",
    ));
    let mut cfg = server.llm_config();
    cfg.max_output_tokens = 300;
    let err = chat(&cfg).await.unwrap_err();
    assert!(matches!(err, LlmError::CutOff { cap: 300 }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("llm.max_output_tokens"), "{text}");
    assert!(!err.is_retryable());
    assert_eq!(server.request_count(), 1, "a cut answer is not retried");
}

#[tokio::test]
async fn a_server_refusing_max_tokens_is_sent_max_completion_tokens_from_then_on() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::openai_error(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. \
         Use 'max_completion_tokens' instead.",
    ));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let reply = client.chat(&request()).await.unwrap();
    assert_eq!(reply.content, "fake summary");
    client.chat(&request()).await.unwrap();
    let sent: Vec<_> = server.requests().iter().map(|r| r.json()).collect();
    assert_eq!(sent.len(), 3, "one refusal, then each request once");
    assert_eq!(sent[0]["max_tokens"], 4096, "the default cap");
    for body in &sent[1..] {
        assert!(body.get("max_tokens").is_none(), "{body}");
        assert_eq!(body["max_completion_tokens"], 4096);
    }
}

#[tokio::test]
async fn server_error_keeps_status_and_message_after_retrying() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::error(500, "upstream model crashed"));
    let err = chat(&server.llm_config()).await.unwrap_err();

    assert_eq!(err.status(), Some(500));
    assert_eq!(err.attempts(), 3);
    let text = err.to_string();
    assert!(text.contains("HTTP 500"), "{text}");
    assert!(text.contains("upstream model crashed"), "{text}");
    assert!(text.contains("after 3 attempts"), "{text}");
    assert_eq!(server.request_count(), 3);
}

#[tokio::test]
async fn bad_request_with_detail_body_is_reported_and_not_retried() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::error(
        400,
        r#"{"detail":"Model not found, inaccessible, and/or not deployed"}"#,
    ));
    let err = chat(&server.llm_config()).await.unwrap_err();

    assert_eq!(err.status(), Some(400));
    assert!(
        err.to_string()
            .contains("Model not found, inaccessible, and/or not deployed"),
        "{err}"
    );
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn openai_error_object_is_reported_and_auth_failure_not_retried() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::openai_error(401, "Invalid API key provided"));
    let err = chat(&server.llm_config()).await.unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert!(
        err.to_string().contains("Invalid API key provided"),
        "{err}"
    );
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn html_error_page_becomes_a_short_excerpt_with_the_status() {
    let server = FakeOpenAi::start();
    let page = format!(
        "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>{}</style></head>\
         <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
        "body { color: red; } ".repeat(200)
    );
    server.set_fallback(FakeReply::error(502, &page));
    let err = chat(&server.llm_config()).await.unwrap_err();

    assert_eq!(err.status(), Some(502));
    let text = err.to_string();
    assert!(text.contains("502 Bad Gateway"), "{text}");
    assert!(
        !text.contains('<'),
        "markup leaked into the message: {text}"
    );
    assert!(text.len() < 200, "message is not short: {text}");
}

#[tokio::test]
async fn empty_error_body_reports_the_status_reason() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::raw(503, "text/plain", ""));
    let err = chat(&server.llm_config()).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert!(err.to_string().contains("Service Unavailable"), "{err}");
}

#[tokio::test]
async fn slow_server_hits_the_request_timeout() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat("too late").with_delay(Duration::from_secs(4)));
    let mut cfg = server.llm_config();
    cfg.timeout_secs = 1;
    let err = chat(&cfg).await.unwrap_err();

    assert!(matches!(err, LlmError::Timeout { secs: 1, .. }), "{err:?}");
    assert!(err.to_string().contains("timed out after 1s"), "{err}");
    assert_eq!(server.request_count(), 1, "a timeout is not retried");
}

/// A config whose own backoff (60 s) could never fit the 5 s retry budget: a retry can only
/// happen when the client waits for the (shorter) `Retry-After` instead.
fn config_that_retries_only_on_retry_after(server: &FakeOpenAi) -> LlmConfig {
    let mut cfg = server.llm_config();
    cfg.initial_backoff_ms = 60_000;
    cfg.max_retry_secs = 5;
    cfg
}

#[tokio::test]
async fn rate_limit_is_retried_after_the_retry_after_seconds() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::rate_limited("1"));
    server.push(FakeReply::chat("after the wait"));
    let reply = chat(&config_that_retries_only_on_retry_after(&server))
        .await
        .unwrap();

    assert_eq!(reply.content, "after the wait");
    assert_eq!(reply.attempts, 2);
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn rate_limit_is_retried_after_a_retry_after_http_date() {
    let server = FakeOpenAi::start();
    let when = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(1));
    server.push(FakeReply::rate_limited(&when));
    server.push(FakeReply::chat("after the date"));
    let reply = chat(&config_that_retries_only_on_retry_after(&server))
        .await
        .unwrap();

    assert_eq!(reply.content, "after the date");
    assert_eq!(reply.attempts, 2);
}

#[tokio::test]
async fn retry_after_beyond_the_time_budget_gives_up_at_once() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::rate_limited("3600"));
    let mut cfg = server.llm_config();
    cfg.max_retry_secs = 5;
    let err = chat(&cfg).await.unwrap_err();

    assert_eq!(err.status(), Some(429));
    assert!(err.to_string().contains("rate limit exceeded"), "{err}");
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn retries_stop_after_max_attempts() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::error(503, "overloaded"));
    let mut cfg = server.llm_config();
    cfg.max_attempts = 4;
    let err = chat(&cfg).await.unwrap_err();
    assert_eq!(err.attempts(), 4);
    assert_eq!(server.request_count(), 4);

    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::error(503, "overloaded"));
    let mut cfg = server.llm_config();
    cfg.max_attempts = 1;
    chat(&cfg).await.unwrap_err();
    assert_eq!(server.request_count(), 1, "max_attempts = 1 means no retry");
}

#[tokio::test]
async fn server_error_then_success_is_retried_transparently() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::error(500, "hiccup"));
    server.push(FakeReply::error(
        502,
        "<html><title>Bad Gateway</title></html>",
    ));
    server.push(FakeReply::chat("third time lucky"));
    let reply = chat(&server.llm_config()).await.unwrap();
    assert_eq!(reply.content, "third time lucky");
    assert_eq!(reply.attempts, 3);
}

#[tokio::test]
async fn connection_refused_is_a_connect_error_after_retries() {
    let mut cfg = FakeOpenAi::start().llm_config();
    cfg.base_url = unused_local_url();
    cfg.max_attempts = 2;
    let err = chat(&cfg).await.unwrap_err();

    assert!(matches!(err, LlmError::Connect { .. }), "{err:?}");
    assert_eq!(err.attempts(), 2);
    let text = err.to_string();
    assert!(text.contains(&cfg.base_url), "names the endpoint: {text}");
}

#[tokio::test]
async fn malformed_json_reply_is_a_malformed_error() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::malformed());
    let err = chat(&server.llm_config()).await.unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn success_status_without_choices_is_a_malformed_error() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::json(
        200,
        json!({"id": "x", "object": "chat.completion"}),
    ));
    let err = chat(&server.llm_config()).await.unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
}

/// Collects everything logged at any level, to check what a user with RUST_LOG=trace would see.
#[derive(Clone, Default)]
struct LogBuffer(Arc<Mutex<Vec<u8>>>);

impl Write for LogBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_key_the_server_escapes_in_its_error_is_masked_once_read() {
    // JSON escapes and HTML entities hide the key from a mask applied to the raw body; the
    // excerpt is masked again once decoded.
    let server = FakeOpenAi::start();
    let escaped: String = TEST_API_KEY
        .chars()
        .map(|c| format!("\\u{:04x}", c as u32))
        .collect();
    let entities: String = TEST_API_KEY
        .chars()
        .map(|c| format!("&#{};", c as u32))
        .collect();
    let client = ChatClient::new(&server.llm_config()).unwrap();
    for reply in [
        FakeReply::error(
            401,
            &format!(r#"{{"error":{{"message":"bad key {escaped}"}}}}"#),
        ),
        FakeReply::error(
            403,
            &format!("<html><title>bad key {entities}</title></html>"),
        ),
    ] {
        server.set_fallback(reply);
        let err = client.chat(&request()).await.unwrap_err();
        let shown = format!("{err} | {err:?}");
        assert!(!shown.contains(TEST_API_KEY), "key leaked: {shown}");
        assert!(shown.contains("bad key ***"), "not said: {shown}");
    }
}

#[tokio::test]
async fn api_key_never_appears_in_errors_or_logs_even_when_the_server_echoes_it() {
    let logs = LogBuffer::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let server = FakeOpenAi::start();
    let echoed = [
        FakeReply::error(
            401,
            &format!(r#"{{"error":{{"message":"bad key: {ECHO}"}}}}"#),
        ),
        FakeReply::error(400, &format!(r#"{{"detail":"header was {ECHO}"}}"#)),
        FakeReply::error(500, &format!("<html><title>{ECHO}</title></html>")),
        FakeReply::raw(200, "text/plain", format!("not json {ECHO}")),
        FakeReply::json(200, json!({"unexpected": ECHO})),
    ];
    let mut cfg = server.llm_config();
    cfg.max_attempts = 2; // the 500 is retried, so its message is also logged
    let client = ChatClient::new(&cfg).unwrap();
    for reply in echoed {
        server.set_fallback(reply.echoing("authorization"));
        let err = client.chat(&request()).await.unwrap_err();
        let shown = format!("{err} | {err:?}");
        assert!(!shown.contains(TEST_API_KEY), "key leaked: {shown}");
        assert!(
            shown.contains("Bearer ***"),
            "the echo was not redacted: {shown}"
        );
    }
    assert!(!format!("{client:?}").contains(TEST_API_KEY));

    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("retrying"), "logs were not captured: {logs}");
    assert!(!logs.contains(TEST_API_KEY), "key leaked into logs: {logs}");
}

#[tokio::test]
async fn transcription_posts_multipart_file_and_model_to_the_audio_base_url() {
    let chat_server = FakeOpenAi::start();
    let audio_server = FakeOpenAi::start();
    audio_server.push(FakeReply::transcription("  Hello from the meeting.\n"));
    let mut cfg = chat_server.llm_config();
    cfg.audio_base_url = audio_server.base_url();
    let client = ChatClient::new(&cfg).unwrap();

    let text = client
        .transcribe("memo.m4a", b"fake-m4a-bytes".to_vec(), "whisper-v3")
        .await
        .unwrap();

    assert_eq!(text, "Hello from the meeting.");
    assert_eq!(chat_server.request_count(), 0);
    let requests = audio_server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!(sent.path, "/v1/audio/transcriptions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {TEST_API_KEY}").as_str())
    );
    let file = sent.multipart_field("file").expect("file field");
    assert_eq!(file.file_name.as_deref(), Some("memo.m4a"));
    assert_eq!(file.content_type.as_deref(), Some("audio/mp4"));
    assert_eq!(file.data, b"fake-m4a-bytes");
    assert_eq!(sent.model().as_deref(), Some("whisper-v3"));
}

#[tokio::test]
async fn transcription_errors_keep_their_status() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::error(413, "Request Entity Too Large"));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let err = client
        .transcribe("long.mp3", vec![1, 2, 3], "whisper-v3")
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(413));
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn transcription_reply_without_text_is_malformed() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::json(200, json!({"segments": []})));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let err = client
        .transcribe("a.wav", vec![1], "whisper-v3")
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
}

#[tokio::test]
async fn transcription_is_retried_after_a_rate_limit() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::rate_limited("0"));
    server.push(FakeReply::transcription("second try"));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let text = client
        .transcribe("a.ogg", b"ogg".to_vec(), "whisper-v3")
        .await
        .unwrap();
    assert_eq!(text, "second try");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].multipart_field("file").unwrap().data,
        b"ogg",
        "the retry re-sends the whole file"
    );
}

/// Eight callers of [`request`] at once, returned once seven wait on the first one's call and
/// its request has reached the server (held there until the test opens its gate).
async fn eight_callers_of_one_request(
    server: &FakeOpenAi,
    client: &Arc<ChatClient>,
) -> Vec<tokio::task::JoinHandle<Result<vaultsum_core::llm::ChatReply, LlmError>>> {
    let callers: Vec<_> = (0..8)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.chat(&request()).await })
        })
        .collect();
    assert!(
        support::poll::wait_until_async(|| client.callers_waiting_on(&request()) == 7).await,
        "seven callers wait on the first one's call"
    );
    // The first one's request reaches the server (it may still be on its way).
    assert!(support::poll::wait_until_async(|| server.request_count() == 1).await);
    callers
}

/// Two callers asking the very same request at the same moment (the same note summarized by
/// two MCP sessions, a rollup and a batch) make one paid call: the others get its answer,
/// marked as shared. A different request, or the same one once the call is over, is a call
/// of its own (an answer is not a cache).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn identical_requests_in_flight_share_one_call() {
    let server = FakeOpenAi::start();
    let gate = support::fake_server::Gate::new();
    server.set_fallback(FakeReply::chat("### Overview\nShared.").held_until(&gate));
    let client = Arc::new(ChatClient::new(&server.llm_config()).unwrap());
    let callers = eight_callers_of_one_request(&server, &client).await;
    gate.open();
    let mut shared = 0;
    for caller in callers {
        let reply = caller.await.unwrap().unwrap();
        assert_eq!(reply.content, "### Overview\nShared.");
        shared += usize::from(reply.shared);
    }
    assert_eq!(shared, 7, "the one that paid is not marked shared");
    assert_eq!(server.request_count(), 1, "one paid call for eight callers");
    assert_eq!(client.usage().requests, 1, "what was paid is counted once");
    let other = ChatRequest::text("test-model", "You summarize.", "Another note.");
    assert!(!client.chat(&other).await.unwrap().shared);
    assert!(!client.chat(&request()).await.unwrap().shared);
    assert_eq!(server.request_count(), 3);
}

/// The call the others wait on fails: each of them gets its error (a context-length error
/// stays one, so each caller can split its note), none hangs, and the failing call is made once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_shared_request_reaches_every_waiter_with_its_error() {
    let server = FakeOpenAi::start();
    let gate = support::fake_server::Gate::new();
    server.set_fallback(
        FakeReply::openai_error(400, "This model's maximum context length is 4096 tokens")
            .held_until(&gate),
    );
    let client = Arc::new(ChatClient::new(&server.llm_config()).unwrap());
    let callers = eight_callers_of_one_request(&server, &client).await;
    gate.open();
    for caller in callers {
        let error = caller.await.unwrap().unwrap_err();
        assert_eq!(error.status(), Some(400), "{error}");
        assert_eq!(
            client.learn_from_error("test-model", &error),
            Some(Some(4096)),
            "{error}"
        );
    }
    assert_eq!(server.request_count(), 1, "the failing call was made once");
}
