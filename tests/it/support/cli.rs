//! The real `vaultsum` binary with a clean environment: no config file, no keys, no vault from
//! the developer's shell, and a throwaway cache folder.

use std::path::Path;

/// Every variable vaultsum reads, removed so the developer's shell cannot change a test.
const VARIABLES: [&str; 16] = [
    "VAULTSUM_VAULT",
    "VAULTSUM_CONFIG",
    "VAULTSUM_ENGINE",
    "VAULTSUM_CACHE_DIR",
    "VAULTSUM_STATE_DIR",
    "VAULTSUM_MCP_TOKEN",
    "FIREWORKS_API_KEY",
    "FIREWORKS_BASE_URL",
    "FIREWORKS_MODEL",
    "FIREWORKS_AUDIO_BASE_URL",
    "SUMMARIZE_MODEL",
    "VISION_MODEL",
    "WHISPER_MODEL",
    "KAGI_API_KEY",
    "KAGI_BASE_URL",
    "RUST_LOG",
];

/// `vaultsum` with a clean environment; `scratch` holds its cache (never a vault).
pub fn vaultsum(scratch: &Path) -> assert_cmd::Command {
    assert_cmd::Command::from_std(vaultsum_process(scratch))
}

/// [`vaultsum`] as a plain `std::process::Command`, for a process the test drives while it
/// runs (see [`super::running`]).
pub fn vaultsum_process(scratch: &Path) -> std::process::Command {
    vaultsum_process_at(Path::new(env!("CARGO_BIN_EXE_vaultsum")), scratch)
}

/// [`vaultsum_process`] for a copy of the binary at `binary` (e.g. one another user may run).
pub fn vaultsum_process_at(binary: &Path, scratch: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(binary);
    for name in VARIABLES {
        command.env_remove(name);
    }
    command
        .env("XDG_CONFIG_HOME", scratch.join("config"))
        .env("XDG_STATE_HOME", scratch.join("state"))
        .env("VAULTSUM_CACHE_DIR", scratch.join("cache"))
        .current_dir(scratch);
    command
}

/// How long a command that must not hang may take before the test fails (generous: a debug
/// binary on a loaded machine).
pub const MUST_FINISH_WITHIN: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `command` and returns its output, failing the test when it does not exit by itself
/// within [`MUST_FINISH_WITHIN`] (it is then killed, so a hang is a failure, never a stuck run).
pub fn run_to_exit(command: &mut assert_cmd::Command) -> std::process::Output {
    let output = command
        .timeout(MUST_FINISH_WITHIN)
        .output()
        .expect("vaultsum runs");
    assert!(
        output.status.code().is_some(),
        "vaultsum did not exit by itself within {MUST_FINISH_WITHIN:?} (killed: {:?}); stderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}
