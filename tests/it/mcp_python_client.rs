//! A real MCP client from outside the crate, the Python `mcp` SDK (tests/mcp/client_check.py),
//! against the built binary over stdio and over HTTP with and without a token.
//! Skipped loudly when `.venv/` is missing, unless `VAULTSUM_REQUIRE_PY_MCP=1`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde_json::json;
use support::mcp_http_child::spawn_http;
use support::python_mcp::{client_script, python_with_mcp};
use support::temp_vault::TempVault;
use vaultsum_tools::config::Config;
use vaultsum_tools::{Registry, ToolContext};

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");

/// The checks the Python client runs: the tool list it must see and the calls it makes.
fn write_plan(dir: &Path) -> PathBuf {
    let tools = Registry::new(Arc::new(
        ToolContext::new(Config::default()).expect("a context without a vault always builds"),
    ))
    .describe();
    let mut calls = vec![json!({
        "tool": "no_such_tool", "arguments": {}, "expect_error": true,
        "text_contains": ["unknown tool: no_such_tool"]
    })];
    for tool in tools.as_array().unwrap() {
        // Every tool refuses a call without its required arguments with an actionable message.
        calls.push(json!({
            "tool": tool["name"], "arguments": {}, "expect_error": true,
            "text_contains": ["invalid arguments"]
        }));
    }
    // The real tools on the copy of vault-fixture/: read expanded, refuse an escape, summarize
    // offline (no key reaches the server), and name the missing Kagi key exactly.
    calls.extend([
        json!({
            "tool": "read_file", "arguments": { "path": WEEKLY_SYNC }, "expect_error": false,
            "text_contains": ["| Offline storage and sync working end to end | 12 April | Marco |"],
            "text_lacks": ["![[Alpha/Plan#Milestones]]"],
            "details_keys": ["expansion"]
        }),
        json!({
            "tool": "read_file", "arguments": { "path": "../x" }, "expect_error": true,
            "text_equals": "path escapes the vault: ../x"
        }),
        json!({
            "tool": "summarize_file", "arguments": { "path": WEEKLY_SYNC }, "expect_error": false,
            "text_contains": ["\"success\":true"]
        }),
        // The tools whose answer is a record give it beside the text (the client checks both).
        json!({
            "tool": "summarize_file", "arguments": { "path": WEEKLY_SYNC, "dry_run": true },
            "expect_error": false, "text_contains": ["\"dry_run\":true"]
        }),
        json!({
            "tool": "summarize_file", "arguments": { "path": "../x.md" }, "expect_error": true,
            "text_contains": ["\"success\":false", "escapes the vault"]
        }),
        json!({
            "tool": "summarize_notes", "arguments": { "paths": ["Meetings"] },
            "expect_error": false, "text_contains": ["### Sources"]
        }),
        json!({
            "tool": "summarize_notes", "arguments": { "paths": ["Meetings"], "dry_run": true },
            "expect_error": false, "text_contains": ["notes selected"]
        }),
        json!({
            "tool": "summarize", "arguments": { "url": "https://example.com/a" },
            "expect_error": true,
            "text_equals": "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use summarize."
        }),
        json!({
            "tool": "web_search", "arguments": { "queries": ["rust"] }, "expect_error": true,
            "text_equals": "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use web search."
        }),
    ]);
    let plan = json!({ "version": env!("CARGO_PKG_VERSION"), "tools": tools, "calls": calls });
    let path = dir.join("plan.json");
    std::fs::write(&path, plan.to_string()).unwrap();
    path
}

const WEEKLY_SYNC: &str = "Meetings/2024-03-04 Weekly sync.md";

/// A copy of vault-fixture/ the plan's summarize_file writes to.
fn vault() -> TempVault {
    TempVault::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("vault-fixture"))
}

/// The plan's summarize_file call appended a summary and kept the note's text.
fn assert_summarized(vault: &TempVault) {
    let original = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("vault-fixture")
            .join(WEEKLY_SYNC),
    )
    .unwrap();
    let now = vault.read(WEEKLY_SYNC);
    assert!(now.starts_with(&original), "the note's own text changed");
    assert!(String::from_utf8_lossy(&now[original.len()..]).contains("## Summary\n"));
}

