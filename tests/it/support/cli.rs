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
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("vaultsum");
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
