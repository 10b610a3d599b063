//! `summarize_file` end to end, in process through the Registry: a temp vault, the real tool,
//! and a fake OpenAI-compatible server on 127.0.0.1 speaking the real wire format.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply, TEST_API_KEY};
use support::fingerprints::without_fingerprints;
use support::poll::wait_until_async;
use support::temp_vault::TempVault;
use vaultsum_tools::config::{Config, Engine, FactCheckMode};
use vaultsum_tools::{Registry, ToolContext, ToolOutput};

const SUMMARY: &str =
    "### Key Points\n\n- The team chose SQLite.\n\n### Action Items\n\n- [ ] Dana: send the link";

fn config(vault: &TempVault, fake: &FakeOpenAi) -> Config {
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        llm: fake.llm_config(),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    // The fake answers are not summaries of the test notes: the fact check (fact_check.rs)
    // would ask for them again, and these tests count requests and compare the bytes written.
    config.summarize.fact_check = FactCheckMode::Off;
    config
}

fn registry_with(config: Config) -> Registry {
    Registry::new(Arc::new(ToolContext::new(config).expect("context")))
}

fn registry(vault: &TempVault, fake: &FakeOpenAi) -> Registry {
    registry_with(config(vault, fake))
}

async fn summarize(registry: &Registry, args: Value) -> ToolOutput {
    registry.call("summarize_file", args).await
}

fn result_json(output: &ToolOutput) -> Value {
    serde_json::from_str(&output.text).expect("summarize_file text is JSON")
}

