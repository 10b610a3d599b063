//! Watch when file events are lost (issue 14): Windows' change notifications overflow without a
//! word when many files arrive at once and macOS coalesces them, so watch walks the vault every
//! `watch.reconcile_secs`. Here the events are dropped on purpose: the watcher polls once an
//! hour, so within the test not one event arrives, and every note is found by the walks alone;
//! none is summarized twice, however many walks see it.

use crate::support;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::watcher::{
    long_body, registry, summary_count, wait_until_async, RunningWatcher, WatchVault,
};
use vaultsum::watch::Backend;

/// A summary faithful to every note of [`long_body`] (the fact check finds nothing to retry).
const SUMMARY: &str = "### Key Points\n\n- We agreed on the next steps.";
const NOTES: usize = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notes_whose_events_were_lost_are_found_by_the_walk_and_summarized_once() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    // No event reaches the watcher during the test: the only way in is the walk.
    opts.backend = Backend::Polling(Duration::from_secs(3600));
    opts.reconcile_every = Some(Duration::from_millis(300));
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    let names: Vec<String> = (0..NOTES).map(|i| format!("Bulk/Note {i:02}.md")).collect();
    for name in &names {
        vault.write(name, &long_body(name));
    }
    let all_summarized = || {
        names
            .iter()
            .all(|name| summary_count(&vault.read(name)) >= 1)
    };
    assert!(
        wait_until_async(all_summarized).await,
        "not every note was found by the walks: {} requests",
        server.request_count()
    );
    // A note written after all the others are summarized is summarized only after at least one
    // more walk has seen every earlier note summarized: if a walk summarized twice, it would be
    // now.
    vault.write("Later.md", &long_body("later"));
    assert!(
        wait_until_async(|| summary_count(&vault.read("Later.md")) == 1).await,
        "the later note was never found"
    );
    let report = watcher.stop().await;
    for name in names.iter().map(String::as_str).chain(["Later.md"]) {
        assert_eq!(summary_count(&vault.read(name)), 1, "{name}");
    }
    assert_eq!(server.request_count(), NOTES + 1);
    assert_eq!(report.summarized, NOTES + 1);
}
