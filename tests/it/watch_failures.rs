//! When the LLM misbehaves: rate limits outlasting the client's own retries, a note that fails
//! for good among notes that do not; and the polling watcher used when inotify is unavailable.

use crate::support;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::watcher::{
    long_body, registry, summary_count, wait_until_async, RunningWatcher, WatchVault,
};
use vaultsum::watch::Backend;

const SUMMARY: &str = "### Key Points\n- survived";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_outlasting_the_client_retries_are_retried_by_the_watcher() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    let mut config = vault.config(&server);
    // One request per client call, so each 429 reaches the watcher as a failed note.
    config.llm.max_attempts = 1;
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    server.push(FakeReply::rate_limited("0"));
    server.push(FakeReply::error(503, "<html>Service Unavailable</html>"));
    vault.write("Busy day.md", &long_body("a busy provider"));
    assert!(wait_until_async(|| summary_count(&vault.read("Busy day.md")) == 1).await);
    let report = watcher.stop().await;

    assert_eq!(server.request_count(), 3);
    assert_eq!(report.summarized, 1);
    assert_eq!(report.failed, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_retries_are_bounded() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::rate_limited("0"));
    let vault = WatchVault::new();
    let mut config = vault.config(&server);
    config.llm.max_attempts = 1;
    let mut opts = vault.options(&config);
    opts.max_retries = 2;
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    let text = long_body("never answered");
    vault.write("Unlucky.md", &text);
    // The first call and two retries, then the watcher gives up on this content.
    assert!(wait_until_async(|| server.request_count() >= 3).await);
    // The provider recovers; a note written now shows the watcher is still working.
    server.set_fallback(FakeReply::chat(SUMMARY));
    vault.write("Canary.md", &long_body("canary"));
    assert!(wait_until_async(|| summary_count(&vault.read("Canary.md")) == 1).await);
    let report = watcher.stop().await;

    assert_eq!(report.failed, 1, "the watcher did not give up on the note");
    assert_eq!(server.request_count(), 4, "retries were not bounded");
    assert_eq!(vault.read("Unlucky.md"), text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_failing_note_does_not_stop_the_others() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.concurrency = 1;
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    // A 400 is not transient: the note is left as it is until the person edits it. (Not a
    // context-length 400: that one sends the note again in parts, see long_notes.rs.)
    server.push(FakeReply::openai_error(
        400,
        "unsupported value for 'temperature'",
    ));
    let bad = long_body("refused by the model");
    vault.write("Huge.md", &bad);
    assert!(wait_until_async(|| server.request_count() == 1).await);
    vault.write("Fine.md", &long_body("fine"));
    assert!(wait_until_async(|| summary_count(&vault.read("Fine.md")) == 1).await);

    // Editing the failed note makes it a candidate again.
    let edited = format!("{bad}Shortened.\n");
    vault.write("Huge.md", &edited);
    assert!(wait_until_async(|| summary_count(&vault.read("Huge.md")) == 1).await);
    let report = watcher.stop().await;

    assert!(vault.read("Huge.md").starts_with(&edited));
    assert_eq!(report.failed, 1);
    assert_eq!(report.summarized, 2);
    assert_eq!(server.request_count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_watcher_summarizes_new_notes_too() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.backend = Backend::Polling(Duration::from_millis(100));
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    vault.write("Polled/New.md", &long_body("polling"));
    assert!(wait_until_async(|| summary_count(&vault.read("Polled/New.md")) == 1).await);
    watcher.stop().await;
    assert_eq!(server.request_count(), 1);
}
