//! `watch.refresh`: a note edited after its summary is summarized again once it settles; the
//! summary's own write never starts another refresh (no loop), a summary edited by hand is
//! never replaced, and without the setting an edited note is left alone. Real file-system
//! events, the real Registry, the fake OpenAI server over HTTP.

use crate::support;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fingerprints::{fingerprint_count, first_fingerprint};
use support::watcher::{
    long_body, registry, summary_count, wait_until_async, RunningWatcher, WatchVault,
};

const SUMMARY: &str = "### Key Points\n- the team agreed on next steps";

fn server() -> FakeOpenAi {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    server
}

/// The fake server, an empty vault, and a watcher with `refresh` on.
async fn start_refreshing() -> (FakeOpenAi, WatchVault, RunningWatcher) {
    let server = server();
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.refresh = true;
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;
    (server, vault, watcher)
}

/// Chat requests whose note text contains `topic`.
fn requests_about(server: &FakeOpenAi, topic: &str) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.path == "/v1/chat/completions" && r.user_text().contains(topic))
        .count()
}

/// `note` with its body (everything before `## Summary`) replaced by `body`.
fn with_body(note: &str, body: &str) -> String {
    let at = note.find("## Summary").expect("the note has a summary");
    format!("{body}\n{}", &note[at..])
}

/// Writes a new note and waits for the watcher to summarize it: the event that proves every
/// event before it was handled (the watcher takes notes in the order they settle).
async fn sentinel(vault: &WatchVault, name: &str) {
    vault.write(name, &long_body(name));
    assert!(
        wait_until_async(|| summary_count(&vault.read(name)) == 1).await,
        "the sentinel {name} was never summarized"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_note_is_refreshed_once_per_edit_and_its_own_write_starts_nothing() {
    let (server, vault, watcher) = start_refreshing().await;

    vault.write("Plan.md", &long_body("topic-0"));
    assert!(wait_until_async(|| summary_count(&vault.read("Plan.md")) == 1).await);
    // Ten rounds of a person editing the note: each edit, once settled, is summarized again,
    // in place of the old summary; the summary's own write is not an edit.
    for round in 1..=10 {
        let topic = format!("topic-{round}");
        let note = vault.read("Plan.md");
        let old_fingerprint = first_fingerprint(&note).map(str::to_string);
        vault.write("Plan.md", &with_body(&note, &long_body(&topic)));
        let refreshed = |text: &str| {
            // The body as written (a refresh trims the blank space before the summary), and a
            // summary written for it: the fake answers every round with the same text, so only
            // the fingerprint tells the refreshed summary from the one the edit kept. (Editing
            // again before that write would rightly make it refuse: the note changed.)
            text.starts_with(long_body(&topic).trim_end())
                && summary_count(text) == 1
                && fingerprint_count(text) == 1
                && first_fingerprint(text).map(str::to_string) != old_fingerprint
                && text.ends_with(&format!("{SUMMARY}\n"))
        };
        assert!(
            wait_until_async(|| requests_about(&server, &format!("{topic} ")) == 1
                && refreshed(&vault.read("Plan.md")))
            .await,
            "round {round}: not refreshed ({} requests about it): {:?}",
            requests_about(&server, &format!("{topic} ")),
            vault.read("Plan.md")
        );
    }
    sentinel(&vault, "Sentinel.md").await;
    let report = watcher.stop().await;

    let chats = server
        .requests()
        .iter()
        .filter(|r| r.path == "/v1/chat/completions")
        .count();
    assert_eq!(
        chats, 12,
        "one summary, ten refreshes, the sentinel: no call from the watcher's own writes"
    );
    for round in 0..=10 {
        assert_eq!(
            requests_about(&server, &format!("topic-{round} ")),
            1,
            "topic-{round}"
        );
    }
    assert_eq!(report.summarized, 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_summary_edited_by_hand_is_never_refreshed() {
    let (server, vault, watcher) = start_refreshing().await;

    vault.write("Plan.md", &long_body("first"));
    assert!(wait_until_async(|| summary_count(&vault.read("Plan.md")) == 1).await);
    // The person corrects the summary, and the body too: the summary is theirs now.
    let corrected = vault
        .read("Plan.md")
        .replace("agreed on next steps", "agreed on nothing yet")
        .replace("# first", "# first, revised");
    vault.write("Plan.md", &corrected);
    sentinel(&vault, "Sentinel.md").await;
    watcher.stop().await;

    assert_eq!(vault.read("Plan.md"), corrected);
    assert_eq!(requests_about(&server, "first"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_refresh_an_edited_note_keeps_its_summary() {
    let server = server();
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let opts = vault.options(&config);
    assert!(!opts.refresh, "off by default");
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    vault.write("Plan.md", &long_body("first"));
    assert!(wait_until_async(|| summary_count(&vault.read("Plan.md")) == 1).await);
    let edited = with_body(&vault.read("Plan.md"), &long_body("second"));
    vault.write("Plan.md", &edited);
    sentinel(&vault, "Sentinel.md").await;
    watcher.stop().await;

    assert_eq!(vault.read("Plan.md"), edited);
    assert_eq!(requests_about(&server, "second"), 0);
}
