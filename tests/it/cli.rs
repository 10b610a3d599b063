//! The one-shot CLI as a person runs it: the real binary, a copy of vault-fixture, and a fake
//! OpenAI-compatible server when the LLM engine is used.

use crate::support;

use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;
use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fingerprints::without_fingerprints;
use support::temp_vault::TempVault;

fn fixture() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

const MEETINGS: [&str; 2] = [
    "Meetings/2024-03-04 Weekly sync.md",
    "Meetings/2024-03-11 Vendor call.md",
];

#[test]
fn readme_first_command_summarizes_a_folder_offline() {
    let vault = fixture();
    let before: Vec<Vec<u8>> = MEETINGS.iter().map(|m| vault.read(m)).collect();
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--engine", "local", "Meetings"])
        .assert()
        .success()
        .get_output()
        .clone();
    // One line per note, in the order the notes finished.
    let results = json_lines(&output.stdout);
    assert_eq!(results.len(), 2);
    for (path, original) in MEETINGS.iter().zip(before) {
        let result = results
            .iter()
            .find(|result| result["path"] == *path)
            .unwrap_or_else(|| panic!("no line for {path}: {results:?}"));
        assert_eq!(result["success"], Value::Bool(true));
        let now = vault.read(path);
        assert!(now.starts_with(&original), "{path} lost bytes");
        assert!(String::from_utf8_lossy(&now[original.len()..]).contains("## Summary"));
    }
}

#[test]
fn auto_without_a_key_falls_back_to_local_and_says_so_once_on_stderr() {
    let vault = fixture();
    vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "Meetings"])
        .assert()
        .success()
        .stderr(predicate::str::contains("FIREWORKS_API_KEY is not set").count(1))
        .stdout(predicate::str::contains("FIREWORKS_API_KEY").not());
}

#[test]
fn dry_run_prints_the_summary_and_writes_nothing() {
    let vault = fixture();
    let before = vault.read(MEETINGS[0]);
    vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--engine",
            "local",
            "--dry-run",
            MEETINGS[0],
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("## Summary\n\n"));
    assert_eq!(vault.read(MEETINGS[0]), before);
}

#[test]
fn dry_run_goes_through_the_registry_with_rendered_lines_and_json() {
    let vault = fixture();
    let before = vault.read(MEETINGS[0]);
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["-v", "summarize-file", "--engine", "local", "--dry-run"])
        .args(["--json", MEETINGS[0]])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "→ summarize_file {:?} (dry run)",
            MEETINGS[0]
        )))
        .stderr(predicate::str::contains("(dry run, not written)"))
        .get_output()
        .clone();
    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["success"], Value::Bool(true));
    assert_eq!(lines[0]["path"], MEETINGS[0]);
    assert_eq!(lines[0]["dry_run"], Value::Bool(true));
    assert!(lines[0]["summary"].as_str().unwrap().contains("- "));
    assert_eq!(vault.read(MEETINGS[0]), before);
}

#[test]
fn llm_engine_summarizes_through_the_configured_server() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- From the fake model."));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--json", MEETINGS[1]])
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(json_lines(&output.stdout)[0]["success"], Value::Bool(true));
    let note = without_fingerprints(&String::from_utf8(vault.read(MEETINGS[1])).unwrap());
    assert!(note.ends_with("## Summary\r\n\r\n### Key Points\r\n\r\n- From the fake model.\r\n"));
}

#[test]
fn llm_failure_exits_1_and_leaves_every_note_unchanged() {
    let vault = fixture();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::openai_error(400, "model not found"));
    let before: Vec<Vec<u8>> = MEETINGS.iter().map(|m| vault.read(m)).collect();
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "Meetings"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    // Lines come in the order notes finish, so a failure's line names its note too.
    let results = json_lines(&output.stdout);
    let mut failed: Vec<&str> = results.iter().filter_map(|r| r["path"].as_str()).collect();
    failed.sort_unstable();
    assert_eq!(failed, MEETINGS, "{results:?}");
    for result in &results {
        assert_eq!(result["success"], Value::Bool(false));
        assert!(result["error"].as_str().unwrap().contains("400"));
    }
    for (path, original) in MEETINGS.iter().zip(before) {
        assert_eq!(vault.read(path), original);
    }
}

