//! `vaultsum doctor` as a person runs it: the real binary, a temp vault, and the fake LLM and
//! Kagi servers on 127.0.0.1. One line per check (`✓`, `!`, `✗`), the fix on every line that is
//! not ok, exit 1 only when something a command needs is missing, and never a key.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::cli::{run_to_exit, vaultsum};
use support::fake_kagi::{self, FakeKagi};
use support::fake_openai::{unused_local_url, FakeOpenAi, FakeReply, ECHO, TEST_API_KEY};
use support::temp_vault::TempVault;

/// The default summary model, which the fake lists.
const MODEL: &str = "accounts/fireworks/models/gpt-oss-120b";

/// `vaultsum --vault VAULT doctor` (no vault when `None`) with `env` added to a clean
/// environment; waits for it to exit by itself.
fn doctor(scratch: &Path, vault: Option<&Path>, env: &[(&str, String)]) -> Output {
    let mut command = vaultsum(scratch);
    if let Some(vault) = vault {
        command.arg("--vault").arg(vault);
    }
    command.arg("doctor");
    for (name, value) in env {
        command.env(name, value);
    }
    run_to_exit(&mut command)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The line of the check named `name` (the mark, one space, then the name).
fn line<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|line| {
            line.chars()
                .skip(2)
                .collect::<String>()
                .starts_with(&format!("{name} "))
        })
        .unwrap_or_else(|| panic!("no `{name}` line in:\n{text}"))
}

/// A fake LLM that knows the window of the default model the way Fireworks says it.
fn fake_llm() -> FakeOpenAi {
    let fake = FakeOpenAi::start();
    fake.on(
        "GET",
        &format!("/v1/{MODEL}"),
        None,
        FakeReply::json(
            200,
            serde_json::json!({"name": MODEL, "contextLength": 131072}),
        ),
    );
    fake
}

fn with_kagi(mut env: Vec<(&'static str, String)>, kagi: &FakeKagi) -> Vec<(&'static str, String)> {
    env.push(("KAGI_API_KEY", fake_kagi::TEST_KEY.to_string()));
    env.push(("KAGI_BASE_URL", kagi.base_url()));
    env
}

#[test]
fn all_good_setup_exits_0_with_every_line_ok() {
    let vault = TempVault::with(&[("Note.md", "# Note\n")]);
    let llm = fake_llm();
    let kagi = FakeKagi::start();
    let output = doctor(
        &vault.outside(),
        Some(&vault.root()),
        &with_kagi(llm.env(), &kagi),
    );
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let checks: Vec<&str> = text.lines().filter(|l| !l.starts_with("ready")).collect();
    for name in [
        "config",
        "vault",
        "vault writable",
        "summarize_file, read_file",
        "summarize, web_search",
        "LLM endpoint",
        "LLM model",
        "context window",
        "Kagi",
        "watch state",
    ] {
        assert!(line(&text, name).starts_with('✓'), "{name}:\n{text}");
    }
    assert!(checks.iter().all(|l| l.starts_with('✓')), "{text}");
    let root = vault.root().canonicalize().unwrap().display().to_string();
    // Shown as people type it: without Windows' `\\?\` verbatim prefix.
    let root = root.strip_prefix(r"\\?\").unwrap_or(&root);
    assert!(line(&text, "vault").contains(root), "{text}");
    assert!(line(&text, "LLM model").contains(MODEL));
    assert!(line(&text, "context window").contains("131072 tokens"));
    assert!(text.lines().last().unwrap().starts_with("ready"), "{text}");
    // The Kagi check spends nothing: one GET of the summarizer without a URL, no search.
    let asked = kagi.requests();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].method, "GET");
    assert_eq!(asked[0].path, "/api/v0/summarize");
    assert_eq!(asked[0].url.query(), None);
    // The probe file is gone.
    assert!(
        vault.entries().iter().all(|e| !e.contains(".vaultsum-")),
        "{:?}",
        vault.entries()
    );
}

