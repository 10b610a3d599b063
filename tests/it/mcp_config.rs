//! `vaultsum mcp config CLIENT` as a person runs it: the real binary with HOME, APPDATA and
//! XDG_CONFIG_HOME in a temp folder. The entry runs the binary by its absolute path with the
//! vault's absolute path; `--write` merges into the client's file keeping everything else, with
//! a backup; files it cannot parse are left untouched; keys go in only with `--with-keys`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};
use support::cli::{run_to_exit, vaultsum};
use support::temp_vault::TempVault;

const CLIENTS: [&str; 8] = [
    "claude-desktop",
    "claude-code",
    "cursor",
    "vscode",
    "windsurf",
    "gemini-cli",
    "codex",
    "zed",
];

const FIREWORKS_KEY: &str = "fw-SECRET-doctor-4f1e2d";
const KAGI_KEY: &str = "kagi-SECRET-setup-9a8b7c";

/// A vault and a home folder beside it.
struct Setup {
    vault: TempVault,
}

impl Setup {
    fn new() -> Setup {
        let vault = TempVault::new();
        std::fs::create_dir_all(vault.root().join(".obsidian")).unwrap();
        std::fs::create_dir_all(vault.outside().join("home")).unwrap();
        Setup { vault }
    }

    fn home(&self) -> PathBuf {
        self.vault.outside().join("home")
    }

    /// `vaultsum --vault VAULT mcp config ARGS…` with the home folders redirected and no key
    /// in the environment unless `keys`.
    fn run(&self, args: &[&str], keys: bool) -> Output {
        let mut command = vaultsum(&self.vault.outside());
        command
            .env("HOME", self.home())
            .env("USERPROFILE", self.home())
            .env("APPDATA", self.home().join("AppData"))
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env_remove("CODEX_HOME")
            .arg("--vault")
            .arg(self.vault.root())
            .args(["mcp", "config"])
            .args(args);
        if keys {
            command
                .env("FIREWORKS_API_KEY", FIREWORKS_KEY)
                .env("KAGI_API_KEY", KAGI_KEY);
        }
        run_to_exit(&mut command)
    }

    /// Where each client keeps its servers by default, on this platform.
    fn client_file(&self, client: &str) -> PathBuf {
        let home = self.home();
        let vault = self.vault.root().canonicalize().unwrap();
        let windows = cfg!(windows);
        let macos = cfg!(target_os = "macos");
        match client {
            "claude-desktop" if windows => home
                .join("AppData")
                .join("Claude")
                .join("claude_desktop_config.json"),
            "claude-desktop" if macos => home
                .join("Library")
                .join("Application Support")
                .join("Claude")
                .join("claude_desktop_config.json"),
            "claude-desktop" => home
                .join(".config")
                .join("Claude")
                .join("claude_desktop_config.json"),
            "claude-code" => vault.join(".mcp.json"),
            "cursor" => home.join(".cursor").join("mcp.json"),
            "vscode" => vault.join(".vscode").join("mcp.json"),
            "windsurf" => home
                .join(".codeium")
                .join("windsurf")
                .join("mcp_config.json"),
            "gemini-cli" => home.join(".gemini").join("settings.json"),
            "codex" => home.join(".codex").join("config.toml"),
            "zed" if windows => home.join("AppData").join("Zed").join("settings.json"),
            "zed" => home.join(".config").join("zed").join("settings.json"),
            other => panic!("unknown client {other}"),
        }
    }
}

fn binary() -> String {
    Path::new(env!("CARGO_BIN_EXE_vaultsum"))
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `vaultsum` entry of a client's file, as JSON whatever the format.
fn entry_of(client: &str, contents: &str) -> Value {
    if client == "codex" {
        let document: toml_edit::DocumentMut = contents.parse().expect("valid TOML");
        let server = &document["mcp_servers"]["vaultsum"];
        let args: Vec<&str> = server["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let env: serde_json::Map<String, Value> = server["env"]
            .as_table_like()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v.as_str().unwrap())))
            .collect();
        return json!({"command": server["command"].as_str().unwrap(), "args": args, "env": env});
    }
    let document: Value = serde_json::from_str(contents).expect("valid JSON");
    let key = match client {
        "vscode" => "servers",
        "zed" => "context_servers",
        _ => "mcpServers",
    };
    document[key]["vaultsum"].clone()
}

