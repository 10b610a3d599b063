//! Reading near the disk's speed: `vaultsum read` over 5,000 notes (whole process: start,
//! open the vault, read and expand every note, print it) against `cat` of the same 5,000
//! files, in this run, as a ratio (the target is at most 3×), on two vault shapes:
//!
//! - the MCP benchmarks' vault (10,000 notes of a few KB, three heading embeds each to notes
//!   anywhere in the vault); the 5,000 read are its first 50 folders, named as folders. The
//!   notes they embed are mostly outside those folders, so the read opens about 9,200 files:
//!   `cat` is given the 5,000 read, and a floor is printed besides: `cat` of every file the
//!   read opens against `cat` of the 5,000, what expansion costs in file reads alone;
//! - a vault of 5,000 notes in 40 folders, four `##` sections of about 120 words each, three
//!   section embeds per note (`![[Note 812#Section 2]]`) into other notes of the same vault
//!   (see `read_support/sectioned_vault.rs`), read whole: once naming its 40 folders, once
//!   naming its 5,000 notes. The read opens exactly the files `cat` is given.
//!
//! Reported for each: first pass (each side's first run after the vault was written: no parsed
//! note reused anywhere, the files as the OS left them after writing) and best of five (the two
//! sides take turns, the best time of each).
//!
//! Timings on a shared machine are noisy: compare the ratio, not the times.
//! Run: `cargo bench --bench read_vs_cat`.

#[path = "read_support/sectioned_vault.rs"]
mod sectioned_vault;
#[path = "mcp_support/stdio_client.rs"]
mod stdio_client;
#[path = "mcp_support/vault_gen.rs"]
mod vault_gen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use stdio_client::clean;

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

fn read_command(bin: &Path, vault: &Path, paths: &[String]) -> Command {
    let mut command = clean(Command::new(bin));
    command
        .arg("--vault")
        .arg(vault)
        .arg("read")
        .args(paths)
        .stdin(Stdio::null());
    command
}

fn cat_command(files: &[PathBuf]) -> Command {
    let mut command = Command::new("cat");
    command.args(files);
    command
}

/// The best of `PASSES` runs of `command`, given the first run's time.
fn best(first: Duration, command: impl Fn() -> Command) -> Duration {
    (0..PASSES).fold(first, |best, _| best.min(time(command())))
}

/// Checks the read prints the notes expanded (a run that printed nothing would be fast), then
/// times it against `cat` of `files`, and prints both ratios.
fn compare(label: &str, bin: &Path, vault: &Path, paths: &[String], files: &[PathBuf]) {
    let output = read_command(bin, vault, paths).output().unwrap();
    assert!(output.status.success());
    let printed = String::from_utf8_lossy(&output.stdout);
    assert_eq!(printed.matches("==> ").count(), READ_NOTES);
    assert_eq!(
        printed.matches("> [Embedded: Note ").count(),
        3 * READ_NOTES,
        "every embed expanded"
    );
    assert!(!printed.contains("[Embed failed"));

    let first_read = time(read_command(bin, vault, paths));
    let first_cat = time(cat_command(files));
    let (mut best_read, mut best_cat) = (first_read, first_cat);
    for _ in 0..PASSES {
        best_cat = best_cat.min(time(cat_command(files)));
        best_read = best_read.min(time(read_command(bin, vault, paths)));
    }
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    println!("{label}");
    println!(
        "  {READ_NOTES} notes, {:.1} MB; expanded output {:.1} MB",
        bytes as f64 / 1e6,
        output.stdout.len() as f64 / 1e6
    );
    println!(
        "  first pass   read {first_read:>10.2?}   cat {first_cat:>10.2?}   ratio {:.2}x",
        first_read.as_secs_f64() / first_cat.as_secs_f64()
    );
    println!(
        "  best of {PASSES}    read {best_read:>10.2?}   cat {best_cat:>10.2?}   ratio {:.2}x (target <= 3x)",
        best_read.as_secs_f64() / best_cat.as_secs_f64()
    );
}

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    let dir = tempfile::tempdir().unwrap();

    let vault = dir.path().join("mcp");
    vault_gen::generate(&vault);
    let files: Vec<PathBuf> = (0..READ_NOTES)
        .map(|i| vault.join(vault_gen::note_path(i)))
        .collect();
    let folders: Vec<String> = (0..FOLDERS).map(|f| format!("Area {f:03}")).collect();
    compare(
        "MCP benchmarks' vault, 50 folders named (heading embeds, mostly outside the 5,000)",
        &bin,
        &vault,
        &folders,
        &files,
    );
    let touched: Vec<PathBuf> = vault_gen::notes_touched_reading(0..READ_NOTES)
        .into_iter()
        .map(|i| vault.join(vault_gen::note_path(i)))
        .collect();
    let best_touched = best(time(cat_command(&touched)), || cat_command(&touched));
    let best_cat = best(time(cat_command(&files)), || cat_command(&files));
    println!(
        "  floor        cat of the {} files a read opens {best_touched:>10.2?}   ratio {:.2}x the {READ_NOTES} notes' cat",
        touched.len(),
        best_touched.as_secs_f64() / best_cat.as_secs_f64()
    );

    let vault = dir.path().join("sectioned");
    sectioned_vault::generate(&vault);
    let names: Vec<String> = (0..sectioned_vault::NOTES)
        .map(sectioned_vault::note_path)
        .collect();
    let files: Vec<PathBuf> = names.iter().map(|name| vault.join(name)).collect();
    let folders: Vec<String> = (0..sectioned_vault::FOLDERS)
        .map(sectioned_vault::folder)
        .collect();
    compare(
        "sectioned vault, 40 folders named (section embeds, all inside the 5,000)",
        &bin,
        &vault,
        &folders,
        &files,
    );
    compare(
        "sectioned vault, 5,000 notes named",
        &bin,
        &vault,
        &names,
        &files,
    );
}
