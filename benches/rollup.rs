//! Rollups against a rate-limited server: `vaultsum rollup` (the real binary) over a week of 7
//! daily notes and over 300 daily notes, against a fake OpenAI server that answers in 50 ms and
//! admits 20 requests a second (a token bucket of one second; over it, 429 with `Retry-After`),
//! with the model's window set to 4,096 tokens, so the 300 notes go in parts and are merged.
//!
//! Figures per case: the chat requests made, the tokens sent (characters of the system and user
//! messages / 4, as vaultsum itself estimates), how many notes `### Sources` names, and the wall
//! time over the ideal the rate allows (requests / 20 per second), measured in the same run.
//!
//! Run: `cargo bench --bench rollup`

#[allow(dead_code, unused_imports)]
#[path = "../tests/it/support/fake_openai.rs"]
mod fake_openai;
#[allow(dead_code)]
#[path = "../tests/it/support/fake_server.rs"]
mod fake_server;

use std::process::Command;
use std::time::{Duration, Instant};

use fake_openai::{FakeOpenAi, FakeReply};

const PER_SEC: f64 = 20.0;

/// A vault of `days` daily notes from 2026-01-01, each a few sentences and an open task.
fn vault(days: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("vault");
    std::fs::create_dir_all(root.join(".obsidian")).unwrap();
    std::fs::create_dir_all(root.join("Journal")).unwrap();
    std::fs::write(
        root.join(".obsidian/daily-notes.json"),
        r#"{"folder": "Journal", "format": "YYYY-MM-DD"}"#,
    )
    .unwrap();
    for n in 0..days {
        let (month, day) = month_day(n);
        std::fs::write(
            root.join(format!("Journal/2026-{month:02}-{day:02}.md")),
            format!(
                "# 2026-{month:02}-{day:02}\n\nWorked on the roadmap with the team on day {n}. \
                 We reviewed the open questions about the pilot and agreed on the order of the \
                 next three milestones. The vendor call moved again, so the SDK date is still \
                 open.\n\n- [ ] Follow up item {n} with Dana\n"
            ),
        )
        .unwrap();
    }
    dir
}

/// Month and day of the `n`-th day of 2026 (from 0).
fn month_day(n: usize) -> (usize, usize) {
    let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut left = n;
    for (month, length) in lengths.iter().enumerate() {
        if left < *length {
            return (month + 1, left + 1);
        }
        left -= length;
    }
    panic!("{n} is past 2026");
}

struct Outcome {
    elapsed: Duration,
    requests: usize,
    refused: usize,
    tokens: usize,
    sources: usize,
}

fn run(days: usize, to: &str) -> Outcome {
    let dir = vault(days);
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "[llm]\ncontext_tokens = 4096\nlocal_server = false\n",
    )
    .unwrap();
    let fake = FakeOpenAi::start();
    fake.set_fallback(
        FakeReply::chat("### Key Points\n\n- Roadmap work.\n\n### Action Items\n\n- [ ] Follow up")
            .with_delay(Duration::from_millis(50)),
    );
    fake.limit_rate(PER_SEC, PER_SEC);
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_vaultsum"))
        .envs(fake.env())
        .env("VAULTSUM_CACHE_DIR", dir.path().join("cache"))
        .env_remove("RUST_LOG")
        .arg("--config")
        .arg(&config)
        .arg("--vault")
        .arg(dir.path().join("vault"))
        .args(["-q", "rollup", "--engine", "llm", "--max-notes", "400"])
        .args(["--from", "2026-01-01", "--to", to, "Journal"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rollup = String::from_utf8_lossy(&output.stdout);
    let sources = rollup
        .split("### Sources")
        .nth(1)
        .map_or(0, |s| s.lines().filter(|l| l.starts_with("- [[")).count());
    let chats: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/chat/completions")
        .collect();
    let tokens = chats
        .iter()
        .map(|r| (r.system_text().len() + r.user_text().len()) / 4)
        .sum();
    Outcome {
        elapsed,
        requests: chats.len(),
        refused: fake.rate_limited_count(),
        tokens,
        sources,
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo test --benches` asks for a list; this bench has no criterion cases
    }
    println!("rollup: 4,096-token window, answers in 50 ms, {PER_SEC} requests/s");
    for (label, days, to) in [
        ("a week", 7, "2026-01-07"),
        ("300 notes", 300, "2026-10-27"),
    ] {
        let outcome = run(days, to);
        let ideal = outcome.requests as f64 / PER_SEC;
        println!(
            "  {label:<10} {days:>3} notes: {:>3} chat requests ({} answered 429), ~{} tokens sent, \
             {} notes in Sources; {:.2} s = {:.2}x the ideal ({ideal:.2} s at {PER_SEC} req/s)",
            outcome.requests,
            outcome.refused,
            outcome.tokens,
            outcome.sources,
            outcome.elapsed.as_secs_f64(),
            outcome.elapsed.as_secs_f64() / ideal,
        );
        assert_eq!(outcome.sources, days, "every note is named in Sources");
    }
}
