//! Notes the watcher must leave alone. Each test records the vault, creates the notes while
//! the watcher is stopped, and runs a catch-up (`once`): the catch-up decides every note before
//! it exits, so "not summarized" is a definite outcome, not a timeout.

use crate::support;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::watcher::{long_body, registry, summary_count, WatchVault};
use vaultsum::watch::{self, WatchReport};
use vaultsum_tools::config::Config;

const SUMMARY: &str = "### Key Points\n- noted";

/// Records the (empty) vault, lets `create` add notes, then runs one catch-up.
async fn catch_up_after(
    vault: &WatchVault,
    server: &FakeOpenAi,
    tune: impl Fn(&mut Config),
    create: impl FnOnce(&WatchVault),
) -> WatchReport {
    let mut config = vault.config(server);
    tune(&mut config);
    let mut opts = vault.options(&config);
    opts.once = true;
    opts.settle = Duration::ZERO;
    let first = watch::run(
        registry(config.clone()),
        opts.clone(),
        std::future::pending(),
    )
    .await
    .unwrap();
    assert!(first.first_run);
    create(vault);
    watch::run(registry(config), opts, std::future::pending())
        .await
        .unwrap()
}

fn server() -> FakeOpenAi {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    server
}

/// Asserts that only `Canary.md` was summarized and every other note is byte-for-byte intact.
fn assert_only_canary(vault: &WatchVault, server: &FakeOpenAi, untouched: &[(&str, &str)]) {
    assert_eq!(
        summary_count(&vault.read("Canary.md")),
        1,
        "the canary was not summarized"
    );
    for (rel, text) in untouched {
        assert_eq!(&vault.read(rel), text, "{rel} was changed");
    }
    assert_eq!(server.request_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn note_with_a_summary_already_is_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    let text = format!("{}\n## Summary\n\nWritten by hand.\n", long_body("x"));
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Done.md", &text);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(&vault, &server, &[("Done.md", &text)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn obsidian_trash_and_git_folders_are_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    let body = long_body("internal");
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write(".obsidian/snippets/notes.md", &body);
            v.write(".trash/Deleted.md", &body);
            v.write(".git/info.md", &body);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(
        &vault,
        &server,
        &[
            (".obsidian/snippets/notes.md", &body),
            (".trash/Deleted.md", &body),
            (".git/info.md", &body),
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn templates_folder_of_core_templates_and_templater_is_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    vault.write(".obsidian/templates.json", r#"{"folder":"Templates"}"#);
    vault.write(
        ".obsidian/plugins/templater-obsidian/data.json",
        r#"{"templates_folder":"Meta/Templater"}"#,
    );
    let body = long_body("{{title}} template");
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Templates/Meeting.md", &body);
            v.write("Meta/Templater/Daily.md", &body);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(
        &vault,
        &server,
        &[
            ("Templates/Meeting.md", &body),
            ("Meta/Templater/Daily.md", &body),
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn obsidian_excluded_files_are_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    vault.write(
        ".obsidian/app.json",
        r#"{"userIgnoreFilters":["Archive/","/\\.draft\\.md$/"]}"#,
    );
    let body = long_body("excluded");
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Archive/2023.md", &body);
            v.write("Ideas/plan.draft.md", &body);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(
        &vault,
        &server,
        &[("Archive/2023.md", &body), ("Ideas/plan.draft.md", &body)],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_exclude_globs_are_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    let body = long_body("journal");
    catch_up_after(
        &vault,
        &server,
        |config| config.watch.exclude = vec!["Daily/**".into(), "**/*.private.md".into()],
        |v| {
            v.write("Daily/2024-05-01.md", &body);
            v.write("People/Ann.private.md", &body);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(
        &vault,
        &server,
        &[
            ("Daily/2024-05-01.md", &body),
            ("People/Ann.private.md", &body),
        ],
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_conflict_copies_are_skipped_but_legit_numbered_names_are_not() {
    let (vault, server) = (WatchVault::new(), server());
    // The originals exist before the watcher first runs, so they are old notes.
    vault.write("Standup.md", &long_body("standup"));
    let body = long_body("standup, other device");
    let report = catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Standup 2.md", &body);
            v.write("Standup.sync-conflict-20240501-101010-ABCDEFG.md", &body);
            v.write("Standup (Conflicted copy Laptop 202405011010).md", &body);
            v.write("Standup (Ann's conflicted copy 2024-05-01).md", &body);
            v.write("Canary.md", &long_body("canary"));
            v.write("Chapter 2.md", &long_body("chapter two"));
        },
    )
    .await;
    assert_eq!(
        summary_count(&vault.read("Chapter 2.md")),
        1,
        "a legit name was skipped"
    );
    assert_eq!(summary_count(&vault.read("Canary.md")), 1);
    for rel in [
        "Standup 2.md",
        "Standup.sync-conflict-20240501-101010-ABCDEFG.md",
        "Standup (Conflicted copy Laptop 202405011010).md",
        "Standup (Ann's conflicted copy 2024-05-01).md",
    ] {
        assert_eq!(vault.read(rel), body, "{rel} was changed");
    }
    assert_eq!(report.summarized, 2);
    assert_eq!(server.request_count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frontmatter_summarize_false_is_skipped() {
    let (vault, server) = (WatchVault::new(), server());
    let text = format!("---\nsummarize: false\n---\n{}", long_body("private"));
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Private.md", &text);
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(&vault, &server, &[("Private.md", &text)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_notes_are_skipped_and_frontmatter_does_not_count_as_body() {
    let (vault, server) = (WatchVault::new(), server());
    // min_chars is 100 in the test options; the frontmatter alone is longer than that.
    let text = "---\ntags: [meeting, weekly, planning, roadmap]\nattendees: [Ann, Bob, Carla, Dmitri, Eve]\nlocation: the big room\n---\nShort note.\n".to_string();
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Short.md", &text);
            v.write("Tiny.md", "todo");
            v.write("Canary.md", &long_body("canary"));
        },
    )
    .await;
    assert_only_canary(&vault, &server, &[("Short.md", &text), ("Tiny.md", "todo")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copy_of_content_already_summarized_is_not_summarized_again() {
    let (vault, server) = (WatchVault::new(), server());
    let body = long_body("the offsite");
    catch_up_after(&vault, &server, |_| {}, |v| v.write("Offsite.md", &body)).await;
    assert_eq!(summary_count(&vault.read("Offsite.md")), 1);
    // The same text again under another name (a duplicate made before the summary landed).
    vault.write("Offsite copy.md", &body);
    let mut config = vault.config(&server);
    config.watch.settle_secs = 0;
    let mut opts = vault.options(&config);
    opts.once = true;
    opts.settle = Duration::ZERO;
    watch::run(registry(config), opts, std::future::pending())
        .await
        .unwrap();
    assert_eq!(vault.read("Offsite copy.md"), body);
    assert_eq!(server.request_count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_note_whose_embeds_expand_past_min_chars_is_summarized() {
    let (vault, server) = (WatchVault::new(), server());
    // An old transcript note; the new note only embeds it (as a voice-memo note does).
    vault.write("Transcripts/Call.md", &long_body("the customer call"));
    let memo = "Call with ACME:\n\n![[Call]]\n";
    catch_up_after(
        &vault,
        &server,
        |_| {},
        |v| {
            v.write("Memo.md", memo);
            v.write("Link only.md", "See [[Call]].\n");
        },
    )
    .await;
    assert_eq!(summary_count(&vault.read("Memo.md")), 1);
    assert_eq!(vault.read("Link only.md"), "See [[Call]].\n");
    assert_eq!(server.request_count(), 1);
    assert!(
        server.requests()[0]
            .user_text()
            .contains("the customer call"),
        "the embed was expanded for the model"
    );
}
