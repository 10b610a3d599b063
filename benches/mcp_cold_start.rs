//! Cold start of `vaultsum mcp` to the tools/list answer (spawn, initialize, initialized,
//! tools/list over stdio), against a minimal Python MCP server doing the same handshake in the
//! same run; also the idle RSS of both once they have answered. Reports medians and the ratio.
//!
//! Needs `.venv/` (scripts/python-env.sh) for the baseline; without it only vaultsum is
//! measured. Run: `cargo bench --bench mcp_cold_start`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 15;

struct Sample {
    elapsed: Duration,
    rss_kib: u64,
}

/// One cold start: spawn, handshake, tools/list; measures time to the tools/list answer, then
/// the process's resident memory while idle.
fn cold_start(program: &Path, args: &[&str]) -> Sample {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn server");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut send = |message: &str| {
        stdin.write_all(message.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#,
    );
    wait_for_id(&mut stdout, &mut line, 1);
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
    wait_for_id(&mut stdout, &mut line, 2);
    let elapsed = start.elapsed();
    std::thread::sleep(Duration::from_millis(100));
    let rss_kib = rss_kib(child.id());
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    Sample { elapsed, rss_kib }
}

fn wait_for_id(stdout: &mut impl BufRead, line: &mut String, id: u64) {
    loop {
        line.clear();
        assert!(stdout.read_line(line).unwrap() > 0, "server closed stdout");
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(line) {
            if value["id"] == id {
                return;
            }
        }
    }
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

fn median(mut samples: Vec<Sample>) -> (Duration, u64) {
    samples.sort_by_key(|s| s.elapsed);
    let mid = &samples[samples.len() / 2];
    (mid.elapsed, mid.rss_kib)
}

fn measure(label: &str, program: &Path, args: &[&str]) -> (Duration, u64) {
    cold_start(program, args); // warm the page cache
    let (time, rss) = median((0..RUNS).map(|_| cold_start(program, args)).collect());
    println!(
        "{label:<32} median {time:>10.2?}   idle RSS {:>7.1} MiB",
        rss as f64 / 1024.0
    );
    (time, rss)
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let vault = tempfile::tempdir().unwrap();
    std::fs::create_dir(vault.path().join(".obsidian")).unwrap();
    let vault_arg = vault.path().to_str().unwrap().to_string();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_vaultsum"));
    println!("cold start to the tools/list answer over stdio ({RUNS} runs each)");
    let (ours, our_rss) = measure("vaultsum mcp", &bin, &["--vault", &vault_arg, "mcp"]);

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
        "python mcp (FastMCP, 1 tool)",
        &python,
        &[script.to_str().unwrap()],
    );
    println!(
        "ratio: vaultsum is {:.1}x faster to answer tools/list; idle RSS {:.1}x smaller",
        theirs.as_secs_f64() / ours.as_secs_f64(),
        their_rss as f64 / our_rss.max(1) as f64
    );
}
