//! The write path on the real filesystem (issue 10): an append keeps the note's identity, a
//! replace swaps atomically and leaves no temporary file, writes stay beneath the vault even
//! when a folder is swapped for a symlink after the path was checked, leftovers of a killed
//! write are swept, and another program appending throughout a `summarize-file` loop never
//! loses a line.

use crate::support;

#[cfg(unix)]
use std::io::{BufRead, BufReader};
#[cfg(unix)]
use std::process::{Command, Stdio};

#[cfg(unix)]
use crate::support::files::defused;
use support::cli::{run_to_exit, vaultsum};
use support::temp_vault::TempVault;
#[cfg(unix)]
use vaultsum_core::vault::append_summary;
#[cfg(target_os = "linux")]
use vaultsum_core::vault::VaultError;

const BODY: &str = "# Plan\n\nWe ship the offline store first.\n";

/// Every file below `root`, hidden ones included, as sorted vault-relative paths.
fn all_files(root: &std::path::Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| {
            let relative = e.path().strip_prefix(root).unwrap();
            let parts: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            parts.join("/")
        })
        .collect();
    files.sort();
    files
}

#[cfg(unix)]
#[test]
fn an_append_keeps_the_file_its_links_its_birth_time_and_its_extended_attributes() {
    use std::os::unix::fs::MetadataExt;
    let vault = TempVault::with(&[("Plan.md", BODY)]);
    let path = vault.root().join("Plan.md");
    let link = vault.root().join("Plan (hard link).md");
    std::fs::hard_link(&path, &link).unwrap();
    rustix::fs::setxattr(
        &path,
        "user.obsidian-test",
        b"kept",
        rustix::fs::XattrFlags::empty(),
    )
    .expect("the test file system takes user extended attributes");
    let before = std::fs::metadata(&path).unwrap();

    let opened = vault.open();
    let note = opened.resolve_input("Plan.md").unwrap();
    append_summary(
        &opened,
        &note,
        BODY.as_bytes(),
        &defused("- Offline first."),
        false,
    )
    .unwrap();

    let after = std::fs::metadata(&path).unwrap();
    assert_eq!(after.ino(), before.ino(), "the note is the same file");
    assert_eq!(after.nlink(), 2);
    if let (Ok(born), Ok(still)) = (before.created(), after.created()) {
        assert_eq!(born, still, "birth time kept");
    }
    let expected = format!("{BODY}\n## Summary\n\n- Offline first.\n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
    assert_eq!(
        std::fs::read_to_string(&link).unwrap(),
        expected,
        "the hard link sees the summary"
    );
    let mut value = [0u8; 16];
    let len = rustix::fs::getxattr(&path, "user.obsidian-test", &mut value).unwrap();
    assert_eq!(&value[..len], b"kept");
    assert_eq!(all_files(&vault.root()).len(), 2, "no temporary file");
}

#[cfg(unix)]
#[test]
fn a_replace_swaps_the_content_keeps_the_mode_and_leaves_no_temporary_file() {
    use std::os::unix::fs::PermissionsExt;
    let old = format!("{BODY}\n## Summary\n\nOld.\n");
    let vault = TempVault::with(&[("Plan.md", &old)]);
    let path = vault.root().join("Plan.md");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();

    let opened = vault.open();
    let note = opened.resolve_input("Plan.md").unwrap();
    let outcome = append_summary(&opened, &note, old.as_bytes(), &defused("New."), true).unwrap();

    assert!(!outcome.stale);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{BODY}\n## Summary\n\nNew.\n")
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(all_files(&vault.root()), ["Plan.md"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_folder_swapped_for_a_symlink_after_the_check_does_not_lead_the_write_out() {
    let vault = TempVault::with(&[("Projects/Plan.md", BODY)]);
    std::fs::write(vault.outside().join("Plan.md"), BODY).unwrap();
    let opened = vault.open();
    let note = opened.resolve_input("Projects/Plan.md").unwrap();

    // Between the check of the path and the write, the folder becomes a link out of the vault.
    std::fs::rename(
        vault.root().join("Projects"),
        vault.root().join("Projects-moved"),
    )
    .unwrap();
    std::os::unix::fs::symlink(vault.outside(), vault.root().join("Projects")).unwrap();

    let error = append_summary(&opened, &note, BODY.as_bytes(), &defused("S."), false).unwrap_err();
    assert!(
        !matches!(error, VaultError::Busy(_)),
        "refused, not busy: {error}"
    );
    assert_eq!(
        std::fs::read_to_string(vault.outside().join("Plan.md")).unwrap(),
        BODY,
        "nothing written outside the vault"
    );
    assert_eq!(vault.read("Projects-moved/Plan.md"), BODY.as_bytes());
}

#[test]
fn a_temporary_file_left_by_a_killed_write_is_swept_by_the_next_write_in_its_folder() {
    let vault = TempVault::with(&[("Inbox/Plan.md", BODY)]);
    let leftover = vault.root().join("Inbox/.vaultsum-1234-dead.tmp");
    std::fs::write(&leftover, "half a summary").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&leftover)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();

    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "local", "Inbox/Plan.md"]),
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(all_files(&vault.root()), ["Inbox/Plan.md"]);
}

/// Another program appends numbered lines to the note as fast as it can while `summarize-file`
/// runs on it again and again. Every line it wrote is in the note, once and in order; every
/// run either wrote one whole summary or reported the note busy and wrote nothing.
#[cfg(unix)]
#[test]
fn another_program_appending_throughout_a_summarize_loop_never_loses_a_line() {
    const RUNS: usize = 12;
    let vault = TempVault::with(&[("Log.md", "# Log\n\nAppended by a script:\n")]);
    let note = vault.root().join("Log.md");
    // `>>` opens with O_APPEND, as a logging script or a sync client appending would; a line
    // every few milliseconds, so the note changes during most runs.
    let mut appender = Command::new("sh")
        .arg("-c")
        .arg("i=0; while :; do echo \"line $i\" >> \"$0\"; echo $i; i=$((i+1)); sleep 0.005; done")
        .arg(&note)
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut progress = BufReader::new(appender.stdout.take().unwrap()).lines();
    // The appender is running before the first summary starts.
    progress.next().unwrap().unwrap();

    let mut written = 0;
    for _ in 0..RUNS {
        let output = run_to_exit(
            vaultsum(&vault.outside())
                .arg("--vault")
                .arg(vault.root())
                .args(["summarize-file", "--engine", "local", "--json", "Log.md"]),
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if output.status.success() {
            written += 1;
        } else {
            assert!(
                stdout.contains("note is busy"),
                "only a busy note may fail: {stdout} {stderr}"
            );
        }
        // Let the appender get some lines in between runs.
        progress.next().unwrap().unwrap();
    }
    appender.kill().unwrap();
    appender.wait().unwrap();

    let text = std::fs::read_to_string(&note).unwrap();
    assert!(text.starts_with("# Log\n\nAppended by a script:\n"));
    let numbers: Vec<u64> = text
        .lines()
        .filter_map(|line| line.strip_prefix("line "))
        .map(|n| n.parse().expect("a whole line, never cut"))
        .collect();
    let expected: Vec<u64> = (0..numbers.len() as u64).collect();
    assert_eq!(numbers, expected, "every appended line, once, in order");
    assert!(numbers.len() > RUNS, "the appender ran throughout");
    assert_eq!(
        text.matches("\n## Summary\n").count(),
        written,
        "one whole summary per successful run"
    );
    assert!(written > 0, "at least one run got its summary in");
}

/// The index is published as a snapshot: a reader holding one (an expansion in progress)
/// neither blocks a change nor sees it half-made, and the next reader sees the change.
#[test]
fn an_index_snapshot_held_by_a_reader_never_blocks_a_change() {
    let vault = TempVault::with(&[("Plan.md", BODY)]);
    let opened = vault.open();
    let snapshot = opened.index();
    // With a lock held by the reader this call would wait for the reader (here: forever).
    opened.note_created("Later.md");
    assert!(
        !snapshot.contains("Later.md"),
        "the snapshot stays as it was"
    );
    assert!(opened.index().contains("Later.md"));
    opened.note_removed("Plan.md");
    assert!(snapshot.contains("Plan.md"));
    assert!(!opened.index().contains("Plan.md"));
}
