//! Bounded reads on the real binary and the real file system: a FIFO named `.md` (read
//! directly, embedded, in a folder batch), sparse multi-gigabyte files, an oversized image and a
//! binary file. Every command must exit by itself (a hang fails the test through the harness's
//! timeout, see [`run_to_exit`]) with a clear error or placeholder and no huge output.

use crate::support;

use serde_json::Value;
use support::cli::{run_to_exit, vaultsum};
use support::temp_vault::TempVault;

const THREE_GB: u64 = 3 << 30;
/// Output bigger than this means a file was dumped instead of refused.
const SMALL_OUTPUT: usize = 4096;

fn read(vault: &TempVault, paths: &[&str]) -> std::process::Output {
    run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .arg("read")
            .args(paths),
    )
}

fn summarize_file(vault: &TempVault, paths: &[&str]) -> Vec<Value> {
    summarize_file_said(vault, paths).0
}

/// The result lines of `summarize-file`, and its stderr.
fn summarize_file_said(vault: &TempVault, paths: &[&str]) -> (Vec<Value>, String) {
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "local"])
            .args(paths),
    );
    let results = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    (results, stderr(&output))
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const BODY: &str = "# Plan\n\nShip the release on Friday. Alice owns the changelog and Bob \
                    runs the smoke tests before the tag.\n";

#[cfg(unix)]
fn vault_with_fifo() -> TempVault {
    let vault = TempVault::with(&[
        ("Inbox/Plan.md", BODY),
        (
            "Inbox/Host.md",
            "# Host\n\nBefore the pipe.\n\n![[pipe.md]]\n\nAfter it.\n",
        ),
    ]);
    vault.fifo("Inbox/pipe.md");
    vault
}

#[cfg(unix)]
#[test]
fn a_fifo_read_directly_is_refused_at_once() {
    let vault = vault_with_fifo();
    let output = read(&vault, &["Inbox/pipe.md"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("not a regular file (a FIFO): Inbox/pipe.md"),
        "{}",
        stderr(&output)
    );
    assert!(output.stdout.is_empty());
}

#[cfg(unix)]
#[test]
fn summarize_file_on_a_fifo_is_refused_at_once() {
    let vault = vault_with_fifo();
    let results = summarize_file(&vault, &["Inbox/pipe.md"]);
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["success"], Value::Bool(false));
    let error = results[0]["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("not a regular file (a FIFO): Inbox/pipe.md"),
        "{error}"
    );
}

#[cfg(unix)]
#[test]
fn a_note_embedding_a_fifo_reads_with_a_marker() {
    let vault = vault_with_fifo();
    let output = read(&vault, &["Inbox/Host.md"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("Before the pipe."), "{text}");
    assert!(text.contains("After it."), "{text}");
    assert!(
        text.contains("[Embed failed: pipe.md: not a regular file (a FIFO)]"),
        "{text}"
    );

    let results = summarize_file(&vault, &["Inbox/Host.md"]);
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["success"], Value::Bool(true), "{results:?}");
    assert!(String::from_utf8_lossy(&vault.read("Inbox/Host.md")).contains("## Summary"));
}

#[cfg(unix)]
#[test]
fn a_folder_batch_with_a_fifo_summarizes_the_rest() {
    let vault = vault_with_fifo();
    // The walk of the folder leaves the FIFO out, never opening it, and says so.
    let (results, said) = summarize_file_said(&vault, &["Inbox"]);
    assert_eq!(results.len(), 2, "{results:?}");
    for note in ["Inbox/Plan.md", "Inbox/Host.md"] {
        let result = results.iter().find(|r| r["path"] == note);
        assert_eq!(
            result.map(|r| &r["success"]),
            Some(&Value::Bool(true)),
            "{results:?}"
        );
        assert!(String::from_utf8_lossy(&vault.read(note)).contains("## Summary"));
    }
    assert!(
        said.contains("vaultsum: 1 entry left out of the scan (1 not a regular file)"),
        "{said}"
    );
    assert!(said.contains("2 notes: 2 summarized, 1 left out"), "{said}");
}

