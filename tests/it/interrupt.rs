//! Stopping a `summarize-file` batch part-way, through the real binary against a fake OpenAI
//! server whose replies are slow or held back: each result is printed as its note finishes;
//! Ctrl-C or SIGTERM stops new notes, lets those in flight finish, says what was done and exits
//! 130; a second Ctrl-C stops at once (on Windows the test sends Ctrl-Break for both, the
//! console event a process group can be sent); and whatever stops the process, even SIGKILL, every note
//! is left either untouched or with one whole summary, and nothing else appears in the vault.

use crate::support;

use support::signals::{batch_stop_code, SIGINT, SIGTERM};

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use support::cli::vaultsum_process;
use support::fake_openai::{Ended, FakeOpenAi, FakeReply, Gate, ReceivedRequest};
use support::fingerprints::without_fingerprints;
use support::poll::wait_until;
use support::running::{Exited, Running};
use support::temp_vault::TempVault;

const NOTES: usize = 12;
const SUMMARY: &str = "### Key Points\n\n- Stopped part-way, nothing lost.";

fn note_path(index: usize) -> String {
    format!("Inbox/Note {index:02}.md")
}

/// Which note a chat request was about (the note travels as `<note path="…">`).
fn note_of(request: &ReceivedRequest) -> String {
    let text = request.user_text();
    let start = text.find("<note path=\"").expect("a note in the request") + 12;
    let end = start + text[start..].find('"').expect("the closing quote");
    text[start..end].to_string()
}

/// The note after a whole summary was appended (DESIGN §4: one blank line, `## Summary`, a
/// blank line, the summary, one final newline; our notes end with a newline).
fn with_whole_summary(original: &[u8]) -> Vec<u8> {
    let mut note = original.to_vec();
    note.extend_from_slice(format!("\n## Summary\n\n{SUMMARY}\n").as_bytes());
    note
}

/// A vault of [`NOTES`] notes, a fake OpenAI server, and a config running two notes at a time.
struct Batch {
    vault: TempVault,
    fake: FakeOpenAi,
    originals: BTreeMap<String, Vec<u8>>,
    entries_before: BTreeSet<String>,
    config: PathBuf,
}

impl Batch {
    fn new() -> Batch {
        let vault = TempVault::new();
        for index in 0..NOTES {
            vault.write(
                &note_path(index),
                format!("# Note {index}\n\nWhat happened on day {index}.\n"),
            );
        }
        let originals = (0..NOTES)
            .map(|index| (note_path(index), vault.read(&note_path(index))))
            .collect();
        let config = vault.outside().join("config.toml");
        // Two calls in flight from the start, as against a hosted API (a server on loopback
        // is otherwise taken for a local one, which starts one request at a time).
        std::fs::write(
            &config,
            "[llm]\nlocal_server = false\n[summarize]\nconcurrency = 2\n",
        )
        .expect("config file");
        Batch {
            entries_before: vault.entries(),
            vault,
            fake: FakeOpenAi::start(),
            originals,
            config,
        }
    }

    /// A batch whose replies each take 300 to 800 ms (a different delay for each request).
    fn with_slow_replies() -> Batch {
        let batch = Batch::new();
        for index in 0..NOTES as u64 {
            let delay = Duration::from_millis(300 + index * 211 % 501);
            batch.fake.push(FakeReply::chat(SUMMARY).with_delay(delay));
        }
        batch
    }

    /// `vaultsum summarize-file Inbox` running in the background.
    fn start(&self) -> Running {
        Running::spawn(
            vaultsum_process(&self.vault.outside())
                .envs(self.fake.env())
                .arg("--config")
                .arg(&self.config)
                .arg("--vault")
                .arg(self.vault.root())
                .args(["summarize-file", "--engine", "llm", "Inbox"]),
        )
    }

    /// The notes that now carry a summary. Fails unless every note is byte for byte either its
    /// original or its original plus one whole summary.
    fn summarized_notes(&self) -> BTreeSet<String> {
        let mut summarized = BTreeSet::new();
        for (path, original) in &self.originals {
            let now = self.vault.read(path);
            if now == *original {
                continue;
            }
            assert_eq!(
                without_fingerprints(&String::from_utf8_lossy(&now)),
                String::from_utf8_lossy(&with_whole_summary(original)),
                "{path} is neither its original nor its original plus one whole summary"
            );
            summarized.insert(path.clone());
        }
        summarized
    }

