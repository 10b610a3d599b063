//! `summarize` against a fake Kagi Universal Summarizer on 127.0.0.1.

use crate::support;

use std::time::Duration;

use serde_json::{json, Value};
use support::fake_kagi::FakeReply;
use support::fake_kagi::{authorization, envelope, error, ok, FakeKagi, TEST_KEY};
use vaultsum_core::kagi::KeySource;
use vaultsum_tools::summarize::SummarizeTool;
use vaultsum_tools::{Tool, ToolOutput};

const GENEROUS: Duration = Duration::from_secs(10);

fn tool(fake: &FakeKagi, timeout: Duration) -> SummarizeTool {
    SummarizeTool::with_client(fake.client(timeout))
}

async fn summarize(fake: &FakeKagi, args: Value) -> ToolOutput {
    tool(fake, GENEROUS).call(args).await
}

fn summary(output: &str, tokens: u64) -> FakeReply {
    ok(envelope(json!({"output": output, "tokens": tokens})))
}

#[tokio::test]
async fn summarize_posts_json_body_with_bot_authorization() {
    let fake = FakeKagi::start();
    fake.on_summarize(summary("A short summary.", 321));
    let out = summarize(
        &fake,
        json!({"url": "https://example.com/paper.pdf", "summary_type": "takeaway",
               "engine": "agnes", "target_language": "DE"}),
    )
    .await;
    assert!(!out.is_error, "{}", out.text);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.method.as_str(), "POST");
    assert_eq!(request.url.path(), "/api/v0/summarize");
    assert_eq!(authorization(request), Some(format!("Bot {TEST_KEY}")));
    assert_eq!(request.header("content-type").unwrap(), "application/json");
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(
        body,
        json!({"url": "https://example.com/paper.pdf", "summary_type": "takeaway",
               "engine": "agnes", "target_language": "DE"})
    );
}

#[tokio::test]
async fn defaults_are_summary_and_cecil_without_a_language() {
    let fake = FakeKagi::start();
    fake.on_summarize(summary("S.", 10));
    summarize(&fake, json!({"url": "https://example.com"})).await;
    let body: Value = serde_json::from_slice(&fake.requests()[0].body).unwrap();
    assert_eq!(
        body,
        json!({"url": "https://example.com", "summary_type": "summary", "engine": "cecil"})
    );
}

#[tokio::test]
async fn text_is_kagis_output_only_and_metadata_goes_to_details() {
    let fake = FakeKagi::start();
    let output = "- Point one\n- Point two &amp; three";
    fake.on_summarize(summary(output, 1234));
    let out = summarize(
        &fake,
        json!({"url": "https://example.com/notes", "summary_type": "takeaway"}),
    )
    .await;
    assert_eq!(out.text, output, "the summary is passed through untouched");
    assert_eq!(out.details["url"], "https://example.com/notes");
    assert_eq!(out.details["summary_type"], "takeaway");
    assert_eq!(out.details["engine"], "cecil");
    assert_eq!(out.details["tokens"], 1234);
    assert_eq!(out.details["api_balance"], 9.876);
}

#[tokio::test]
async fn unreadable_url_reports_kagis_own_message() {
    let fake = FakeKagi::start();
    fake.on_summarize(error(
        500,
        -100,
        "Sorry, we could not summarize this URL. The page may require a login.",
    ));
    let out = summarize(&fake, json!({"url": "https://paywalled.example"})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi summarizer request failed: HTTP 500 Internal Server Error: \
         Sorry, we could not summarize this URL. The page may require a login."
    );
    assert_eq!(out.details["url"], "https://paywalled.example");
}

#[tokio::test]
async fn unauthorised_key_reports_status_and_message_without_the_key() {
    let fake = FakeKagi::start();
    fake.on_summarize(error(401, 1, "Unauthorized: Invalid token"));
    let out = summarize(&fake, json!({"url": "https://example.com"})).await;
    assert_eq!(
        out.text,
        "Kagi summarizer request failed: HTTP 401 Unauthorized: Unauthorized: Invalid token"
    );
    assert!(!format!("{out:?}").contains(TEST_KEY));
}

#[tokio::test]
async fn exhausted_credit_reports_kagis_message() {
    let fake = FakeKagi::start();
    fake.on_summarize(error(
        400,
        101,
        "Insufficient credit to perform this request.",
    ));
    let out = summarize(&fake, json!({"url": "https://example.com"})).await;
    assert_eq!(
        out.text,
        "Kagi summarizer request failed: HTTP 400 Bad Request: Insufficient credit to perform this request."
    );
}

