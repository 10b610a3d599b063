//! What paid calls cost, as a person and an agent see it, through the real binary against the
//! fake OpenAI server (every chat answer reports 120 prompt + 30 completion tokens): the
//! closing line of `summarize-file` and `rollup`, the `cost` in each result's details, and
//! watch's daily total.

use crate::support;

use support::cli::{run_to_exit, vaultsum};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;
use support::watch_binary::{run_once, watch_command};
use support::watcher::{long_body, WatchVault};

const SUMMARY: &str = "### Key Points\n\n- The team chose SQLite.";

/// The first bytes of a PNG file; the server never decodes them.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-fake-image";

fn meetings() -> TempVault {
    let vault = TempVault::with(&[
        (
            "Meetings/Mon.md",
            "# Monday\n\nWe chose SQLite for the store.\n",
        ),
        ("Meetings/Tue.md", "# Tuesday\n\nDana sends the link.\n"),
        (
            "Meetings/Wed.md",
            "# Wednesday\n\nThe board:\n\n![[board.png]]\n",
        ),
    ]);
    vault.write("board.png", PNG);
    vault
}

fn summarize_folder(vault: &TempVault, fake: &FakeOpenAi) -> (String, String) {
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "Meetings", "--engine", "llm"])
            .envs(fake.env())
            // One answer for three different notes: not a summary of each, so the fact check
            // (fact_check.rs) would ask again; these tests count the calls a run pays for.
            .env("VAULTSUM_FACT_CHECK", "off"),
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    (String::from_utf8_lossy(&output.stdout).into_owned(), stderr)
}

fn chat_requests(fake: &FakeOpenAi) -> usize {
    fake.requests()
        .iter()
        .filter(|r| r.path == "/v1/chat/completions")
        .count()
}

#[test]
fn a_folder_run_ends_with_what_it_cost_and_a_second_run_costs_nothing() {
    let vault = meetings();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY));

    let (stdout, stderr) = summarize_folder(&vault, &fake);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    // Three summaries and one image description, each answered with 120 + 30 tokens.
    assert_eq!(chat_requests(&fake), 4);
    assert_eq!(
        stderr.lines().last(),
        Some(
            "vaultsum: 3 notes: 3 summarized; 4 requests, 480 prompt + 120 completion tokens, \
             1 media call"
        ),
        "{stderr}"
    );

    // Every summary is current now: nothing is asked, and the line says so.
    let (_, stderr) = summarize_folder(&vault, &fake);
    assert_eq!(chat_requests(&fake), 4);
    assert_eq!(
        stderr.lines().last(),
        Some("vaultsum: 3 notes: 0 summarized, 3 skipped; no requests"),
        "{stderr}"
    );
}

#[test]
fn the_offline_engine_says_it_paid_nothing() {
    let vault = meetings();
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "Meetings/Mon.md"]),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("vaultsum: 1 note: 1 summarized, offline"),
        "{stderr}"
    );

    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["rollup", "Meetings", "--engine", "local"]),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some("vaultsum: rollup of 3 notes, offline"),
        "{stderr}"
    );
}

#[test]
fn quiet_runs_print_no_closing_line() {
    let vault = meetings();
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args([
                "--quiet",
                "summarize-file",
                "Meetings/Mon.md",
                "--engine",
                "local",
            ]),
    );
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn a_rollup_ends_with_what_it_cost() {
    let vault = meetings();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY));
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args(["rollup", "Meetings", "--engine", "llm"])
            .envs(fake.env()),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    // One rollup request and the image of the Wednesday note, described to read it.
    assert_eq!(chat_requests(&fake), 2);
    assert_eq!(
        stderr.lines().last(),
        Some(
            "vaultsum: rollup of 3 notes; 2 requests, 240 prompt + 60 completion tokens, \
             1 media call"
        ),
        "{stderr}"
    );
}

#[test]
fn watch_logs_what_the_day_cost() {
    let server = FakeOpenAi::start();
    // Faithful to the note, so the day's cost is one call (the fact check retries nothing).
    server.set_fallback(FakeReply::chat(
        "### Key Points\n\n- We agreed on the next steps.",
    ));
    let vault = WatchVault::new();
    // A first run records the empty vault, so the note written next is new.
    let first = run_once(&mut watch_command(&vault, &server, &["--once"]));
    assert!(first.status.success(), "{}", first.stderr_text());
    vault.write("Plan.md", &long_body("plan"));

    let run = run_once(&mut watch_command(
        &vault,
        &server,
        &["--once", "--settle", "0", "--min-chars", "100"],
    ));
    let stderr = run.stderr_text();
    assert!(run.status.success(), "{stderr}");
    assert_eq!(server.request_count(), 1);
    let line = stderr
        .lines()
        .find(|l| l.contains("watch: used today"))
        .unwrap_or_else(|| panic!("no daily total in {stderr}"));
    assert!(
        line.ends_with(
            "(UTC): 1 note summarized; 1 request, 120 prompt + 30 completion tokens, \
             0 media calls"
        ),
        "{line}"
    );
}

#[test]
fn a_rollups_dry_run_pays_for_nothing_not_even_its_pictures() {
    let vault = meetings();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY));
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .args([
                "rollup",
                "Meetings",
                "--engine",
                "llm",
                "--dry-run",
                "--json",
            ])
            .envs(fake.env()),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    // The count comes before the person says yes: the Wednesday board is counted, not described.
    assert_eq!(fake.request_count(), 0, "a count made a paid call");
    let printed: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(printed["details"]["media_to_read"], 1);
    assert!(
        printed["text"]
            .as_str()
            .unwrap()
            .contains("1 paid call at least (llm engine), and 1 embedded pictures or recordings"),
        "{stdout}"
    );
}