fn run_client(python: &Path, plan: &Path, transport_args: &[&str]) {
    let output = Command::new(python)
        .arg(client_script())
        .arg("--plan")
        .arg(plan)
        .args(transport_args)
        .env_remove("FIREWORKS_API_KEY")
        .env_remove("KAGI_API_KEY")
        .output()
        .expect("run the Python MCP client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "Python MCP client failed ({transport_args:?}):\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("OK all checks passed"), "{stdout}");
    // The SDK closes an HTTP session with `DELETE`, and warns when the answer is not one it
    // takes as success (it took 202 for a failure).
    assert!(
        !stderr.contains("Session termination failed"),
        "the Python client did not accept the session's end:\n{stderr}"
    );
}

#[test]
fn python_client_over_stdio() {
    let Some(python) = python_with_mcp("python_client_over_stdio") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plan = write_plan(dir.path());
    let vault = vault();
    let root = vault.root();
    let vault_arg = root.to_str().unwrap();
    // The Python SDK gives the server only a minimal environment (no API keys); `--engine
    // local` makes the offline summarizer explicit.
    run_client(
        &python,
        &plan,
        &[
            "--stdio", BIN, "--vault", vault_arg, "mcp", "--engine", "local",
        ],
    );
    assert_summarized(&vault);
}

#[test]
fn python_client_over_http_on_loopback() {
    let Some(python) = python_with_mcp("python_client_over_http_on_loopback") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plan = write_plan(dir.path());
    let vault = vault();
    let server = spawn_http(&vault.root(), None);
    run_client(&python, &plan, &["--http", &server.url]);
    assert_summarized(&vault);
}

#[test]
fn python_client_over_http_with_token_and_401_without() {
    let Some(python) = python_with_mcp("python_client_over_http_with_token_and_401_without") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plan = write_plan(dir.path());
    let vault = vault();
    let token = "tok-3f9a1c";
    let server = spawn_http(&vault.root(), Some(token));
    run_client(&python, &plan, &["--http", &server.url, "--token", token]);
    assert_summarized(&vault);
}

/// A server scoped with `--read-only --tools read_file,summarize_file,summarize_notes`: it lists
/// read_file and summarize_notes only, all read-only, and refuses summarize_file, which writes,
/// and a rollup's `save_to`.
#[test]
fn python_client_sees_a_read_only_tool_scoped_server() {
    let Some(python) = python_with_mcp("python_client_sees_a_read_only_tool_scoped_server") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let only = ["read_file", "summarize_file", "summarize_notes"].map(String::from);
    let tools = Registry::new(Arc::new(
        ToolContext::new(Config::default()).expect("a context without a vault always builds"),
    ))
    .scoped(Some(&only), true)
    .expect("known tools")
    .describe();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "summarize_notes"]);
    let calls = json!([
        {
            "tool": "summarize_file", "arguments": { "path": WEEKLY_SYNC }, "expect_error": true,
            "text_contains": ["unknown tool: summarize_file"]
        },
        {
            "tool": "read_file", "arguments": { "path": WEEKLY_SYNC }, "expect_error": false,
            "text_contains": ["Weekly sync"]
        },
        {
            "tool": "summarize_notes", "arguments": { "paths": ["Meetings"] },
            "expect_error": false, "text_contains": ["### Sources"]
        },
        {
            "tool": "summarize_notes",
            "arguments": { "paths": ["Meetings"], "save_to": "Review.md" },
            "expect_error": true, "text_contains": ["read-only", "save_to is not available"]
        },
    ]);
    let plan = json!({
        "version": env!("CARGO_PKG_VERSION"), "tools": tools, "calls": calls, "read_only": true
    });
    let plan_path = dir.path().join("plan.json");
    std::fs::write(&plan_path, plan.to_string()).unwrap();
    let vault = vault();
    let before = vault.read(WEEKLY_SYNC);
    let root = vault.root();
    run_client(
        &python,
        &plan_path,
        &[
            "--stdio",
            BIN,
            "--vault",
            root.to_str().unwrap(),
            "mcp",
            "--engine",
            "local",
            "--read-only",
            "--tools",
            "read_file,summarize_file,summarize_notes",
        ],
    );
    assert_eq!(vault.read(WEEKLY_SYNC), before, "nothing was written");
    assert!(
        !vault.root().join("Review.md").exists(),
        "a read-only server wrote a rollup"
    );
}
