//! `notifications/progress` for a `tools/call` that carries a `progressToken`: every step the
//! tool reports and a heartbeat while it waits, each value larger than the last, before the
//! answer; and nothing at all for a call without a token.
//!
//! First in process with raw JSON-RPC and a fixture tool (a heartbeat of 100 ms, fast), then
//! with the real Python MCP client against the binary, `summarize_file` waiting 25 s on a slow
//! model and the real heartbeat: the test that the 10 s promise holds.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fixture_tools::{fixture_registry, StepsTool};
use support::python_mcp::python_with_mcp;
use support::temp_vault::TempVault;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use vaultsum::mcp::{VaultsumServer, HEARTBEAT_INTERVAL};

/// A client speaking raw JSON-RPC lines to the server over an in-memory pipe, so the test
/// decides exactly what `_meta` a call carries (rmcp's own client always adds a token) and
/// sees every message in the order the server sent it.
struct RawClient {
    lines: tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
}

impl RawClient {
    /// Starts a server of the `steps` fixture tool and shakes hands with it.
    async fn connect(heartbeat: Duration) -> RawClient {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let server = VaultsumServer::new(fixture_registry(vec![Arc::new(StepsTool)]))
            .with_heartbeat(heartbeat);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (reader, writer) = tokio::io::split(client_io);
        let mut client = RawClient {
            lines: BufReader::new(reader).lines(),
            writer,
        };
        client
            .send(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": { "name": "raw", "version": "0" }
                }
            }))
            .await;
        let answer = client.next().await;
        assert!(answer["result"]["serverInfo"].is_object(), "{answer}");
        client
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
            .await
            .expect("the server answers")
            .unwrap()
            .expect("the server keeps the pipe open");
        serde_json::from_str(&line).unwrap()
    }

    /// Calls `steps` (350 ms after each of its first two steps), with `_meta` when given, and
    /// returns every message up to and including the answer, in the order they came.
    async fn call_steps(&mut self, id: u64, meta: Option<Value>) -> Vec<Value> {
        let mut params = json!({ "name": "steps", "arguments": { "wait_ms": 350 } });
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }))
            .await;
        let mut messages = Vec::new();
        loop {
            let message = self.next().await;
            let answered = message["id"] == id;
            messages.push(message);
            if answered {
                return messages;
            }
        }
    }
}

/// Progress values in arrival order, each strictly larger than the one before.
fn assert_strictly_increasing(values: &[f64]) {
    for pair in values.windows(2) {
        assert!(pair[1] > pair[0], "progress went {} → {}", pair[0], pair[1]);
    }
}

#[tokio::test]
async fn steps_and_heartbeats_reach_the_client_under_its_token_before_the_answer() {
    let mut client = RawClient::connect(Duration::from_millis(100)).await;
    let messages = client
        .call_steps(1, Some(json!({ "progressToken": "t-1" })))
        .await;
    let (answer, notes) = messages.split_last().unwrap();
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert!(
        notes
            .iter()
            .all(|n| n["method"] == "notifications/progress"
                && n["params"]["progressToken"] == "t-1"),
        "{notes:#?}"
    );
    let params: Vec<&Value> = notes.iter().map(|n| &n["params"]).collect();
    let values: Vec<f64> = params
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert_strictly_increasing(&values);
    assert!(params.iter().all(|p| p["total"] == 3.0), "{params:?}");
    let messages: Vec<&str> = params
        .iter()
        .map(|p| p["message"].as_str().unwrap())
        .collect();
    let steps: Vec<&str> = messages
        .iter()
        .copied()
        .filter(|m| !m.ends_with("s)"))
        .collect();
    assert_eq!(steps, ["reading A.md", "summarizing", "writing A.md"]);
    // Two waits of 350 ms with a 100 ms heartbeat: beats during each, repeating the step.
    assert!(messages.len() - steps.len() >= 4, "{messages:?}");
    assert!(
        messages.iter().any(|m| m.starts_with("summarizing (")),
        "{messages:?}"
    );
    // Steps are the whole numbers below the total; heartbeats lie strictly between them.
    assert_eq!(values.first(), Some(&0.0));
    assert_eq!(values.last(), Some(&2.0));
}

#[tokio::test]
async fn a_call_without_a_progress_token_gets_no_notifications() {
    let mut client = RawClient::connect(Duration::from_millis(50)).await;
    // Long enough for a dozen heartbeats, had any been due.
    let messages = client.call_steps(1, None).await;
    assert_eq!(messages.len(), 1, "only the answer: {messages:#?}");
    let messages = client.call_steps(2, Some(json!({ "other": 1 }))).await;
    assert_eq!(messages.len(), 1, "only the answer: {messages:#?}");
    // The same server sends progress to a call that asks for it.
    let messages = client
        .call_steps(3, Some(json!({ "progressToken": 7 })))
        .await;
    assert!(messages.len() > 3, "{messages:#?}");
    assert_eq!(messages[0]["params"]["progressToken"], 7);
}

// ---- The real Python client against the binary, with the real heartbeat ----

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");
/// How long the fake model takes: long enough for several heartbeats at the real interval, and
/// for more than 10 s of silence if there were none.
const SLOW_MODEL: Duration = Duration::from_secs(25);
const NOTE: &str = "Meetings/Standup.md";

