//! Two processes of one machine asking the same summary at the same moment (the watcher and an
//! agent's MCP server on a new note, or two command-line runs) pay for it once: the second
//! waits for the first one's call and takes its answer (`llm/shared_answer.rs`).

use crate::support;

use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fake_server::Gate;
use support::running::Running;
use support::temp_vault::TempVault;

const NOTE: &str = "# Standup\n\nAda ships the parser on Friday. Grace reviews it first.\n";
const SUMMARY: &str = "### Overview\nAda ships the parser on Friday after Grace's review.";

#[test]
fn two_processes_summarizing_one_note_at_once_pay_for_one_call() {
    let server = FakeOpenAi::start();
    let gate = Gate::new();
    server.set_fallback(FakeReply::chat(SUMMARY).held_until(&gate));
    let vault = TempVault::with(&[("Standup.md", NOTE)]);
    // Both processes get the same scratch folder, so the same cache.
    let summarize = |log: &str| {
        let mut command = support::cli::vaultsum_process(&vault.outside());
        command
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "Standup.md"])
            .envs(server.env())
            .env("RUST_LOG", log);
        Running::spawn(&mut command)
    };
    let first = summarize("warn");
    assert!(
        support::poll::wait_until(|| server.request_count() == 1),
        "the first process never asked"
    );
    let mut second = summarize("vaultsum_core=debug");
    second.wait_for_stderr(|line| {
        line.contains("another vaultsum process is making this call; waiting for its result")
    });
    gate.open();
    let (first, second) = (first.wait(), second.wait());
    for run in [&first, &second] {
        assert!(run.status.success(), "{}", run.stderr_text());
    }
    assert_eq!(
        server.request_count(),
        1,
        "one paid call for both processes"
    );
    let note = String::from_utf8(vault.read("Standup.md")).unwrap();
    assert!(note.starts_with(NOTE), "{note}");
    assert_eq!(note.matches("## Summary").count(), 1, "{note}");
    assert!(
        note.contains("Ada ships the parser on Friday after"),
        "{note}"
    );
    let left: Vec<_> = support::files::files_under(&vault.outside().join("cache"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "lock" || x == "wanted"))
        .collect();
    assert!(left.is_empty(), "no lock or want left behind: {left:?}");
}
