//! `--save-to` into a folder that does not exist (issue 36): `rollup` and Kagi's `summarize`
//! create the missing folders inside the vault, say so (`details.created_folders`, a line on
//! stderr), and refuse, with nothing created, a folder reached through a symlink, a hidden
//! folder (`.obsidian/` included), a path through a file, and a path out of the vault. Through
//! the real binary.

use crate::support;

use serde_json::{json, Value};
use support::cli::{run_to_exit, vaultsum};
use support::fake_kagi::{envelope, ok, vaultsum_command, FakeKagi, TEST_KEY};
use support::fake_openai::FakeOpenAi;
use support::temp_vault::TempVault;

fn meetings() -> TempVault {
    TempVault::with(&[
        (
            "Meetings/Mon.md",
            "# Monday\n\nWe chose SQLite for the store.\n",
        ),
        ("Meetings/Tue.md", "# Tuesday\n\nDana sends the link.\n"),
        (".obsidian/app.json", "{}"),
    ])
}

/// `vaultsum rollup Meetings --save-to TARGET --json` offline: exit code, result, stderr.
fn rollup_into(vault: &TempVault, target: &str) -> (Option<i32>, Value, String) {
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args([
                "rollup",
                "Meetings",
                "--engine",
                "local",
                "--json",
                "--save-to",
                target,
            ]),
    );
    let printed = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (
        output.status.code(),
        printed,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_rollup_saved_into_missing_folders_creates_them_and_says_so() {
    let vault = meetings();
    let (code, printed, stderr) = rollup_into(&vault, "Reviews/2026/W47.md");
    assert_eq!(code, Some(0), "{printed}\n{stderr}");
    assert_eq!(
        printed["details"]["created_folders"],
        json!(["Reviews", "Reviews/2026"])
    );
    assert!(
        stderr.contains("vaultsum: created the folder Reviews/ for Reviews/2026/W47.md"),
        "{stderr}"
    );
    let note = String::from_utf8(vault.read("Reviews/2026/W47.md")).unwrap();
    assert!(
        note.starts_with("---\nrollup: \"Meetings\"\n---\n"),
        "{note}"
    );
    assert!(note.contains("### Sources\n- [[Meetings/Mon]]"), "{note}");

    // Again: the folders exist now, none is created, and the rollup's note is rewritten.
    let (code, printed, _) = rollup_into(&vault, "Reviews/2026/W47.md");
    assert_eq!(code, Some(0));
    assert_eq!(printed["details"]["created_folders"], json!([]));
}

#[test]
fn hidden_folders_and_paths_through_a_file_or_out_of_the_vault_are_refused_creating_nothing() {
    let vault = meetings();
    let before = vault.entries();
    for (target, says) in [
        (
            ".obsidian/Reviews/W47.md",
            "refusing to write inside .obsidian/",
        ),
        (
            "Reviews/.hidden/W47.md",
            "refusing to write inside .hidden/",
        ),
        (".trash/W47.md", "refusing to write inside .trash/"),
        (
            "Meetings/Mon.md/W47.md",
            "Meetings/Mon.md exists and is not a folder",
        ),
        ("../Reviews/W47.md", "path escapes the vault"),
    ] {
        let (code, printed, stderr) = rollup_into(&vault, target);
        assert_eq!(code, Some(1), "{target}: {printed}\n{stderr}");
        assert!(printed["is_error"] == true, "{target}: {printed}");
        assert!(
            printed["text"].as_str().unwrap_or_default().contains(says),
            "{target}: {printed}"
        );
    }
    assert_eq!(vault.entries(), before, "nothing was created");
    assert!(!vault.outside().join("../Reviews").exists());
}

#[test]
fn a_path_through_a_file_is_refused_before_the_model_is_paid() {
    let vault = meetings();
    let fake = FakeOpenAi::start();
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--vault")
            .arg(vault.root())
            .args([
                "rollup",
                "Meetings",
                "--json",
                "--save-to",
                "Meetings/Mon.md/W47.md",
            ]),
    );
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    assert_eq!(output.status.code(), Some(1), "{printed}");
    assert!(
        printed["text"]
            .as_str()
            .unwrap_or_default()
            .contains("Meetings/Mon.md exists and is not a folder"),
        "{printed}"
    );
    assert_eq!(fake.requests().len(), 0, "no request before the refusal");
}

#[cfg(unix)]
#[test]
fn a_missing_folder_behind_a_symlinked_folder_is_refused_wherever_it_leads() {
    let vault = meetings();
    vault.write("Real/.keep", "");
    std::os::unix::fs::symlink(vault.root().join("Real"), vault.root().join("Inside")).unwrap();
    std::os::unix::fs::symlink(vault.outside(), vault.root().join("Out")).unwrap();
    let before = vault.entries();
    let (code, printed, stderr) = rollup_into(&vault, "Inside/New/W47.md");
    assert_eq!(code, Some(1), "{printed}\n{stderr}");
    assert_eq!(
        printed["text"],
        "refusing to create the folder Inside/New/: Inside/ on the way is a symlink (vaultsum \
         creates folders only inside the vault's own folders); create it yourself or choose \
         another place"
    );
    let (code, printed, _) = rollup_into(&vault, "Out/New/W47.md");
    assert_eq!(code, Some(1), "{printed}");
    assert_eq!(printed["text"], "path escapes the vault: Out/New/W47.md");
    assert_eq!(vault.entries(), before, "nothing was created");
    assert_eq!(
        std::fs::read_dir(vault.outside()).unwrap().count(),
        0,
        "nothing was created outside the vault"
    );
}

#[tokio::test]
async fn a_web_page_saved_into_missing_folders_creates_them_and_a_hidden_one_is_refused() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(
        json!({"output": "The spec, summarized.", "tokens": 42}),
    )));
    let vault = TempVault::with(&[("Inbox.md", "# Inbox\n")]);
    let run = |save_to: &str| {
        vaultsum_command(&fake.base_url(), Some(TEST_KEY))
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize", "https://example.com/spec", "--json"])
            .args(["--save-to", save_to])
            .output()
            .unwrap()
    };
    let output = run("Clippings/2026/Spec.md");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        printed["details"]["created_folders"],
        json!(["Clippings", "Clippings/2026"])
    );
    assert!(
        stderr.contains("vaultsum: created the folder Clippings/2026/ for Clippings/2026/Spec.md"),
        "{stderr}"
    );
    assert!(String::from_utf8(vault.read("Clippings/2026/Spec.md"))
        .unwrap()
        .ends_with(" -->\n\nThe spec, summarized.\n\n> [!info] Not checked\n> Kagi returns the summary without the page's text, so its names and numbers could not be checked against the page.\n"));

    let asked = fake.requests().len();
    let refused = run(".obsidian/Clippings/Spec.md");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stdout).contains("refusing to write inside .obsidian/"),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    assert!(!vault.root().join(".obsidian").exists());
    assert_eq!(
        fake.requests().len(),
        asked,
        "no paid call for a refused save_to"
    );
}
