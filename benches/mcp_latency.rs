//! read_file latency on a generated 10,000-note vault: one long-running `vaultsum mcp` serving
//! many calls (warm index, parsed notes reused) against a fresh `vaultsum --vault V read NOTE`
//! process per read (the baseline: what a client without the server pays), both in this run.
//! Reports p50/p99 of each, their ratio, and the warm server's idle RSS (VmRSS).
//!
//! Run: `cargo bench --bench mcp_latency`.

#[path = "mcp_support/stdio_client.rs"]
mod stdio_client;
#[path = "mcp_support/vault_gen.rs"]
mod vault_gen;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use stdio_client::{clean, rss_kib, StdioServer};
use vault_gen::{note_path, NOTES};

const WARM_CALLS: usize = 2_000;
const FRESH_CALLS: usize = 150;

/// The notes read, spread over the vault (a fixed stride, so both sides read the same notes).
fn note(k: usize) -> String {
    note_path((k * 7_919) % NOTES)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn report(label: &str, mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let (p50, p99) = (percentile(&samples, 0.50), percentile(&samples, 0.99));
    println!(
        "{label:<44} n={:<5} p50 {p50:>10.2?}   p99 {p99:>10.2?}",
        samples.len()
    );
    (p50, p99)
}

fn warm(bin: &Path, vault: &Path, cwd: &Path) -> ((Duration, Duration), u64, u64) {
    let mut server = StdioServer::spawn_in(bin, &["--vault", vault.to_str().unwrap(), "mcp"], cwd);
    server.handshake();
    std::thread::sleep(Duration::from_millis(500));
    let rss_started = rss_kib(server.pid());
    // Warm-up: the first reads of each note parse it; the measured calls then see a server
    // that has been running for a while, which is the point of keeping it.
    for k in 0..WARM_CALLS {
        server.request(
            "tools/call",
            json!({ "name": "read_file", "arguments": { "path": note(k) } }),
        );
    }
    let samples = (0..WARM_CALLS)
        .map(|k| {
            let start = Instant::now();
            let answer = server.request(
                "tools/call",
                json!({ "name": "read_file", "arguments": { "path": note(k) } }),
            );
            let elapsed = start.elapsed();
            assert_eq!(answer["result"]["isError"], false, "{answer}");
            elapsed
        })
        .collect();
    let result = report("warm: one `vaultsum mcp`, tools/call read_file", samples);
    std::thread::sleep(Duration::from_millis(500));
    (result, rss_started, rss_kib(server.pid()))
}

fn fresh(bin: &Path, vault: &Path, cwd: &Path) -> (Duration, Duration) {
    let run = |k: usize| {
        let start = Instant::now();
        let status = clean(Command::new(bin))
            .args(["--vault", vault.to_str().unwrap(), "read", &note(k)])
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run vaultsum read");
        assert!(status.success(), "vaultsum read {} failed", note(k));
        start.elapsed()
    };
    for k in 0..5 {
        run(k); // page cache
    }
    let samples = (0..FRESH_CALLS).map(run).collect();
    report("fresh process: `vaultsum --vault V read NOTE`", samples)
}

fn main() {
    let scratch = tempfile::tempdir().unwrap();
    let vault = scratch.path().join("vault");
    vault_gen::generate(&vault);
    let cwd = scratch.path().join("elsewhere");
    std::fs::create_dir_all(&cwd).unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    println!("read_file on a {NOTES}-note vault (each read expands three heading embeds)");
    let ((warm_p50, warm_p99), rss_started, rss_after) = warm(&bin, &vault, &cwd);
    let (fresh_p50, fresh_p99) = fresh(&bin, &vault, &cwd);
    println!(
        "ratio: a warm server answers {:.1}x faster at p50, {:.1}x at p99",
        fresh_p50.as_secs_f64() / warm_p50.as_secs_f64(),
        fresh_p99.as_secs_f64() / warm_p99.as_secs_f64()
    );
    println!(
        "warm server idle RSS: {:.1} MiB after start, {:.1} MiB after {} reads",
        rss_started as f64 / 1024.0,
        rss_after as f64 / 1024.0,
        2 * WARM_CALLS
    );
}