    /// No file or folder appeared or vanished in the vault (hidden ones and temp files
    /// included).
    fn assert_nothing_else_in_the_vault(&self) {
        assert_eq!(
            self.vault.entries(),
            self.entries_before,
            "the vault's files changed"
        );
    }
}

/// The paths of the result lines, each of which must be a success.
fn printed_successes(exited: &Exited) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    for line in &exited.stdout {
        let result: Value = serde_json::from_str(line).expect("one JSON result per line");
        assert_eq!(result["success"], Value::Bool(true), "{line}");
        let path = result["path"].as_str().expect("the line names its note");
        assert!(paths.insert(path.to_string()), "{path} printed twice");
    }
    paths
}

/// What every stop by Ctrl-C or SIGTERM promises: exit `code` (130 for Ctrl-C, 143 for
/// SIGTERM, 128 + the signal as shells report it), one printed line per summarized note, no new
/// note after the signal, whole notes, nothing else in the vault, and a closing line that
/// counts what was done and what was never started.
fn assert_stopped_cleanly(batch: &Batch, exited: &Exited, code: i32) {
    assert_eq!(
        exited.status.code(),
        Some(code),
        "stderr: {}",
        exited.stderr_text()
    );
    let printed = printed_successes(exited);
    let summarized = batch.summarized_notes();
    assert_eq!(
        printed, summarized,
        "printed lines and summarized notes differ"
    );
    assert!(
        summarized.len() < NOTES,
        "every note was summarized: the signal did not stop new work"
    );
    // Every note that was started made exactly one request; the rest were never started.
    let started = batch.fake.request_count();
    // Each summarized note was one answer of 120 + 30 tokens, and only they were answered.
    let answered = summarized.len();
    let closing = format!(
        "vaultsum: interrupted; {answered} of {NOTES} notes summarized, {} not started; \
         {answered} request{}, {} prompt + {} completion tokens, 0 media calls",
        NOTES - started,
        if answered == 1 { "" } else { "s" },
        grouped(120 * answered),
        30 * answered,
    );
    assert!(
        exited.stderr.contains(&closing),
        "expected {closing:?} on stderr: {}",
        exited.stderr_text()
    );
    batch.assert_nothing_else_in_the_vault();
}

/// Runs a slow batch, sends `signal` once the server has seen `requests` requests, and checks
/// the stop.
fn stop_after(requests: usize, signal: i32) {
    let batch = Batch::with_slow_replies();
    let run = batch.start();
    assert!(
        wait_until(|| batch.fake.request_count() >= requests),
        "the batch never reached {requests} requests; stderr: {:?}",
        run.stderr()
    );
    run.signal(signal);
    let exited = run.wait();
    assert_stopped_cleanly(&batch, &exited, batch_stop_code(signal));
}

#[test]
fn ctrl_c_stops_new_notes_lets_those_in_flight_finish_and_exits_130() {
    stop_after(3, SIGINT);
}

#[test]
fn ctrl_c_at_different_moments_leaves_whole_notes_and_says_what_was_done() {
    for requests in [1, 2, 5, 7] {
        stop_after(requests, SIGINT);
    }
}

#[test]
fn sigterm_stops_a_batch_like_ctrl_c_and_exits_143() {
    stop_after(4, SIGTERM);
}

#[test]
fn second_ctrl_c_drops_the_calls_in_flight_and_exits_130_at_once() {
    let batch = Batch::new();
    // The model never answers: only dropping the calls in flight can end the batch before the
    // client's own timeout (120 s, beyond the test's limit on the run).
    let gate = Gate::new();
    batch
        .fake
        .set_fallback(FakeReply::chat(SUMMARY).held_until(&gate));
    let mut run = batch.start();
    assert!(wait_until(|| batch.fake.request_count() == 2));
    run.signal(SIGINT);
    run.wait_for_stderr(|line| line.starts_with("vaultsum: stopping; waiting for 2 notes"));
    run.signal(SIGINT);
    let exited = run.wait();

    assert_eq!(
        exited.status.code(),
        Some(130),
        "stderr: {}",
        exited.stderr_text()
    );
    assert!(exited.stdout.is_empty(), "{:?}", exited.stdout);
    let closing = format!(
        "vaultsum: interrupted; 0 of {NOTES} notes summarized, {} not started, 2 cancelled; \
         no requests",
        NOTES - 2
    );
    assert!(
        exited.stderr.contains(&closing),
        "expected {closing:?} on stderr: {}",
        exited.stderr_text()
    );
    assert!(batch.summarized_notes().is_empty());
    batch.assert_nothing_else_in_the_vault();
    // Both requests were given up by the client, never answered.
    assert!(wait_until(|| batch.fake.ended_count() == 2));
    for request in batch.fake.requests() {
        assert_eq!(request.ended, Some(Ended::Abandoned));
    }
}

