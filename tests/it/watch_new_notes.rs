//! Watch mode on real file-system events with the real Registry, against a fake
//! OpenAI-compatible server over HTTP: which notes get summarized, and how often.

use crate::support;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fingerprints::without_fingerprints;
use support::watcher::{
    long_body, registry, summary_count, wait_until_async, RunningWatcher, WatchVault,
};

const SUMMARY: &str = "### Key Points\n- the team agreed on next steps";

fn server_with_summary(delay: Duration) -> FakeOpenAi {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY).with_delay(delay));
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_note_is_summarized_exactly_once_and_old_notes_are_left_alone() {
    let server = server_with_summary(Duration::ZERO);
    let vault = WatchVault::new();
    vault.write("Old meeting.md", &long_body("the old budget"));
    let config = vault.config(&server);
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    vault.write("Inbox/Standup.md", &long_body("the release date"));
    assert!(
        wait_until_async(|| summary_count(&vault.read("Inbox/Standup.md")) == 1).await,
        "new note never summarized: {}",
        vault.read("Inbox/Standup.md")
    );
    let report = watcher.stop().await;

    let note = vault.read("Inbox/Standup.md");
    assert!(note.starts_with(&long_body("the release date")), "{note}");
    assert!(
        without_fingerprints(&note).ends_with(&format!("## Summary\n\n{SUMMARY}\n")),
        "{note}"
    );
    assert_eq!(vault.read("Old meeting.md"), long_body("the old budget"));
    assert_eq!(
        server.request_count(),
        1,
        "the watcher's own write must not trigger a call"
    );
    assert_eq!(report.summarized, 1);
    assert!(report.first_run);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn note_typed_over_several_saves_is_summarized_once_after_it_settles() {
    let server = server_with_summary(Duration::ZERO);
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.settle = Duration::from_secs(1);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    // Obsidian saves every couple of seconds while typing; here faster than the settle time.
    let mut text = String::from("# Voice memo\n\n");
    for part in 0..6 {
        text.push_str(&format!(
            "Part {part}: we talked about hiring and the roadmap. "
        ));
        vault.write("Memo.md", &text);
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    assert!(wait_until_async(|| summary_count(&vault.read("Memo.md")) == 1).await);
    watcher.stop().await;

    let note = vault.read("Memo.md");
    assert!(
        note.starts_with(&text),
        "the final text is what was summarized: {note}"
    );
    assert_eq!(server.request_count(), 1);
    assert!(
        server.requests()[0].user_text().contains("Part 5"),
        "the settled (complete) note was sent"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untitled_note_renamed_while_typing_is_summarized_once_under_its_final_name() {
    let server = server_with_summary(Duration::ZERO);
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.settle = Duration::from_millis(800);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    // What Obsidian does: an empty "Untitled.md", renamed once the title is typed.
    vault.write("Untitled.md", "");
    tokio::time::sleep(Duration::from_millis(100)).await;
    std::fs::rename(vault.path("Untitled.md"), vault.path("Design review.md")).unwrap();
    vault.write("Design review.md", &long_body("the API design"));

    assert!(wait_until_async(|| summary_count(&vault.read("Design review.md")) == 1).await);
    watcher.stop().await;
    assert!(!vault.path("Untitled.md").exists());
    assert_eq!(server.request_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_note_renamed_or_moved_while_watching_is_not_new() {
    let server = server_with_summary(Duration::ZERO);
    let vault = WatchVault::new();
    vault.write("Old.md", &long_body("last year's plan"));
    vault.write("Projects/Old project.md", &long_body("a project"));
    let config = vault.config(&server);
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    std::fs::rename(vault.path("Old.md"), vault.path("Renamed old.md")).unwrap();
    std::fs::rename(vault.path("Projects"), vault.path("Archive")).unwrap();
    // A new note afterwards: once it is summarized, the renames were long decided.
    vault.write("Canary.md", &long_body("the canary"));
    assert!(wait_until_async(|| summary_count(&vault.read("Canary.md")) == 1).await);
    watcher.stop().await;

    assert_eq!(vault.read("Renamed old.md"), long_body("last year's plan"));
    assert_eq!(vault.read("Archive/Old project.md"), long_body("a project"));
    assert_eq!(server.request_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_inside_a_newly_created_folder_are_not_missed() {
    let server = server_with_summary(Duration::ZERO);
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    // A folder prepared elsewhere and moved in whole (a sync client, an import), and one
    // created in place with notes written right away.
    let outside = tempfile::tempdir().unwrap();
    let import = outside.path().join("Clippings");
    std::fs::create_dir_all(import.join("Deep")).unwrap();
    std::fs::write(import.join("One.md"), long_body("article one")).unwrap();
    std::fs::write(import.join("Deep/Two.md"), long_body("article two")).unwrap();
    std::fs::rename(&import, vault.path("Clippings")).unwrap();
    vault.write("Fresh/Sub/Three.md", &long_body("article three"));

    for rel in [
        "Clippings/One.md",
        "Clippings/Deep/Two.md",
        "Fresh/Sub/Three.md",
    ] {
        assert!(
            wait_until_async(|| summary_count(&vault.read(rel)) == 1).await,
            "{rel} was missed"
        );
    }
    watcher.stop().await;
    assert_eq!(server.request_count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_made_while_the_summary_is_written_is_kept() {
    let server = server_with_summary(Duration::from_millis(1500));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    let original = long_body("the launch");
    vault.write("Launch.md", &original);
    assert!(wait_until_async(|| server.request_count() == 1).await);
    // The person keeps typing while the model is still answering.
    let edited = format!("{original}Added while the summary was being written.\n");
    vault.write("Launch.md", &edited);

    assert!(wait_until_async(|| summary_count(&vault.read("Launch.md")) == 1).await);
    watcher.stop().await;
    let note = vault.read("Launch.md");
    assert!(note.starts_with(&edited), "the edit was lost: {note}");
    assert!(note.ends_with(&format!("{SUMMARY}\n")), "{note}");
    assert_eq!(
        server.request_count(),
        1,
        "a summarized note is not summarized again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_notes_at_once_are_all_summarized_within_the_concurrency_limit() {
    let server = server_with_summary(Duration::from_millis(40));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.concurrency = 2;
    // Throughput and concurrency are tested here; the hourly limit has its own tests.
    opts.max_per_hour = None;
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    let names: Vec<String> = (0..200).map(|i| format!("Batch/Note {i:03}.md")).collect();
    for (i, name) in names.iter().enumerate() {
        vault.write(name, &long_body(&format!("topic {i}")));
    }
    assert!(
        wait_until_async(|| names.iter().all(|n| summary_count(&vault.read(n)) == 1)).await,
        "only {} of 200 summarized",
        names
            .iter()
            .filter(|n| summary_count(&vault.read(n)) == 1)
            .count()
    );
    let report = watcher.stop().await;
    assert_eq!(server.request_count(), 200);
    assert_eq!(report.summarized, 200);
    assert!(
        server.max_in_flight() <= 2,
        "{} LLM calls were in flight at once",
        server.max_in_flight()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watcher_writes_what_the_note_does_not_hold_marked_after_one_correction() {
    let server = FakeOpenAi::start();
    // A model that keeps a date the note does not have, asked twice.
    server.set_fallback(FakeReply::chat(
        "### Key Points\n- We agreed on the next steps on 4 June 2026.",
    ));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let opts = vault.options(&config);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;
    vault.write("Inbox/Plan.md", &long_body("the plan"));
    assert!(
        wait_until_async(|| summary_count(&vault.read("Inbox/Plan.md")) == 1).await,
        "never summarized"
    );
    watcher.stop().await;
    let note = vault.read("Inbox/Plan.md");
    assert!(
        note.contains("> [!warning] Not found in the note\n> - `4 June 2026` (date): no such date in the note"),
        "{note}"
    );
    assert_eq!(server.request_count(), 2, "the answer and one correction");
}
