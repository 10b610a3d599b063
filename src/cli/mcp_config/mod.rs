//! `vaultsum mcp config CLIENT [--write] [--with-keys] [--file PATH]`: the entry an MCP client
//! needs to start vaultsum, printed, or merged into the client's own file.
//!
//! The entry runs this binary by its absolute path (a client's PATH is rarely the shell's) with
//! `mcp`, and `VAULTSUM_VAULT` set to the vault's absolute path. API keys go into it only with
//! `--with-keys`. Then, without `--write`, the entry is printed with them (the person asked for
//! them, and the entry is useless to paste without); with `--write` they go to the file only and
//! nothing with a key is printed. A write keeps a copy of the previous file as `FILE.bak`.

mod clients;
mod merge;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::{App, UsageError};
use crate::tools::doctor::{Check, CheckStatus};
use crate::tools::vault_view::stage;
use clients::{Client, Entry, Format, Places};
use merge::MergeError;

/// The keys `--with-keys` copies from this shell into the entry.
const KEY_VARIABLES: [&str; 2] = ["FIREWORKS_API_KEY", "KAGI_API_KEY"];

/// Arguments of `vaultsum mcp config`.
#[derive(Debug, clap::Args)]
pub struct McpConfigArgs {
    /// The MCP client to configure.
    #[arg(value_name = "CLIENT")]
    pub client: Client,
    /// Merge the entry into the client's file (a copy of the previous file is kept as FILE.bak)
    /// instead of printing it.
    #[arg(long)]
    pub write: bool,
    /// Copy FIREWORKS_API_KEY and KAGI_API_KEY from this shell into the entry (they are left
    /// out otherwise; the client must then provide them).
    #[arg(long)]
    pub with_keys: bool,
    /// The client's file, instead of where the client keeps it by default.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// The entry starts `vaultsum mcp --read-only` (no tool that writes).
    #[arg(long)]
    pub read_only: bool,
    /// The entry starts `vaultsum mcp --tools TOOLS` (only those tools).
    #[arg(long, value_name = "TOOLS")]
    pub tools: Option<String>,
}

pub fn run(app: App, args: McpConfigArgs) -> anyhow::Result<ExitCode> {
    let vault = vault_root(&app)?;
    let mut entry = entry(&vault, args.with_keys)?;
    if args.read_only {
        entry.args.push("--read-only".to_string());
    }
    if let Some(tools) = &args.tools {
        entry.args.extend(["--tools".to_string(), tools.clone()]);
    }
    let client = args.client;
    let file = match args.file {
        Some(file) => std::path::absolute(&file).unwrap_or(file),
        None => client
            .config_file(&vault, &Places::from_env())
            .map_err(|e| UsageError(e.to_string()))?,
    };
    let copied: Vec<&str> = entry
        .env
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| KEY_VARIABLES.contains(name))
        .collect();
    if args.write {
        let written = write(client, &file, &entry)?;
        println!(
            "vaultsum: {} the vaultsum entry in {}",
            if written.replaced {
                "replaced"
            } else {
                "added"
            },
            file.display()
        );
        match written.backup {
            Some(backup) => println!(
                "vaultsum: the previous file is kept as {}",
                backup.display()
            ),
            None => println!("vaultsum: the file is new (no backup needed)"),
        }
        println!("vaultsum: next, {}", client.reload_hint());
    } else {
        eprintln!(
            "vaultsum: for {}, add this to {} (or run `vaultsum mcp config {} --write` to merge it there):",
            client.label(),
            file.display(),
            clap::ValueEnum::to_possible_value(&client)
                .map(|v| v.get_name().to_string())
                .unwrap_or_default(),
        );
        print!("{}", render(client, &entry)?);
    }
    key_hint(client, args.with_keys, &copied);
    Ok(ExitCode::SUCCESS)
}