#[test]
fn missing_vault_exits_1_with_the_fix() {
    let scratch = tempfile::tempdir().unwrap();
    let output = doctor(scratch.path(), None, &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let vault = line(&text, "vault");
    assert!(vault.starts_with('✗'), "{text}");
    assert!(vault.contains("fix: pass --vault DIR"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("not ready"),
        "{text}"
    );
}

#[test]
fn a_vault_that_does_not_exist_is_missing() {
    let vault = TempVault::new();
    let gone = vault.root().join("nowhere");
    let output = doctor(&vault.outside(), Some(&gone), &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(line(&text, "vault").starts_with('✗'), "{text}");
    assert!(line(&text, "vault").contains("nowhere"), "{text}");
}

#[test]
fn model_not_listed_is_missing_and_names_the_near_match() {
    let vault = TempVault::new();
    let llm = fake_llm();
    let mut env = llm.env();
    env.push((
        "FIREWORKS_MODEL",
        "accounts/fireworks/models/gpt-oss-12b".into(),
    ));
    let output = doctor(&vault.outside(), Some(&vault.root()), &env);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let model = line(&text, "LLM model");
    assert!(model.starts_with('✗'), "{text}");
    assert!(model.contains("gpt-oss-12b is not among"), "{text}");
    assert!(model.contains(&format!("near: {MODEL}")), "{text}");
    assert!(model.contains("fix: set FIREWORKS_MODEL"), "{text}");
    assert!(line(&text, "LLM endpoint").starts_with('✓'), "{text}");
}

#[test]
fn unreachable_endpoints_are_missing_and_the_doctor_still_finishes() {
    let vault = TempVault::new();
    let env = vec![
        ("FIREWORKS_API_KEY", TEST_API_KEY.to_string()),
        ("FIREWORKS_BASE_URL", unused_local_url()),
        ("KAGI_API_KEY", fake_kagi::TEST_KEY.to_string()),
        ("KAGI_BASE_URL", fake_kagi::closed_base_url()),
    ];
    let output = doctor(&vault.outside(), Some(&vault.root()), &env);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let endpoint = line(&text, "LLM endpoint");
    assert!(endpoint.starts_with('✗'), "{text}");
    assert!(endpoint.contains("fix: check FIREWORKS_BASE_URL"), "{text}");
    let kagi = line(&text, "Kagi");
    assert!(
        kagi.starts_with('✗') && kagi.contains("cannot reach"),
        "{text}"
    );
    assert!(line(&text, "context window").starts_with('!'), "{text}");
}

#[test]
fn no_llm_key_is_an_offline_warning_and_exit_0() {
    let vault = TempVault::new();
    let output = doctor(&vault.outside(), Some(&vault.root()), &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let engine = line(&text, "summarize_file, read_file");
    assert!(engine.starts_with('!'), "{text}");
    assert!(engine.contains("offline engine"), "{text}");
    assert!(engine.contains("fix: export FIREWORKS_API_KEY="), "{text}");
    assert!(
        line(&text, "summarize, web_search").starts_with('!'),
        "{text}"
    );
    // Nothing to reach without keys.
    assert!(
        !text.contains("LLM endpoint") && !text.contains("✓ Kagi"),
        "{text}"
    );
}

#[test]
fn rejected_keys_are_missing_and_never_shown() {
    let vault = TempVault::new();
    let llm = FakeOpenAi::start();
    // Servers that quote the request's Authorization header back, as some proxies do.
    llm.on(
        "GET",
        "/v1/models",
        None,
        FakeReply::error(
            401,
            &format!("{{\"error\":{{\"message\":\"bad key {ECHO}\"}}}}"),
        )
        .echoing("authorization"),
    );
    let kagi = FakeKagi::start();
    kagi.on(
        "GET",
        "/api/v0/summarize",
        None,
        FakeReply::error(401, &format!("unauthorized: {ECHO}")).echoing("authorization"),
    );
    let output = doctor(
        &vault.outside(),
        Some(&vault.root()),
        &with_kagi(llm.env(), &kagi),
    );
    let text = stdout(&output);
    let all = format!("{text}{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        line(&text, "LLM endpoint").contains("key rejected (HTTP 401)"),
        "{text}"
    );
    assert!(
        line(&text, "Kagi").contains("key rejected (HTTP 401)"),
        "{text}"
    );
    assert!(!all.contains(TEST_API_KEY), "LLM key in the output:\n{all}");
    assert!(
        !all.contains(fake_kagi::TEST_KEY),
        "Kagi key in the output:\n{all}"
    );
    // The keys did go to the servers.
    assert!(llm
        .requests()
        .iter()
        .any(|r| r.header("authorization") == Some(&format!("Bearer {TEST_API_KEY}"))));
}

#[test]
fn a_server_error_quoting_the_key_is_shown_redacted() {
    let vault = TempVault::new();
    let llm = FakeOpenAi::start();
    llm.on(
        "GET",
        "/v1/models",
        None,
        FakeReply::error(
            500,
            &format!("{{\"error\":{{\"message\":\"upstream saw {ECHO}\"}}}}"),
        )
        .echoing("authorization"),
    );
    let output = doctor(&vault.outside(), Some(&vault.root()), &llm.env());
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let endpoint = line(&text, "LLM endpoint");
    assert!(endpoint.contains("HTTP 500: upstream saw"), "{text}");
    assert!(!text.contains(TEST_API_KEY), "{text}");
    assert!(!String::from_utf8_lossy(&output.stderr).contains(TEST_API_KEY));
}

#[test]
fn a_broken_config_file_is_a_missing_line_not_a_crash() {
    let vault = TempVault::new();
    let config = vault.outside().join("config.toml");
    std::fs::write(&config, "vault = \"/x\"\nno_such_key = 1\n").unwrap();
    let output = run_to_exit(
        vaultsum(&vault.outside())
            .arg("--config")
            .arg(&config)
            .arg("--vault")
            .arg(vault.root())
            .arg("doctor"),
    );
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let line = line(&text, "config");
    assert!(line.starts_with('✗'), "{text}");
    assert!(line.contains(&config.display().to_string()), "{text}");
    assert!(line.contains("no_such_key"), "{text}");
    // The other checks still ran.
    assert!(text.contains("✓ vault "), "{text}");
}

/// The environment that puts every per-user client file under `home`, on any platform.
fn home_env(home: &Path) -> Vec<(&'static str, String)> {
    let at = |path: PathBuf| path.display().to_string();
    vec![
        ("HOME", at(home.to_path_buf())),
        ("USERPROFILE", at(home.to_path_buf())),
        ("APPDATA", at(home.join("AppData"))),
        ("LOCALAPPDATA", at(home.join("LocalAppData"))),
        ("XDG_CONFIG_HOME", at(home.join(".config"))),
    ]
}

/// Where Claude Desktop's regular install keeps its file under `home` (see `home_env`).
fn claude_desktop_file(home: &Path) -> PathBuf {
    let folder = if cfg!(windows) {
        home.join("AppData").join("Claude")
    } else if cfg!(target_os = "macos") {
        home.join("Library")
            .join("Application Support")
            .join("Claude")
    } else {
        home.join(".config").join("Claude")
    };
    folder.join("claude_desktop_config.json")
}

#[test]
fn the_claude_desktop_line_says_where_its_file_is_and_whether_vaultsum_is_in_it() {
    let vault = TempVault::with(&[("Note.md", "# Note\n")]);
    let home = vault.outside().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let env = home_env(&home);
    let claude_line = || {
        let output = doctor(&vault.outside(), Some(&vault.root()), &env);
        line(&stdout(&output), "Claude Desktop").to_string()
    };
    let file = claude_desktop_file(&home);
    let folder = file.parent().unwrap().display().to_string();

    let absent = claude_line();
    assert!(absent.starts_with('✓'), "not having it is fine: {absent}");
    assert!(
        absent.contains("not found") && absent.contains(&folder),
        "{absent}"
    );

    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, r#"{"mcpServers": {"other": {"command": "x"}}}"#).unwrap();
    let without = claude_line();
    assert!(without.contains("has no vaultsum entry"), "{without}");
    assert!(
        without.contains("mcp config claude-desktop --write"),
        "{without}"
    );

    let mut write = vaultsum(&vault.outside());
    for (name, value) in &env {
        write.env(name, value);
    }
    write
        .arg("--vault")
        .arg(vault.root())
        .args(["mcp", "config", "claude-desktop", "--write"]);
    assert_eq!(run_to_exit(&mut write).status.code(), Some(0));
    let set_up = claude_line();
    assert!(set_up.starts_with('✓'), "{set_up}");
    assert!(
        set_up.contains(&format!("vaultsum is set up in {}", file.display())),
        "{set_up}"
    );
    if cfg!(windows) {
        assert!(set_up.contains("(regular install)"), "{set_up}");
    }

    std::fs::write(&file, "{\"mcpServers\": {,}").unwrap();
    let broken = claude_line();
    assert!(broken.starts_with('!'), "{broken}");
    assert!(broken.contains("not valid JSON"), "{broken}");
}
