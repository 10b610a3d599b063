//! `vaultsum config path`: where the config file is or would be, by the rule every command reads
//! it by, so a front end (the Obsidian plugin) never works it out again.

use serde_json::Value;

use crate::support::cli::{run_to_exit, vaultsum};

fn path_json(command: &mut assert_cmd::Command) -> Value {
    let output = run_to_exit(command.args(["config", "path", "--json"]));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    serde_json::from_slice(&output.stdout).expect("one JSON record")
}

#[test]
fn config_path_names_the_file_by_flag_then_environment() {
    let scratch = tempfile::tempdir().unwrap();
    let named = scratch.path().join("elsewhere.toml");
    let by_env = path_json(vaultsum(scratch.path()).env("VAULTSUM_CONFIG", &named));
    assert_eq!(by_env["path"], named.to_str().unwrap());
    assert_eq!(by_env["exists"], false);
    assert_eq!(by_env["named_by"], "environment");

    // A file that does not parse still has its place (the command loads nothing).
    std::fs::write(&named, "this is = = not toml").unwrap();
    let flag = scratch.path().join("flag.toml");
    let by_flag = path_json(
        vaultsum(scratch.path())
            .env("VAULTSUM_CONFIG", &named)
            .arg("--config")
            .arg(&flag),
    );
    assert_eq!(by_flag["path"], flag.to_str().unwrap());
    assert_eq!(by_flag["named_by"], "flag");
    let plain = run_to_exit(
        vaultsum(scratch.path())
            .env("VAULTSUM_CONFIG", &named)
            .args(["config", "path"]),
    );
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        format!("{}\n", named.display())
    );
}

#[cfg(target_os = "linux")]
#[test]
fn config_path_is_the_default_place_before_a_file_exists() {
    let scratch = tempfile::tempdir().unwrap();
    let expected = scratch
        .path()
        .join("config")
        .join("vaultsum")
        .join("config.toml");
    let before = path_json(&mut vaultsum(scratch.path()));
    assert_eq!(before["path"], expected.to_str().unwrap());
    assert_eq!(before["exists"], false);
    assert_eq!(before["named_by"], "default");
    std::fs::create_dir_all(expected.parent().unwrap()).unwrap();
    std::fs::write(&expected, "[summarize]\n").unwrap();
    assert_eq!(path_json(&mut vaultsum(scratch.path()))["exists"], true);
}