#[test]
fn missing_vault_folder_is_a_usage_error() {
    let scratch = tempfile::tempdir().unwrap();
    vaultsum(scratch.path())
        .args(["--vault", "/nonexistent/vault", "read", "Note.md"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/vault"));
}

#[test]
fn no_vault_anywhere_is_a_usage_error_that_says_how_to_set_one() {
    let scratch = tempfile::tempdir().unwrap();
    vaultsum(scratch.path())
        .args(["read", "Note.md"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--vault"));
}

#[test]
fn the_vault_containing_the_current_folder_is_found() {
    let vault = fixture();
    vaultsum(&vault.outside())
        .current_dir(vault.root().join("Meetings"))
        .args(["read", "Projects/Alpha/Plan.md"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Alpha"));
}

#[test]
fn read_several_notes_prints_head_style_headers() {
    let vault = fixture();
    vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["read", MEETINGS[0], MEETINGS[1]])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!(
            "==> {} <==\n",
            MEETINGS[0]
        )))
        .stdout(predicate::str::contains(format!(
            "\n\n==> {} <==\n",
            MEETINGS[1]
        )));
}

#[test]
fn read_json_gives_one_object_per_path_and_pages_by_characters() {
    let vault = fixture();
    let output = vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "read",
            "--json",
            "--length",
            "40",
            MEETINGS[0],
            "Projects/Alpha/Plan.md",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let lines = json_lines(&output.stdout);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let text = line["text"].as_str().unwrap();
        assert!(text.contains("[... truncated at char 40 of "), "{text}");
        assert_eq!(line["details"]["end"], 40);
    }
}

/// `read` of several notes prints each one as soon as it and the ones before it are read, in
/// the order given: the first note is out while the second still waits for its image's
/// description, and the third, read by then, waits its turn.
#[test]
fn read_prints_each_note_in_order_as_soon_as_its_turn_comes() {
    use support::fake_server::Gate;
    use support::running::Running;

    let server = FakeOpenAi::start();
    let gate = Gate::new();
    server.set_fallback(FakeReply::chat("A whiteboard listing three deadlines.").held_until(&gate));
    let vault = TempVault::with(&[
        ("A.md", "# A\n\nThe first note, plain text.\n"),
        ("B.md", "# B\n\n![[board.png]]\n"),
        ("C.md", "# C\n\nThe third note, plain text.\n"),
    ]);
    vault.write("board.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-fake-image");
    let mut command = support::cli::vaultsum_process(&vault.outside());
    command
        .arg("--vault")
        .arg(vault.root())
        .args(["read", "A.md", "B.md", "C.md"])
        .envs(server.env());
    let mut run = Running::spawn(&mut command);
    assert!(
        support::poll::wait_until(|| server.request_count() == 1),
        "B's image is never sent to be described"
    );
    // B's description is held back by the closed gate, so B cannot have been read yet.
    run.wait_for_stdout(|line| line.contains("The first note, plain text."));
    let printed = run.stdout();
    assert!(
        !printed
            .iter()
            .any(|l| l.contains("==> B.md") || l.contains("third note")),
        "nothing after A is printed while B is not read: {printed:?}"
    );
    gate.open();
    let exited = run.wait();
    assert!(exited.status.success(), "{}", exited.stderr_text());
    let text = exited.stdout.join("\n");
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle} in {text}"))
    };
    assert!(at("==> A.md <==") < at("==> B.md <=="));
    assert!(at("A whiteboard listing three deadlines.") < at("==> C.md <=="));
    assert!(at("==> C.md <==") < at("The third note, plain text."));
}

#[test]
fn read_of_a_missing_note_exits_1_with_the_reason() {
    let vault = fixture();
    vaultsum(&vault.outside())
        .arg("--vault")
        .arg(vault.root())
        .args(["read", "Nope.md"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not found"));
}

#[test]
fn tools_json_lists_every_tool_with_schema_and_annotations() {
    let scratch = tempfile::tempdir().unwrap();
    let output = vaultsum(scratch.path())
        .args(["tools", "--json"])
        .assert()
        .success()
        .get_output()
        .clone();
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "read_file",
            "summarize_file",
            "summarize",
            "web_search",
            "summarize_notes",
            "summarize_folder",
            "summary_status"
        ]
    );
    for tool in tools.as_array().unwrap() {
        assert_eq!(tool["input_schema"]["type"], "object");
        assert!(!tool["description"].as_str().unwrap().is_empty());
    }
    assert_eq!(tools[0]["annotations"]["readOnlyHint"], true);
    assert_eq!(tools[1]["annotations"]["readOnlyHint"], false);
    assert_eq!(tools[1]["annotations"]["destructiveHint"], true);
    assert_eq!(tools[1]["title"], "Summarize a note into it");
    assert_eq!(
        tools[1]["input_schema"]["required"],
        serde_json::json!(["path"])
    );
    assert_eq!(tools[3]["annotations"]["openWorldHint"], true);
}

#[test]
fn unknown_flag_is_a_usage_error() {
    let scratch = tempfile::tempdir().unwrap();
    vaultsum(scratch.path())
        .args(["summarize-file", "--frobnicate", "x.md"])
        .assert()
        .code(2);
}

#[test]
fn three_spellings_of_one_note_are_one_target() {
    let vault = TempVault::with(&[(
        "Projects/Apollo.md",
        "# Apollo\n\nLaunch plan and budget.\n",
    )]);
    let original = vault.read("Projects/Apollo.md");
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("### Key Points\n\n- From the fake model."));
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--vault")
        .arg(vault.root())
        .args([
            "summarize-file",
            "--json",
            "Projects/Apollo",
            "Projects/Apollo.md",
            "./Projects/Apollo.md",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let results = json_lines(&output.stdout);
    assert_eq!(results.len(), 1, "one result line: {results:?}");
    assert_eq!(results[0]["success"], Value::Bool(true));
    assert_eq!(results[0]["path"], "Projects/Apollo.md");
    assert_eq!(fake.request_count(), 1, "exactly one LLM request");
    let now = vault.read("Projects/Apollo.md");
    assert!(now.starts_with(&original));
    assert_eq!(
        String::from_utf8_lossy(&now).matches("## Summary").count(),
        1,
        "one summary in the note"
    );
}
