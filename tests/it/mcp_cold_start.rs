//! Cold start does not depend on the vault's size: `vaultsum mcp` answers `initialize` and
//! `tools/list` without waiting for the note index, which is built beside serving. The proof is
//! an order of events in the server's own log, not a timer: `answering tools/list` comes before
//! `vault indexed` (or the index is not built yet when the answer is in the test's hands).
//! Then a call that resolves a link gets the index, built once, with every note.

use std::path::Path;
use std::process::Stdio;

use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::json;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_vaultsum");
const INDEXED: &str = "vault indexed";
const ANSWERING: &str = "answering tools/list";

/// A vault of `notes` small notes in folders of 100, each embedding the next one.
fn many_notes(root: &Path, notes: usize) {
    std::fs::create_dir_all(root.join(".obsidian")).unwrap();
    for i in 0..notes {
        let folder = root.join(format!("Area {:03}", i / 100));
        std::fs::create_dir_all(&folder).unwrap();
        let text = format!(
            "# Note {i}\n\nThe pump ran hot after the filter change.\n\n![[Note {:05}]]\n",
            (i + 1) % notes
        );
        std::fs::write(folder.join(format!("Note {i:05}.md")), text).unwrap();
    }
}

#[tokio::test]
async fn tools_list_is_answered_before_the_vault_is_indexed() {
    let vault = tempfile::tempdir().unwrap();
    many_notes(vault.path(), 5_000);
    let logs = tempfile::NamedTempFile::new().unwrap();
    let command = Command::new(BIN).configure(|cmd| {
        cmd.arg("--vault")
            .arg(vault.path())
            .arg("mcp")
            .env("RUST_LOG", "debug")
            .env("VAULTSUM_ENGINE", "offline")
            .env_remove("VAULTSUM_CONFIG")
            .env_remove("FIREWORKS_API_KEY")
            .env_remove("KAGI_API_KEY");
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::from(logs.reopen().unwrap()))
        .spawn()
        .expect("spawn vaultsum mcp");
    let client = ().serve(transport).await.expect("handshake with the binary");
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 7);
    // Everything the server logged before its answer is in the file by now.
    let logged = std::fs::read_to_string(logs.path()).unwrap();
    let answering = logged
        .find(ANSWERING)
        .unwrap_or_else(|| panic!("no `{ANSWERING}` line:\n{logged}"));
    if let Some(indexed) = logged.find(INDEXED) {
        assert!(
            answering < indexed,
            "the vault was indexed before tools/list was answered:\n{logged}"
        );
    }

    // The first call that resolves a link builds the index, and the link resolves.
    let result = client
        .call_tool(
            CallToolRequestParams::new("read_file").with_arguments(
                json!({ "path": "Area 000/Note 00000.md" })
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
        )
        .await
        .unwrap();
    let text = &result.content[0].as_text().unwrap().text;
    assert_eq!(result.is_error, Some(false), "{text}");
    assert!(
        text.contains("[Embedded: Note 00001]\n> # Note 1"),
        "{text}"
    );
    let logged = std::fs::read_to_string(logs.path()).unwrap();
    let builds: Vec<&str> = logged.lines().filter(|l| l.contains(INDEXED)).collect();
    assert_eq!(builds.len(), 1, "built once:\n{logged}");
    assert!(builds[0].contains("5000"), "every file: {}", builds[0]);
    client.cancel().await.unwrap();
}
