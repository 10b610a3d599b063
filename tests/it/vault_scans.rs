//! A vault-wide scan never fails as a whole because of one entry (issue 36, DESIGN §14): every
//! walk (rollup selection by week, days, tag and hub links; `status`; folder runs of
//! `summarize-file` and `read`; watch's catch-up) leaves out what it may not read (a symlink
//! out of the vault, a symlink loop, an unreadable file, a FIFO, a name that is not UTF-8, a
//! symlinked folder leading out), finishes, counts it in `details.left_out` by reason and
//! names each with `-v`. Through the real binary. A note deleted while a scan runs is tested
//! where the deletion can be put between the walk and the read: the tools' unit tests
//! (`freshness.rs`, `summarize_notes.rs`).
//!
//! Unreadable as root: root reads a mode-000 file, so when this process can (CI runs as root)
//! the binary is started as `nobody` (uid and gid 65534), for whom the permissions hold; the
//! vault is made readable to it, and its scratch folder writable.
#![cfg(unix)]

use crate::support;

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;

use serde_json::{json, Value};
use support::cli::{run_to_exit, vaultsum_process, vaultsum_process_at};
use support::running::Running;
use support::temp_vault::TempVault;
use vaultsum_tools::rollup_selection;

/// What every scan of [`hostile_vault`] leaves out, by reason.
fn expected_left_out() -> Value {
    json!({
        "outside the vault": 2,
        "symlink loop": 2,
        "not a regular file": 1,
        "name not UTF-8": 1,
        "unreadable": 1,
    })
}

/// The entries `-v` names, as `vaultsum: left out PATH (REASON)` lines.
const NAMED: [&str; 7] = [
    "Projects/link-out.md (outside the vault)",
    "Linked/ (outside the vault)",
    "Projects/loop-a.md (symlink loop)",
    "Projects/loop-b.md (symlink loop)",
    "Projects/pipe.md (not a regular file)",
    "Projects/caf\u{FFFD}.md (name not UTF-8)",
    "Projects/locked.md (unreadable)",
];

