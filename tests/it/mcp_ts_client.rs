//! A real MCP client from outside the crate in another language: the official TypeScript SDK
//! (tests/mcp/ts-client/, installed by `scripts/node-env.sh`, which `scripts/test.sh` runs)
//! against the built binary over HTTP: it connects, lists the tools and ends its session the
//! way the SDK does, which must be taken as success and must close the session.

use crate::support;

use std::path::PathBuf;
use std::process::Command;

use support::mcp_http_child::spawn_http;
use support::temp_vault::TempVault;

fn client_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/ts-client")
}

#[test]
fn typescript_client_ends_an_http_session_cleanly() {
    let dir = client_dir();
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").is_dir(),
        "the TypeScript MCP client is not installed: run `bash scripts/node-env.sh` (needs \
         Node.js 18+ and npm; `scripts/test.sh` runs it)"
    );
    let vault = TempVault::with(&[("Note.md", "# Note\n\nText.\n")]);
    let server = spawn_http(&vault.root(), None);
    let output = Command::new("node")
        .arg(dir.join("close_check.mjs"))
        .arg(&server.url)
        .current_dir(&dir)
        .output()
        .expect("run node (Node.js 18+ must be on PATH)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("OK session ended"),
        "TypeScript MCP client failed:\n{stdout}\n{stderr}"
    );
}
