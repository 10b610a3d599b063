//! The MCP clients `vaultsum mcp config` knows: where each keeps its MCP servers and in what
//! shape. Checked against each client's documentation (see docs-setup.md for the table).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

/// A client whose configuration `vaultsum mcp config` can print or write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Client {
    /// Claude Desktop (claude_desktop_config.json).
    ClaudeDesktop,
    /// Claude Code, project scope (.mcp.json at the vault root).
    ClaudeCode,
    /// Cursor (~/.cursor/mcp.json).
    Cursor,
    /// VS Code (.vscode/mcp.json in the vault folder).
    Vscode,
    /// Windsurf (~/.codeium/windsurf/mcp_config.json).
    Windsurf,
    /// Gemini CLI (~/.gemini/settings.json).
    GeminiCli,
    /// OpenAI Codex CLI (~/.codex/config.toml).
    Codex,
    /// Zed (settings.json, `context_servers`).
    Zed,
}

/// How a client's file holds its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A JSON object with the servers under `servers_key`; `typed` entries start with
    /// `"type": "stdio"`; `comments` when the client reads JSON with comments (which a JSON
    /// parser refuses, so such a file is never rewritten).
    Json {
        servers_key: &'static str,
        typed: bool,
        comments: bool,
    },
    /// Codex's TOML: `[mcp_servers.vaultsum]` and `[mcp_servers.vaultsum.env]`.
    CodexToml,
}

/// The name of our entry in every client's file.
pub const SERVER_NAME: &str = "vaultsum";

/// What the client runs: the binary by its absolute path, its arguments, its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub command: String,
    pub args: Vec<String>,
    /// In order: `VAULTSUM_VAULT` first, then any keys copied with `--with-keys`.
    pub env: Vec<(String, String)>,
}

impl Entry {
    /// The entry as a JSON object, keys in the order clients document them.
    pub fn to_json(&self, typed: bool) -> Value {
        let mut entry = Map::new();
        if typed {
            entry.insert("type".into(), json!("stdio"));
        }
        entry.insert("command".into(), json!(self.command));
        entry.insert("args".into(), json!(self.args));
        let env: Map<String, Value> = self
            .env
            .iter()
            .map(|(name, value)| (name.clone(), json!(value)))
            .collect();
        entry.insert("env".into(), Value::Object(env));
        Value::Object(entry)
    }
}

/// The folders client files are placed in, from the environment (so tests can move them).
#[derive(Debug, Clone, Default)]
pub struct Places {
    /// `HOME` (`USERPROFILE` on Windows), else the platform's home folder.
    pub home: Option<PathBuf>,
    /// `%APPDATA%` (Windows).
    pub appdata: Option<PathBuf>,
    /// `%LOCALAPPDATA%` (Windows), where Microsoft Store apps keep their files.
    pub local_appdata: Option<PathBuf>,
    /// `XDG_CONFIG_HOME` (Linux), when set to an absolute path.
    pub xdg_config_home: Option<PathBuf>,
    /// `CODEX_HOME`, which moves Codex's folder.
    pub codex_home: Option<PathBuf>,
}

impl Places {
    /// Reads the variables of this process.
    pub fn from_env() -> Places {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Places {
            home: var("HOME")
                .or_else(|| var("USERPROFILE"))
                .or_else(dirs::home_dir),
            appdata: var("APPDATA"),
            local_appdata: var("LOCALAPPDATA"),
            xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
            codex_home: var("CODEX_HOME"),
        }
    }

    fn home(&self) -> Result<&Path, MissingHome> {
        self.home.as_deref().ok_or(MissingHome("HOME"))
    }

