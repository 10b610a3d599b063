//! A 70 KB note against a model with a 4,096-token window: how many requests the summary in
//! parts takes and how many tokens they send in all, over the single request (and its tokens)
//! a model with a large enough window would need. Measured in the same run against the same
//! fake OpenAI server on 127.0.0.1: once with `llm.context_tokens = 4096`, once with a window
//! of 200,000 (the single pass, the baseline). Tokens are the server-side count of the
//! requests' text at four bytes a token (the usual prose average), the same rule for both.
//!
//! Run: `cargo bench --bench long_note`.

#[allow(dead_code, unused_imports)]
#[path = "../tests/it/support/fake_openai.rs"]
mod fake_openai;
#[allow(dead_code)]
#[path = "../tests/it/support/fake_server.rs"]
mod fake_server;

use std::sync::Arc;

use fake_openai::{FakeOpenAi, FakeReply};
use serde_json::json;
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, ToolContext};

const PART_SUMMARY: &str = "### Key Points\n\n- The measurements of this part, in two lines.\n- Its conclusion.\n\n### Action Items\n\n- [ ] Repeat the run";

/// A research note of about 70 KB: 56 sections of prose under headings.
fn research_note() -> String {
    let mut note = String::from("# Research log\n\n");
    for i in 0..56 {
        note.push_str(&format!("## Run {i}\n\n"));
        note.push_str(&"The experiment measured latency under load; the median stayed near twelve milliseconds while the tail grew with the queue. ".repeat(10));
        note.push_str("\n\n");
    }
    note
}

/// (requests, tokens sent) for one `summarize_file` call with the given window.
fn run(window: u64) -> (usize, u64) {
    let server = FakeOpenAi::start();
    // No `usage`: the fake's fixed token count would look like a silently cut prompt.
    let mut reply = fake_openai::chat_completion_json(PART_SUMMARY);
    reply.as_object_mut().unwrap().remove("usage");
    server.set_fallback(FakeReply::json(200, reply));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Research.md"), research_note()).unwrap();
    let mut config = Config {
        vault: Some(dir.path().to_path_buf()),
        llm: server.llm_config(),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    config.llm.context_tokens = Some(window);
    let registry = Registry::new(Arc::new(ToolContext::new(config).unwrap()));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let output =
        runtime.block_on(registry.call("summarize_file", json!({ "path": "Research.md" })));
    assert!(!output.is_error, "{}", output.text);
    let requests = server.requests();
    let tokens = requests
        .iter()
        .map(|r| (r.user_text().len() + r.system_text().len()) as u64 / 4)
        .sum();
    (requests.len(), tokens)
}

fn main() {
    let note = research_note();
    let (single_requests, single_tokens) = run(200_000);
    let (split_requests, split_tokens) = run(4096);
    println!("note: {} KB", note.len() / 1024);
    println!(
        "single pass (200,000-token window): {single_requests} request, {single_tokens} tokens"
    );
    println!("in parts (4,096-token window): {split_requests} requests, {split_tokens} tokens");
    println!(
        "ratio: {:.2}x the tokens of the single pass, in {split_requests} requests",
        split_tokens as f64 / single_tokens as f64
    );
}
