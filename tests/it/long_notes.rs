//! Notes longer than the model's window (issue 12), through the real tool and real HTTP to fake
//! servers answering as llama.cpp, vLLM, Fireworks and Ollama do: the window known from
//! `llm.context_tokens` or asked of the server, learned from each server's context-length
//! error, or found from a silently cut prompt; the note summarized in parts cut at headings and
//! merged into one summary with one action-item list, every part reaching the merge.

use crate::support;

use std::sync::Arc;

use serde_json::json;
use support::fake_openai::{chat_completion_json, FakeOpenAi, FakeReply, StreamScript};
use support::fake_server::ReceivedRequest;
use support::temp_vault::TempVault;
use vaultsum_tools::config::{Config, Engine, FactCheckMode};
use vaultsum_tools::{Registry, ToolContext, ToolOutput};

/// What every part summary (and the merge) answers: a point and one task, the same task each
/// time, so the merged note must list it once.
const PART_SUMMARY: &str =
    "### Key Points\n\n- A point.\n\n### Action Items\n\n- [ ] Send the report to Ann";

/// A research note of about `sections` × 1.2 KB, each section marked so a test can tell which
/// request carried it.
fn long_note(sections: usize) -> String {
    let mut note = String::from("# Research log\n\n");
    for i in 0..sections {
        note.push_str(&format!("## Section {i}\n\nMarker-{i}-start. "));
        note.push_str(
            &"The experiment measured latency under load and found it stable. ".repeat(18),
        );
        note.push_str(&format!("Marker-{i}-end.\n\n"));
    }
    note
}

fn registry(vault: &TempVault, fake: &FakeOpenAi, context_tokens: Option<u64>) -> Registry {
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        llm: fake.llm_config(),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    config.llm.context_tokens = context_tokens;
    // The fake parts' answers are not summaries of the parts: the fact check (fact_check.rs)
    // would ask for them again, and these tests count the requests of a split.
    config.summarize.fact_check = FactCheckMode::Off;
    // Each test its own model name: windows learned are remembered per model for the process.
    config.llm.summarize_model = format!("test-model-{}", fake.url());
    Registry::new(Arc::new(ToolContext::new(config).expect("context")))
}

async fn summarize(registry: &Registry, path: &str) -> ToolOutput {
    registry
        .call("summarize_file", json!({ "path": path }))
        .await
}

fn chats(fake: &FakeOpenAi) -> Vec<ReceivedRequest> {
    fake.requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .collect()
}