#[test]
fn sigkill_at_any_moment_leaves_every_note_whole_and_no_stray_file() {
    // Killed just after the k-th reply went out, when a note is about to be written.
    for answered in [1, 3, 5, 8] {
        let batch = Batch::with_slow_replies();
        let mut run = batch.start();
        assert!(
            wait_until(|| batch.fake.ended_count() >= answered),
            "the batch never got {answered} replies; stderr: {:?}",
            run.stderr()
        );
        run.kill();
        let exited = run.wait();
        // SIGKILL on Unix (no exit code); TerminateProcess on Windows (exit code 1).
        let killed = if cfg!(windows) { Some(1) } else { None };
        assert_eq!(exited.status.code(), killed, "killed, not exited by itself");
        let summarized = batch.summarized_notes();
        assert!(summarized.len() < NOTES);
        batch.assert_nothing_else_in_the_vault();
    }
}

/// A run of two notes at once where the first request is answered at once and the other is
/// held until the test opens the gate.
struct OneHeld {
    /// The first stdout line the test waited for, read while the other note was still held.
    first_line: String,
    /// The note whose reply was sent at once.
    answered: String,
    /// The note whose reply was held.
    held: String,
    exited: Exited,
    vault: TempVault,
}

/// Runs `summarize-file A.md B.md` (plus `extra_args`), waits for a stdout line matching
/// `first_line` while one note's reply is held back, checks that exactly the other reply was
/// sent by then, then opens the gate and waits for the run to finish.
fn one_note_held(extra_args: &[&str], first_line: impl Fn(&str) -> bool) -> OneHeld {
    let vault = TempVault::with(&[
        ("A.md", "# A\n\nThe first note.\n"),
        ("B.md", "# B\n\nThe second note.\n"),
    ]);
    let fake = FakeOpenAi::start();
    let gate = Gate::new();
    fake.push(FakeReply::chat(SUMMARY));
    fake.push(FakeReply::chat(SUMMARY).held_until(&gate));
    let mut run = Running::spawn(
        vaultsum_process(&vault.outside())
            .envs(fake.env())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "llm"])
            .args(extra_args)
            .args(["A.md", "B.md"]),
    );
    assert!(wait_until(|| fake.request_count() == 2));
    let first_line = run.wait_for_stdout(first_line);
    let requests = fake.requests();
    let (answered, held): (Vec<_>, Vec<_>) = requests.iter().partition(|r| r.ended.is_some());
    assert_eq!(answered.len(), 1, "only the first reply has been sent");
    assert_eq!(answered[0].ended, Some(Ended::Answered));
    let (answered, held) = (note_of(answered[0]), note_of(held[0]));
    gate.open();
    let exited = run.wait();
    assert_eq!(
        exited.status.code(),
        Some(0),
        "stderr: {}",
        exited.stderr_text()
    );
    OneHeld {
        first_line,
        answered,
        held,
        exited,
        vault,
    }
}

#[test]
fn each_result_is_printed_as_soon_as_its_note_is_done() {
    let run = one_note_held(&[], |_| true);
    let first: Value = serde_json::from_str(&run.first_line).expect("a JSON result line");
    assert_eq!(first["success"], Value::Bool(true));
    assert_eq!(first["path"], run.answered.as_str());
    let paths: Vec<Value> = run
        .exited
        .stdout
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON")["path"].clone())
        .collect();
    assert_eq!(paths, [run.answered.as_str(), run.held.as_str()]);
}

#[test]
fn each_dry_run_preview_is_printed_as_soon_as_it_is_done() {
    let run = one_note_held(&["--dry-run"], |line| line.starts_with("==> "));
    assert_eq!(run.first_line, format!("==> {} <==", run.answered));
    let headers: Vec<&String> = run
        .exited
        .stdout
        .iter()
        .filter(|line| line.starts_with("==> "))
        .collect();
    assert_eq!(
        headers,
        [
            &format!("==> {} <==", run.answered),
            &format!("==> {} <==", run.held)
        ]
    );
    assert_eq!(run.vault.read("A.md"), b"# A\n\nThe first note.\n");
    assert_eq!(run.vault.read("B.md"), b"# B\n\nThe second note.\n");
}

/// `1440` as `1,440` (below a million), as the closing line writes token counts.
fn grouped(n: usize) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{},{:03}", n / 1000, n % 1000)
    }
}
