//! The real `vaultsum watch` binary against a [`WatchVault`] and the fake OpenAI server: the
//! command (a clean environment, the vault's state folder, an optional config file) and what
//! it saved. Run it with [`super::running::Running`] to wait for its log lines as events.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::cli::vaultsum_process;
use super::fake_openai::FakeOpenAi;
use super::running::{Exited, Running};
use super::watcher::WatchVault;

/// `vaultsum --vault VAULT watch ARGS` with nothing from the developer's shell: the state in
/// the vault's state folder, no config file (see [`with_config`]), the LLM at `server`.
pub fn watch_command(vault: &WatchVault, server: &FakeOpenAi, args: &[&str]) -> Command {
    let mut command = vaultsum_process(vault.state_dir());
    command
        .arg("--vault")
        .arg(vault.root())
        .arg("watch")
        .args(args)
        .env("VAULTSUM_STATE_DIR", vault.state_dir())
        .env("VAULTSUM_CONFIG", "")
        .envs(server.env());
    command
}

/// Writes `toml` as the config file of `command` (kept beside the state, outside the vault).
pub fn with_config(command: &mut Command, vault: &WatchVault, toml: &str) {
    let path = vault.state_dir().join("config.toml");
    std::fs::write(&path, toml).unwrap();
    command.env("VAULTSUM_CONFIG", path);
}

/// Runs `command` to its end (`--once`), failing the test if it hangs.
pub fn run_once(command: &mut Command) -> Exited {
    Running::spawn(command).wait()
}

/// The watch state of the vault, as saved (`Null` when there is none).
pub fn saved_state(vault: &WatchVault) -> Value {
    let dir = vault.state_dir().join("watch");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Value::Null;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "json") {
            return serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        }
    }
    Value::Null
}

/// The status (`new`, `summarized`, `old`) the saved state gives the note, if it has it.
pub fn saved_status(vault: &WatchVault, rel: &str) -> Option<String> {
    saved_state(vault)["notes"][rel]["status"]
        .as_str()
        .map(str::to_string)
}

/// The notes waiting for the hourly limit in the saved state, longest waiting first.
pub fn saved_waiting(vault: &WatchVault) -> Vec<String> {
    let state = saved_state(vault);
    let mut waiting: Vec<(i128, String)> = state["waiting"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(rel, since)| (since.as_i64().map_or(0, i128::from), rel.clone()))
        .collect();
    waiting.sort();
    waiting.into_iter().map(|(_, rel)| rel).collect()
}

/// Files left in the vault's top folder besides `keep` and `.obsidian` (temporary files of an
/// interrupted write would show up here).
pub fn leftovers(root: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(root)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != ".obsidian" && !keep.contains(&name.as_str()))
        .collect()
}