    fn appdata(&self) -> Result<&Path, MissingHome> {
        self.appdata.as_deref().ok_or(MissingHome("APPDATA"))
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    fn config_home(&self) -> Result<PathBuf, MissingHome> {
        match &self.xdg_config_home {
            Some(dir) => Ok(dir.clone()),
            None => Ok(self.home()?.join(".config")),
        }
    }
}

/// The Microsoft Store (MSIX) package of Claude Desktop.
const CLAUDE_MSIX_PACKAGE: &str = "Claude_pzs8sxrjxfjjc";

/// The kind of Claude Desktop install on Windows that reads `file`, told by its folder.
fn install_named_by(file: &Path) -> &'static str {
    if file
        .components()
        .any(|part| part.as_os_str() == CLAUDE_MSIX_PACKAGE)
    {
        "Microsoft Store install"
    } else {
        "regular install"
    }
}

/// Claude Desktop's folder on Windows. The regular install reads `%APPDATA%\Claude`; the
/// Microsoft Store install sees that path redirected into its package, so its file really lies
/// in `%LOCALAPPDATA%\Packages\Claude_pzs8sxrjxfjjc\LocalCache\Roaming\Claude`. The package's
/// folder is the one in use when it exists and the regular one does not; when both exist (an
/// install moved from one to the other), the one whose config file was saved last.
fn claude_desktop_on_windows(places: &Places) -> Result<PathBuf, MissingHome> {
    let regular = places.appdata()?.join("Claude");
    let store = places.local_appdata.as_ref().map(|local| {
        local
            .join("Packages")
            .join(CLAUDE_MSIX_PACKAGE)
            .join("LocalCache")
            .join("Roaming")
            .join("Claude")
    });
    let Some(store) = store.filter(|dir| dir.is_dir()) else {
        return Ok(regular);
    };
    if !regular.is_dir() {
        return Ok(store);
    }
    let saved = |dir: &Path| {
        std::fs::metadata(dir.join(Client::ClaudeDesktop.file_name()))
            .and_then(|m| m.modified())
            .ok()
    };
    Ok(if saved(&store) > saved(&regular) {
        store
    } else {
        regular
    })
}