/// Runs tests/mcp/progress_check.py: one `summarize_file` call on [`NOTE`] against `fake`,
/// with or without a progress callback; returns what the client recorded.
fn python_call(
    python: &std::path::Path,
    vault: &TempVault,
    fake: &FakeOpenAi,
    progress: bool,
) -> Value {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/progress_check.py");
    let mut command = std::process::Command::new(python);
    command
        .arg(script)
        .args(["--tool", "summarize_file"])
        .args(["--arguments", &json!({ "path": NOTE }).to_string()]);
    if progress {
        command.arg("--progress");
    }
    for (key, value) in fake.env() {
        command.arg("--env").arg(format!("{key}={value}"));
    }
    command.args(["--env", "VAULTSUM_ENGINE=llm"]);
    command
        .arg("--stdio")
        .arg(BIN)
        .arg("--vault")
        .arg(vault.root())
        .arg("mcp");
    let output = command.output().expect("run the Python MCP client");
    assert!(
        output.status.success(),
        "Python MCP client failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the client prints one JSON object")
}

fn slow_model_and_vault(delay: Duration) -> (FakeOpenAi, TempVault) {
    let fake = FakeOpenAi::start();
    fake.on(
        "POST",
        "/v1/chat/completions",
        None,
        FakeReply::chat("### Decisions\n- Ship on Friday.").with_delay(delay),
    );
    let body = "# Standup\n\nWe agreed to ship on Friday after the last review.\n".repeat(4);
    let vault = TempVault::with(&[(".obsidian/app.json", "{}"), (NOTE, &body)]);
    (fake, vault)
}

#[test]
fn python_client_gets_steps_and_a_heartbeat_at_least_every_10s_while_the_model_is_slow() {
    let Some(python) = python_with_mcp("python_client_gets_steps_and_a_heartbeat") else {
        return;
    };
    let (fake, vault) = slow_model_and_vault(SLOW_MODEL);
    let record = python_call(&python, &vault, &fake, true);
    let answer = &record["answer"];
    assert_eq!(answer["is_error"], false, "{record}");
    let written = String::from_utf8(vault.read(NOTE)).unwrap();
    assert!(written.contains("## Summary"), "not written: {written}");
    let answered = answer["t"].as_f64().unwrap();
    assert!(answered >= SLOW_MODEL.as_secs_f64(), "{record}");

    let notes: Vec<&Value> = record["notifications"].as_array().unwrap().iter().collect();
    let progress: Vec<&Value> = notes
        .iter()
        .copied()
        .filter(|n| n["method"] == "notifications/progress")
        .collect();
    // Every one of them reached the callback, so they carried the token the SDK sent.
    assert_eq!(
        record["callbacks"].as_array().unwrap().len(),
        progress.len(),
        "{record}"
    );
    let times: Vec<f64> = progress.iter().map(|n| n["t"].as_f64().unwrap()).collect();
    assert!(
        times.iter().all(|t| *t <= answered),
        "all before the answer: {record}"
    );
    let values: Vec<f64> = progress
        .iter()
        .map(|n| n["progress"].as_f64().unwrap())
        .collect();
    assert_strictly_increasing(&values);
    assert!(progress.iter().all(|n| n["total"] == 3.0), "{record}");
    let messages: Vec<&str> = progress
        .iter()
        .map(|n| n["message"].as_str().unwrap())
        .collect();
    for step in [
        format!("reading {NOTE}"),
        "summarizing".into(),
        format!("writing {NOTE}"),
    ] {
        assert!(
            messages.contains(&step.as_str()),
            "no {step:?}: {messages:?}"
        );
    }
    let beats = messages
        .iter()
        .filter(|m| m.starts_with("summarizing ("))
        .count();
    assert!(
        beats >= 2,
        "heartbeats while the model worked: {messages:?}"
    );
    // The promise: never 10 s without a notification, from the call to the answer.
    let mut last = 0.0;
    for t in times.iter().chain([&answered]) {
        assert!(
            t - last <= 10.0,
            "{:.1} s of silence before {t:.1} s: {record}",
            t - last
        );
        last = *t;
    }
    assert!(HEARTBEAT_INTERVAL <= Duration::from_secs(10));
}

#[test]
fn python_client_without_a_progress_token_gets_no_progress_notifications() {
    let Some(python) = python_with_mcp("python_client_without_a_progress_token") else {
        return;
    };
    // Long enough for two heartbeats, had any been sent.
    let (fake, vault) = slow_model_and_vault(2 * HEARTBEAT_INTERVAL + Duration::from_secs(2));
    let record = python_call(&python, &vault, &fake, false);
    assert_eq!(record["answer"]["is_error"], false, "{record}");
    // The call lasted several heartbeat intervals; not one notification came.
    assert!(record["answer"]["t"].as_f64().unwrap() > 2.0 * HEARTBEAT_INTERVAL.as_secs_f64());
    assert_eq!(record["notifications"], json!([]), "{record}");
    assert_eq!(record["callbacks"], json!([]), "{record}");
}
