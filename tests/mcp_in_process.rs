//! The MCP server driven by rmcp's own client in the same process (an in-memory duplex pipe):
//! handshake, tool listing and every kind of call result, including cancellation.

mod support;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use support::fixture_tools::{
    basic_fixture_tools, fixture_registry, SlowWriteProbe, SlowWriteTool,
};
use vaultsum::mcp::{VaultsumServer, INSTRUCTIONS};
use vaultsum::tools::{Registry, Tool};

const WAIT: Duration = Duration::from_secs(10);

async fn connect(registry: Arc<Registry>) -> RunningService<RoleClient, ()> {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = VaultsumServer::new(registry);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("client handshake")
}

fn args(value: Value) -> JsonObject {
    value.as_object().expect("arguments are an object").clone()
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args(arguments)))
        .await
        .expect("tools/call answered")
}

fn text_of(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "one content block: {result:?}");
    &result.content[0].as_text().expect("text content").text
}

fn details_of(result: &CallToolResult) -> &Value {
    result
        .meta
        .as_ref()
        .and_then(|meta| meta.get("details"))
        .expect("_meta.details present")
}

#[tokio::test]
async fn initialize_announces_name_version_and_instructions() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let info = client.peer_info().expect("server info after initialize");
    let implementation = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(implementation.name, "vaultsum");
    assert_eq!(implementation.version, env!("CARGO_PKG_VERSION"));
    let instructions = info.instructions.as_deref().expect("instructions");
    assert_eq!(instructions, INSTRUCTIONS);
    assert!(instructions.contains("summarize_file") && instructions.contains("read_file"));
    assert!(
        info.capabilities.tools.is_some(),
        "tools capability announced"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_list_matches_the_registry_description() {
    let registry = fixture_registry(basic_fixture_tools());
    let client = connect(registry.clone()).await;
    let listed = client.list_all_tools().await.unwrap();
    let listed: Vec<Value> = listed
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "description": tool.description,
                "input_schema": Value::Object((*tool.input_schema).clone()),
                "annotations": tool.annotations,
            })
        })
        .collect();
    assert_eq!(Value::Array(listed), registry.describe());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn successful_call_returns_text_with_details_only_in_meta() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let result = call(&client, "echo", json!({ "text": "ab", "times": 3 })).await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(text_of(&result), "ababab");
    assert_eq!(details_of(&result), &json!({ "echo_chars": 6 }));
    assert!(!text_of(&result).contains("echo_chars"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tool_failure_is_an_is_error_result_with_the_tools_message() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let result = call(&client, "fail", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text_of(&result),
        "note not found: Missing.md. Check the path with read_file."
    );
    assert_eq!(details_of(&result)["error"], "not_found");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_arguments_are_an_is_error_result_naming_the_problem() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let missing = call(&client, "echo", json!({})).await;
    assert_eq!(missing.is_error, Some(true));
    assert!(
        text_of(&missing).contains("missing field `text`"),
        "{}",
        text_of(&missing)
    );
    let wrong_type = call(&client, "echo", json!({ "text": 5 })).await;
    assert_eq!(wrong_type.is_error, Some(true));
    assert!(text_of(&wrong_type).contains("invalid arguments for echo"));
    let no_arguments = client
        .call_tool(CallToolRequestParams::new("echo"))
        .await
        .unwrap();
    assert_eq!(no_arguments.is_error, Some(true));
    assert!(text_of(&no_arguments).contains("missing field `text`"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn unknown_tool_is_an_is_error_result_listing_the_tools() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let result = call(&client, "summarise_file", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text_of(&result),
        "unknown tool: summarise_file. Available tools: echo, fail, panic"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn panicking_tool_gives_an_error_result_and_the_server_keeps_serving() {
    let client = connect(fixture_registry(basic_fixture_tools())).await;
    let result = call(&client, "panic", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text_of(&result).contains("internal error in panic"));
    assert!(text_of(&result).contains("Nothing was written"));
    let after = call(&client, "echo", json!({ "text": "still here" })).await;
    assert_eq!(text_of(&after), "still here");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelled_call_is_dropped_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("Note.md");
    let probe = Arc::new(SlowWriteProbe::default());
    let mut tools = basic_fixture_tools();
    tools.push(Arc::new(SlowWriteTool {
        target: target.clone(),
        probe: probe.clone(),
    }) as Arc<dyn Tool>);
    let client = connect(fixture_registry(tools)).await;

    // Dropping the client's call future sends notifications/cancelled for it.
    let slow = client.call_tool(
        CallToolRequestParams::new("slow_write").with_arguments(args(json!({ "delay_ms": 1500 }))),
    );
    tokio::select! {
        _ = slow => panic!("the slow call finished before it could be cancelled"),
        started = tokio::time::timeout(WAIT, probe.started.notified()) => started.expect("call started"),
    }

    let deadline = tokio::time::Instant::now() + WAIT;
    while !probe.dropped_unfinished.load(Ordering::SeqCst) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the tool future was never dropped"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Well past the tool's own delay: had the future kept running, it would have written.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert!(!target.exists(), "a cancelled call wrote its file");
    assert_eq!(probe.finished.load(Ordering::SeqCst), 0);

    let after = call(&client, "echo", json!({ "text": "next" })).await;
    assert_eq!(text_of(&after), "next");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn uncancelled_slow_call_runs_to_its_write() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("Note.md");
    let probe = Arc::new(SlowWriteProbe::default());
    let tools: Vec<Arc<dyn Tool>> = vec![Arc::new(SlowWriteTool {
        target: target.clone(),
        probe: probe.clone(),
    })];
    let client = connect(fixture_registry(tools)).await;
    let result = call(&client, "slow_write", json!({ "delay_ms": 50 })).await;
    assert_eq!(text_of(&result), "written");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "written");
    assert!(!probe.dropped_unfinished.load(Ordering::SeqCst));
    client.cancel().await.unwrap();
}