/// A client file lies in a folder named by an environment variable that is not set.
#[derive(Debug, thiserror::Error)]
#[error("cannot tell where the file goes: {0} is not set (pass --file PATH)")]
pub struct MissingHome(pub &'static str);

impl Client {
    /// Every client, in the order they are listed.
    pub const ALL: [Client; 8] = [
        Client::ClaudeDesktop,
        Client::ClaudeCode,
        Client::Cursor,
        Client::Vscode,
        Client::Windsurf,
        Client::GeminiCli,
        Client::Codex,
        Client::Zed,
    ];

    /// The client's name as people know it.
    pub fn label(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "Claude Desktop",
            Client::ClaudeCode => "Claude Code",
            Client::Cursor => "Cursor",
            Client::Vscode => "VS Code",
            Client::Windsurf => "Windsurf",
            Client::GeminiCli => "Gemini CLI",
            Client::Codex => "Codex CLI",
            Client::Zed => "Zed",
        }
    }

    /// The shape of the client's file.
    pub fn format(self) -> Format {
        let json = |servers_key, typed, comments| Format::Json {
            servers_key,
            typed,
            comments,
        };
        match self {
            Client::ClaudeDesktop | Client::Cursor | Client::Windsurf | Client::GeminiCli => {
                json("mcpServers", false, false)
            }
            Client::ClaudeCode => json("mcpServers", true, false),
            Client::Vscode => json("servers", true, true),
            Client::Zed => json("context_servers", false, true),
            Client::Codex => Format::CodexToml,
        }
    }

    /// The file this client reads its MCP servers from, on this platform. `vault` is the
    /// vault's absolute root, for the clients configured per project (Claude Code, VS Code).
    pub fn config_file(self, vault: &Path, places: &Places) -> Result<PathBuf, MissingHome> {
        let windows = cfg!(windows);
        let macos = cfg!(target_os = "macos");
        Ok(match self {
            Client::ClaudeDesktop if windows => claude_desktop_on_windows(places)?,
            Client::ClaudeDesktop if macos => places
                .home()?
                .join("Library")
                .join("Application Support")
                .join("Claude"),
            Client::ClaudeDesktop => places.config_home()?.join("Claude"),
            Client::ClaudeCode => vault.to_path_buf(),
            Client::Cursor => places.home()?.join(".cursor"),
            Client::Vscode => vault.join(".vscode"),
            Client::Windsurf => places.home()?.join(".codeium").join("windsurf"),
            Client::GeminiCli => places.home()?.join(".gemini"),
            Client::Codex => match &places.codex_home {
                Some(dir) => dir.clone(),
                None => places.home()?.join(".codex"),
            },
            Client::Zed if windows => places.appdata()?.join("Zed"),
            Client::Zed if macos => places.home()?.join(".config").join("zed"),
            Client::Zed => places.config_home()?.join("zed"),
        }
        .join(self.file_name()))
    }

    /// Which install a Claude Desktop file belongs to, where there are two kinds (Windows: the
    /// regular one and the Microsoft Store package); `None` elsewhere and for other clients.
    pub fn install_of(self, file: &Path) -> Option<&'static str> {
        if self != Client::ClaudeDesktop || !cfg!(windows) {
            return None;
        }
        Some(install_named_by(file))
    }

    fn file_name(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "claude_desktop_config.json",
            Client::ClaudeCode => ".mcp.json",
            Client::Cursor | Client::Vscode => "mcp.json",
            Client::Windsurf => "mcp_config.json",
            Client::GeminiCli | Client::Zed => "settings.json",
            Client::Codex => "config.toml",
        }
    }

    /// What the person does after the file is written for the client to see the server.
    pub fn reload_hint(self) -> &'static str {
        match self {
            Client::ClaudeDesktop => "quit and reopen Claude Desktop",
            Client::ClaudeCode => {
                "start `claude` in the vault folder and approve the project server"
            }
            Client::Cursor => "reopen Cursor, or refresh in Settings → MCP",
            Client::Vscode => "open the vault folder in VS Code and start the server from mcp.json",
            Client::Windsurf => "refresh the MCP servers in Windsurf's Cascade panel",
            Client::GeminiCli => "restart `gemini` (then /mcp lists vaultsum)",
            Client::Codex => "restart `codex` (then /mcp lists vaultsum)",
            Client::Zed => "Zed picks the change up on save; see the Agent panel's settings",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(root: &Path) -> Places {
        Places {
            appdata: Some(root.join("Roaming")),
            local_appdata: Some(root.join("Local")),
            ..Places::default()
        }
    }

    fn store(root: &Path) -> PathBuf {
        root.join("Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude")
    }

    #[test]
    fn the_regular_install_is_appdata_claude() {
        let root = tempfile::tempdir().unwrap();
        assert_eq!(
            claude_desktop_on_windows(&places(root.path())).unwrap(),
            root.path().join("Roaming").join("Claude")
        );
    }

    #[test]
    fn the_microsoft_store_install_is_found_in_its_package() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(store(root.path())).unwrap();
        assert_eq!(
            claude_desktop_on_windows(&places(root.path())).unwrap(),
            store(root.path())
        );
    }

    #[test]
    fn the_install_is_named_by_its_folder() {
        let root = tempfile::tempdir().unwrap();
        assert_eq!(
            install_named_by(&store(root.path()).join("claude_desktop_config.json")),
            "Microsoft Store install"
        );
        assert_eq!(
            install_named_by(
                &root
                    .path()
                    .join("Roaming/Claude/claude_desktop_config.json")
            ),
            "regular install"
        );
    }

    #[test]
    fn with_both_the_last_saved_config_wins() {
        let root = tempfile::tempdir().unwrap();
        let regular = root.path().join("Roaming").join("Claude");
        for dir in [&regular, &store(root.path())] {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("claude_desktop_config.json"), "{}").unwrap();
        }
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(regular.join("claude_desktop_config.json"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert_eq!(
            claude_desktop_on_windows(&places(root.path())).unwrap(),
            store(root.path())
        );
    }
}
