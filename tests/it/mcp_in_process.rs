//! The MCP server driven by rmcp's own client in the same process (an in-memory duplex pipe):
//! handshake, tool listing and every kind of call result, including cancellation, first with
//! small fixture tools and then with the real tools over a copy of `vault-fixture/`.

use crate::support;

use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::ServiceExt;
use serde_json::{json, Value};
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::fake_server::Ended;
use support::fixture_tools::{
    basic_fixture_tools, fixture_registry, SlowWriteProbe, SlowWriteTool,
};
use support::poll::wait_until_async;
use support::temp_vault::TempVault;
use vaultsum::mcp::{VaultsumServer, INSTRUCTIONS};
use vaultsum_tools::config::{Config, Engine};
use vaultsum_tools::{Registry, Tool, ToolContext};

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
                "title": tool.title,
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

    assert!(
        wait_until_async(|| probe.dropped_unfinished.load(Ordering::SeqCst)).await,
        "the tool future was never dropped"
    );
    // Dropped before it finished: the future that would have written no longer exists.
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

// ---- The real tools over a copy of vault-fixture/ ----

/// A copy of `vault-fixture/` (tests write to it) and the real registry over it.
fn fixture_vault_registry(configure: impl FnOnce(&mut Config)) -> (TempVault, Arc<Registry>) {
    let vault = TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"));
    let mut config = Config {
        vault: Some(vault.root()),
        ..Config::default()
    };
    configure(&mut config);
    let context = ToolContext::new(config).expect("the fixture vault opens");
    (vault, Arc::new(Registry::new(Arc::new(context))))
}

const WEEKLY_SYNC: &str = "Meetings/2024-03-04 Weekly sync.md";
/// A note without media embeds: summarizing it makes exactly one LLM request.
const PLAN: &str = "Projects/Alpha/Plan.md";

