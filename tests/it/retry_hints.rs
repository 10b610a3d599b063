//! `summarize_file` says, as data (`ToolOutput::retry`, and `retryable` in `details`), whether a
//! failure is worth retrying later; decided from the typed errors below it, never from the
//! wording of a message or the name of the note. In process, against the fake OpenAI server.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use support::fake_openai::{unused_local_url, FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, RetryHint, ToolContext, ToolOutput};

const NOTE: &str = "# Ideas\n\nWe should rate limit the importer.\n";

/// One request per call: the client's own retries are tested elsewhere; here each failure
/// reaches the tool as it is.
fn config(vault: &TempVault, server: &FakeOpenAi) -> Config {
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        llm: server.llm_config(),
        ..Config::default()
    };
    config.llm.max_attempts = 1;
    config.summarize.engine = Engine::Llm;
    config
}

async fn summarize(config: Config, path: &str) -> ToolOutput {
    let registry = Registry::new(Arc::new(ToolContext::new(config).expect("context")));
    registry
        .call("summarize_file", json!({ "path": path }))
        .await
}

fn later(after: Option<Duration>) -> Option<RetryHint> {
    Some(RetryHint::Later { after })
}

#[tokio::test]
async fn rate_limit_is_worth_retrying_after_the_servers_retry_after() {
    let vault = TempVault::with(&[("Inbox/x.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.push(FakeReply::rate_limited("42"));
    let output = summarize(config(&vault, &server), "Inbox/x.md").await;

    assert!(output.is_error);
    assert_eq!(output.retry, later(Some(Duration::from_secs(42))));
    assert_eq!(output.details["retryable"], json!(true));
    assert_eq!(output.details["retry_after_secs"], json!(42.0));
    assert_eq!(vault.read("Inbox/x.md"), NOTE.as_bytes());
}

#[tokio::test]
async fn overloaded_or_unreachable_provider_is_worth_retrying() {
    let vault = TempVault::with(&[("Inbox/x.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.push(FakeReply::error(503, "<html>Service Unavailable</html>"));
    let output = summarize(config(&vault, &server), "Inbox/x.md").await;
    assert_eq!(output.retry, later(None));

    let mut unreachable = config(&vault, &server);
    unreachable.llm.base_url = unused_local_url();
    let output = summarize(unreachable, "Inbox/x.md").await;
    assert!(output.is_error);
    assert_eq!(output.retry, later(None), "{}", output.text);
}

#[tokio::test]
async fn bad_request_is_never_retried_whatever_the_note_or_the_message_says() {
    let vault = TempVault::with(&[("rate limit ideas.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.push(FakeReply::openai_error(
        400,
        "HTTP 429 rate limit: too many requests (timed out)",
    ));
    let output = summarize(config(&vault, &server), "rate limit ideas.md").await;

    assert!(output.is_error);
    assert_eq!(output.retry, None);
    assert_eq!(output.details["retryable"], json!(false));
    assert!(output.text.contains("rate limit"), "{}", output.text);
}

#[tokio::test]
async fn timeout_is_not_retried() {
    let vault = TempVault::with(&[("Slow.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat("too late").with_delay(Duration::from_secs(4)));
    let mut config = config(&vault, &server);
    config.llm.timeout_secs = 1;
    let output = summarize(config, "Slow.md").await;

    assert!(output.text.contains("timed out"), "{}", output.text);
    assert_eq!(output.retry, None);
    assert_eq!(output.details["retryable"], json!(false));
}

#[tokio::test]
async fn unauthorized_empty_summary_and_missing_note_are_never_retried() {
    let vault = TempVault::with(&[("Inbox/x.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.push(FakeReply::openai_error(401, "invalid api key"));
    server.push(FakeReply::empty_content());
    for path in ["Inbox/x.md", "Inbox/x.md", "Inbox/missing.md"] {
        let output = summarize(config(&vault, &server), path).await;
        assert!(output.is_error, "{path}");
        assert_eq!(output.retry, None, "{}", output.text);
    }
}

#[tokio::test]
async fn success_carries_no_retry_hint() {
    let vault = TempVault::with(&[("Inbox/x.md", NOTE)]);
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat("### Key Points\n- fine"));
    let output = summarize(config(&vault, &server), "Inbox/x.md").await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(output.retry, None);
    // `--json` output keeps its shape: the hint is in `details` of failures only.
    let json = serde_json::to_value(&output).unwrap();
    let mut keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(keys, ["details", "is_error", "text"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_taken_by_another_program_during_the_write_is_busy_and_worth_retrying() {
    let vault = TempVault::with(&[("Data.csv", "name,total\napples,3\npears,5\n")]);
    let server = FakeOpenAi::start();
    // Slow enough that the companion note can appear while the summary is being made.
    server.set_fallback(
        FakeReply::chat("### Key Points\n- fruit").with_delay(Duration::from_secs(2)),
    );
    let call = tokio::spawn(summarize(config(&vault, &server), "Data.csv"));
    assert!(support::poll::wait_until_async(|| server.request_count() == 1).await);
    // Another program creates the companion note first.
    let theirs = "My own notes on the data.\n";
    vault.write("Data.csv (summary).md", theirs);
    let output = call.await.unwrap();

    assert!(output.is_error, "{}", output.text);
    assert!(output.text.contains("busy"), "{}", output.text);
    assert_eq!(output.retry, later(None));
    assert_eq!(output.details["retryable"], json!(true));
    assert_eq!(vault.read("Data.csv (summary).md"), theirs.as_bytes());
}
