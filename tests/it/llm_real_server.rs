//! Opt-in: the client against a real OpenAI-compatible server (llama.cpp's, started by
//! `../shared/tools/local-llm.sh`). Run with
//! `VAULTSUM_E2E_BASE_URL=$(../shared/tools/local-llm.sh start) cargo test --test it llm_real_server -- --ignored`
//! (`VAULTSUM_E2E_MODEL` names the model, default `smollm2`).

use vaultsum_core::llm::{ChatClient, ChatRequest};
use vaultsum_tools::config::{ApiKey, Config, LlmConfig};

fn real_server_config() -> (LlmConfig, String) {
    let base = std::env::var("VAULTSUM_E2E_BASE_URL")
        .expect("set VAULTSUM_E2E_BASE_URL to a running OpenAI-compatible server");
    let model = std::env::var("VAULTSUM_E2E_MODEL").unwrap_or_else(|_| "smollm2".into());
    let mut cfg = Config::default().llm;
    cfg.api_key = ApiKey::new("local");
    cfg.base_url = base.clone();
    cfg.audio_base_url = base;
    cfg.max_attempts = 2;
    (cfg, model)
}

#[tokio::test]
#[ignore = "needs a real server: set VAULTSUM_E2E_BASE_URL (see ../shared/tools/local-llm.sh)"]
async fn real_server_answers_a_chat_completion() {
    let (cfg, model) = real_server_config();
    let mut req = ChatRequest::text(model, "You answer in one short sentence.", "Say hello.");
    // Room to finish: an answer cut at the cap would be kept only to its last whole sentence.
    req.max_tokens = Some(256);
    let reply = ChatClient::new(&cfg).unwrap().chat(&req).await.unwrap();
    assert!(!reply.content.trim().is_empty());
    assert!(reply.finish_reason.is_some(), "{reply:?}");
}

#[tokio::test]
#[ignore = "needs a real server: set VAULTSUM_E2E_BASE_URL (see ../shared/tools/local-llm.sh)"]
async fn real_server_rejection_keeps_its_client_error_status() {
    let (cfg, model) = real_server_config();
    // Far beyond any small model's context window.
    let huge = "word ".repeat(200_000);
    let err = ChatClient::new(&cfg)
        .unwrap()
        .chat(&ChatRequest::text(model, "", huge))
        .await
        .unwrap_err();
    let status = err.status().unwrap_or_else(|| panic!("no status: {err}"));
    assert!((400..500).contains(&status), "{err}");
    assert!(
        err.to_string().len() < 600,
        "message is not an excerpt: {err}"
    );
}