#[tokio::test]
async fn summary_is_appended_with_the_exact_shape_and_reported() {
    let vault = TempVault::with(&[("Meeting.md", "# Weekly\n\nWe chose SQLite.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Meeting.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(
        result_json(&output),
        json!({ "success": true, "path": "Meeting.md", "summary_length": SUMMARY.chars().count() })
    );
    let written = String::from_utf8(vault.read("Meeting.md")).unwrap();
    assert_eq!(
        without_fingerprints(&written),
        format!("# Weekly\n\nWe chose SQLite.\n\n## Summary\n\n{SUMMARY}\n")
    );
    // The fingerprint is the line right under the heading, invisible in reading view.
    assert!(
        written.contains("## Summary\n<!-- vaultsum: note="),
        "{written}"
    );
    assert_eq!(output.details["stale"], json!(false));
}

#[tokio::test]
async fn the_fixed_prompt_and_the_note_reach_the_model() {
    let vault = TempVault::with(&[("Meeting.md", "We chose SQLite for the offline store.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    summarize(&registry(&vault, &fake), json!({ "path": "Meeting.md" })).await;
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert!(request.system_text().contains("### Action Items"));
    assert!(request
        .user_text()
        .contains("<note path=\"Meeting.md\">\nWe chose SQLite for the offline store.\n"));
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {TEST_API_KEY}").as_str())
    );
    assert!(
        request.json().get("tools").is_none(),
        "the model gets no tools"
    );
}

#[tokio::test]
async fn focus_is_sent_before_the_note() {
    let vault = TempVault::with(&[("Meeting.md", "Budget and hiring.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    summarize(
        &registry(&vault, &fake),
        json!({ "path": "Meeting.md", "focus": "budget discussion" }),
    )
    .await;
    let user = fake.requests()[0].user_text();
    let focus_at = user
        .find("Focus the summary on: budget discussion")
        .unwrap();
    assert!(focus_at < user.find("<note").unwrap());
}

#[tokio::test]
async fn embedded_sections_are_expanded_in_the_prompt() {
    let vault = TempVault::with(&[
        ("Meeting.md", "Notes.\n\n![[Plan#Risks]]\n"),
        (
            "Projects/Plan.md",
            "# Plan\n\n## Risks\n\nThe vendor SDK may slip.\n\n## Budget\n\nFour developers.\n",
        ),
    ]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    summarize(&registry(&vault, &fake), json!({ "path": "Meeting.md" })).await;
    let user = fake.requests()[0].user_text();
    assert!(user.contains("[Embedded: Plan#Risks]"), "{user}");
    assert!(user.contains("The vendor SDK may slip."), "{user}");
    assert!(
        !user.contains("Four developers"),
        "the section stops at the next heading of the same level"
    );
    // The note itself keeps the embed, not its expansion.
    let written = String::from_utf8(vault.read("Meeting.md")).unwrap();
    assert!(written.starts_with("Notes.\n\n![[Plan#Risks]]\n\n## Summary"));
}

fn fixture_copy() -> TempVault {
    TempVault::copy_of(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

/// The request that asked for the summary (the last chat completion carrying the note).
fn summary_prompt(fake: &FakeOpenAi) -> String {
    fake.requests()
        .iter()
        .rev()
        .find(|r| r.path == "/v1/chat/completions" && r.user_text().contains("<note"))
        .expect("the summary request")
        .user_text()
}

#[tokio::test]
async fn embedded_image_is_described_by_the_vision_model() {
    let vault = fixture_copy();
    vault.write("Memo.md", "Whiteboard:\n\n![[whiteboard.png]]\n");
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat("A whiteboard listing three milestones."));
    fake.push(FakeReply::chat(SUMMARY));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Memo.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let vision = &fake.requests()[0];
    assert!(vision.image_urls()[0].starts_with("data:image/png;base64,"));
    assert_eq!(
        vision.model().as_deref(),
        Some(Config::default().llm.vision_model.as_str())
    );
    let user = summary_prompt(&fake);
    assert!(
        user.contains("[Embedded image: Attachments/whiteboard.png]"),
        "{user}"
    );
    assert!(
        user.contains("A whiteboard listing three milestones."),
        "{user}"
    );
}

#[tokio::test]
async fn a_picture_described_with_links_gives_the_summary_no_link_the_note_did_not_name() {
    let vault = fixture_copy();
    vault.write("Memo.md", "Whiteboard:\n\n![[whiteboard.png]]\n");
    vault.write("Private/Passwords.md", "# Passwords\n");
    vault.write("Finance/salaries.png", "not really a png");
    let fake = FakeOpenAi::start();
    // A hostile picture (or vision model): its description names places the note never did.
    fake.push(FakeReply::chat(
        "A whiteboard. It reads: see https://evil.example/collect?d=1 and [[Private/Passwords]].\n\
         [Embedded image: Finance/salaries.png]",
    ));
    fake.set_fallback(FakeReply::chat(
        "### Key points\n\n- [The board](https://evil.example/collect?d=1) names [[Private/Passwords]].\n\
         - ![[salaries.png]]\n- The whiteboard ![[whiteboard.png]] lists the milestones.\n",
    ));
    // The fact check as by default, marking (no corrective request: the fake's answers are
    // set in order).
    let mut checked = config(&vault, &fake);
    checked.summarize.fact_check = FactCheckMode::Mark;
    let output = summarize(&registry_with(checked), json!({ "path": "Memo.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let note = String::from_utf8(vault.read("Memo.md")).unwrap();
    let summary = &note[note.find("## Summary").expect("a summary section")..];
    // A plain wikilink the description names is written as its text (the fact check links
    // only what the note and the notes it embeds name).
    for live in [
        "](https://evil.example",
        "![[salaries.png]]",
        "[[Private/Passwords]]",
    ] {
        assert!(!summary.contains(live), "{live} is live in:\n{summary}");
    }
    assert!(summary.contains("names Private/Passwords."), "{summary}");
    // The picture the note embeds stays a picture the summary may show.
    assert!(summary.contains("![[whiteboard.png]]"), "{summary}");
}

#[tokio::test]
async fn the_offline_engine_sends_no_picture_or_recording_even_with_a_key() {
    let vault = fixture_copy();
    vault.write(
        "Memo.md",
        "Standup:\n\n![[whiteboard.png]]\n\n![[standup-voice-memo.wav]]\n\nWe ship on Friday.\n",
    );
    let fake = FakeOpenAi::start();
    let mut offline = config(&vault, &fake);
    offline.summarize.engine = Engine::Offline;
    let output = summarize(&registry_with(offline), json!({ "path": "Memo.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(
        fake.requests().len(),
        0,
        "nothing leaves with the offline engine"
    );
    let note = String::from_utf8(vault.read("Memo.md")).unwrap();
    assert!(note.contains("## Summary"), "{note}");
}

#[tokio::test]
async fn an_answer_that_holds_the_api_key_is_not_written() {
    let vault = fixture_copy();
    vault.write("Memo.md", "We ship on Friday.\n");
    let fake = FakeOpenAi::start();
    // Written with Markdown escapes, as a model or a hostile server may: the reader sees the key.
    let escaped = TEST_API_KEY.replace('-', "\\-");
    fake.set_fallback(FakeReply::chat(&format!(
        "### Key points\n\n- The key is {escaped}.\n"
    )));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Memo.md" })).await;
    assert!(output.is_error, "{}", output.text);
    assert!(output.text.contains("holds the API key"), "{}", output.text);
    assert!(!output.text.contains(TEST_API_KEY), "{}", output.text);
    assert_eq!(vault.read("Memo.md"), b"We ship on Friday.\n");
}

#[tokio::test]
async fn embedded_audio_is_transcribed_into_the_prompt() {
    let vault = fixture_copy();
    vault.write("Memo.md", "Voice memo:\n\n![[standup-voice-memo.wav]]\n");
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::transcription(
        "Remember to order the rugged phones.",
    ));
    fake.push(FakeReply::chat(SUMMARY));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Memo.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let transcription = &fake.requests()[0];
    assert_eq!(transcription.path, "/v1/audio/transcriptions");
    assert_eq!(transcription.model().as_deref(), Some("whisper-v3"));
    assert!(summary_prompt(&fake).contains("Remember to order the rugged phones."));
}

#[tokio::test]
async fn media_results_are_cached_outside_the_vault() {
    let vault = fixture_copy();
    vault.write("Memo.md", "![[whiteboard.png]]\n");
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat("A whiteboard."));
    fake.set_fallback(FakeReply::chat(SUMMARY));
    let registry = registry(&vault, &fake);
    summarize(&registry, json!({ "path": "Memo.md", "replace": true })).await;
    summarize(&registry, json!({ "path": "Memo.md", "replace": true })).await;
    let vision_calls = fake
        .requests()
        .iter()
        .filter(|r| !r.image_urls().is_empty())
        .count();
    assert_eq!(vision_calls, 1, "the second read used the cache");
    assert!(summary_prompt(&fake).contains("A whiteboard."));
    let cache_files = walkdir::WalkDir::new(vault.outside().join("cache"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .count();
    assert!(cache_files >= 1);
}

async fn assert_failure_leaves_note_unchanged(fake: &FakeOpenAi, config: Config, expect: &str) {
    let note = "# Note\r\n\r\nSome text without a final newline";
    let vault_root = config.vault.clone().unwrap();
    let before = note.as_bytes().to_vec();
    std::fs::write(vault_root.join("Note.md"), &before).unwrap();
    let output = summarize(&registry_with(config), json!({ "path": "Note.md" })).await;
    assert!(output.is_error, "expected an error, got {}", output.text);
    let result = result_json(&output);
    assert_eq!(result["success"], json!(false));
    let error = result["error"].as_str().unwrap();
    assert!(
        error.contains(expect),
        "{error:?} should contain {expect:?}"
    );
    assert!(!error.contains(TEST_API_KEY));
    assert_eq!(std::fs::read(vault_root.join("Note.md")).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(&vault_root)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
    let _ = fake;
}

#[tokio::test]
async fn llm_server_error_leaves_note_unchanged_and_keeps_the_status() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::openai_error(500, "model overloaded"));
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "500").await;
    assert_eq!(fake.request_count(), 3, "5xx is retried up to max_attempts");
}

#[tokio::test]
async fn llm_timeout_leaves_note_unchanged() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_secs(4)));
    let mut config = config(&vault, &fake);
    config.llm.timeout_secs = 1;
    assert_failure_leaves_note_unchanged(&fake, config, "timed out").await;
}

#[tokio::test]
async fn empty_llm_reply_leaves_note_unchanged() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::empty_content());
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "empty").await;
}

#[tokio::test]
async fn answer_cut_at_the_output_cap_is_written_to_its_last_whole_item_with_a_marker() {
    let vault = TempVault::with(&[("Vendor.md", "# Vendor call\n\nMay shipping.\n")]);
    let fake = FakeOpenAi::start();
    // A long answer the cap cut in the middle of a sentence: its end is missing.
    let whole = "### Overview\n\n- The vendor ships in May.";
    let cut = format!("{whole}\n- Prices rise by four percent from");
    fake.push(FakeReply::chat_cut_at_cap(&cut));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Vendor.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let marker = vaultsum_core::llm::cut_answer::CAP_MARKER;
    let kept = format!("{whole}\n\n{marker}");
    assert_eq!(
        result_json(&output)["summary_length"],
        json!(kept.chars().count())
    );
    assert_eq!(output.details["summarizer"]["cut_at_cap"], json!(true));
    assert_eq!(output.details["summarizer"]["repeats_cut"], json!(false));
    let written = String::from_utf8(vault.read("Vendor.md")).unwrap();
    assert_eq!(
        without_fingerprints(&written),
        format!("# Vendor call\n\nMay shipping.\n\n## Summary\n\n{kept}\n")
    );
    assert_eq!(fake.request_count(), 1, "a cut answer is not asked again");
    assert_eq!(fake.requests()[0].json()["max_tokens"], 4096);
}

#[tokio::test]
async fn answer_cut_at_the_output_cap_with_nothing_whole_leaves_note_unchanged() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    // The cap came inside the first item: nothing whole to keep.
    let cut = "### Overview\n\n- Prices rise by four percent from";
    fake.set_fallback(FakeReply::chat_cut_at_cap(cut));
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "max_output_tokens").await;
    assert_eq!(fake.request_count(), 1, "a cut answer is not asked again");
}

#[tokio::test]
async fn a_looping_answer_is_written_up_to_its_first_repeat_with_a_marker() {
    let vault = TempVault::with(&[("Meeting.md", "# Weekly\n\nWe chose SQLite.\n")]);
    let fake = FakeOpenAi::start();
    // A small model caught repeating itself runs until the cap cuts it.
    let whole = "### Key Points\n\n- The team chose SQLite.\n- Backups run nightly.";
    let looping = format!(
        "{whole}\n{}- Backups run",
        "- The team chose SQLite.\n- Backups run nightly.\n".repeat(60)
    );
    fake.push(FakeReply::chat_cut_at_cap(&looping));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Meeting.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let marker = vaultsum_core::llm::repetition::LOOP_MARKER;
    let kept = format!("{whole}\n\n{marker}");
    assert_eq!(
        result_json(&output)["summary_length"],
        json!(kept.chars().count())
    );
    assert_eq!(output.details["summarizer"]["repeats_cut"], json!(true));
    let written = String::from_utf8(vault.read("Meeting.md")).unwrap();
    assert_eq!(
        without_fingerprints(&written),
        format!("# Weekly\n\nWe chose SQLite.\n\n## Summary\n\n{kept}\n")
    );
    assert_eq!(
        fake.request_count(),
        1,
        "the cleaned answer is not asked again"
    );
}

#[tokio::test]
async fn reply_that_is_only_a_summary_heading_counts_as_empty() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat("## Summary\n\n"));
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "empty summary").await;
}

