//! `--max-per-hour`: at most that many summaries started per rolling hour; the notes beyond it
//! wait in the state, are never lost, and go first (oldest first) once the limit allows, in a
//! later run too. Through the real binary, and in process for the wait itself.

use crate::support;

use support::signals::{service_stop_code, SIGTERM};

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::running::Running;
use support::watch_binary::{
    run_once, saved_state, saved_status, saved_waiting, watch_command, with_config,
};
use support::watcher::{
    long_body, registry, summary_count, wait_until, wait_until_async, RunningWatcher, WatchVault,
};

const SUMMARY: &str = "### Key Points\n- within budget";
const NOTES: [&str; 5] = ["A.md", "B.md", "C.md", "D.md", "E.md"];

/// A first `--once` records the (empty) vault, so the notes written next are new.
fn recorded_vault(server: &FakeOpenAi) -> WatchVault {
    let vault = WatchVault::new();
    let first = run_once(&mut watch_command(&vault, server, &["--once"]));
    assert!(first.status.success(), "{}", first.stderr_text());
    vault
}

/// A `--once` run with a limit of 2 an hour: its stdout and stderr, each as one text.
fn limited_once(vault: &WatchVault, server: &FakeOpenAi) -> (String, String) {
    let run = run_once(&mut watch_command(
        vault,
        server,
        &[
            "--once",
            "--settle",
            "0",
            "--min-chars",
            "100",
            "--max-per-hour",
            "2",
        ],
    ));
    assert!(run.status.success(), "{}", run.stderr_text());
    (run.stdout.join("\n"), run.stderr_text())
}

fn summarized(vault: &WatchVault, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .filter(|n| summary_count(&vault.read(n)) == 1)
        .map(|n| n.to_string())
        .collect()
}

#[test]
fn notes_beyond_the_hourly_limit_wait_in_the_state_and_go_first_after_a_restart() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = recorded_vault(&server);
    for name in NOTES {
        vault.write(name, &long_body(name));
    }

    // Five new notes, a limit of two: two are summarized, three wait, recorded in the state.
    let (stdout, stderr) = limited_once(&vault, &server);
    assert_eq!(server.request_count(), 2);
    let done = summarized(&vault, &NOTES);
    assert_eq!(done.len(), 2, "{done:?}");
    assert!(
        stderr.contains("watch: hourly limit of 2 reached; 3 notes wait (next in "),
        "{stderr}"
    );
    assert!(
        stdout.contains("(3 waiting for the hourly limit)"),
        "{stdout}"
    );
    let waiting = saved_waiting(&vault);
    let mut expected: Vec<String> = NOTES
        .iter()
        .map(|n| n.to_string())
        .filter(|n| !done.contains(n))
        .collect();
    let mut sorted = waiting.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(
        sorted, expected,
        "the state does not hold the waiting notes"
    );
    for name in &waiting {
        assert_eq!(saved_status(&vault, name).as_deref(), Some("new"));
    }
    assert_eq!(
        saved_state(&vault)["started_ns"].as_array().unwrap().len(),
        2
    );

    // A restart within the hour starts nothing more: the limit is kept across restarts.
    let (again, _) = limited_once(&vault, &server);
    assert_eq!(
        server.request_count(),
        2,
        "a restart reset the hourly limit"
    );
    assert!(
        again.contains("(3 waiting for the hourly limit)"),
        "{again}"
    );
    assert_eq!(saved_waiting(&vault), waiting);

    // Once the window has passed (shortened to a second here), the waiting notes go first,
    // longest waiting first, then a note that arrived meanwhile. One at a time, so the order
    // the server sees is the order they were started in.
    vault.write("Fresh.md", &long_body("fresh"));
    let mut command = watch_command(
        &vault,
        &server,
        &[
            "--settle",
            "0",
            "--min-chars",
            "100",
            "--max-per-hour",
            "2",
            "--budget-window",
            "1",
        ],
    );
    with_config(&mut command, &vault, "[watch]\nconcurrency = 1\n");
    let mut watcher = Running::spawn(&mut command);
    watcher.wait_for_stderr(|line| line.contains("watch: 3 notes wait from the last run"));
    let all: Vec<&str> = NOTES.iter().copied().chain(["Fresh.md"]).collect();
    assert!(
        wait_until(|| summarized(&vault, &all).len() == 6),
        "summarized only {:?}; stderr: {:?}",
        summarized(&vault, &all),
        watcher.stderr()
    );
    watcher.signal(SIGTERM);
    let stopped = watcher.wait();
    // SIGTERM is a service manager's normal stop: a clean stop exits 0.
    assert_eq!(
        stopped.status.code(),
        Some(service_stop_code(SIGTERM)),
        "{}",
        stopped.stderr_text()
    );

    assert_eq!(server.request_count(), 6, "a note was summarized twice");
    let order: Vec<String> = server.requests()[2..]
        .iter()
        .map(|r| {
            all.iter()
                .find(|n| r.user_text().contains(&format!("path=\"{n}\"")))
                .map(|n| n.to_string())
                .unwrap_or_default()
        })
        .collect();
    let mut expected_order = waiting.clone();
    expected_order.push("Fresh.md".to_string());
    assert_eq!(order, expected_order);
    assert!(saved_waiting(&vault).is_empty());
    for name in NOTES {
        assert_eq!(summary_count(&vault.read(name)), 1, "{name}");
    }
}

#[test]
fn zero_means_no_hourly_limit() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = recorded_vault(&server);
    for name in NOTES {
        vault.write(name, &long_body(name));
    }
    let mut command = watch_command(
        &vault,
        &server,
        &["--once", "--settle", "0", "--min-chars", "100"],
    );
    with_config(&mut command, &vault, "[watch]\nmax_per_hour = 0\n");
    let run = run_once(&mut command);
    assert!(run.status.success(), "{}", run.stderr_text());
    assert_eq!(summarized(&vault, &NOTES).len(), 5);
    assert!(
        !run.stderr_text().contains("hourly limit"),
        "{}",
        run.stderr_text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_note_given_a_summary_by_hand_leaves_the_wait() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = WatchVault::new();
    let config = vault.config(&server);
    let mut opts = vault.options(&config);
    opts.max_per_hour = Some(1);
    let watcher = RunningWatcher::start(&vault, registry(config), opts).await;

    vault.write("First.md", &long_body("first"));
    assert!(wait_until_async(|| summary_count(&vault.read("First.md")) == 1).await);
    vault.write("Second.md", &long_body("second"));
    assert!(
        wait_until_async(|| saved_waiting(&vault) == ["Second.md"]).await,
        "the second note never waited: {}",
        saved_state(&vault)
    );
    let by_hand = format!("{}\n## Summary\n\nWritten by hand.\n", long_body("second"));
    vault.write("Second.md", &by_hand);
    assert!(
        wait_until_async(|| saved_waiting(&vault).is_empty()).await,
        "the note still waits: {:?}",
        saved_waiting(&vault)
    );
    let report = watcher.stop().await;

    assert_eq!(report.waiting, 0);
    assert_eq!(report.summarized, 1);
    assert_eq!(server.request_count(), 1);
    assert_eq!(vault.read("Second.md"), by_hand);
}