/// The vault's absolute, canonical root: from `--vault`, the config, or the folder around.
fn vault_root(app: &App) -> anyhow::Result<PathBuf> {
    let configured = app.config.vault.as_ref().ok_or_else(|| {
        UsageError(
            "no vault to configure: pass --vault DIR, set VAULTSUM_VAULT, or run inside a vault \
             (a folder with .obsidian/)"
                .to_string(),
        )
    })?;
    let root = configured
        .canonicalize()
        .map_err(|e| UsageError(format!("vault folder {}: {e}", configured.display())))?;
    if !root.is_dir() {
        return Err(UsageError(format!("vault {} is not a folder", root.display())).into());
    }
    Ok(root)
}

/// The doctor's line on Claude Desktop: which file it reads (and, on Windows, which install
/// that is: the regular one or the Microsoft Store package) and whether vaultsum is in it.
/// Not having Claude Desktop is fine; a file it cannot read is a warning, since Claude Desktop
/// then starts none of its servers.
pub fn claude_desktop_check() -> Check {
    let client = Client::ClaudeDesktop;
    let name = client.label().to_string();
    // The vault does not matter: Claude Desktop's file is per user, not per project.
    let file = match client.config_file(Path::new("."), &Places::from_env()) {
        Ok(file) => file,
        Err(e) => return info(name, e.to_string()),
    };
    let install = client
        .install_of(&file)
        .map(|kind| format!(" ({kind})"))
        .unwrap_or_default();
    let folder = file.parent().unwrap_or(&file);
    if !folder.is_dir() {
        return info(
            name,
            format!("not found (no {}{install})", folder.display()),
        );
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return info(
                name,
                format!(
                    "{}{install} does not exist yet; `vaultsum mcp config claude-desktop --write` creates it",
                    file.display()
                ),
            )
        }
        Err(e) => return unreadable(name, &file, &e.to_string()),
    };
    if text.trim().is_empty() {
        return info(name, format!("{}{install} is empty", file.display()));
    }
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(_) if has_entry(client, &text) => info(
            name,
            format!("vaultsum is set up in {}{install}", file.display()),
        ),
        Ok(_) => info(
            name,
            format!(
                "{}{install} has no vaultsum entry; `vaultsum mcp config claude-desktop --write` adds it",
                file.display()
            ),
        ),
        Err(e) => unreadable(name, &file, &format!("it is not valid JSON ({e})")),
    }
}

fn info(name: String, finding: String) -> Check {
    Check {
        name,
        status: CheckStatus::Ok,
        finding,
        fix: None,
    }
}

fn unreadable(name: String, file: &Path, why: &str) -> Check {
    Check {
        name,
        status: CheckStatus::Warning,
        finding: format!("cannot read {}: {why}", file.display()),
        fix: Some(
            "fix or remove the file: Claude Desktop starts none of its servers while it is broken"
                .to_string(),
        ),
    }
}

/// The entry: this binary (absolute, links resolved), `mcp`, the vault, and the keys when asked.
fn entry(vault: &Path, with_keys: bool) -> anyhow::Result<Entry> {
    let binary = std::env::current_exe()
        .and_then(|exe| exe.canonicalize())
        .context("cannot find the path of the vaultsum binary")?;
    let text = |path: &Path, what: &str| {
        path.to_str().map(str::to_string).ok_or_else(|| {
            UsageError(format!(
                "the {what} path is not valid UTF-8, which client files cannot hold: {}",
                path.display()
            ))
        })
    };
    let mut env = vec![("VAULTSUM_VAULT".to_string(), text(vault, "vault")?)];
    if with_keys {
        for name in KEY_VARIABLES {
            if let Some(key) = std::env::var(name).ok().filter(|k| !k.trim().is_empty()) {
                env.push((name.to_string(), key));
            }
        }
    }
    Ok(Entry {
        command: text(&binary, "binary")?,
        args: vec!["mcp".to_string()],
        env,
    })
}

/// The entry as a file of its own for `client` (what would be written into an empty file).
fn render(client: Client, entry: &Entry) -> anyhow::Result<String> {
    Ok(match client.format() {
        Format::Json {
            servers_key, typed, ..
        } => merge::merge_json(None, servers_key, entry.to_json(typed), false)?,
        Format::CodexToml => merge::merge_codex_toml(None, entry)?,
    })
}

