//! Batches against a local server that queues instead of refusing (llama.cpp, Ollama, LM Studio
//! with one slot): a fake OpenAI server on 127.0.0.1 that works out one reply at a time, through
//! the real binary over real HTTP. Measured by the fake's counts (most requests in flight at
//! once, requests seen), never by how long something took.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::cli::{run_to_exit, vaultsum};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;

const SUMMARY: &str = "### Key Points\n\n- Summarized by the local model.";
const NOTES: usize = 12;

/// A vault of [`NOTES`] notes under `Inbox/`, and a config with a 1 s timeout and one attempt
/// per request (a timeout fails its note), plus `extra` lines for `[summarize]`.
fn inbox(extra: &str) -> (TempVault, std::path::PathBuf) {
    let vault = TempVault::new();
    for i in 0..NOTES {
        vault.write(
            &format!("Inbox/Note {i:02}.md"),
            format!("# Note {i}\n\nWhat was decided on day {i}, and who follows it up.\n"),
        );
    }
    let config = vault.outside().join("local.toml");
    std::fs::write(
        &config,
        format!("[llm]\ntimeout_secs = 1\nmax_attempts = 1\n[summarize]\n{extra}\n"),
    )
    .unwrap();
    (vault, config)
}

fn summarize_inbox(
    vault: &TempVault,
    config: &std::path::Path,
    fake: &FakeOpenAi,
) -> std::process::Output {
    run_to_exit(
        vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--config")
            .arg(config)
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "llm", "Inbox"]),
    )
}

/// 300 ms a reply, one at a time, and a 1 s timeout: four requests queued at once already
/// time out. The limiter sees answers taking twice as long once two are in flight, and keeps
/// at most one waiting: every note is summarized.
#[test]
fn a_one_slot_server_gets_at_most_one_request_waiting_and_none_times_out() {
    let (vault, config) = inbox("");
    let fake = FakeOpenAi::start();
    fake.serve_one_at_a_time();
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(300)));

    let output = summarize_inbox(&vault, &config, &fake);

    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(!stdout.contains("timed out"), "{stdout}");
    for i in 0..NOTES {
        let note = String::from_utf8(vault.read(&format!("Inbox/Note {i:02}.md"))).unwrap();
        assert!(note.ends_with(&format!("{SUMMARY}\n")), "note {i}: {note}");
    }
    assert!(
        fake.max_in_flight() <= 2,
        "{} requests at the one-slot server at once",
        fake.max_in_flight()
    );
}

/// The same server with the limiter told it is a hosted API (`llm.local_server = false`, as
/// for a proxy): it learns nothing from answer times, the queue outgrows the timeout and
/// notes fail. What the test above guards against.
#[test]
fn without_queue_sensing_the_same_server_times_requests_out() {
    let (vault, config) = inbox("");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replace("[llm]\n", "[llm]\nlocal_server = false\n"),
    )
    .unwrap();
    let fake = FakeOpenAi::start();
    fake.serve_one_at_a_time();
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(300)));

    let output = summarize_inbox(&vault, &config, &fake);

    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_ne!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(stdout.contains("LLM request timed out"), "{stdout}");
    assert!(stderr.contains("failed"), "{stderr}");
    assert!(fake.max_in_flight() >= 4, "{}", fake.max_in_flight());
}

/// llama.cpp's server says how many slots it has (`GET /props`, `total_slots`), read with the
/// context window when a note is long enough to ask for it: a server with one never gets a
/// second request while the first is answered.
#[test]
fn a_server_that_names_one_slot_in_props_never_gets_two_requests_at_once() {
    let (vault, config) = inbox("");
    for i in 0..NOTES {
        // About 3,000 tokens: long enough that the server is asked for its window.
        let long = format!(
            "# Note {i}\n\n{}",
            "The meeting went over the plan again. ".repeat(300)
        );
        vault.write(&format!("Inbox/Note {i:02}.md"), long);
    }
    let fake = FakeOpenAi::start();
    fake.on(
        "GET",
        "/props",
        None,
        FakeReply::json(
            200,
            json!({ "total_slots": 1, "default_generation_settings": { "n_ctx": 8192 } }),
        ),
    );
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(50)));

    let output = summarize_inbox(&vault, &config, &fake);

    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let chats = fake
        .requests()
        .iter()
        .filter(|r| r.path == "/v1/chat/completions")
        .count();
    assert_eq!(chats, NOTES);
    assert!(fake.requests().iter().any(|r| r.path == "/props"));
    assert_eq!(fake.max_in_flight(), 1, "one slot, one request at a time");
}
