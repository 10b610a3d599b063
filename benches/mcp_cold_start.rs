//! Cold start of `vaultsum mcp` to the tools/list answer (spawn, initialize, initialized,
//! tools/list over stdio), against a minimal Python MCP server (FastMCP) doing the same
//! handshake in the same run; also the idle RSS of each once it has answered. vaultsum is
//! measured three ways: on an empty vault, with no vault, and on a generated 10,000-note vault
//! (which it indexes and starts following before it answers). Reports medians and ratios.
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
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    println!("cold start to the tools/list answer over stdio ({RUNS} runs each)");
    let ours = [
        measure(
            "vaultsum mcp, empty vault",
            &bin,
            &["--vault", empty.to_str().unwrap(), "mcp"],
            &nowhere,
        ),
        measure("vaultsum mcp, no vault", &bin, &["mcp"], &nowhere),
        measure(
            "vaultsum mcp, 10,000-note vault",
            &bin,
            &["--vault", big.to_str().unwrap(), "mcp"],
            &nowhere,
        ),
    ];

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
    for ((time, rss), label) in ours
        .iter()
        .zip(["empty vault", "no vault", "10k-note vault"])
    {
        println!(
            "ratio ({label}): vaultsum answers tools/list {:.1}x faster; idle RSS {:.1}x smaller",
            theirs.as_secs_f64() / time.as_secs_f64(),
            their_rss as f64 / (*rss).max(1) as f64
        );
    }
}