#[test]
fn a_sparse_3_gb_video_is_a_placeholder_not_read() {
    let vault = TempVault::with(&[("Inbox/Clip.md", "# Clip\n\n![[video.mp4]]\n")]);
    vault.sparse("Attachments/video.mp4", THREE_GB);
    let output = read(&vault, &["Attachments/video.mp4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        output.stdout.len() < SMALL_OUTPUT,
        "{} bytes",
        output.stdout.len()
    );
    let text = stdout(&output);
    assert!(!text.contains('\0'));
    assert!(
        text.contains("[Attachments/video.mp4: video file, 3.0 GB; not read"),
        "{text}"
    );

    let output = read(&vault, &["Inbox/Clip.md"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        output.stdout.len() < SMALL_OUTPUT,
        "{} bytes",
        output.stdout.len()
    );
    assert!(
        stdout(&output).contains("video Attachments/video.mp4: not supported yet"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_sparse_3_gb_note_is_refused_over_max_note_bytes() {
    let vault = TempVault::with(&[("Inbox/Host.md", "# Host\n\n![[huge.md]]\n")]);
    vault.sparse("Inbox/huge.md", THREE_GB);
    let output = read(&vault, &["Inbox/huge.md"]);
    assert!(!output.status.success());
    assert!(
        output.stdout.len() < SMALL_OUTPUT,
        "{} bytes",
        output.stdout.len()
    );
    assert!(
        stderr(&output).contains(
            "too large to read: Inbox/huge.md is 3.0 GB, over the 10.0 MB limit for a note \
             (read.max_note_bytes)"
        ),
        "{}",
        stderr(&output)
    );

    let results = summarize_file(&vault, &["Inbox/huge.md"]);
    assert_eq!(results[0]["success"], Value::Bool(false), "{results:?}");
    assert!(results[0]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("too large to read"));

    let output = read(&vault, &["Inbox/Host.md"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("[Embed failed: huge.md: too large to read"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn read_max_note_bytes_is_configurable() {
    let vault = TempVault::with(&[("Inbox/Plan.md", BODY), ("Inbox/Small.md", "tiny\n")]);
    let config = vault.outside().join("config.toml");
    std::fs::write(&config, "[read]\nmax_note_bytes = 64\n").unwrap();
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .env("VAULTSUM_CONFIG", &config)
            .arg("--vault")
            .arg(vault.root())
            .args(["read", "Inbox/Plan.md", "Inbox/Small.md"]),
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains(&format!(
            "too large to read: Inbox/Plan.md is {} bytes, over the 64 bytes limit for a note \
             (read.max_note_bytes)",
            BODY.len()
        )),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("tiny"), "{}", stdout(&output));
}

#[test]
fn an_oversized_image_is_refused_by_size_without_reading_it() {
    let vault = TempVault::with(&[("Inbox/Photo.md", "# Photo\n\n![[huge.png]]\n")]);
    vault.sparse("Attachments/huge.png", 25 << 20);
    let output = read(&vault, &["Attachments/huge.png"]);
    assert!(
        output.stdout.len() < SMALL_OUTPUT,
        "{} bytes",
        output.stdout.len()
    );
    let text = stdout(&output) + &stderr(&output);
    assert!(
        text.contains(
            "too large to read: Attachments/huge.png is 25.0 MB, over the 20.0 MB limit for an \
             image"
        ),
        "{text}"
    );

    let output = read(&vault, &["Inbox/Photo.md"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("[Embed failed: Attachments/huge.png: too large to read"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_binary_file_is_a_placeholder_never_parsed_as_markdown() {
    let vault = TempVault::with(&[
        ("Inbox/Other.md", "SECRET BODY OF OTHER\n"),
        (
            "Attachments/blob.bin",
            "# Looks like a heading\n\n![[Other]]\n",
        ),
    ]);
    let output = read(&vault, &["Attachments/blob.bin"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("[Attachments/blob.bin: file of unknown kind, 35 bytes; not read"),
        "{text}"
    );
    assert!(!text.contains("Looks like a heading"), "{text}");
    assert!(!text.contains("SECRET BODY OF OTHER"), "{text}");

    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["read", "--json", "Attachments/blob.bin"]),
    );
    let line: Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(line["details"]["expansion"]["kind"], "other");
    assert_eq!(line["details"]["expansion"]["read"], false);
}