#[tokio::test]
async fn malformed_reply_leaves_note_unchanged() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::malformed());
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "").await;
}

#[tokio::test]
async fn key_echoed_by_the_server_never_reaches_the_result() {
    let vault = TempVault::new();
    let fake = FakeOpenAi::start();
    fake.set_fallback(
        FakeReply::error(401, "{\"error\":{\"message\":\"bad key {{ECHO}}\"}}")
            .echoing("authorization"),
    );
    assert_failure_leaves_note_unchanged(&fake, config(&vault, &fake), "401").await;
}

#[tokio::test]
async fn rate_limit_with_retry_after_is_waited_out_then_succeeds() {
    let vault = TempVault::with(&[("Note.md", "Text.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::rate_limited("1"));
    fake.push(FakeReply::chat(SUMMARY));
    let output = summarize(&registry(&vault, &fake), json!({ "path": "Note.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[1].at.duration_since(requests[0].at) >= Duration::from_millis(900),
        "the retry honoured Retry-After: 1"
    );
    assert!(
        without_fingerprints(&String::from_utf8(vault.read("Note.md")).unwrap())
            .ends_with(&format!("## Summary\n\n{SUMMARY}\n"))
    );
}

#[tokio::test]
async fn reasoning_and_a_stray_summary_heading_stay_out_of_the_note() {
    let vault = TempVault::with(&[("Note.md", "Text.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat_with_reasoning(
        &format!("## Summary\n\n{SUMMARY}"),
        "private chain of thought",
    ));
    summarize(&registry(&vault, &fake), json!({ "path": "Note.md" })).await;
    let written = String::from_utf8(vault.read("Note.md")).unwrap();
    assert_eq!(written.matches("## Summary").count(), 1, "{written}");
    assert!(!written.contains("private chain of thought"));
}

#[tokio::test]
async fn crlf_note_gets_a_crlf_summary() {
    let vault = TempVault::with(&[("Note.md", "# Call\r\n\r\nVendor call notes.\r\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat("- one\n- two"));
    summarize(&registry(&vault, &fake), json!({ "path": "Note.md" })).await;
    let written = String::from_utf8(vault.read("Note.md")).unwrap();
    assert_eq!(
        without_fingerprints(&written),
        "# Call\r\n\r\nVendor call notes.\r\n\r\n## Summary\r\n\r\n- one\r\n- two\r\n"
    );
    assert!(
        written.contains(" -->\r\n"),
        "the fingerprint line ends in CRLF too"
    );
}

#[tokio::test]
async fn second_summary_is_appended_and_replace_swaps_the_first() {
    let vault = TempVault::with(&[("Note.md", "Text.\n\n## Later\n\nMore.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat("- first"));
    fake.push(FakeReply::chat("- second"));
    fake.push(FakeReply::chat("- third"));
    let registry = registry(&vault, &fake);
    summarize(&registry, json!({ "path": "Note.md" })).await;
    summarize(&registry, json!({ "path": "Note.md" })).await;
    let twice = without_fingerprints(&String::from_utf8(vault.read("Note.md")).unwrap());
    assert_eq!(
        twice,
        "Text.\n\n## Later\n\nMore.\n\n## Summary\n\n- first\n\n## Summary\n\n- second\n"
    );
    let output = summarize(&registry, json!({ "path": "Note.md", "replace": true })).await;
    assert!(!output.is_error, "{}", output.text);
    let replaced = without_fingerprints(&String::from_utf8(vault.read("Note.md")).unwrap());
    assert_eq!(
        replaced,
        "Text.\n\n## Later\n\nMore.\n\n## Summary\n\n- third\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_made_while_the_llm_works_are_kept() {
    let vault = TempVault::with(&[("Note.md", "Draft.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(1500)));
    let registry = Arc::new(registry(&vault, &fake));
    let call = {
        let registry = registry.clone();
        tokio::spawn(async move { summarize(&registry, json!({ "path": "Note.md" })).await })
    };
    assert!(wait_until_async(|| fake.request_count() >= 1).await);
    vault.write("Note.md", "Draft.\nA line typed in Obsidian meanwhile.\n");
    let output = call.await.unwrap();
    assert!(!output.is_error, "{}", output.text);
    assert_eq!(output.details["stale"], json!(true));
    assert_eq!(
        without_fingerprints(&String::from_utf8(vault.read("Note.md")).unwrap()),
        format!("Draft.\nA line typed in Obsidian meanwhile.\n\n## Summary\n\n{SUMMARY}\n")
    );
}

#[tokio::test]
async fn long_note_is_cut_and_the_model_is_told() {
    let vault = TempVault::with(&[("Long.md", &"word ".repeat(200))]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    let mut config = config(&vault, &fake);
    config.summarize.max_chars = 100;
    let output = summarize(&registry_with(config), json!({ "path": "Long.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let user = fake.requests()[0].user_text();
    assert!(
        user.contains("only its first 100 of 1000 characters"),
        "{user}"
    );
    assert_eq!(output.details["truncated"], json!(true));
}

#[tokio::test]
async fn bad_paths_are_refused_before_any_llm_call() {
    let vault = TempVault::with(&[
        ("Note.md", "Text.\n"),
        ("Attachments/pic.png", "not really a png"),
        (".obsidian/workspace.md", "settings"),
    ]);
    std::fs::write(vault.outside().join("secret.md"), "outside").unwrap();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY));
    let registry = registry(&vault, &fake);
    for (path, expect) in [
        ("../outside/secret.md", "escapes the vault"),
        ("/etc/passwd", "escapes the vault"),
        ("Attachments/pic.png", "not a note"),
        (".obsidian/workspace.md", ".obsidian"),
        ("Missing.md", "not found"),
        ("Note\0.md", "NUL"),
    ] {
        let output = summarize(&registry, json!({ "path": path })).await;
        assert!(output.is_error, "{path} was accepted");
        let error = result_json(&output)["error"].as_str().unwrap().to_string();
        assert!(error.contains(expect), "{path}: {error:?} lacks {expect:?}");
    }
    assert_eq!(fake.request_count(), 0);
    assert_eq!(
        std::fs::read_to_string(vault.outside().join("secret.md")).unwrap(),
        "outside"
    );
    assert_eq!(vault.read(".obsidian/workspace.md"), b"settings");
}

#[tokio::test]
async fn invalid_arguments_are_a_tool_error_not_a_panic() {
    let vault = TempVault::with(&[("Note.md", "Text.\n")]);
    let fake = FakeOpenAi::start();
    let registry = registry(&vault, &fake);
    for args in [
        json!({}),
        json!({ "path": 3 }),
        json!({ "path": "Note.md", "bogus": 1 }),
    ] {
        let output = summarize(&registry, args.clone()).await;
        assert!(output.is_error, "{args} accepted");
        assert_eq!(result_json(&output)["success"], json!(false));
    }
}

#[tokio::test]
async fn local_engine_needs_no_server_and_lists_only_open_tasks() {
    let vault = TempVault::with(&[(
        "Meeting.md",
        "# Sync\n\nThe team reviewed the prototype with the technicians. \
         Everyone agreed the checklist is clear. The pilot starts in May.\n\n\
         - [x] Dana: share the prototype link\n- [ ] Marco: write the conflict rules\n",
    )]);
    let mut config = Config {
        vault: Some(vault.root()),
        ..Config::default()
    };
    config.summarize.engine = Engine::Offline;
    let output = summarize(&registry_with(config), json!({ "path": "Meeting.md" })).await;
    assert!(!output.is_error, "{}", output.text);
    let written = without_fingerprints(&String::from_utf8(vault.read("Meeting.md")).unwrap());
    let summary = written
        .split("\n## Summary\n\n")
        .nth(1)
        .expect("summary section");
    assert!(summary.contains("### Action Items\n\n- [ ] Marco: write the conflict rules"));
    assert!(!summary.contains("share the prototype link"));
}

#[tokio::test]
async fn dry_run_returns_the_summary_renders_it_and_writes_nothing() {
    let vault = TempVault::with(&[("Meeting.md", "# Weekly\n\nWe chose SQLite.\n")]);
    let fake = FakeOpenAi::start();
    fake.push(FakeReply::chat(SUMMARY));
    let registry = registry(&vault, &fake);
    let args = json!({ "path": "Meeting.md", "dry_run": true });
    let output = summarize(&registry, args.clone()).await;
    assert!(!output.is_error, "{}", output.text);
    let mut record = result_json(&output);
    // The id a later call passes as `preview` to write this very summary (tests/it/mcp_binary.rs).
    let id = record["preview_id"].take();
    assert!(id.as_str().is_some_and(|id| id.starts_with('p')), "{id}");
    assert_eq!(output.details["preview_id"], id);
    record.as_object_mut().unwrap().remove("preview_id");
    assert_eq!(
        record,
        json!({ "success": true, "path": "Meeting.md", "summary": SUMMARY, "dry_run": true,
                "prompt": "default", "language": "auto" })
    );
    assert_eq!(vault.read("Meeting.md"), b"# Weekly\n\nWe chose SQLite.\n");
    let tool = registry.get("summarize_file").unwrap();
    assert_eq!(
        tool.render_call(&args),
        "summarize_file \"Meeting.md\" (dry run)"
    );
    assert_eq!(
        tool.render_result(&output, false),
        format!(
            "✓ Meeting.md: summary of {} chars (dry run, not written)",
            SUMMARY.chars().count()
        )
    );
}

#[test]
fn dry_run_is_not_in_the_advertised_schema() {
    let registry = registry_with(Config::default());
    let schema = registry.get("summarize_file").unwrap().input_schema();
    // JSON objects keep their insertion order (serde_json `preserve_order`): compare as a set.
    let mut properties: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    properties.sort();
    assert_eq!(
        properties,
        ["focus", "into", "language", "path", "prompt", "refresh", "replace"]
    );
    assert_eq!(schema["additionalProperties"], json!(false));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_on_one_note_take_turns() {
    let original = "# Weekly\n\nWe chose SQLite.\n";
    let vault = TempVault::with(&[("Meeting.md", original)]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(400)));
    let registry = Arc::new(registry(&vault, &fake));
    // Two spellings of the same note, as two agents might send them.
    let first = {
        let registry = registry.clone();
        tokio::spawn(async move { summarize(&registry, json!({ "path": "Meeting.md" })).await })
    };
    let second = {
        let registry = registry.clone();
        tokio::spawn(async move { summarize(&registry, json!({ "path": "./Meeting" })).await })
    };
    let (first, second) = (first.await.unwrap(), second.await.unwrap());
    assert!(!first.is_error, "{}", first.text);
    assert!(!second.is_error, "{}", second.text);
    assert_eq!(fake.request_count(), 2);
    assert_eq!(
        fake.max_in_flight(),
        1,
        "the two calls overlapped at the model"
    );
    // Neither write raced the other: the second call read the note after the first summary
    // was written (had it read before, the note would have changed under it: stale).
    assert_eq!(first.details["stale"], json!(false));
    assert_eq!(second.details["stale"], json!(false));
    // And what it summarized left that first summary out (a summary never reads a summary).
    let requests = fake.requests();
    assert!(requests
        .iter()
        .all(|r| !r.user_text().contains("Dana: send the link")));
    let written = String::from_utf8(vault.read("Meeting.md")).unwrap();
    assert!(written.starts_with(original));
    assert_eq!(written.matches("## Summary").count(), 2);
    assert_eq!(written.matches("- [ ] Dana: send the link").count(), 2);
    assert!(written.ends_with(&format!("{SUMMARY}\n")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn calls_on_different_notes_still_run_together() {
    let vault = TempVault::with(&[("A.md", "Alpha notes.\n"), ("B.md", "Beta notes.\n")]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(SUMMARY).with_delay(Duration::from_millis(400)));
    // A hosted API: a local server's requests start one at a time (`local_server.rs`).
    let mut config = config(&vault, &fake);
    config.llm.local_server = Some(false);
    let registry = Arc::new(registry_with(config));
    let calls: Vec<_> = ["A.md", "B.md"]
        .into_iter()
        .map(|path| {
            let registry = registry.clone();
            tokio::spawn(async move { summarize(&registry, json!({ "path": path })).await })
        })
        .collect();
    for call in calls {
        let output = call.await.unwrap();
        assert!(!output.is_error, "{}", output.text);
    }
    assert_eq!(fake.max_in_flight(), 2);
}
