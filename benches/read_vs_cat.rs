//! Reading near the disk's speed: `vaultsum read` over 5,000 notes (whole process: start,
//! open the vault, read and expand every note, print it) against `cat` of the same 5,000
//! files, in this run, as a ratio (the target is at most 3×).
//!
//! The vault is the MCP benchmarks' (10,000 notes of a few KB, three heading embeds each to
//! notes anywhere in the vault); the 5,000 read are its first 50 folders. Reported:
//! - first pass: each side's first run after the vault was written (no parsed note reused
//!   anywhere, the files as the OS left them after writing);
//! - best of five: the two sides take turns, the best time of each.
//!
//! - a floor: `cat` of every file the read must open, the 5,000 notes and the notes they embed
//!   (about 9,200), against `cat` of the 5,000: what expansion costs in file reads alone.
//!
//! Timings on a shared machine are noisy: compare the ratio, not the times.
//! Run: `cargo bench --bench read_vs_cat`.

#[path = "mcp_support/stdio_client.rs"]
mod stdio_client;
#[path = "mcp_support/vault_gen.rs"]
mod vault_gen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use stdio_client::clean;
use vault_gen::note_path;

const READ_NOTES: usize = 5_000;
const FOLDERS: usize = 50;
const PASSES: usize = 5;

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

fn read_command(bin: &Path, vault: &Path) -> Command {
    let mut command = clean(Command::new(bin));
    command
        .arg("--vault")
        .arg(vault)
        .arg("read")
        .args((0..FOLDERS).map(|folder| format!("Area {folder:03}")))
        .stdin(Stdio::null());
    command
}

fn cat_command(files: &[PathBuf]) -> Command {
    let mut command = Command::new("cat");
    command.args(files);
    command
}

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    vault_gen::generate(&vault);
    let files: Vec<PathBuf> = (0..READ_NOTES).map(|i| vault.join(note_path(i))).collect();
    let touched: Vec<PathBuf> = vault_gen::notes_touched_reading(0..READ_NOTES)
        .into_iter()
        .map(|i| vault.join(note_path(i)))
        .collect();

    // The output must be the notes, expanded: a run that printed nothing would be fast.
    let output = read_command(&bin, &vault).output().unwrap();
    assert!(output.status.success());
    let printed = String::from_utf8_lossy(&output.stdout);
    assert_eq!(printed.matches("==> ").count(), READ_NOTES);
    assert!(printed.contains("> [Embedded: Note "));

    let first_read = time(read_command(&bin, &vault));
    let first_cat = time(cat_command(&files));
    let (mut best_read, mut best_cat) = (first_read, first_cat);
    let mut best_touched = Duration::MAX;
    for _ in 0..PASSES {
        best_cat = best_cat.min(time(cat_command(&files)));
        best_read = best_read.min(time(read_command(&bin, &vault)));
        best_touched = best_touched.min(time(cat_command(&touched)));
    }
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    println!(
        "{READ_NOTES} notes, {:.1} MB; expanded output {:.1} MB",
        bytes as f64 / 1e6,
        output.stdout.len() as f64 / 1e6
    );
    println!(
        "first pass   read {first_read:>10.2?}   cat {first_cat:>10.2?}   ratio {:.2}x",
        first_read.as_secs_f64() / first_cat.as_secs_f64()
    );
    println!(
        "best of {PASSES}    read {best_read:>10.2?}   cat {best_cat:>10.2?}   ratio {:.2}x (target <= 3x)",
        best_read.as_secs_f64() / best_cat.as_secs_f64()
    );
    println!(
        "floor        cat of the {} files a read opens {best_touched:>10.2?}   ratio {:.2}x the {READ_NOTES} notes' cat",
        touched.len(),
        best_touched.as_secs_f64() / best_cat.as_secs_f64()
    );
}
