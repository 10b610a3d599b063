//! Watch logs each step `summarize_file` reports (reading, summarizing, writing) at debug
//! level, and none of them at the default level.

use crate::support;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::watch_binary::{run_once, watch_command};
use support::watcher::{long_body, summary_count, WatchVault};

const ARGS: [&str; 5] = ["--once", "--settle", "0", "--min-chars", "100"];

/// A vault recorded by a first `--once`, then a new note.
fn vault_with_a_new_note(server: &FakeOpenAi) -> WatchVault {
    let vault = WatchVault::new();
    let first = run_once(&mut watch_command(&vault, server, &["--once"]));
    assert!(first.status.success(), "{}", first.stderr_text());
    vault.write("Standup.md", &long_body("standup"));
    vault
}

#[test]
fn each_step_of_a_summary_is_logged_at_debug_level_only() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat("### Key Points\n- shipped"));

    let vault = vault_with_a_new_note(&server);
    let mut command = watch_command(&vault, &server, &ARGS);
    command.env("RUST_LOG", "debug");
    let run = run_once(&mut command);
    assert!(run.status.success(), "{}", run.stderr_text());
    assert_eq!(summary_count(&vault.read("Standup.md")), 1);
    let stderr = run.stderr_text();
    for step in [
        "Standup.md: reading Standup.md (step 1 of 3)",
        "Standup.md: summarizing (step 2 of 3)",
        "Standup.md: writing Standup.md (step 3 of 3)",
    ] {
        assert!(stderr.contains(step), "no {step:?} in:\n{stderr}");
    }

    let quiet = vault_with_a_new_note(&server);
    let run = run_once(&mut watch_command(&quiet, &server, &ARGS));
    assert!(run.status.success(), "{}", run.stderr_text());
    assert_eq!(summary_count(&quiet.read("Standup.md")), 1);
    assert!(
        !run.stderr_text().contains("(step 1 of 3)"),
        "{}",
        run.stderr_text()
    );
}