#[test]
fn print_for_every_client_runs_the_binary_by_absolute_path_on_the_vault() {
    let setup = Setup::new();
    let vault = setup.vault.root().canonicalize().unwrap();
    for client in CLIENTS {
        let output = setup.run(&[client], false);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{client}: {}",
            text(&output.stderr)
        );
        let entry = entry_of(client, &text(&output.stdout));
        assert_eq!(entry["command"], json!(binary()), "{client}");
        assert_eq!(entry["args"], json!(["mcp"]), "{client}");
        assert_eq!(
            entry["env"],
            json!({"VAULTSUM_VAULT": vault.display().to_string()}),
            "{client}"
        );
        if matches!(client, "claude-code" | "vscode") {
            assert_eq!(entry["type"], json!("stdio"), "{client}");
        }
        let stderr = text(&output.stderr);
        let file = setup.client_file(client);
        assert!(
            stderr.contains(&file.display().to_string()),
            "{client}: stderr does not name {}: {stderr}",
            file.display()
        );
        assert!(
            stderr.contains("--with-keys"),
            "{client}: no key hint: {stderr}"
        );
        assert!(
            !file.exists(),
            "{client}: printing wrote {}",
            file.display()
        );
    }
    let claude = setup.run(&["claude-desktop"], false);
    assert!(text(&claude.stderr).contains(".mcpb"));
}

#[test]
fn write_into_an_existing_config_keeps_everything_else_and_backs_it_up() {
    let setup = Setup::new();
    let file = setup.client_file("claude-desktop");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = json!({
        "globalShortcut": "Ctrl+Space",
        "mcpServers": {
            "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
            "github": {"command": "docker", "args": ["run", "ghcr.io/github/github-mcp-server"], "env": {"GITHUB_TOKEN": "ghp_x"}}
        },
        "preferences": {"zeta": 1, "alpha": [true, null, 2.5]}
    });
    let original_bytes = serde_json::to_vec_pretty(&original).unwrap();
    std::fs::write(&file, &original_bytes).unwrap();

    let output = setup.run(&["claude-desktop", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let backup = PathBuf::from(format!("{}.bak", file.display()));
    assert!(text(&output.stdout).contains(&backup.display().to_string()));
    assert_eq!(
        std::fs::read(&backup).unwrap(),
        original_bytes,
        "backup is the original"
    );

    let written: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(&written),
        keys(&original),
        "top-level keys and their order"
    );
    assert_eq!(written["globalShortcut"], original["globalShortcut"]);
    assert_eq!(written["preferences"], original["preferences"]);
    assert_eq!(keys(&written["preferences"]), vec!["zeta", "alpha"]);
    assert_eq!(
        keys(&written["mcpServers"]),
        vec!["filesystem", "github", "vaultsum"]
    );
    for other in ["filesystem", "github"] {
        assert_eq!(written["mcpServers"][other], original["mcpServers"][other]);
    }
    assert_eq!(
        written["mcpServers"]["vaultsum"]["command"],
        json!(binary())
    );
}

/// A plain JSON file as a person wrote it: four spaces, objects and arrays on one line.
const CLAUDE_AS_WRITTEN: &str = "{
    \"globalShortcut\": \"Ctrl+Space\",
    \"mcpServers\": {
        \"filesystem\": { \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/tmp\"] }
    },
    \"preferences\": { \"zeta\": 1, \"alpha\": [true, null, 2.5] }
}
";

#[test]
fn a_plain_json_file_keeps_its_formatting_outside_the_entry_and_stays_strict_json() {
    let setup = Setup::new();
    let file = setup.client_file("claude-desktop");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, CLAUDE_AS_WRITTEN).unwrap();
    let output = setup.run(&["claude-desktop", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    // Byte for byte up to the last server before ours, and from the end of the servers on.
    let (before, after) = CLAUDE_AS_WRITTEN.split_at(CLAUDE_AS_WRITTEN.find("\n    },").unwrap());
    assert!(written.starts_with(before), "{written}");
    assert!(written.ends_with(after), "{written}");
    // Claude Desktop reads strict JSON: no comment, no trailing comma.
    let read: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(read["mcpServers"]["vaultsum"]["command"], json!(binary()));
    assert_eq!(read["mcpServers"].as_object().unwrap().len(), 2);
    // A second write replaces the entry in place and changes nothing else.
    assert_eq!(
        setup
            .run(&["claude-desktop", "--write"], false)
            .status
            .code(),
        Some(0)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
}

#[test]
fn a_second_write_is_idempotent() {
    let setup = Setup::new();
    let file = setup.client_file("cursor");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "{\"mcpServers\": {\"other\": {\"command\": \"x\"}}}").unwrap();
    assert_eq!(
        setup.run(&["cursor", "--write"], false).status.code(),
        Some(0)
    );
    let first = std::fs::read_to_string(&file).unwrap();
    let again = setup.run(&["cursor", "--write"], false);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("replaced"));
    let second = std::fs::read_to_string(&file).unwrap();
    assert_eq!(second, first);
    assert_eq!(second.matches("\"vaultsum\"").count(), 1, "{second}");
    let servers: Value = serde_json::from_str(&second).unwrap();
    assert_eq!(servers["mcpServers"].as_object().unwrap().len(), 2);
    // The backup is what the file held just before this write.
    let backup = PathBuf::from(format!("{}.bak", file.display()));
    assert_eq!(std::fs::read_to_string(backup).unwrap(), first);
}