/// Checks the shape every split summary must have: `parts` part requests, each carrying whole
/// sections, every section in exactly one part, then one merge request holding every part's
/// summary; the note ends with one summary with one action-item list.
fn assert_split(vault: &TempVault, note: &str, requests: &[ReceivedRequest], output: &ToolOutput) {
    assert!(!output.is_error, "{}", output.text);
    let parts = output.details["summarizer"]["parts"]
        .as_u64()
        .expect("details.summarizer.parts") as usize;
    assert!(parts >= 2, "split into parts: {}", output.details);
    let merge = requests.last().expect("a merge request");
    assert!(
        merge.system_text().contains("You merge summaries"),
        "the last request merges"
    );
    assert_eq!(
        merge.user_text().matches("<part n=").count(),
        parts,
        "every part reaches the merge"
    );
    let part_requests = &requests[requests.len() - 1 - parts..requests.len() - 1];
    let sections = note.matches("## Section ").count();
    for i in 0..sections {
        let carrying: Vec<usize> = part_requests
            .iter()
            .enumerate()
            .filter(|(_, r)| r.user_text().contains(&format!("Marker-{i}-start.")))
            .map(|(n, _)| n)
            .collect();
        assert_eq!(carrying.len(), 1, "section {i} is in exactly one part");
        assert!(
            part_requests[carrying[0]]
                .user_text()
                .contains(&format!("Marker-{i}-end.")),
            "section {i} is not cut: parts are cut at headings"
        );
    }
    let written = String::from_utf8(vault.read("Research.md")).unwrap();
    assert!(written.starts_with(note));
    let summary = &written[note.len()..];
    assert_eq!(summary.matches("## Summary").count(), 1);
    assert_eq!(summary.matches("### Action Items").count(), 1, "{summary}");
    assert_eq!(
        summary.matches("- [ ] Send the report to Ann").count(),
        1,
        "{summary}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configured_window_splits_a_long_note_at_headings_and_merges_once() {
    let note = long_note(40); // ~50 KB
    let vault = TempVault::with(&[("Research.md", &note)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(PART_SUMMARY));
    let output = summarize(&registry(&vault, &fake, Some(4096)), "Research.md").await;
    let requests = chats(&fake);
    assert_split(&vault, &note, &requests, &output);
    let parts = output.details["summarizer"]["parts"].as_u64().unwrap() as usize;
    assert_eq!(
        requests.len(),
        parts + 1,
        "no request sent whole: the window was known"
    );
    for request in &requests {
        let estimate = vaultsum_tools::long_note::estimate_tokens(&request.user_text())
            + vaultsum_tools::long_note::estimate_tokens(&request.system_text());
        assert!(
            estimate <= 4096 - 1024,
            "each request fits the window: {estimate}"
        );
    }
}

/// Each server's own context-length error: the note is sent whole once, refused, and then
/// summarized in parts at once, the window taken from the error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_servers_context_error_sends_the_note_again_in_parts() {
    let errors = [
        // llama.cpp server
        FakeReply::json(
            400,
            json!({"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 14000, "n_ctx": 4096}}),
        ),
        // vLLM (and llama-cpp-python)
        FakeReply::json(
            400,
            json!({"object": "error", "message": "This model's maximum context length is 4096 tokens. However, you requested 14000 tokens (14000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.", "type": "BadRequestError", "param": null, "code": 400}),
        ),
        // Fireworks
        FakeReply::json(
            400,
            json!({"error": {"object": "error", "type": "invalid_request_error", "message": "The prompt is too long: 14000, model maximum context length: 4096"}}),
        ),
    ];
    for error in errors {
        let note = long_note(12); // ~15 KB, ~5,000 tokens estimated: over a 4,096 window
        let vault = TempVault::with(&[("Research.md", &note)]);
        let fake = FakeOpenAi::start();
        fake.push(error);
        fake.set_fallback(FakeReply::chat(PART_SUMMARY));
        let output = summarize(&registry(&vault, &fake, None), "Research.md").await;
        let requests = chats(&fake);
        assert!(
            requests[0].user_text().contains("Marker-11-end."),
            "sent whole first"
        );
        assert_split(&vault, &note, &requests[1..], &output);
        assert_eq!(output.details["summarizer"]["context_window"], 4096);
        assert_eq!(
            output.details["summarizer"]["split_because"],
            "the server's context-length error"
        );
    }
}

/// llama-cpp-python's server answers a prompt over the window with 200 and an event stream
/// that ends before its first byte (it renders the prompt after the headers are sent): asked
/// again unstreamed, it gives its context-length error, and the note is summarized in parts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_stream_is_asked_again_unstreamed_and_its_context_error_splits_the_note() {
    let note = long_note(12);
    let vault = TempVault::with(&[("Research.md", &note)]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::stream(StreamScript::default()));
    // llama-cpp-python 0.3's body, as the real server sent it unstreamed.
    fake.push(FakeReply::json(
        400,
        json!({"error": {"message": "This model's maximum context length is 4096 tokens. However, you requested 5031 tokens (5031 in the messages, None in the completion). Please reduce the length of the messages or completion.", "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}),
    ));
    fake.set_fallback(FakeReply::chat(PART_SUMMARY));
    let output = summarize(&registry(&vault, &fake, None), "Research.md").await;
    let requests = chats(&fake);
    assert_eq!(requests[0].json()["stream"], true, "streamed first");
    assert_eq!(requests[1].json()["stream"], false, "then asked unstreamed");
    assert!(requests[1].json().get("stream_options").is_none());
    assert!(
        requests[1].user_text().contains("Marker-11-end."),
        "still whole"
    );
    assert_split(&vault, &note, &requests[2..], &output);
    assert_eq!(output.details["summarizer"]["context_window"], 4096);
    assert_eq!(
        requests[2].json()["stream"],
        true,
        "the parts are streamed again"
    );
}

/// Ollama by default keeps only part of a prompt that does not fit and says nothing; its
/// `usage.prompt_tokens` gives it away, and the note is summarized in parts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silently_cut_prompt_is_noticed_and_the_note_summarized_in_parts() {
    let note = long_note(20); // ~25 KB
    let vault = TempVault::with(&[("Research.md", &note)]);
    let fake = FakeOpenAi::start();
    let mut cut = chat_completion_json("### Key Points\n\n- Only the end of the note.");
    cut["usage"] = json!({"prompt_tokens": 2048, "completion_tokens": 20, "total_tokens": 2068});
    fake.push(FakeReply::json(200, cut));
    fake.set_fallback(FakeReply::chat(PART_SUMMARY));
    let output = summarize(&registry(&vault, &fake, None), "Research.md").await;
    let requests = chats(&fake);
    assert_split(&vault, &note, &requests[1..], &output);
    assert_eq!(
        output.details["summarizer"]["split_because"],
        "the server read only part of the note"
    );
    let written = String::from_utf8(vault.read("Research.md")).unwrap();
    assert!(
        !written.contains("Only the end of the note."),
        "the cut summary is not kept"
    );
}

/// The window asked of the server: llama.cpp's `/props`, vLLM's `max_model_len`, Ollama's
/// `/api/ps`. The note is split from the start, never sent whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_is_asked_of_llama_cpp_vllm_and_ollama() {
    type Setup = fn(&FakeOpenAi, &str);
    let servers: [(&str, Setup); 3] = [
        ("llama.cpp", |fake, _| {
            fake.on(
                "GET",
                "/props",
                None,
                FakeReply::json(
                    200,
                    json!({"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1}),
                ),
            );
        }),
        ("vLLM", |fake, model| {
            fake.on("GET", "/v1/models", None, FakeReply::json(200, json!({"object": "list", "data": [{"id": model, "object": "model", "owned_by": "vllm", "max_model_len": 4096}]})));
        }),
        ("Ollama", |fake, model| {
            fake.on(
                "GET",
                "/api/ps",
                None,
                FakeReply::json(
                    200,
                    json!({"models": [{"name": model, "model": model, "context_length": 4096}]}),
                ),
            );
        }),
    ];
    for (server, setup) in servers {
        let note = long_note(20);
        let vault = TempVault::with(&[("Research.md", &note)]);
        let fake = FakeOpenAi::start();
        setup(&fake, &format!("test-model-{}", fake.url()));
        fake.set_fallback(FakeReply::chat(PART_SUMMARY));
        let output = summarize(&registry(&vault, &fake, None), "Research.md").await;
        let requests = chats(&fake);
        assert_split(&vault, &note, &requests, &output);
        assert_eq!(
            output.details["summarizer"]["context_window"], 4096,
            "{server}"
        );
        let parts = output.details["summarizer"]["parts"].as_u64().unwrap() as usize;
        assert_eq!(requests.len(), parts + 1, "{server}: never sent whole");
    }
}

/// A short note is one request, with no question to the server about its window.
#[tokio::test]
async fn a_short_note_is_one_request_and_no_probe() {
    let vault = TempVault::with(&[("Short.md", "# Plan\n\nShip on Friday.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(PART_SUMMARY));
    let output = summarize(&registry(&vault, &fake, None), "Short.md").await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(output.details["summarizer"]["parts"], 1);
    let paths: Vec<String> = fake.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/v1/chat/completions"]);
}

/// The steps a long note with an embedded image reports to the caller's progress (what MCP
/// turns into `notifications/progress` and the CLI into its bar): reading, the image, the
/// parts, the merge, the write, counted up one by one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_note_reports_its_image_its_parts_and_the_merge_as_progress() {
    use std::sync::Mutex;
    use vaultsum_tools::{with_progress, ProgressSink};
    let note = format!("![[board.png]]\n\n{}", long_note(30));
    let vault = TempVault::with(&[("Research.md", &note)]);
    vault.write("board.png", b"\x89PNG\r\n\x1a\nfake");
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(PART_SUMMARY));
    let registry = registry(&vault, &fake, Some(4096));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let seen = seen.clone();
        ProgressSink::new(move |update| seen.lock().unwrap().push(update))
    };
    let output = with_progress(sink, summarize(&registry, "Research.md")).await;
    assert!(!output.is_error, "{}", output.text);
    let parts = output.details["summarizer"]["parts"].as_u64().unwrap();
    let seen = seen.lock().unwrap();
    let messages: Vec<&str> = seen.iter().map(|u| u.message.as_str()).collect();
    assert_eq!(
        messages.first(),
        Some(&"reading Research.md"),
        "{messages:?}"
    );
    assert!(messages.contains(&"describing board.png"), "{messages:?}");
    assert!(messages.contains(&"summarizing"), "{messages:?}");
    assert!(
        messages.contains(&format!("part {parts}/{parts}").as_str()),
        "{messages:?}"
    );
    assert!(messages.contains(&"merging the parts"), "{messages:?}");
    assert_eq!(
        messages.last(),
        Some(&"writing Research.md"),
        "{messages:?}"
    );
    let done: Vec<u32> = seen.iter().map(|u| u.done).collect();
    assert!(
        done.windows(2).all(|w| w[1] == w[0] + 1),
        "counted up one by one: {done:?}"
    );
    assert!(seen.last().unwrap().total >= Some(seen.last().unwrap().done));
}
