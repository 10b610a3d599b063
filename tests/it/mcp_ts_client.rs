//! A real MCP client from outside the crate in another language: the official TypeScript SDK
//! (tests/mcp/ts-client/, installed by `scripts/node-env.sh`, which `scripts/test.sh` runs)
//! against the built binary over HTTP: it connects, lists the tools and ends its session the
//! way the SDK does, which must be taken as success and must close the session; and it reads
//! the records (`structuredContent`) of the tools that declare an output schema.

use crate::support;

use std::path::PathBuf;
use std::process::Command;

use support::fake_kagi::{result, FakeKagi, TEST_KEY};
use support::mcp_http_child::{spawn_http, spawn_http_with_env};
use support::temp_vault::TempVault;

fn client_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/ts-client")
}

/// Runs one of the client's scripts against `url`; its stdout must contain `ok`.
fn run_script(script: &str, url: &str, ok: &str) {
    let dir = client_dir();
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").is_dir(),
        "the TypeScript MCP client is not installed: run `bash scripts/node-env.sh` (needs \
         Node.js 18+ and npm; `scripts/test.sh` runs it)"
    );
    let output = Command::new("node")
        .arg(dir.join(script))
        .arg(url)
        .current_dir(&dir)
        .output()
        .expect("run node (Node.js 18+ must be on PATH)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains(ok),
        "TypeScript MCP client ({script}) failed:\n{stdout}\n{stderr}"
    );
}

#[test]
fn typescript_client_ends_an_http_session_cleanly() {
    let vault = TempVault::with(&[("Note.md", "# Note\n\nText.\n")]);
    let server = spawn_http(&vault.root(), None);
    run_script("close_check.mjs", &server.url, "OK session ended");
}

/// summarize_file, summarize_notes and web_search (against a fake Kagi) answer with a record
/// the SDK validates against their output schemas, beside a text with the same facts.
#[test]
fn typescript_client_reads_records_beside_the_text() {
    let kagi = FakeKagi::start();
    kagi.on_search_items(
        "rust",
        vec![
            result("https://www.rust-lang.org/", "Rust", Some("A language.")),
            result("https://doc.rust-lang.org/book/", "The Book", None),
        ],
    );
    kagi.on_search_items(
        "tokio",
        vec![result(
            "https://tokio.rs/",
            "Tokio",
            Some("An async runtime."),
        )],
    );
    let body = "Met the team about the launch. Dana will send the quote by Friday. The launch \
                moves to May because the vendor is late. Everyone agreed to review the plan.";
    let (note, other) = (
        format!("# Note\n\n{body}\n"),
        format!("# Other\n\n{body}\n"),
    );
    let vault = TempVault::with(&[("Note.md", note.as_str()), ("Other.md", other.as_str())]);
    let base_url = kagi.base_url();
    let server = spawn_http_with_env(
        &vault.root(),
        None,
        &[("KAGI_BASE_URL", &base_url), ("KAGI_API_KEY", TEST_KEY)],
    );
    run_script(
        "structured_check.mjs",
        &server.url,
        "OK records beside the text",
    );
}