#[tokio::test]
async fn real_tools_list_with_their_schemas_and_hints() {
    let (_vault, registry) = fixture_vault_registry(|_| {});
    let client = connect(registry.clone()).await;
    let listed = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = listed.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "summarize_file",
            "summarize",
            "web_search",
            "summarize_notes",
            "summarize_folder",
            "summary_status"
        ]
    );
    let described = registry.describe();
    for (tool, want) in listed.iter().zip(described.as_array().unwrap()) {
        assert_eq!(tool.description.as_deref(), want["description"].as_str());
        assert_eq!(
            Value::Object((*tool.input_schema).clone()),
            want["input_schema"]
        );
        let hints = tool.annotations.as_ref().expect("annotations");
        // summarize and summarize_notes write only with `save_to`, and never over a person's
        // note; summarize_file's `replace=true` deletes the previous summary section.
        let writes = matches!(
            tool.name.as_ref(),
            "summarize_file" | "summarize" | "summarize_notes" | "summarize_folder"
        );
        // summarize_folder replaces stale summaries, as summarize_file with `replace` does.
        let destructive = matches!(tool.name.as_ref(), "summarize_file" | "summarize_folder");
        let open_world = matches!(tool.name.as_ref(), "summarize" | "web_search");
        assert_eq!(hints.read_only_hint, Some(!writes), "{}", tool.name);
        assert_eq!(hints.destructive_hint, Some(destructive), "{}", tool.name);
        assert_eq!(hints.open_world_hint, Some(open_world), "{}", tool.name);
        assert_eq!(tool.title.as_deref(), want["title"].as_str());
        assert_eq!(hints.title.as_deref(), want["title"].as_str());
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_file_returns_the_note_with_embeds_expanded_and_details_in_meta() {
    let (_vault, registry) = fixture_vault_registry(|_| {});
    let client = connect(registry).await;
    let result = call(&client, "read_file", json!({ "path": WEEKLY_SYNC })).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let text = text_of(&result);
    // `![[Alpha/Plan#Milestones]]` and `![[Alpha/Plan#^conflict-risk]]` are replaced by their
    // content from Projects/Alpha/Plan.md.
    assert!(text.contains("| Offline storage and sync working end to end | 12 April | Marco |"));
    assert!(text.contains("Sync conflicts when two technicians inspect the same site"));
    assert!(!text.contains("![[Alpha/Plan#Milestones]]"), "{text}");
    let details = details_of(&result);
    let embeds = details["expansion"]["embeds"].as_array().expect("embeds");
    assert!(embeds
        .iter()
        .any(|embed| embed["path"] == "Projects/Alpha/Plan.md"));
    assert!(
        !text.contains("\"expansion\""),
        "details leaked into the text"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_file_refuses_a_path_out_of_the_vault_as_an_error_result() {
    let (vault, registry) = fixture_vault_registry(|_| {});
    std::fs::write(vault.outside().join("x"), "secret").unwrap();
    let client = connect(registry).await;
    for path in ["../x", "../outside/x"] {
        let result = call(&client, "read_file", json!({ "path": path })).await;
        assert_eq!(result.is_error, Some(true), "{path}");
        assert_eq!(text_of(&result), format!("path escapes the vault: {path}"));
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn summarize_file_offline_appends_a_summary_and_keeps_the_note() {
    let (vault, registry) = fixture_vault_registry(|config| {
        config.summarize.engine = Engine::Offline;
    });
    let before = vault.read(WEEKLY_SYNC);
    let client = connect(registry).await;
    let result = call(&client, "summarize_file", json!({ "path": WEEKLY_SYNC })).await;
    assert_eq!(result.is_error, Some(false), "{}", text_of(&result));
    let reply: Value = serde_json::from_str(text_of(&result)).expect("the text is JSON");
    assert_eq!(reply["success"], true);
    assert_eq!(reply["path"], WEEKLY_SYNC);
    let after = String::from_utf8(vault.read(WEEKLY_SYNC)).unwrap();
    assert!(
        after.as_bytes().starts_with(&before),
        "the note was changed"
    );
    let appended = &after[before.len()..];
    assert!(appended.contains("## Summary\n"), "{appended}");
    assert_eq!(details_of(&result)["summarizer"]["engine"], "offline");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn cancelled_summarize_file_leaves_the_note_as_it_was() {
    let fake = Arc::new(FakeOpenAi::start());
    fake.set_fallback(
        FakeReply::chat("### Key Points\n\n- too late").with_delay(Duration::from_secs(3)),
    );
    let (vault, registry) = fixture_vault_registry(|config| {
        config.llm = fake.llm_config();
        config.summarize.engine = Engine::Llm;
    });
    let before = vault.read(PLAN);
    let client = connect(registry).await;

    let slow = client.call_tool(
        CallToolRequestParams::new("summarize_file").with_arguments(args(json!({ "path": PLAN }))),
    );
    tokio::select! {
        _ = slow => panic!("summarize_file finished before it could be cancelled"),
        arrived = wait_until_async(|| fake.request_count() >= 1) => assert!(arrived, "the LLM request never arrived"),
    }
    // The slow call's future is dropped here, which sends notifications/cancelled. The
    // cancelled call drops its LLM request, which the fake sees end unanswered, before its
    // delayed reply: no reply ever reached the call, so it cannot have written.
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

// ---- summarize_folder and summary_status: what a client that asks before it spends uses ----

#[tokio::test]
async fn summarize_folder_counts_first_then_runs_and_refreshes_only_what_is_stale() {
    let (vault, registry) = fixture_vault_registry(|config| {
        config.summarize.engine = Engine::Offline;
    });
    let client = connect(registry).await;
    // Counted first: nothing written, no paid call.
    let before = vault.read(WEEKLY_SYNC);
    let counted = call(
        &client,
        "summarize_folder",
        json!({ "folder": "Meetings", "only": "missing_and_stale", "dry_run": true }),
    )
    .await;
    assert_eq!(counted.is_error, Some(false), "{}", text_of(&counted));
    let counts = details_of(&counted);
    assert_eq!(
        (
            &counts["to_summarize"],
            &counts["missing"],
            &counts["stale"]
        ),
        (&json!(2), &json!(2), &json!(0))
    );
    assert!(counts["estimated_prompt_tokens"].as_u64().unwrap() > 10);
    assert_eq!(vault.read(WEEKLY_SYNC), before);

    let run = call(
        &client,
        "summarize_folder",
        json!({ "folder": "Meetings", "only": "missing" }),
    )
    .await;
    assert_eq!(details_of(&run)["line"], "2 notes: 2 summarized, offline");

    // One note edited: "missing" leaves its stale summary, "stale" replaces it alone.
    let edited = String::from_utf8(vault.read(WEEKLY_SYNC))
        .unwrap()
        .replacen("# ", "# Revised: ", 1);
    vault.write(WEEKLY_SYNC, &edited);
    let status = call(&client, "summary_status", json!({ "path": "Meetings" })).await;
    assert_eq!(
        text_of(&status),
        "2 notes: 1 current, 1 stale, 0 edited, 0 unmarked, 0 missing"
    );
    let missing_only = call(
        &client,
        "summarize_folder",
        json!({ "folder": "Meetings", "only": "missing" }),
    )
    .await;
    assert_eq!(
        details_of(&missing_only)["line"],
        "2 notes: 0 summarized, 2 skipped, offline"
    );
    let stale_only = call(
        &client,
        "summarize_folder",
        json!({ "folder": "Meetings", "only": "stale" }),
    )
    .await;
    assert_eq!(
        details_of(&stale_only)["line"],
        "2 notes: 1 summarized, 1 skipped, offline"
    );
    let after = String::from_utf8(vault.read(WEEKLY_SYNC)).unwrap();
    assert_eq!(after.matches("## Summary").count(), 1, "{after}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_root_folder_named_slash_is_the_vault_not_the_file_system_root() {
    let (_vault, registry) = fixture_vault_registry(|config| {
        config.summarize.engine = Engine::Offline;
    });
    let client = connect(registry).await;
    for scope in ["/", ""] {
        let status = call(&client, "summary_status", json!({ "path": scope })).await;
        assert_eq!(status.is_error, Some(false), "{}", text_of(&status));
        let notes = details_of(&status)["notes"].as_array().unwrap().clone();
        assert!(
            notes.iter().any(|n| n["path"] == "Daily/2024-03-05.md"),
            "{notes:?}"
        );
        let counted = call(
            &client,
            "summarize_folder",
            json!({ "folder": scope, "only": "missing", "dry_run": true }),
        )
        .await;
        assert_eq!(details_of(&counted)["notes"], json!(notes.len()));
    }
    client.cancel().await.unwrap();
}
