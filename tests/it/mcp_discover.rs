//! The stateless path of MCP's 2026-07-28 revision against the built binary over stdio: no
//! `initialize`; `server/discover` says which revisions the server speaks, what it offers and who
//! it is, and every later request carries the protocol version and the client's capabilities in
//! its own `_meta`. Raw JSON-RPC lines, as a client of that revision sends them.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{ChildStdin, ChildStdout, Command};

use crate::support::temp_vault::TempVault;

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");
const WAIT: Duration = Duration::from_secs(30);

/// What a request of the stateless revision carries in `_meta` instead of a session.
fn inline_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "discover-check", "version": "0" },
    })
}

/// Sends one request and reads lines until its answer.
async fn ask(
    stdin: &mut ChildStdin,
    stdout: &mut Lines<BufReader<ChildStdout>>,
    id: u64,
    method: &str,
    params: Value,
) -> Value {
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    stdin
        .write_all(format!("{request}\n").as_bytes())
        .await
        .unwrap();
    stdin.flush().await.unwrap();
    loop {
        let line = tokio::time::timeout(WAIT, stdout.next_line())
            .await
            .expect("answered in time")
            .unwrap()
            .expect("stdout open");
        let message: Value = serde_json::from_str(&line).expect("stdout is JSON-RPC");
        if message["id"] == json!(id) {
            return message;
        }
    }
}

#[tokio::test]
async fn server_discover_then_stateless_requests_without_initialize() {
    let vault = TempVault::with(&[("Note.md", "# Note\n\nMet Dana about the launch in May.\n")]);
    let mut child = Command::new(BIN)
        .arg("--vault")
        .arg(vault.root())
        .args(["mcp", "--engine", "offline"])
        .env_remove("VAULTSUM_CONFIG")
        .env_remove("FIREWORKS_API_KEY")
        .env_remove("KAGI_API_KEY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn vaultsum mcp");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();

    // Without the inline metadata, discovery is refused, and serving goes on.
    let refused = ask(&mut stdin, &mut stdout, 1, "server/discover", json!({})).await;
    assert_eq!(refused["error"]["code"], json!(-32602), "{refused}");

    let discovered = ask(
        &mut stdin,
        &mut stdout,
        2,
        "server/discover",
        json!({ "_meta": inline_meta() }),
    )
    .await;
    let result = &discovered["result"];
    let versions: Vec<&str> = result["supportedVersions"]
        .as_array()
        .unwrap_or_else(|| panic!("no supportedVersions: {discovered}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        versions.contains(&"2026-07-28") && versions.contains(&"2025-06-18"),
        "{versions:?}"
    );
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        json!("vaultsum")
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["version"],
        json!(env!("CARGO_PKG_VERSION"))
    );
    assert!(result["instructions"]
        .as_str()
        .is_some_and(|text| text.contains("summarize_file")));

    // No session: each request says its revision itself.
    let listed = ask(
        &mut stdin,
        &mut stdout,
        3,
        "tools/list",
        json!({ "_meta": inline_meta() }),
    )
    .await;
    let tools = listed["result"]["tools"].as_array().expect("tools");
    let summarize_file = tools
        .iter()
        .find(|tool| tool["name"] == "summarize_file")
        .expect("summarize_file listed");
    assert!(summarize_file["outputSchema"]["properties"]["success"].is_object());

    let called = ask(
        &mut stdin,
        &mut stdout,
        4,
        "tools/call",
        json!({ "_meta": inline_meta(), "name": "summarize_file",
                "arguments": { "path": "Note.md", "dry_run": true } }),
    )
    .await;
    let result = &called["result"];
    assert_eq!(result["isError"], json!(false), "{called}");
    let text = result["content"][0]["text"].as_str().expect("a text");
    let record: Value = serde_json::from_str(text).expect("the text is the record as JSON");
    assert_eq!(result["structuredContent"], record);
    assert!(record["summary"]
        .as_str()
        .is_some_and(|summary| summary.contains("Dana")));
}