/// Two readable notes in week 2020-W47 and today, a hub linking to one of them and to the
/// unreadable note, and one of each entry a scan may not read. Notes outside the vault carry
/// the tag too, so a scan that followed them would select them.
fn hostile_vault() -> TempVault {
    let vault = TempVault::new();
    let today = rollup_selection::today();
    vault.write(
        "Journal/2020-11-18.md",
        "---\ntags: [work]\n---\n# Wednesday\n\nWe chose SQLite for the store. #work\n",
    );
    vault.write(
        &format!("Journal/{today}.md"),
        "# Today\n\nDana sends the link to the new plan. #work\n",
    );
    vault.write("Hub.md", "# Hub\n\n- [[2020-11-18]]\n- [[locked]]\n");
    vault.write(
        "Projects/locked.md",
        "# Locked\n\nNobody may read this. #work\n",
    );
    std::fs::set_permissions(
        vault.root().join("Projects/locked.md"),
        std::fs::Permissions::from_mode(0o000),
    )
    .unwrap();
    std::fs::write(vault.outside().join("secret.md"), "# Secret\n\n#work\n").unwrap();
    let projects = vault.root().join("Projects");
    std::os::unix::fs::symlink(
        vault.outside().join("secret.md"),
        projects.join("link-out.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink("loop-b.md", projects.join("loop-a.md")).unwrap();
    std::os::unix::fs::symlink("loop-a.md", projects.join("loop-b.md")).unwrap();
    std::os::unix::fs::symlink(vault.outside(), vault.root().join("Linked")).unwrap();
    vault.fifo("Projects/pipe.md");
    let not_utf8 = std::ffi::OsStr::from_bytes(b"caf\xe9.md");
    std::fs::write(projects.join(not_utf8), "# Cafe\n\n#work\n").unwrap();
    let dir = vault.root().parent().unwrap().to_path_buf();
    open_to_others(&dir, &vault.outside());
    vault
}

/// True when this process reads a file whose mode forbids it (root, or `CAP_DAC_OVERRIDE`).
fn permissions_do_not_bind_us() -> bool {
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe");
    std::fs::write(&probe, "x").unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::read(&probe).is_ok()
}

/// Lets `nobody` walk the vault's folders and write in the scratch folder (tempfile makes
/// folders 0700).
fn open_to_others(dir: &Path, scratch: &Path) {
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.unwrap();
        if entry.file_type().is_dir() {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    std::fs::set_permissions(scratch, std::fs::Permissions::from_mode(0o777)).unwrap();
}

/// `vaultsum --vault VAULT ARGS`, as `nobody` when permissions do not bind this process.
/// The binary is linked into the scratch folder first: the build's own folder may sit below
/// one `nobody` cannot enter (a clone in a 0700 temporary folder).
fn command(vault: &TempVault, args: &[&str]) -> std::process::Command {
    let scratch = vault.outside();
    let mut command = if permissions_do_not_bind_us() {
        let copy = scratch.join("vaultsum");
        // A hard link, not a copy: a copy's write handle, inherited by a process another test
        // starts meanwhile, makes running the copy fail ("Text file busy").
        // Another file system: a copy it is.
        if !copy.exists() && std::fs::hard_link(env!("CARGO_BIN_EXE_vaultsum"), &copy).is_err() {
            std::fs::copy(env!("CARGO_BIN_EXE_vaultsum"), &copy).unwrap();
        }
        let mut command = vaultsum_process_at(&copy, &scratch);
        command.uid(65534).gid(65534);
        command
    } else {
        vaultsum_process(&scratch)
    };
    command.arg("--vault").arg(vault.root()).args(args);
    command
}

fn run(vault: &TempVault, args: &[&str]) -> (std::process::ExitStatus, String, String) {
    let output = run_to_exit(&mut assert_cmd::Command::from_std(command(vault, args)));
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Each entry named on stderr by `-v`.
fn assert_each_named(stderr: &str) {
    for entry in NAMED {
        assert!(
            stderr.contains(&format!("vaultsum: left out {entry}")),
            "{entry} is not named:\n{stderr}"
        );
    }
}

#[test]
fn every_rollup_selection_finishes_and_counts_what_it_left_out() {
    let vault = hostile_vault();
    let today = rollup_selection::today().to_string();
    let week = ["--week", "2020-W47"];
    let last = ["--last", "30d"];
    let tag = ["--tag", "work"];
    let hub = ["--links-of", "Hub.md"];
    let cases: [(&[&str], Vec<String>); 4] = [
        (&week, vec!["Journal/2020-11-18.md".to_string()]),
        (&last, vec![format!("Journal/{today}.md")]),
        (
            &tag,
            vec![
                "Journal/2020-11-18.md".to_string(),
                format!("Journal/{today}.md"),
            ],
        ),
        (&hub, vec!["Journal/2020-11-18.md".to_string()]),
    ];
    for (selection, notes) in cases {
        let mut args = vec!["-v", "rollup", "--engine", "local", "--json"];
        args.extend_from_slice(selection);
        let (status, stdout, stderr) = run(&vault, &args);
        assert!(
            status.success(),
            "{selection:?} failed:\n{stdout}\n{stderr}"
        );
        let printed: Value = serde_json::from_str(&stdout).expect("one JSON result");
        let details = &printed["details"];
        assert_eq!(details["notes"], json!(notes), "{selection:?}");
        assert_eq!(details["left_out"], expected_left_out(), "{selection:?}");
        assert_eq!(
            details["left_out_entries"].as_array().map(Vec::len),
            Some(NAMED.len()),
            "{selection:?}: {}",
            details["left_out_entries"]
        );
        assert!(
            !printed["text"].as_str().unwrap().contains("Secret"),
            "nothing outside the vault is read"
        );
        assert_each_named(&stderr);
    }
    // Without -v, one line counts them and says how to name them.
    let (status, _, stderr) = run(
        &vault,
        &["rollup", "--engine", "local", "--week", "2020-W47"],
    );
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "vaultsum: 7 entries left out of the scan (1 name not UTF-8, 1 not a regular file, \
             2 outside the vault, 2 symlink loop, 1 unreadable); -v names each"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("vaultsum: left out "), "{stderr}");
}

#[test]
fn status_lists_every_readable_note_and_counts_what_it_left_out() {
    let vault = hostile_vault();
    let (status, stdout, stderr) = run(&vault, &["-v", "status", "--json"]);
    assert!(status.success(), "{stdout}\n{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (counts, notes) = lines.split_last().unwrap();
    let paths: Vec<&str> = notes.iter().map(|n| n["path"].as_str().unwrap()).collect();
    let today = rollup_selection::today().to_string();
    let mut expected = vec![
        "Hub.md".to_string(),
        "Journal/2020-11-18.md".to_string(),
        format!("Journal/{today}.md"),
    ];
    expected.sort();
    assert_eq!(paths, expected);
    assert_eq!(counts["counts"]["left_out"], expected_left_out());
    assert_each_named(&stderr);
}

#[test]
fn folder_runs_of_summarize_file_and_read_leave_out_what_the_walk_may_not_read() {
    let vault = hostile_vault();
    let before = vault.read("Journal/2020-11-18.md");
    let (status, stdout, stderr) = run(
        &vault,
        &[
            "-v",
            "summarize-file",
            "--engine",
            "local",
            "Journal",
            "Projects",
            "--dry-run",
        ],
    );
    // The walk leaves out the five entries it may not open; the unreadable note is found by
    // its name and fails alone when read, the rest is summarized.
    assert!(
        stderr.contains("vaultsum: left out Projects/link-out.md (outside the vault)"),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .last()
            .is_some_and(|l| l == "vaultsum: 3 notes: 2 previewed, 1 failed, 5 left out, offline"),
        "{stdout}\n{stderr}"
    );
    assert_eq!(status.code(), Some(1), "one note failed: {stderr}");
    assert_eq!(
        vault.read("Journal/2020-11-18.md"),
        before,
        "a dry run writes nothing"
    );

    let (status, stdout, stderr) = run(&vault, &["read", "Journal"]);
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("We chose SQLite"), "{stdout}");
}

#[test]
fn watch_catches_up_past_what_it_may_not_read_and_says_so() {
    let vault = hostile_vault();
    let mut watch = command(&vault, &["watch", "--once"]);
    watch.env("VAULTSUM_STATE_DIR", vault.outside().join("state"));
    let exited = Running::spawn(&mut watch).wait();
    let stderr = exited.stderr_text();
    assert!(exited.status.success(), "{stderr}");
    // The two readable journal notes and the hub are recorded; the count line names the
    // reasons (the unreadable note is found, then cannot be read: named with -v).
    assert!(
        stderr.contains("watch: first run on this vault: 4 existing notes recorded"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "watch: 6 entries left out of the scan (1 name not UTF-8, 1 not a regular file, \
             2 outside the vault, 2 symlink loop); -v names each"
        ),
        "{stderr}"
    );
}
