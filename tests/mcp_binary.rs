//! The built `vaultsum mcp` binary as a child process: rmcp's client over its stdio, and raw
//! JSON-RPC lines to check that stdout carries only the protocol and bad input is survived.

mod support;

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use vaultsum::config::Config;
use vaultsum::tools::{Registry, ToolContext};

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");
const WAIT: Duration = Duration::from_secs(20);

/// What `vaultsum tools --json` describes for a default configuration.
fn expected_tools() -> Value {
    Registry::new(Arc::new(
        ToolContext::new(Config::default()).expect("a context without a vault always builds"),
    ))
    .describe()
}

fn server_command(vault: &std::path::Path) -> Command {
    Command::new(BIN).configure(|cmd| {
        cmd.arg("--vault")
            .arg(vault)
            .arg("mcp")
            .env("RUST_LOG", "debug")
            .env_remove("VAULTSUM_CONFIG")
            .env_remove("FIREWORKS_API_KEY")
            .env_remove("KAGI_API_KEY");
    })
}

#[tokio::test]
async fn rmcp_client_over_child_stdio_lists_and_calls_every_tool() {
    let vault = tempfile::tempdir().unwrap();
    std::fs::create_dir(vault.path().join(".obsidian")).unwrap();
    let (transport, _stderr) = TokioChildProcess::builder(server_command(vault.path()))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn vaultsum mcp");
    let client = ().serve(transport).await.expect("handshake with the binary");

    let info = client.peer_info().unwrap();
    let implementation = info.server_info.as_ref().unwrap();
    assert_eq!(implementation.name, "vaultsum");
    assert_eq!(implementation.version, env!("CARGO_PKG_VERSION"));

    let tools = client.list_all_tools().await.unwrap();
    let listed: Vec<Value> = tools
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
    assert_eq!(Value::Array(listed), expected_tools());

    // Every tool answers a call without its required arguments with an actionable error result.
    for tool in &tools {
        let result = client
            .call_tool(
                CallToolRequestParams::new(tool.name.clone()).with_arguments(JsonObject::new()),
            )
            .await
            .unwrap();
        let text = &result.content[0].as_text().unwrap().text;
        assert_eq!(result.is_error, Some(true), "{}: {text}", tool.name);
        assert!(result
            .meta
            .as_ref()
            .is_some_and(|m| m.contains_key("details")));
    }
    let unknown = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .unwrap();
    assert_eq!(unknown.is_error, Some(true));
    assert!(unknown.content[0]
        .as_text()
        .unwrap()
        .text
        .starts_with("unknown tool: nope"));
    assert!(unknown
        .meta
        .as_ref()
        .is_some_and(|m| m.contains_key("details")));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn stdout_is_only_protocol_and_bad_lines_do_not_stop_the_server() {
    let vault = tempfile::tempdir().unwrap();
    let mut child = server_command(vault.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Drain stderr as it comes: debug logs of a 4 MB request would fill the pipe otherwise.
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr_task = tokio::spawn(async move {
        let mut stderr = String::new();
        let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr_pipe, &mut stderr).await;
        stderr
    });
    let huge = "y".repeat(4 * 1024 * 1024);
    let lines = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "0" } } })
        .to_string(),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string(),
        "{ this line is not JSON".to_string(),
        json!({ "hello": "not json-rpc" }).to_string(),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": { "name": "no_such_tool", "arguments": { "blob": huge } } })
        .to_string(),
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }).to_string(),
    ];
    for line in &lines {
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
    }
    stdin.flush().await.unwrap();

    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answered = Vec::new();
    let mut invalid_request_seen = false;
    while answered.len() < 3 {
        let line = tokio::time::timeout(WAIT, stdout.next_line())
            .await
            .expect("server answered in time")
            .unwrap()
            .expect("stdout open");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line:.200}"));
        assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC: {line:.200}");
        match message.get("id").and_then(Value::as_u64) {
            Some(id) => answered.push((id, message)),
            None => {
                // The well-formed non-JSON-RPC line gets an Invalid Request error (id null).
                assert_eq!(message["error"]["code"], -32600, "{message}");
                invalid_request_seen = true;
            }
        }
    }
    answered.sort_by_key(|(id, _)| *id);
    assert_eq!(answered[0].1["result"]["serverInfo"]["name"], "vaultsum");
    let huge_reply = &answered[1].1["result"];
    assert_eq!(huge_reply["isError"], true);
    assert!(huge_reply["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("unknown tool"));
    assert!(answered[2].1["result"]["tools"].is_array());
    // Unparsable input is ignored, as every official MCP SDK does (no id to answer to).
    let late = tokio::time::timeout(Duration::from_millis(300), stdout.next_line()).await;
    if let Ok(Ok(Some(line))) = late {
        let message: Value = serde_json::from_str(&line).expect("stdout is JSON-RPC only");
        assert_eq!(message["error"]["code"], -32600, "{message}");
        invalid_request_seen = true;
    }
    assert!(
        invalid_request_seen,
        "the non-JSON-RPC object got no Invalid Request error"
    );

    // Closing stdin ends the session and the process exits cleanly; its logs went to stderr.
    drop(stdin);
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "exit status {status}");
    let stderr = stderr_task.await.unwrap();
    assert!(
        stderr.contains("DEBUG"),
        "RUST_LOG=debug logs expected on stderr"
    );
}