#[test]
fn a_new_file_is_created_with_its_folders_and_no_backup() {
    let setup = Setup::new();
    let file = setup.client_file("vscode");
    assert!(!file.parent().unwrap().exists());
    let output = setup.run(&["vscode", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(written["servers"]["vaultsum"]["type"], json!("stdio"));
    assert!(!PathBuf::from(format!("{}.bak", file.display())).exists());
    // No temporary file left beside it.
    let names: Vec<String> = std::fs::read_dir(file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["mcp.json"]);
}

#[test]
fn codex_toml_keeps_its_comments_and_other_servers() {
    let setup = Setup::new();
    let file = setup.client_file("codex");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = "# my Codex settings\nmodel = \"o3\" # the default model\n\n[mcp_servers.docs]\n# docs server, keep\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\n\n[profiles.fast]\nmodel = \"o4-mini\"\n";
    std::fs::write(&file, original).unwrap();
    let output = setup.run(&["codex", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    for kept in [
        "# my Codex settings",
        "model = \"o3\" # the default model",
        "# docs server, keep",
        "[profiles.fast]",
    ] {
        assert!(written.contains(kept), "lost {kept:?}:\n{written}");
    }
    let document: toml_edit::DocumentMut = written.parse().unwrap();
    assert_eq!(
        document["mcp_servers"]["docs"]["command"].as_str(),
        Some("npx")
    );
    assert_eq!(
        document["profiles"]["fast"]["model"].as_str(),
        Some("o4-mini")
    );
    let entry = entry_of("codex", &written);
    assert_eq!(entry["command"], json!(binary()));
    assert_eq!(entry["args"], json!(["mcp"]));
    // Idempotent, like the JSON clients.
    assert_eq!(
        setup.run(&["codex", "--write"], false).status.code(),
        Some(0)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
}

/// Zed's default settings.json as Zed creates it: comments first, then the settings.
const ZED_DEFAULT: &str = "// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
//
// To see all of Zed's default settings without changing your
// custom settings, run `zed: open default settings` from the
// command palette (cmd-shift-p / ctrl-shift-p)
{
  \"ui_font_size\": 16,
  \"buffer_font_size\": 15,
  \"theme\": {
    \"mode\": \"system\",
    \"light\": \"One Light\",
    \"dark\": \"One Dark\" // my theme
  },
}
";

#[test]
fn zed_settings_with_comments_get_the_entry_and_keep_every_other_byte() {
    let setup = Setup::new();
    let file = setup.client_file("zed");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, ZED_DEFAULT).unwrap();
    let output = setup.run(&["zed", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    // Everything before the last closing brace is kept byte for byte; the entry is added
    // after the last setting, in the file's own style (its trailing comma too).
    let kept = ZED_DEFAULT.trim_end().strip_suffix('}').unwrap();
    assert!(written.starts_with(kept), "{written}");
    assert!(written.contains("\"context_servers\": {"), "{written}");
    assert!(written.contains("\"vaultsum\": {"), "{written}");
    assert!(written.trim_end().ends_with('}'), "{written}");
    // The backup is the file as it was, and a second run changes nothing.
    assert_eq!(
        std::fs::read_to_string(format!("{}.bak", file.display())).unwrap(),
        ZED_DEFAULT
    );
    assert_eq!(setup.run(&["zed", "--write"], false).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
}

#[test]
fn a_vscode_mcp_json_with_comments_keeps_them_and_its_other_servers() {
    let setup = Setup::new();
    let file = setup.client_file("vscode");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = "{\n  // servers for this workspace\n  \"servers\": {\n    \"github\": { \"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\" }, /* kept */\n  },\n}\n";
    std::fs::write(&file, original).unwrap();
    let output = setup.run(&["vscode", "--write"], false);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    for kept in [
        "{\n  // servers for this workspace\n  \"servers\": {\n",
        "    \"github\": { \"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\" }, /* kept */\n",
    ] {
        assert!(written.contains(kept), "{kept:?} lost: {written}");
    }
    assert!(written.contains("\"vaultsum\": {"), "{written}");
    assert!(written.contains("\"type\": \"stdio\""), "{written}");
}

#[test]
fn a_commented_file_that_is_not_even_jsonc_is_refused_and_left_unchanged() {
    let setup = Setup::new();
    let file = setup.client_file("zed");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = "// Zed settings\n{\n  \"theme\": \"One Dark\",,\n";
    std::fs::write(&file, original).unwrap();
    let output = setup.run(&["zed", "--write"], false);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("untouched"), "{stderr}");
    assert!(stderr.contains("by hand"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert!(!PathBuf::from(format!("{}.bak", file.display())).exists());
}

#[test]
fn malformed_json_is_refused_and_left_unchanged() {
    let setup = Setup::new();
    let file = setup.client_file("gemini-cli");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let original = "{\"mcpServers\": {\"a\": ";
    std::fs::write(&file, original).unwrap();
    let output = setup.run(&["gemini-cli", "--write"], false);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("not valid JSON"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert!(!PathBuf::from(format!("{}.bak", file.display())).exists());
}

#[test]
fn keys_are_written_only_with_with_keys_and_never_printed_by_a_write() {
    let setup = Setup::new();
    let file = setup.client_file("windsurf");
    let without = setup.run(&["windsurf", "--write"], true);
    assert_eq!(without.status.code(), Some(0), "{}", text(&without.stderr));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        !written.contains(FIREWORKS_KEY) && !written.contains(KAGI_KEY),
        "{written}"
    );
    assert!(!written.contains("FIREWORKS_API_KEY"), "{written}");

    let with = setup.run(&["windsurf", "--write", "--with-keys"], true);
    assert_eq!(with.status.code(), Some(0), "{}", text(&with.stderr));
    let entry = entry_of("windsurf", &std::fs::read_to_string(&file).unwrap());
    assert_eq!(entry["env"]["FIREWORKS_API_KEY"], json!(FIREWORKS_KEY));
    assert_eq!(entry["env"]["KAGI_API_KEY"], json!(KAGI_KEY));
    for output in [&without, &with] {
        let all = format!("{}{}", text(&output.stdout), text(&output.stderr));
        assert!(
            !all.contains(FIREWORKS_KEY) && !all.contains(KAGI_KEY),
            "{all}"
        );
    }
    // The backup of the keyless file holds no key either.
    let backup = std::fs::read_to_string(format!("{}.bak", file.display())).unwrap();
    assert!(!backup.contains(FIREWORKS_KEY));

    // Printing without --with-keys shows no key; with it, the entry (and only it) has them.
    let printed = setup.run(&["windsurf"], true);
    let all = format!("{}{}", text(&printed.stdout), text(&printed.stderr));
    assert!(
        !all.contains(FIREWORKS_KEY) && !all.contains(KAGI_KEY),
        "{all}"
    );
    let printed = setup.run(&["windsurf", "--with-keys"], true);
    assert!(!text(&printed.stderr).contains(FIREWORKS_KEY));
    let entry = entry_of("windsurf", &text(&printed.stdout));
    assert_eq!(entry["env"]["FIREWORKS_API_KEY"], json!(FIREWORKS_KEY));
}

#[test]
fn file_flag_overrides_where_the_entry_goes() {
    let setup = Setup::new();
    let file = setup.vault.outside().join("elsewhere").join("custom.json");
    let output = setup.run(
        &["cursor", "--write", "--file", file.to_str().unwrap()],
        false,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let entry = entry_of("cursor", &std::fs::read_to_string(&file).unwrap());
    assert_eq!(entry["command"], json!(binary()));
    assert!(!setup.client_file("cursor").exists());
}

#[test]
fn unknown_client_exits_2_listing_the_clients() {
    let setup = Setup::new();
    let output = setup.run(&["notepad"], false);
    assert_eq!(output.status.code(), Some(2));
    let stderr = text(&output.stderr);
    for client in CLIENTS {
        assert!(stderr.contains(client), "{client} not listed: {stderr}");
    }
}

#[test]
fn no_vault_exits_2_with_how_to_give_one() {
    let scratch = tempfile::tempdir().unwrap();
    let output = run_to_exit(
        vaultsum(scratch.path())
            .env("HOME", scratch.path())
            .args(["mcp", "config", "cursor"]),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("--vault"),
        "{}",
        text(&output.stderr)
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn read_only_and_tools_are_passed_to_the_server_entry() {
    let setup = Setup::new();
    for client in CLIENTS {
        let output = setup.run(
            &[
                client,
                "--read-only",
                "--tools",
                "read_file,summarize_notes",
            ],
            false,
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{client}: {}",
            text(&output.stderr)
        );
        let entry = entry_of(client, &text(&output.stdout));
        assert_eq!(
            entry["args"],
            json!(["mcp", "--read-only", "--tools", "read_file,summarize_notes"]),
            "{client}"
        );
    }
}
