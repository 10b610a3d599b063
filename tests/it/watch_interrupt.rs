//! Ctrl-C for `vaultsum watch`, through the real binary: the first stops new summaries, lets
//! the one in flight finish, saves the state and exits 130; a second exits at once, 130, with
//! every note either as it was or with its whole summary.

use crate::support;

use support::signals::SIGINT;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::running::Running;
use support::watch_binary::{leftovers, saved_status, watch_command};
use support::watcher::{long_body, summary_count, wait_until, WatchVault};

const SUMMARY: &str = "### Key Points\n- interrupted";

/// A running watcher whose first summary is in flight at the fake server.
fn watcher_with_a_summary_in_flight(
    vault: &WatchVault,
    server: &FakeOpenAi,
    note: &str,
) -> Running {
    let watcher = Running::spawn(&mut watch_command(
        vault,
        server,
        &["--settle", "1", "--min-chars", "100"],
    ));
    assert!(
        wait_until(|| vault.has_state()),
        "the watcher never started"
    );
    vault.write(note, &long_body(note));
    assert!(
        wait_until(|| server.request_count() == 1),
        "no LLM call was made; stderr: {:?}",
        watcher.stderr()
    );
    watcher
}

#[test]
fn ctrl_c_lets_the_summary_in_flight_finish_saves_the_state_and_exits_130() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_secs(3)));
    let vault = WatchVault::new();
    let watcher = watcher_with_a_summary_in_flight(&vault, &server, "In flight.md");
    // A second note, still settling when Ctrl-C comes: it must not be started.
    vault.write("Not started.md", &long_body("not started"));

    watcher.signal(SIGINT);
    let done = watcher.wait();

    let (stdout, stderr) = (done.stdout.join("\n"), done.stderr_text());
    assert_eq!(done.status.code(), Some(130), "{stderr}");
    assert_eq!(
        server.request_count(),
        1,
        "a summary was started after Ctrl-C"
    );
    let original = long_body("In flight.md");
    let note = vault.read("In flight.md");
    assert!(note.starts_with(&original), "the note lost bytes: {note}");
    assert!(summary_count(&note) <= 1, "{note}");
    assert_eq!(vault.read("Not started.md"), long_body("not started"));
    // The state is saved and agrees with the notes.
    let expected = if summary_count(&note) == 1 {
        "summarized"
    } else {
        "new"
    };
    assert_eq!(
        saved_status(&vault, "In flight.md").as_deref(),
        Some(expected)
    );
    assert_eq!(
        saved_status(&vault, "Not started.md").as_deref(),
        Some("new")
    );
    assert!(stderr.contains("watch: stopped;"), "{stderr}");
    assert!(
        stdout.contains("new notes pending"),
        "what was done is printed: {stdout}"
    );
}

#[test]
fn second_ctrl_c_exits_at_once_with_130_and_no_partial_write() {
    let server = FakeOpenAi::start();
    // Far longer than the stop's grace period: only the second Ctrl-C can end this quickly.
    server.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_secs(120)));
    let vault = WatchVault::new();
    let mut watcher = watcher_with_a_summary_in_flight(&vault, &server, "Slow.md");

    watcher.signal(SIGINT);
    watcher.wait_for_stderr(|line| line.contains("watch: stopping"));
    watcher.signal(SIGINT);
    let done = watcher.wait();

    let (stdout, stderr) = (done.stdout.join("\n"), done.stderr_text());
    assert_eq!(done.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("again: exiting at once"), "{stderr}");
    // The clean stop prints its report when it ends; the immediate exit never got there.
    assert!(
        !stdout.contains("summarized"),
        "the clean stop ran to its end instead: {stdout}"
    );
    assert_eq!(vault.read("Slow.md"), long_body("Slow.md"));
    assert_eq!(leftovers(vault.root(), &["Slow.md"]), Vec::<String>::new());
    assert_eq!(server.request_count(), 1);
}
