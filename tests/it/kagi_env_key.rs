//! The Kagi key is read from `KAGI_API_KEY` when a tool is called, not when it is built.
//!
//! The test changes the process environment, so it runs alone in a child process of the test
//! binary; no other test touches `KAGI_API_KEY` in-process.

use crate::support;

use serde_json::json;
use support::alone::in_own_process;
use support::fake_kagi::{authorization, envelope, ok, result, FakeKagi};
use vaultsum_tools::web_search::WebSearchTool;
use vaultsum_tools::Tool;

#[tokio::test]
async fn key_exported_after_the_tool_was_built_is_used_on_the_next_call() {
    if !in_own_process(
        module_path!(),
        "key_exported_after_the_tool_was_built_is_used_on_the_next_call",
    ) {
        return;
    }
    let fake = FakeKagi::start();
    fake.on_search(
        "q",
        ok(envelope(json!([result("https://e.example", "E", None)]))),
    );
    std::env::remove_var("KAGI_API_KEY");
    let tool = WebSearchTool::new(&fake.context());

    let before = tool.call(json!({"queries": ["q"]})).await;
    assert!(before.is_error);
    assert!(before
        .text
        .starts_with("KAGI_API_KEY environment variable is not set."));

    std::env::set_var("KAGI_API_KEY", "late-key-123");
    let after = tool.call(json!({"queries": ["q"]})).await;
    assert!(!after.is_error, "{}", after.text);
    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        authorization(&requests[0]).as_deref(),
        Some("Bot late-key-123")
    );
}
