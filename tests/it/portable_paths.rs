//! Paths as people type them on every system Obsidian runs on (issue 14): `/` or `\` between
//! folders, answered with `/`; Windows' absolute forms (drives, UNC shares, `\\?\`) held to the
//! same escape rules as `/etc/passwd`; one note reached by two spellings is one note; `[[café]]`
//! finds `Café.md` in either Unicode form; Windows device names refused there, ordinary files
//! elsewhere; a note another program holds open on Windows reported busy and left unchanged.

use crate::support;

use serde_json::Value;
use support::cli::{run_to_exit, vaultsum};
use support::temp_vault::TempVault;
use vaultsum_core::vault::VaultError;

const NOTE: &str = "# Plan\n\nWe ship the offline store first, then the sync.\n";

/// `summarize-file --engine local --json` on `paths`; the parsed result lines and the output.
fn summarize(v: &TempVault, paths: &[&str]) -> (Vec<Value>, std::process::Output) {
    let scratch = tempfile::tempdir().unwrap();
    let output = run_to_exit(
        vaultsum(scratch.path())
            .arg("--vault")
            .arg(v.root())
            .args(["summarize-file", "--engine", "local", "--json"])
            .args(paths),
    );
    let results = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("one JSON result per line"))
        .collect();
    (results, output)
}

/// `summarize-file` on `input` exits 2 (targets are placed before any call), says `expected` on
/// stderr, and leaves the vault as it was.
fn assert_refused_and_nothing_written(v: &TempVault, input: &str, expected: &str) {
    let before = v.entries();
    let (_, output) = summarize(v, &[input]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(expected), "{stderr}");
    assert_eq!(v.entries(), before);
}

fn summary_count(text: &[u8]) -> usize {
    String::from_utf8_lossy(text).matches("## Summary").count()
}

