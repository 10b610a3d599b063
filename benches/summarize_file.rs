//! `summarize_file`'s own overhead: the whole tool call (read, embed expansion, the chat request
//! over real HTTP, the atomic write of the summary) against the bare HTTP round trip of the same
//! request to the same fake OpenAI server on 127.0.0.1, which answers at once. Both are measured
//! in the same run, taking turns note by note.
//!
//! The notes are the vault-fixture's (those summarized with one model call), copied to a temporary folder; every call passes
//! `replace: true`, so a note keeps one summary and does not grow from round to round. The bare
//! round trip replays, with one reused `reqwest` client, the exact request body the tool sent for
//! that note, so the difference is what `summarize_file` adds around the model call.
//!
//! Run: `cargo bench --bench summarize_file`.

#[allow(dead_code, unused_imports)]
#[path = "../tests/it/support/fake_openai.rs"]
mod fake_openai;
#[allow(dead_code)]
#[path = "../tests/it/support/fake_server.rs"]
mod fake_server;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_openai::{FakeOpenAi, FakeReply, TEST_API_KEY};
use serde_json::json;
use vaultsum_core::vault::{
    append_summary, expand_note, ExpandOptions, OutputPolicy, PlaceholderAttachments, SourceLinks,
    Vault,
};
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext};

const ROUNDS: usize = 30;

const SUMMARY: &str = "## Overview\nThe note records a decision and who follows it up.\n\n\
## Key points\n- The vendor call moved to Thursday.\n- The budget stays as planned.\n\n\
## Action items\n- [ ] Send the revised plan to the team.";

/// Copies the fixture vault, dot-folders included, so the copy is indexed as the original is.
fn copy_fixture(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture");
    for entry in walkdir::WalkDir::new(&from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(&from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every note outside dot-folders and templates: what a person would summarize.
fn notes(root: &Path) -> Vec<String> {
    let mut notes: Vec<String> = walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .filter(|rel| !rel.starts_with("Templates/"))
        .collect();
    notes.sort();
    notes
}

fn main() {
    let server = FakeOpenAi::start();
    server.set_fallback(FakeReply::chat(SUMMARY));
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    let notes = notes(dir.path());

    let mut config = Config {
        vault: Some(dir.path().to_path_buf()),
        llm: server.llm_config(),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    let registry = Registry::new(Arc::new(ToolContext::new(config).unwrap()));
    let url = format!("{}/chat/completions", server.base_url());
    let client = reqwest::Client::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();

    runtime.block_on(async {
        // One untimed call per note: connections opened, each note's request body recorded.
        // Notes whose summary needs more than one model call (images described first) are
        // left out, so the bare baseline is exactly the one round trip the tool makes.
        let mut notes_used = Vec::new();
        let mut bodies = Vec::new();
        for note in &notes {
            let before = server.request_count();
            let out = registry
                .call("summarize_file", json!({"path": note, "replace": true}))
                .await;
            assert!(!out.is_error, "{note}: {}", out.text);
            let requests = server.requests();
            if requests.len() == before + 1 {
                notes_used.push(note.clone());
                bodies.push(requests[before].body.clone());
            } else {
                println!("left out (several model calls): {note}");
            }
        }
        let notes = notes_used;
        let bare_call = |body: Vec<u8>| {
            let request = client
                .post(&url)
                .bearer_auth(TEST_API_KEY)
                .header("content-type", "application/json")
                .body(body);
            async move {
                let reply = request.send().await.unwrap();
                assert!(reply.status().is_success());
                reply.bytes().await.unwrap().len()
            }
        };
        bare_call(bodies[0].clone()).await;

        let mut tool_times = Vec::new();
        let mut bare_times = Vec::new();
        for _ in 0..ROUNDS {
            for (note, body) in notes.iter().zip(&bodies) {
                let start = Instant::now();
                let out = registry
                    .call("summarize_file", json!({"path": note, "replace": true}))
                    .await;
                tool_times.push(start.elapsed());
                assert!(!out.is_error, "{note}: {}", out.text);

                let start = Instant::now();
                bare_call(body.clone()).await;
                bare_times.push(start.elapsed());
            }
        }
        // Where the overhead goes: the same steps outside the tool, on a second handle to the
        // same vault (reading and expanding; the atomic, fsynced write of the summary).
        let vault = std::sync::Arc::new(Vault::open(dir.path()).unwrap());
        let mut expand_times = Vec::new();
        let mut write_times = Vec::new();
        // What the tool writes: the answer as the output policy made it (timed in benches/output_policy.rs).
        let summary = OutputPolicy::default().summary(SUMMARY, &SourceLinks::none());
        for _ in 0..ROUNDS {
            for note in &notes {
                let path = vault.resolve_input(note).unwrap();
                let start = Instant::now();
                let expansion = expand_note(
                    &vault,
                    &path,
                    &ExpandOptions::default(),
                    &PlaceholderAttachments,
                )
                .await
                .unwrap();
                expand_times.push(start.elapsed());
                assert!(!expansion.text.is_empty());
                let original = vault.read_bytes(&path).unwrap();
                let start = Instant::now();
                append_summary(&vault, &path, &original, &summary, true).unwrap();
                write_times.push(start.elapsed());
            }
        }
        let summary_lines = SUMMARY.lines().count();
        for note in &notes {
            let text = std::fs::read_to_string(dir.path().join(note)).unwrap();
            assert_eq!(
                text.matches("## Summary").count(),
                1,
                "{note} keeps one summary"
            );
            assert!(text.lines().count() > summary_lines);
        }

        let total = |times: &[Duration]| times.iter().sum::<Duration>();
        let median = |times: &mut Vec<Duration>| {
            times.sort();
            times[times.len() / 2]
        };
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let (tool_total, bare_total) = (total(&tool_times), total(&bare_times));
        let calls = tool_times.len();
        let (tool_median, bare_median) = (median(&mut tool_times), median(&mut bare_times));
        println!(
            "notes: {}, calls: {calls} of each ({ROUNDS} rounds)",
            notes.len()
        );
        println!(
            "summarize_file call:    mean {:>8.1} us, median {:>8.1} us",
            us(tool_total) / calls as f64,
            us(tool_median)
        );
        println!(
            "bare HTTP round trip:   mean {:>8.1} us, median {:>8.1} us",
            us(bare_total) / calls as f64,
            us(bare_median)
        );
        println!(
            "overhead per call:      mean {:>8.1} us",
            (us(tool_total) - us(bare_total)) / calls as f64
        );
        println!(
            "steps alone, for comparison: read+expand mean {:>8.1} us, atomic fsynced write mean {:>8.1} us",
            us(total(&expand_times)) / expand_times.len() as f64,
            us(total(&write_times)) / write_times.len() as f64
        );
        println!(
            "ratio summarize_file / bare round trip: {:.2}x (means), {:.2}x (medians)",
            tool_total.as_secs_f64() / bare_total.as_secs_f64(),
            tool_median.as_secs_f64() / bare_median.as_secs_f64()
        );
    });
}
