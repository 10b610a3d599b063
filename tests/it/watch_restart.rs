//! Stopping and starting again: state kept outside the vault, catch-up on what happened while
//! stopped, `--once`, and a clean stop on SIGTERM (exit 130, as after Ctrl-C), through the real
//! binary.

use crate::support;

use support::signals::{service_stop_code, SIGTERM};

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::running::Running;
use support::watch_binary::{leftovers, watch_command};
use support::watcher::{
    long_body, registry, summary_count, wait_until, wait_until_async, RunningWatcher, WatchVault,
};

const SUMMARY: &str = "### Key Points\n- restart-safe";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_does_not_redo_work_and_catches_up_on_notes_created_while_stopped() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    vault.write("Old.md", &long_body("old"));
    let config = vault.config(&server);
    let opts = vault.options(&config);

    let first = RunningWatcher::start(&vault, registry(config.clone()), opts.clone()).await;
    vault.write("While watching.md", &long_body("first session"));
    assert!(wait_until_async(|| summary_count(&vault.read("While watching.md")) == 1).await);
    first.stop().await;

    // While stopped: a new note, an old note renamed, an old note edited.
    vault.write("While stopped.md", &long_body("offline"));
    std::fs::rename(vault.path("Old.md"), vault.path("Old renamed.md")).unwrap();
    vault.write("Old renamed.md", &format!("{}More.\n", long_body("old")));

    let second = RunningWatcher::start(&vault, registry(config), opts).await;
    assert!(wait_until_async(|| summary_count(&vault.read("While stopped.md")) == 1).await);
    let report = second.stop().await;

    assert!(!report.first_run);
    assert_eq!(report.summarized, 1);
    assert_eq!(summary_count(&vault.read("While watching.md")), 1);
    assert_eq!(
        vault.read("Old renamed.md"),
        format!("{}More.\n", long_body("old"))
    );
    assert_eq!(server.request_count(), 2);
    // The state lives outside the vault.
    assert!(vault.has_state());
    let inside: Vec<_> = walkdir::WalkDir::new(vault.root())
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    assert!(
        inside.is_empty(),
        "state written into the vault: {inside:?}"
    );
}

#[test]
fn once_records_the_vault_first_then_summarizes_only_what_is_new() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    vault.write("Existing.md", &long_body("existing"));

    let first = watch_command(
        &vault,
        &server,
        &["--once", "--settle", "0", "--min-chars", "100"],
    )
    .output()
    .unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(String::from_utf8_lossy(&first.stdout).contains("first run"));
    assert_eq!(server.request_count(), 0);

    vault.write("Cron note.md", &long_body("cron"));
    let second = watch_command(
        &vault,
        &server,
        &["--once", "--settle", "0", "--min-chars", "100"],
    )
    .output()
    .unwrap();
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    assert!(
        String::from_utf8_lossy(&second.stdout).contains("summarized 1 new notes"),
        "{}",
        String::from_utf8_lossy(&second.stdout)
    );
    assert_eq!(summary_count(&vault.read("Cron note.md")), 1);
    assert_eq!(vault.read("Existing.md"), long_body("existing"));

    let third = watch_command(
        &vault,
        &server,
        &["--once", "--settle", "0", "--min-chars", "100"],
    )
    .output()
    .unwrap();
    assert!(third.status.success());
    assert_eq!(server.request_count(), 1, "a second catch-up redid work");
}

#[test]
fn once_leaves_a_note_still_being_written_for_the_next_run() {
    let server = FakeOpenAi::start();
    let vault = WatchVault::new();
    let baseline = watch_command(&vault, &server, &["--once"])
        .output()
        .unwrap();
    assert!(baseline.status.success());
    vault.write("Typing.md", &long_body("in progress"));
    // Just written, and the settle time is an hour: not settled.
    let run = watch_command(
        &vault,
        &server,
        &["--once", "--settle", "3600", "--min-chars", "100"],
    )
    .output()
    .unwrap();
    assert!(run.status.success());
    assert!(String::from_utf8_lossy(&run.stdout).contains("1 new notes pending"));
    assert_eq!(vault.read("Typing.md"), long_body("in progress"));
    assert_eq!(server.request_count(), 0);
}

#[test]
fn sigterm_while_a_summary_is_in_flight_exits_0_without_a_partial_write() {
    let server = FakeOpenAi::start();
    // Slower than the shutdown grace: the call is abandoned.
    server.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_secs(60)));
    let vault = WatchVault::new();
    let watcher = Running::spawn(&mut watch_command(
        &vault,
        &server,
        &["--settle", "0.2", "--min-chars", "100"],
    ));
    assert!(
        wait_until(|| vault.has_state()),
        "the watcher never started"
    );
    let text = long_body("shutdown");
    vault.write("Busy.md", &text);
    assert!(
        wait_until(|| server.request_count() == 1),
        "no LLM call was made"
    );

    watcher.signal(SIGTERM);
    let done = watcher.wait();
    assert_eq!(
        done.status.code(),
        Some(service_stop_code(SIGTERM)),
        "{}",
        done.stderr_text()
    );
    assert_eq!(vault.read("Busy.md"), text, "the note was changed");
    let left = leftovers(vault.root(), &["Busy.md"]);
    assert!(
        left.is_empty(),
        "temporary files left in the vault: {left:?}"
    );
}

#[test]
fn sigterm_when_idle_is_a_clean_stop_exiting_0() {
    let server = FakeOpenAi::start();
    let vault = WatchVault::new();
    let watcher = Running::spawn(&mut watch_command(&vault, &server, &[]));
    assert!(
        wait_until(|| vault.has_state()),
        "the watcher never started"
    );
    watcher.signal(SIGTERM);
    let done = watcher.wait();
    assert_eq!(
        done.status.code(),
        Some(service_stop_code(SIGTERM)),
        "{}",
        done.stderr_text()
    );
}

#[test]
fn invalid_exclude_glob_is_a_usage_error_naming_the_pattern() {
    let server = FakeOpenAi::start();
    let vault = WatchVault::new();
    let config = vault.state_dir().join("config.toml");
    std::fs::write(&config, "[watch]\nexclude = [\"Daily/[\"]\n").unwrap();
    let output = watch_command(&vault, &server, &["--once"])
        .env("VAULTSUM_CONFIG", &config)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Daily/["), "{stderr}");
    assert!(
        !vault.has_state(),
        "nothing is recorded when the setup is wrong"
    );
}