/// What a write did.
struct Written {
    /// The entry was there before (now replaced in place).
    replaced: bool,
    /// Where the previous content was copied, when there was a file.
    backup: Option<PathBuf>,
}

/// Merges the entry into `file`: reads it (absent → a new file, its folders created), refuses
/// a file it cannot parse (untouched, exit 1), copies the current file to `FILE.bak`, then
/// replaces the file atomically with its own permissions. A symlinked file is written at its
/// target, so the link stays.
fn write(client: Client, file: &Path, entry: &Entry) -> anyhow::Result<Written> {
    let file = match std::fs::canonicalize(file) {
        Ok(target) => target,
        Err(_) => file.to_path_buf(),
    };
    let existing = match std::fs::read(&file) {
        Ok(bytes) => {
            Some(String::from_utf8(bytes).map_err(|_| refused(&file, "it is not UTF-8 text"))?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!("cannot read {}", file.display())))
        }
    };
    let replaced = existing
        .as_deref()
        .is_some_and(|text| has_entry(client, text));
    let merged = match client.format() {
        Format::Json {
            servers_key,
            typed,
            comments,
        } => merge::merge_json(
            existing.as_deref(),
            servers_key,
            entry.to_json(typed),
            comments,
        ),
        Format::CodexToml => merge::merge_codex_toml(existing.as_deref(), entry),
    }
    .map_err(|e| refusal(&file, e))?;

    let folder = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let mut backup = None;
    let permissions = match std::fs::metadata(&file) {
        Ok(meta) => {
            let path = backup_path(&file);
            // `copy` keeps the permissions: a file holding keys keeps its backup as private.
            std::fs::copy(&file, &path)
                .with_context(|| format!("cannot keep a backup at {}", path.display()))?;
            backup = Some(path);
            Some(meta.permissions())
        }
        Err(_) => None,
    };
    stage(&file, merged.as_bytes(), permissions)
        .and_then(|staged| staged.commit())
        .with_context(|| format!("cannot write {}", file.display()))?;
    Ok(Written { replaced, backup })
}

/// `FILE.bak` beside `FILE` (`settings.json.bak`).
fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    file.with_file_name(name)
}

/// Whether the file already has our entry (only said in the output).
fn has_entry(client: Client, text: &str) -> bool {
    match client.format() {
        Format::Json { servers_key, .. } => serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .is_some_and(|v| v[servers_key].get(clients::SERVER_NAME).is_some()),
        Format::CodexToml => text
            .parse::<toml_edit::DocumentMut>()
            .ok()
            .is_some_and(|d| {
                d.get("mcp_servers")
                    .and_then(|s| s.get(clients::SERVER_NAME))
                    .is_some()
            }),
    }
}

fn refusal(file: &Path, error: MergeError) -> anyhow::Error {
    refused(file, &error.to_string())
}

fn refused(file: &Path, why: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "left {} untouched: {why}. Fix it, or paste the entry printed by `vaultsum mcp config` \
         (without --write) into it by hand",
        file.display()
    )
}

/// What the person must know about keys, on stderr (never a key itself).
fn key_hint(client: Client, with_keys: bool, copied: &[&str]) {
    if with_keys {
        if copied.is_empty() {
            eprintln!("vaultsum: --with-keys: neither FIREWORKS_API_KEY nor KAGI_API_KEY is set in this shell; nothing copied");
        } else {
            eprintln!(
                "vaultsum: copied {} into the entry; anyone who can read that file can read them",
                copied.join(" and ")
            );
        }
        return;
    }
    let bundle = if client == Client::ClaudeDesktop {
        " (the vaultsum .mcpb bundle for Claude Desktop asks for them when you install it)"
    } else {
        ""
    };
    eprintln!(
        "vaultsum: API keys are not in the entry: the client must provide FIREWORKS_API_KEY \
         (without it the offline engine summarizes) and KAGI_API_KEY (for summarize and \
         web_search){bundle}; add them to the entry's env yourself, or rerun with --with-keys \
         to copy them from this shell"
    );
}
