//! `vaultsum status --json` over 5,000 notes (whole process: start, walk the vault, read every
//! note and hash it to judge its summary) against `cat` of the same 5,000 files, in this run,
//! as a ratio.
//!
//! The vault is made here: 50 folders of 100 notes of about 2.3 KB (11.5 MB), in five equal parts — a
//! current fingerprinted `## Summary` section, a current summary property, a stale section
//! (the body edited after the fingerprint), a section without a fingerprint, and no summary.
//! The fingerprints are made with the library's own functions (running the tool 5,000 times
//! would be the slow part), and the counts `status` prints are checked against that mix.
//! Reported: each side's first run after the vault was written, then the best of five turns.
//!
//! Timings on a shared machine are noisy: compare the ratio, not the times.
//! Run: `cargo bench --bench status`. One run (release, shared machine): status 134 ms, cat
//! 77-80 ms, ratio 1.7x (first pass and best of five alike).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use vaultsum_core::vault::frontmatter_edit::set_property;
use vaultsum_core::vault::summary_fingerprint::{fingerprint_property, note_hash, Fingerprint};
use vaultsum_tools::instructions::Instructions;

const NOTES: usize = 5_000;
const FOLDERS: usize = 50;
const PASSES: usize = 5;
const PROPERTY: &str = "summary";

fn time(mut command: Command) -> Duration {
    let start = Instant::now();
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("the command starts");
    let elapsed = start.elapsed();
    assert!(status.success(), "{command:?} failed: {status}");
    elapsed
}

fn status_command(bin: &Path, vault: &Path, scratch: &Path) -> Command {
    let mut command = Command::new(bin);
    command
        .env("VAULTSUM_CONFIG", "")
        .env_remove("VAULTSUM_VAULT")
        .env_remove("FIREWORKS_API_KEY")
        .env_remove("KAGI_API_KEY")
        .env_remove("RUST_LOG")
        .env("VAULTSUM_CACHE_DIR", scratch.join("cache"))
        .env("XDG_STATE_HOME", scratch.join("state"))
        .arg("--vault")
        .arg(vault)
        .args(["status", "--json"])
        .stdin(Stdio::null());
    command
}

fn cat_command(files: &[PathBuf]) -> Command {
    let mut command = Command::new("cat");
    command.args(files);
    command
}

/// A note body of about 2 KB, different for each `i`.
fn body(i: usize) -> String {
    let mut text = format!(
        "---\ntype: meeting\ndate: 2024-{:02}-{:02}\ntags: [project-{}, weekly]\n---\n# Meeting {i}\n\n",
        i % 12 + 1,
        i % 28 + 1,
        i % 17
    );
    for paragraph in 0..6 {
        text.push_str(&format!(
            "## Part {paragraph}\n\nNote {i}, part {paragraph}: the team reviewed the inspection \
             app, the sync conflict rules and the vendor's SDK date. Dana will test the camera \
             order with two technicians; Marco settles how records are stored on the phone \
             before sync starts. Budget line {} stays as planned, risk {} is watched weekly.\n\n\
             - [ ] Follow-up {i}.{paragraph} for [[Note {}]]\n\n",
            i * 7 % 1000,
            i * 13 % 97,
            (i + paragraph) % NOTES
        ));
    }
    text
}

const SUMMARY: &str = "### Key Points\n\n- The team reviewed the app, the sync rules and the SDK date.\n- Dana tests the camera order; Marco settles local storage.";
const ABSTRACT: &str = "The team reviewed the inspection app and the SDK date.";

/// The note `i` of the mix (see the module comment), and the state `status` must give it.
fn note(i: usize, instructions: &str) -> (String, &'static str) {
    let body = body(i);
    let hash = note_hash(&body, PROPERTY, instructions);
    let section = |body: &str, marker: &str| format!("{body}## Summary\n{marker}\n\n{SUMMARY}\n");
    match i % 5 {
        0 => (
            section(&body, &Fingerprint::new(hash, SUMMARY).marker_line()),
            "current",
        ),
        1 => {
            let print = Fingerprint::new(hash, ABSTRACT).value();
            let text = set_property(&body, PROPERTY, ABSTRACT).unwrap();
            let text = set_property(&text, &fingerprint_property(PROPERTY), &print).unwrap();
            (text, "current")
        }
        2 => {
            let marker = Fingerprint::new(hash, SUMMARY).marker_line();
            let edited = body.replacen("the team reviewed", "the team re-reviewed", 1);
            (section(&edited, &marker), "stale")
        }
        3 => (format!("{body}## Summary\n\n{SUMMARY}\n"), "unmarked"),
        _ => (body, "missing"),
    }
}

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    let scratch = dir.path().join("scratch");
    let instructions = Instructions::builtin().identity().to_string();
    let mut files = Vec::with_capacity(NOTES);
    let mut expected = [0usize; 4];
    for i in 0..NOTES {
        let folder = vault.join(format!("Area {:03}", i % FOLDERS));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join(format!("Note {i}.md"));
        let (text, state) = note(i, &instructions);
        expected[["current", "stale", "unmarked", "missing"]
            .iter()
            .position(|s| *s == state)
            .unwrap()] += 1;
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }

    // The output must be every note, judged as made: a run that judged nothing would be fast.
    let output = status_command(&bin, &vault, &scratch).output().unwrap();
    assert!(output.status.success());
    let printed = String::from_utf8_lossy(&output.stdout);
    let counts: serde_json::Value =
        serde_json::from_str(printed.lines().last().expect("a counts line")).unwrap();
    let counts = &counts["counts"];
    assert_eq!(counts["notes"], NOTES, "{counts}");
    for (state, n) in ["current", "stale", "unmarked", "missing"]
        .iter()
        .zip(expected)
    {
        assert_eq!(counts[state], n, "{state}: {counts}");
    }
    assert_eq!(counts["edited"], 0, "{counts}");

    let first_status = time(status_command(&bin, &vault, &scratch));
    let first_cat = time(cat_command(&files));
    let (mut best_status, mut best_cat) = (first_status, first_cat);
    for _ in 0..PASSES {
        best_cat = best_cat.min(time(cat_command(&files)));
        best_status = best_status.min(time(status_command(&bin, &vault, &scratch)));
    }
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    println!(
        "{NOTES} notes, {:.1} MB; {counts}",
        bytes as f64 / 1e6,
        counts = counts
    );
    println!(
        "first pass   status {first_status:>10.2?}   cat {first_cat:>10.2?}   ratio {:.2}x",
        first_status.as_secs_f64() / first_cat.as_secs_f64()
    );
    println!(
        "best of {PASSES}    status {best_status:>10.2?}   cat {best_cat:>10.2?}   ratio {:.2}x",
        best_status.as_secs_f64() / best_cat.as_secs_f64()
    );
}
