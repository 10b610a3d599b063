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