#[tokio::test]
async fn error_inside_a_success_envelope_is_still_an_error() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(support::fake_kagi::error_envelope(
        -1,
        "Could not fetch the document",
    )));
    let out = summarize(&fake, json!({"url": "https://example.com"})).await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi summarizer request failed: Could not fetch the document"
    );
}

#[tokio::test]
async fn missing_key_gives_the_documented_message() {
    let fake = FakeKagi::start();
    let client = fake
        .client(GENEROUS)
        .with_key_source(KeySource::Fixed(None));
    let out = SummarizeTool::with_client(client)
        .call(json!({"url": "https://example.com"}))
        .await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use summarize."
    );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn slow_summarizer_within_the_timeout_is_awaited() {
    let fake = FakeKagi::start();
    fake.on_summarize(summary("Worth the wait.", 5).with_delay(Duration::from_millis(800)));
    let out = tool(&fake, Duration::from_secs(5))
        .call(json!({"url": "https://example.com"}))
        .await;
    assert_eq!(out.text, "Worth the wait.");
}

#[tokio::test]
async fn summarizer_slower_than_the_timeout_is_a_timeout_error() {
    let fake = FakeKagi::start();
    fake.on_summarize(summary("late", 1).with_delay(Duration::from_secs(3)));
    let out = tool(&fake, Duration::from_millis(250))
        .call(json!({"url": "https://example.com"}))
        .await;
    assert!(out.is_error);
    assert_eq!(
        out.text,
        "Kagi summarizer request timed out after 0.25 s (raise kagi.summarize_timeout_secs in the config file to wait longer)"
    );
    assert_eq!(out.details["error"], "timeout");
}

#[tokio::test]
async fn huge_summary_is_truncated_with_the_full_text_in_a_temp_file() {
    let fake = FakeKagi::start();
    let output: String = (1..=3000).map(|i| format!("- takeaway {i}\n")).collect();
    fake.on_summarize(summary(&output, 99_999));
    let out = summarize(&fake, json!({"url": "https://example.com"})).await;
    let path = out.details["truncation"]["full_output_path"]
        .as_str()
        .expect("saved");
    let full = std::fs::read_to_string(path).unwrap();
    std::fs::remove_file(path).unwrap();
    assert_eq!(full, output);
    let shown: Vec<&str> = out.text.lines().collect();
    assert_eq!(shown[1999], "- takeaway 2000");
    assert_eq!(shown[2000], "");
    assert_eq!(
        shown[2001],
        format!(
            // 46 893 bytes in all; the first 2000 lines joined are 30 892.
            "[Output truncated: showing 2000 of 3000 lines (30.2KB of 45.8KB). \
             1000 lines (15.6KB) omitted. Full output saved to: {path}]"
        )
    );
}

#[tokio::test]
async fn url_that_is_not_http_is_refused_before_any_request() {
    let fake = FakeKagi::start();
    for url in ["example.com", "file:///etc/passwd", ""] {
        let out = summarize(&fake, json!({ "url": url })).await;
        assert!(out.is_error);
        assert!(out.text.starts_with("invalid url"), "{}", out.text);
    }
    let out = summarize(&fake, json!({"url": "https://e.com", "engine": "gpt"})).await;
    assert!(
        out.text.starts_with("invalid arguments for summarize"),
        "{}",
        out.text
    );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn call_and_result_render_type_engine_and_tokens() {
    let fake = FakeKagi::start();
    fake.on_summarize(summary("- a\n- b", 77));
    let t = tool(&fake, GENEROUS);
    let args = json!({"url": "https://e.com/x", "summary_type": "takeaway", "engine": "agnes"});
    assert_eq!(
        t.render_call(&args),
        "summarize \"https://e.com/x\" (takeaway, agnes)"
    );
    assert_eq!(
        t.render_call(&json!({"url": "https://e.com/x"})),
        "summarize \"https://e.com/x\""
    );
    let out = t.call(args.clone()).await;
    assert_eq!(t.render_result(&out, false), "takeaway, 77 tokens");
    assert_eq!(t.render_result(&out, true), "- a\n- b");
    assert_eq!(
        t.stub(&args, &out).render(200),
        "[✓ summarize: https://e.com/x | takeaway | agnes | 77 tokens]"
    );
}
