//! Which failed notes the watcher tries again, through the real binary: only what the tool
//! marks retryable, at most `max_retries` times, never sooner than the provider's
//! `Retry-After`. Each run is `--once`, which waits for every retry it schedules before it
//! exits, so the fake server's request count after the exit proves what did not happen.

use crate::support;

use std::time::Duration;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::running::Exited;
use support::watch_binary::{run_once, watch_command, with_config};
use support::watcher::{long_body, summary_count, WatchVault};

const SUMMARY: &str = "### Key Points\n- retried";
/// Due at once, a short body counts, and a short watcher backoff so a retry comes quickly.
const ONCE: &[&str] = &[
    "--once",
    "--settle",
    "0",
    "--min-chars",
    "100",
    "--retry-backoff",
    "0.05",
];

/// A first run records the (empty) vault, so the notes written next are new.
fn recorded_vault(server: &FakeOpenAi) -> WatchVault {
    let vault = WatchVault::new();
    let first = run_once(&mut watch_command(&vault, server, &["--once"]));
    assert!(first.status.success(), "{}", first.stderr_text());
    vault
}

/// What a `--once` run printed: stdout and stderr, each as one text.
struct Printed {
    stdout: String,
    stderr: String,
}

/// `--once` with the LLM client making `attempts` requests per call.
fn run_with_attempts(vault: &WatchVault, server: &FakeOpenAi, attempts: u32) -> Printed {
    let mut command = watch_command(vault, server, ONCE);
    with_config(
        &mut command,
        vault,
        &format!("[llm]\nmax_attempts = {attempts}\n"),
    );
    let run: Exited = run_once(&mut command);
    assert!(run.status.success(), "{}", run.stderr_text());
    Printed {
        stdout: run.stdout.join("\n"),
        stderr: run.stderr_text(),
    }
}

#[test]
fn note_named_rate_limit_failing_with_a_400_is_not_retried() {
    let server = FakeOpenAi::start();
    // Every word the old text matching looked for, in the note's name and the server's message.
    server.set_fallback(FakeReply::openai_error(
        400,
        "rate limit: too many requests, connection reset, timed out",
    ));
    let vault = recorded_vault(&server);
    let text = long_body("rate limit ideas");
    vault.write("rate limit ideas.md", &text);

    let run = run_with_attempts(&vault, &server, 1);

    assert_eq!(server.request_count(), 1, "a 400 was retried");
    assert_eq!(vault.read("rate limit ideas.md"), text);
    assert!(run.stdout.contains("1 failed"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("watch: could not summarize rate limit ideas.md")
            && run.stderr.contains("not retried"),
        "{}",
        run.stderr
    );
}

#[test]
fn rate_limit_then_success_is_retried_after_the_retry_after_and_summarized() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::rate_limited("1"));
    server.set_fallback(FakeReply::chat(SUMMARY));
    let vault = recorded_vault(&server);
    vault.write("Inbox/Busy provider.md", &long_body("a busy provider"));

    // One request per call: the 429 reaches the watcher, which retries the note.
    let run = run_with_attempts(&vault, &server, 1);

    assert_eq!(summary_count(&vault.read("Inbox/Busy provider.md")), 1);
    assert_eq!(server.request_count(), 2, "one failed call, one retry");
    let requests = server.requests();
    assert!(
        requests[1].at.duration_since(requests[0].at) >= Duration::from_secs(1),
        "retried before the server's Retry-After of 1 s"
    );
    assert!(
        run.stdout.contains("summarized 1 new notes, 0 failed"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("retry 1 of 2 in"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("watch: summarized Inbox/Busy provider.md ("),
        "{}",
        run.stderr
    );
}

#[test]
fn a_rate_limit_storm_costs_a_bounded_number_of_requests_per_note() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::rate_limited("0"));
    let vault = recorded_vault(&server);
    let text = long_body("never answered");
    vault.write("Unlucky.md", &text);

    // The client tries twice per call; the watcher calls once and retries twice.
    let run = run_with_attempts(&vault, &server, 2);

    assert_eq!(server.request_count(), 2 * (1 + 2));
    assert_eq!(vault.read("Unlucky.md"), text);
    assert!(run.stdout.contains("1 failed"), "{}", run.stdout);
    assert!(
        run.stderr.contains("gave up after 2 retries"),
        "{}",
        run.stderr
    );
}