#[test]
fn backslashes_separate_folders_and_answers_use_forward_slashes() {
    let v = TempVault::with(&[("Projects/Apollo/Plan.md", NOTE)]);
    let (results, output) = summarize(&v, &["Projects\\Apollo\\Plan.md"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["path"], "Projects/Apollo/Plan.md");
    assert_eq!(summary_count(&v.read("Projects/Apollo/Plan.md")), 1);
}

#[test]
fn windows_absolute_forms_and_backslash_climbs_are_refused_as_escapes() {
    let v = TempVault::with(&[("a.md", NOTE)]);
    let vault = v.open();
    for input in [
        "C:\\Windows\\win.ini",
        "C:/Windows/win.ini",
        "C:win.ini",
        "\\\\server\\share\\x.md",
        "\\\\?\\C:\\Windows\\win.ini",
        "\\\\.\\PhysicalDrive0",
        "\\Windows\\win.ini",
        "..\\..\\x.md",
        "a\\..\\..\\x.md",
    ] {
        match vault.resolve_input(input) {
            Err(VaultError::Escapes(named)) => assert_eq!(named, input),
            other => panic!("{input}: expected an escape, got {other:?}"),
        }
    }
}

#[test]
fn the_binary_names_a_windows_path_outside_the_vault_and_writes_nothing() {
    let v = TempVault::with(&[("a.md", NOTE)]);
    assert_refused_and_nothing_written(
        &v,
        "C:\\Windows\\win.ini",
        "path escapes the vault: C:\\Windows\\win.ini",
    );
    assert_eq!(v.read("a.md"), NOTE.as_bytes());
}

#[test]
fn two_names_of_one_file_are_one_note() {
    let v = TempVault::with(&[("Plan.md", NOTE)]);
    // A hard link: two names, one file, on every system.
    std::fs::hard_link(v.root().join("Plan.md"), v.root().join("Same plan.md")).unwrap();
    let (results, output) = summarize(&v, &["Plan.md", "Same plan.md", ".\\Plan"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(results.len(), 1, "one call for one file: {results:?}");
    assert_eq!(results[0]["path"], "Plan.md");
    assert_eq!(summary_count(&v.read("Plan.md")), 1);
}

/// True when this file system finds `probe.md` by the name `PROBE.md` (NTFS, APFS; not ext4).
fn ignores_case(dir: &std::path::Path) -> bool {
    std::fs::write(dir.join("probe-case.md"), "x").unwrap();
    let found = dir.join("PROBE-CASE.md").exists();
    std::fs::remove_file(dir.join("probe-case.md")).unwrap();
    found
}

#[test]
fn names_differing_in_case_are_one_note_where_the_file_system_ignores_case() {
    let v = TempVault::with(&[("Plan.md", NOTE)]);
    if ignores_case(&v.root()) {
        let (results, output) = summarize(&v, &["Plan.md", "plan.md", "PLAN.md"]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(results.len(), 1, "one note: {results:?}");
        assert_eq!(summary_count(&v.read("Plan.md")), 1);
    } else {
        // Two real files that differ in case are two notes, each summarized once.
        v.write("plan.md", NOTE);
        let (results, output) = summarize(&v, &["Plan.md", "plan.md"]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(results.len(), 2, "two notes: {results:?}");
        assert_eq!(summary_count(&v.read("Plan.md")), 1);
        assert_eq!(summary_count(&v.read("plan.md")), 1);
    }
}

#[test]
fn a_link_finds_its_note_whatever_the_case_and_unicode_form_of_the_file_name() {
    let nfc = "Caf\u{e9}";
    let nfd = "Cafe\u{301}";
    for stored in [nfc, nfd] {
        let v = TempVault::new();
        v.write(
            &format!("{stored}.md"),
            "# Café\n\nThe espresso machine is fixed.\n",
        );
        // The link in NFC and lower case, as typed on most keyboards.
        v.write("Main.md", "# Main\n\n![[caf\u{e9}]]\n");
        let scratch = tempfile::tempdir().unwrap();
        let output = run_to_exit(
            vaultsum(scratch.path())
                .arg("--vault")
                .arg(v.root())
                .args(["read", "Main.md"]),
        );
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains("The espresso machine is fixed."),
            "stored as {stored:?}: {text}"
        );
    }
}

/// Names Windows would read as a device or as another name (a folder ending in a dot or a
/// space; a whole path's trailing space is trimmed as input whitespace first).
#[cfg(unix)]
const NOT_PORTABLE: [&str; 5] = [
    "CON.md",
    "nul.md",
    "Folder/COM1.md",
    "Folder./Plan.md",
    "Folder /Plan.md",
];

#[cfg(windows)]
#[test]
fn windows_device_names_and_trailing_dots_get_a_clear_error_and_nothing_is_written() {
    let v = TempVault::with(&[("a.md", NOTE)]);
    let vault = v.open();
    for name in [
        "CON.md",
        "nul.md",
        "Folder/COM1.md",
        "Plan.",
        "Folder /x.md",
        "aux",
    ] {
        match vault.resolve_input(name) {
            Err(VaultError::NotPortable { .. }) => {}
            other => panic!("{name}: expected a not-portable error, got {other:?}"),
        }
    }
    assert_refused_and_nothing_written(&v, "CON.md", "reserved device name on Windows");
}

#[cfg(unix)]
#[test]
fn names_reserved_on_windows_are_ordinary_notes_elsewhere() {
    // Elsewhere they are real, distinct files: nothing would be read or written in their place.
    let files: Vec<(&str, &str)> = NOT_PORTABLE.iter().map(|name| (*name, NOTE)).collect();
    let v = TempVault::with(&files);
    let (results, output) = summarize(&v, &NOT_PORTABLE);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(results.len(), NOT_PORTABLE.len(), "{results:?}");
    for name in NOT_PORTABLE {
        assert_eq!(summary_count(&v.read(name)), 1, "{name}");
    }
}

#[cfg(windows)]
#[test]
fn a_note_held_open_by_another_program_is_reported_busy_and_left_unchanged() {
    use std::os::windows::fs::OpenOptionsExt;
    let v = TempVault::with(&[("Plan.md", NOTE)]);
    // Another program (an editor, an antivirus, a sync client) holding it with no sharing.
    let held = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .share_mode(0)
        .open(v.root().join("Plan.md"))
        .unwrap();
    let (results, output) = summarize(&v, &["Plan.md"]);
    drop(held);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(results.len(), 1, "{results:?}");
    let error = results[0]["error"].as_str().unwrap_or_default().to_string();
    assert!(
        error.contains("held open by another program"),
        "{results:?}"
    );
    assert_eq!(v.read("Plan.md"), NOTE.as_bytes());
}

#[cfg(windows)]
#[test]
fn symlinks_out_of_the_vault_are_refused_on_windows_too() {
    use std::os::windows::fs::{symlink_dir, symlink_file};
    let v = TempVault::with(&[("Main.md", "# Main\n\n![[leak]]\n\n![[door/secret]]\n")]);
    std::fs::write(v.outside().join("secret.md"), "TOP SECRET\n").unwrap();
    symlink_file(v.outside().join("secret.md"), v.root().join("leak.md")).unwrap();
    symlink_dir(v.outside(), v.root().join("door")).unwrap();
    let vault = v.open();
    for path in ["leak.md", "door/secret.md", "door\\secret.md"] {
        match vault.resolve_input(path) {
            Err(VaultError::Escapes(_)) => {}
            other => panic!("{path}: expected an escape, got {other:?}"),
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    let output = run_to_exit(
        vaultsum(scratch.path())
            .arg("--vault")
            .arg(v.root())
            .args(["read", "Main.md"]),
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(!text.contains("TOP SECRET"), "{text}");
    assert!(text.contains("outside the vault"), "{text}");
}
