//! Opt-in end to end: `summarize-file` against a real OpenAI-compatible server (llama.cpp with a
//! tiny model, started by `../shared/tools/local-llm.sh start`). Run with
//! `VAULTSUM_E2E_BASE_URL=$(../shared/tools/local-llm.sh start) cargo test --test it e2e_local_llm -- --ignored`.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::cli::vaultsum;
use support::temp_vault::TempVault;

#[test]
#[ignore = "needs a real local LLM server: set VAULTSUM_E2E_BASE_URL"]
fn summarize_file_against_a_real_llama_cpp_server() {
    let base_url = std::env::var("VAULTSUM_E2E_BASE_URL")
        .expect("VAULTSUM_E2E_BASE_URL=$(../shared/tools/local-llm.sh start)");
    let model = std::env::var("VAULTSUM_E2E_MODEL").unwrap_or_else(|_| "smollm2".to_string());
    let vault = TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"));
    let note = "Meetings/2024-03-11 Vendor call.md";
    let before = vault.read(note);
    // A tiny CPU model on a busy 2-core machine can take minutes; give it room.
    let config = vault.outside().join("e2e.toml");
    std::fs::write(&config, "[llm]\ntimeout_secs = 900\nmax_attempts = 1\n").unwrap();
    let output = vaultsum(&vault.outside())
        .arg("--config")
        .arg(&config)
        .env("FIREWORKS_BASE_URL", &base_url)
        .env("FIREWORKS_API_KEY", "local")
        .env("SUMMARIZE_MODEL", &model)
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", "--engine", "llm", "--json", note])
        .timeout(std::time::Duration::from_secs(1000))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    eprintln!(
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success());
    let result: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(result["success"], Value::Bool(true));
    let after = vault.read(note);
    assert!(after.starts_with(&before), "the note lost bytes");
    let appended = String::from_utf8_lossy(&after[before.len()..]).into_owned();
    eprintln!("appended:{appended}");
    // The fixture note is CRLF, so the appended section is too.
    assert!(
        appended.starts_with("\r\n## Summary\r\n\r\n"),
        "{appended:?}"
    );
    assert!(appended.trim().len() > "## Summary".len());
    assert_eq!(
        result["summary_length"].as_u64().unwrap() as usize,
        appended
            .trim_start_matches("\r\n## Summary\r\n\r\n")
            .trim_end_matches("\r\n")
            .replace("\r\n", "\n")
            .chars()
            .count()
    );
}

/// A note about twice the real server's 8,192-token window (65 KB; this repetitive prose takes
/// about 4.6 bytes a token): the server refuses it whole with its own context-length error, and
/// the note is summarized in parts and merged, every part of it read, the note losing no byte.
/// Measured here: 5 parts of about 3,100 prompt tokens and the merge, 565 s with the tiny model.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a real local LLM server: set VAULTSUM_E2E_BASE_URL"]
async fn a_note_longer_than_a_real_servers_window_is_summarized_in_parts() {
    use std::sync::Arc;
    use vaultsum_tools::config::{ApiKey, Config, Engine};
    use vaultsum_tools::{Registry, ToolContext};

    let base_url = std::env::var("VAULTSUM_E2E_BASE_URL")
        .expect("VAULTSUM_E2E_BASE_URL=$(../shared/tools/local-llm.sh start)");
    let model = std::env::var("VAULTSUM_E2E_MODEL").unwrap_or_else(|_| "smollm2".to_string());
    let mut note = String::from("# Field notes\n\n");
    for i in 0..24 {
        note.push_str(&format!("## Day {i}\n\n"));
        note.push_str(&"We walked the northern trail, counted birds at the lake and logged the weather in the notebook. ".repeat(28));
        note.push_str("\n\n");
    }
    let vault = TempVault::with(&[("Field notes.md", &note)]);
    let mut config = Config {
        vault: Some(vault.root()),
        cache_dir: vault.outside().join("cache"),
        ..Config::default()
    };
    config.summarize.engine = Engine::Llm;
    config.llm.api_key = ApiKey::new("local");
    config.llm.base_url = base_url.clone();
    config.llm.audio_base_url = base_url;
    config.llm.summarize_model = model;
    config.llm.timeout_secs = 900;
    config.llm.max_attempts = 1;
    let registry = Registry::new(Arc::new(ToolContext::new(config).expect("context")));
    let output = registry
        .call(
            "summarize_file",
            serde_json::json!({ "path": "Field notes.md" }),
        )
        .await;
    eprintln!("{}\n{:#}", output.text, output.details);
    assert!(!output.is_error, "{}", output.text);
    let parts = output.details["summarizer"]["parts"].as_u64().unwrap_or(0);
    assert!(parts >= 2, "summarized in parts: {}", output.details);
    assert_eq!(
        output.details["summarizer"]["split_because"],
        "the server's context-length error"
    );
    let written = String::from_utf8(vault.read("Field notes.md")).unwrap();
    assert!(written.starts_with(&note), "the note lost bytes");
    assert_eq!(written[note.len()..].matches("## Summary").count(), 1);
}
