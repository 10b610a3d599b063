//! Watch-mode costs, as ratios against baselines measured in the same run:
//!
//! 1. 1,000 notes dropped into a watched vault at once, against a fake OpenAI-compatible server
//!    answering in 50 ms: wall time until all are summarized, over the ideal
//!    (1,000 × 50 ms / concurrency) and over a direct batch of the same `summarize_file` calls
//!    through the Registry with the same concurrency (no watcher at all).
//! 2. A watcher (the real binary) idle on a 10,000-note vault: CPU time used over 10 s of idle
//!    (from /proc/<pid>/stat) as a fraction of one core, its resident memory (VmRSS), and the
//!    first-run catch-up time over the time to read the same files.
//!
//! Run: `cargo bench --bench watch_throughput` (Linux; needs /proc).

#[path = "../tests/it/support/fake_openai.rs"]
#[allow(dead_code, unused_imports)]
mod fake_openai;
#[path = "../tests/it/support/fake_server.rs"]
#[allow(dead_code)]
mod fake_server;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_openai::{FakeOpenAi, FakeReply};
use futures::stream::{self, StreamExt};
use serde_json::json;
use vaultsum::watch::{self, WatchOptions};
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext};

const NOTES: usize = 1000;
const LLM_DELAY: Duration = Duration::from_millis(50);
const IDLE_NOTES: usize = 10_000;
const IDLE_WINDOW: Duration = Duration::from_secs(10);

fn body(i: usize) -> String {
    format!(
        "# Note {i}\n\n{}\n",
        format!("Meeting {i}: we discussed the plan, the budget and the next steps. ").repeat(8)
    )
}

fn config(vault: &Path, server: &FakeOpenAi) -> Config {
    let mut config = Config {
        vault: Some(vault.to_path_buf()),
        llm: server.llm_config(),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    config.read.describe_media = false;
    config
}

fn registry(config: Config) -> Arc<Registry> {
    Arc::new(Registry::new(Arc::new(
        ToolContext::new(config).expect("tool context"),
    )))
}

fn new_vault() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".obsidian")).unwrap();
    dir
}

fn summarized(vault: &Path, names: &[String]) -> usize {
    names
        .iter()
        .filter(|n| {
            std::fs::read_to_string(vault.join(n)).is_ok_and(|t| t.contains("\n## Summary\n"))
        })
        .count()
}

async fn burst(concurrency: usize) -> (Duration, Duration) {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat("### Key Points\n- ok").with_delay(LLM_DELAY));
    let names: Vec<String> = (0..NOTES).map(|i| format!("Drop/Note {i:04}.md")).collect();

    // Baseline: the same calls straight through the Registry, no watcher.
    let direct_vault = new_vault();
    std::fs::create_dir(direct_vault.path().join("Drop")).unwrap();
    for (i, name) in names.iter().enumerate() {
        std::fs::write(direct_vault.path().join(name), body(i)).unwrap();
    }
    let reg = registry(config(direct_vault.path(), &server));
    let start = Instant::now();
    stream::iter(names.iter())
        .map(|name| {
            let reg = reg.clone();
            async move { reg.call("summarize_file", json!({ "path": name })).await }
        })
        .buffer_unordered(concurrency)
        .collect::<Vec<_>>()
        .await;
    let direct = start.elapsed();
    assert_eq!(summarized(direct_vault.path(), &names), NOTES);

    // The watcher.
    let vault = new_vault();
    let state = tempfile::tempdir().unwrap();
    let cfg = config(vault.path(), &server);
    let mut opts = WatchOptions::from_config(&cfg.watch);
    opts.settle = Duration::from_millis(200);
    opts.min_chars = 100;
    opts.concurrency = concurrency;
    // Throughput, not the hourly limit, is measured here.
    opts.max_per_hour = None;
    opts.state_dir = state.path().to_path_buf();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let handle = tokio::spawn(watch::run(registry(cfg), opts, async {
        let _ = stop_rx.await;
    }));
    while std::fs::read_dir(state.path().join("watch")).map_or(true, |mut d| d.next().is_none()) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let start = Instant::now();
    std::fs::create_dir(vault.path().join("Drop")).unwrap();
    for (i, name) in names.iter().enumerate() {
        std::fs::write(vault.path().join(name), body(i)).unwrap();
    }
    while summarized(vault.path(), &names) < NOTES {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let watched = start.elapsed();
    let _ = stop_tx.send(());
    let report = handle.await.unwrap().unwrap();
    assert_eq!(report.summarized, NOTES);
    assert!(server.max_in_flight() <= concurrency);
    (watched, direct)
}

fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn idle() {
    let vault = new_vault();
    let state = tempfile::tempdir().unwrap();
    for i in 0..IDLE_NOTES {
        let dir = vault.path().join(format!("Folder {:03}", i % 200));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("Note {i}.md")), body(i)).unwrap();
    }
    // Baseline: reading every note once (what any catch-up must at least do).
    let start = Instant::now();
    let mut bytes = 0usize;
    for entry in walkdir::WalkDir::new(vault.path())
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_type().is_file() {
            bytes += std::fs::read(entry.path()).unwrap().len();
        }
    }
    let read_all = start.elapsed();

    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_vaultsum"))
        .arg("--vault")
        .arg(vault.path())
        .arg("watch")
        .env("VAULTSUM_STATE_DIR", state.path())
        .env("VAULTSUM_CONFIG", "")
        .env("FIREWORKS_API_KEY", "sk-bench")
        .env("FIREWORKS_BASE_URL", "http://127.0.0.1:9/v1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while std::fs::read_dir(state.path().join("watch")).map_or(true, |mut d| d.next().is_none()) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let catch_up = start.elapsed();
    std::thread::sleep(Duration::from_secs(2)); // let start-up work finish
    let pid = child.id();
    let ticks_before = cpu_ticks(pid);
    std::thread::sleep(IDLE_WINDOW);
    let ticks = cpu_ticks(pid) - ticks_before;
    let rss = rss_kib(pid);
    let _ = child.kill();
    let _ = child.wait();
    let hz = 100.0; // USER_HZ on Linux
    let cpu_secs = ticks as f64 / hz;
    println!(
        "idle watcher on {IDLE_NOTES} notes ({:.1} MB): {cpu_secs:.2} s CPU over {:?} = {:.3}% of one core; RSS {:.1} MB",
        bytes as f64 / 1e6,
        IDLE_WINDOW,
        100.0 * cpu_secs / IDLE_WINDOW.as_secs_f64(),
        rss as f64 / 1024.0
    );
    println!(
        "first-run catch-up (walk, read, hash, save state, start watching) {:?} vs reading the files {:?}: ratio {:.2}",
        catch_up,
        read_all,
        catch_up.as_secs_f64() / read_all.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks for a list; this bench has no criterion cases
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let concurrency = 2;
    let (watched, direct) = runtime.block_on(burst(concurrency));
    let ideal = LLM_DELAY * NOTES as u32 / concurrency as u32;
    println!(
        "{NOTES} notes at once, LLM 50 ms, concurrency {concurrency}: watcher {watched:?}, ideal {ideal:?} (ratio {:.2}), direct Registry batch {direct:?} (ratio {:.2})",
        watched.as_secs_f64() / ideal.as_secs_f64(),
        watched.as_secs_f64() / direct.as_secs_f64()
    );
    idle();
}
