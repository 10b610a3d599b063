//! Cold start of `vaultsum mcp` to the tools/list answer (spawn, initialize, initialized,
//! tools/list over stdio), against a minimal Python MCP server (FastMCP) doing the same
//! handshake in the same run; also the idle RSS of each once it has answered. vaultsum is
//! measured on an empty vault, with no vault, on the small `vault-fixture/` and on a generated
//! 10,000-note vault. The note index is built beside serving (and the vault's changes followed
//! from then on), so the tools/list answer should not depend on the vault's size: the figure
//! is the ratio of the 10,000-note cold start over the small vault's. For where the index
//! cost went, the time to a first `read_file` answer (which resolves links, so needs the
//! index) is measured on both too. Reports medians and ratios.
//!
//! Needs `.venv/` (scripts/python-env.sh) for the baseline; without it only vaultsum is
//! measured. Run: `cargo bench --bench mcp_cold_start`.

#[path = "mcp_support/stdio_client.rs"]
mod stdio_client;
#[path = "mcp_support/vault_gen.rs"]
mod vault_gen;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use stdio_client::{rss_kib, StdioServer};

const RUNS: usize = 15;

struct Sample {
    elapsed: Duration,
    rss_kib: u64,
}

/// One cold start: spawn, handshake, tools/list; measures time to the tools/list answer, then
/// the process's resident memory while idle.
fn cold_start(program: &Path, args: &[&str], cwd: &Path) -> Sample {
    let start = Instant::now();
    let mut server = StdioServer::spawn_in(program, args, cwd);
    server.handshake();
    let listed = server.request("tools/list", json!({}));
    let elapsed = start.elapsed();
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    std::thread::sleep(Duration::from_millis(200));
    Sample {
        elapsed,
        rss_kib: rss_kib(server.pid()),
    }
}

/// One cold start to the answer of a first `read_file` of `note` (spawn, handshake,
/// tools/list, tools/call): the first call that needs the note index.
fn first_read(program: &Path, args: &[&str], cwd: &Path, note: &str) -> Duration {
    let start = Instant::now();
    let mut server = StdioServer::spawn_in(program, args, cwd);
    server.handshake();
    server.request("tools/list", json!({}));
    let read = server.request(
        "tools/call",
        json!({ "name": "read_file", "arguments": { "path": note } }),
    );
    let elapsed = start.elapsed();
    assert_eq!(read["result"]["isError"], false, "{read}");
    elapsed
}

fn median_first_read(
    label: &str,
    program: &Path,
    args: &[&str],
    cwd: &Path,
    note: &str,
) -> Duration {
    first_read(program, args, cwd, note); // warm the page cache
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| first_read(program, args, cwd, note))
        .collect();
    times.sort();
    let time = times[RUNS / 2];
    println!("{label:<40} median {time:>10.2?}");
    time
}

fn median(mut samples: Vec<Sample>) -> (Duration, u64) {
    samples.sort_by_key(|s| s.elapsed);
    let mid = &samples[samples.len() / 2];
    (mid.elapsed, mid.rss_kib)
}

fn measure(label: &str, program: &Path, args: &[&str], cwd: &Path) -> (Duration, u64) {
    cold_start(program, args, cwd); // warm the page cache
    let (time, rss) = median((0..RUNS).map(|_| cold_start(program, args, cwd)).collect());
    println!(
        "{label:<40} median {time:>10.2?}   idle RSS {:>7.1} MiB",
        rss as f64 / 1024.0
    );
    (time, rss)
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let empty = scratch.path().join("empty");
    std::fs::create_dir_all(empty.join(".obsidian")).unwrap();
    let big = scratch.path().join("big");
    vault_gen::generate(&big);
    let nowhere = scratch.path().join("not-a-vault");
    std::fs::create_dir_all(&nowhere).unwrap();
    let small = scratch.path().join("small");
    copy_dir(&root.join("vault-fixture"), &small);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    let vault_args = |vault: &Path| {
        vec![
            "--vault".to_string(),
            vault.display().to_string(),
            "mcp".to_string(),
        ]
    };
    let (empty_args, small_args, big_args) =
        (vault_args(&empty), vault_args(&small), vault_args(&big));
    println!("cold start to the tools/list answer over stdio ({RUNS} runs each)");
    let ours = [
        measure(
            "vaultsum mcp, empty vault",
            &bin,
            &as_strs(&empty_args),
            &nowhere,
        ),
        measure("vaultsum mcp, no vault", &bin, &["mcp"], &nowhere),
        measure(
            "vaultsum mcp, small vault (fixture)",
            &bin,
            &as_strs(&small_args),
            &nowhere,
        ),
        measure(
            "vaultsum mcp, 10,000-note vault",
            &bin,
            &as_strs(&big_args),
            &nowhere,
        ),
    ];
    println!(
        "ratio: cold start with 10,000 notes / small vault = {:.2}x (1.0x: independent of size)",
        ours[3].0.as_secs_f64() / ours[2].0.as_secs_f64()
    );
    println!("cold start to a first read_file answer (the first call that needs the index)");
    let small_read = median_first_read(
        "vaultsum mcp, small vault (fixture)",
        &bin,
        &as_strs(&small_args),
        &nowhere,
        "Meetings/2024-03-04 Weekly sync.md",
    );
    let big_read = median_first_read(
        "vaultsum mcp, 10,000-note vault",
        &bin,
        &as_strs(&big_args),
        &nowhere,
        &vault_gen::note_path(0),
    );
    println!(
        "ratio: first read_file with 10,000 notes / small vault = {:.2}x",
        big_read.as_secs_f64() / small_read.as_secs_f64()
    );

    let python = root.join(".venv/bin/python");
    if !python.is_file() {
        println!(
            "baseline skipped: {} missing (run scripts/python-env.sh)",
            python.display()
        );
        return;
    }
    let script = root.join("tests/mcp/baseline_server.py");
    let (theirs, their_rss) = measure(
        "python mcp (FastMCP, 1 tool, no vault)",
        &python,
        &[script.to_str().unwrap()],
        &nowhere,
    );
    for ((time, rss), label) in
        ours.iter()
            .zip(["empty vault", "no vault", "small vault", "10k-note vault"])
    {
        println!(
            "ratio ({label}): vaultsum answers tools/list {:.1}x faster; idle RSS {:.1}x smaller",
            theirs.as_secs_f64() / time.as_secs_f64(),
            their_rss as f64 / (*rss).max(1) as f64
        );
    }
}

/// Copies the folder `from` (files and folders only) to `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}
