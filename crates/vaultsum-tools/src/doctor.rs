//! `vaultsum doctor`: whether this setup has what each command needs, as a list of typed
//! checks (status, what was found, how to fix it). The front end only renders them.
//!
//! Every check that needs the vault, the LLM client or Kagi is made here, below the front
//! ends. Nothing here ever puts a key in a finding: keys are only said to be set or not, and
//! the errors of the LLM and Kagi clients are redacted where they are made.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::{self, ApiKey, Config, Engine, Env};
use crate::context::find_vault_upward;
use crate::kagi::{KagiClient, KagiError, KagiReach, KeySource, KAGI_API_KEY_VAR};
use crate::llm::{ChatClient, Limiter, LlmError};
use crate::vault::Vault;
use vaultsum_core::atomic_file::{TEMP_PREFIX, TEMP_SUFFIX};

/// How long each network check may take: a doctor that hangs is no help.
pub const NETWORK_TIMEOUT: Duration = Duration::from_secs(5);

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckStatus {
    /// Everything this check covers is there.
    Ok,
    /// Works, but less well than it could (the offline engine, no Kagi key, an unknown window).
    Warning,
    /// Something a command needs is missing or broken: that command would fail.
    Missing,
}

/// One line of the diagnosis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked, e.g. `vault` or `LLM endpoint`.
    pub name: String,
    /// How it came out.
    pub status: CheckStatus,
    /// What was found (a path, a model, an error), never a key.
    pub finding: String,
    /// What to set or run, for every check that is not [`CheckStatus::Ok`].
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: &str, finding: impl Into<String>) -> Check {
        Check {
            name: name.to_string(),
            status: CheckStatus::Ok,
            finding: finding.into(),
            fix: None,
        }
    }

    fn warning(name: &str, finding: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name: name.to_string(),
            status: CheckStatus::Warning,
            finding: finding.into(),
            fix: Some(fix.into()),
        }
    }

    fn missing(name: &str, finding: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            name: name.to_string(),
            status: CheckStatus::Missing,
            finding: finding.into(),
            fix: Some(fix.into()),
        }
    }
}

/// Every check, in the order they are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// The checks, configuration first, network last.
    pub checks: Vec<Check>,
}

impl Diagnosis {
    /// No check is [`CheckStatus::Missing`]: every command has what it needs (warnings allowed).
    pub fn ready(&self) -> bool {
        self.count(CheckStatus::Missing) == 0
    }

    /// How many checks came out as `status`.
    pub fn count(&self, status: CheckStatus) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }
}

/// What the doctor looks at: the same inputs the other commands start from.
#[derive(Debug, Clone)]
pub struct DoctorRequest {
    /// `--config FILE`, if given.
    pub config_file: Option<PathBuf>,
    /// `--vault DIR`, if given.
    pub vault: Option<PathBuf>,
    /// The current folder, for finding the vault that contains it.
    pub cwd: Option<PathBuf>,
    /// Where watch mode keeps its state (the front end knows its own override).
    pub state_dir: PathBuf,
    /// The environment (keys, endpoints, `VAULTSUM_*`).
    pub env: Env,
    /// The limit of each network check.
    pub timeout: Duration,
}

/// Runs every check: the local ones first, then the LLM and Kagi checks concurrently, each
/// within `request.timeout`.
pub async fn diagnose(request: DoctorRequest) -> Diagnosis {
    let mut checks = Vec::new();
    let (mut config, config_check) = load_config(&request);
    checks.push(config_check);

    let vault_source = vault_source(&request, &config);
    if let Some(flag) = &request.vault {
        config.vault = Some(flag.clone());
    }
    if config.vault.is_none() {
        config.vault = request.cwd.as_deref().and_then(find_vault_upward);
    }
    checks.extend(vault_checks(config.vault.as_deref(), vault_source));

    let (engine_check, chat) = engine_check(&config);
    checks.push(engine_check);
    let kagi_key = request.env.get(KAGI_API_KEY_VAR).and_then(ApiKey::new);
    checks.push(kagi_key_check(kagi_key.is_some()));

    let llm = async {
        match &chat {
            Some(chat) => llm_checks(chat, &config, request.timeout).await,
            None => Vec::new(),
        }
    };
    let kagi = async {
        match &kagi_key {
            Some(key) => vec![kagi_check(&config, key.clone(), request.timeout).await],
            None => Vec::new(),
        }
    };
    let (llm, kagi) = tokio::join!(llm, kagi);
    checks.extend(llm);
    checks.extend(kagi);
    checks.push(state_check(&request.state_dir));
    Diagnosis { checks }
}

/// The configuration as the other commands load it; a file that cannot be used is reported
/// and the checks go on with the defaults and the environment.
fn load_config(request: &DoctorRequest) -> (Config, Check) {
    let file = config::config_file(request.config_file.as_deref(), &request.env);
    match Config::load(request.config_file.as_deref(), &request.env) {
        Ok(config) => {
            let finding = match &file {
                Some(path) => format!("{}", path.display()),
                None => match config::default_config_path() {
                    Some(path) => format!("no file (defaults; optional file: {})", path.display()),
                    None => "no file (defaults)".to_string(),
                },
            };
            (config, Check::ok("config", finding))
        }
        Err(error) => {
            let fallback = Config::load_without_file(&request.env).unwrap_or_default();
            let fix = match &file {
                Some(_) => "correct the file (config.example.toml documents every key), or pass --config with another one",
                None => "correct the environment variable named above",
            };
            (fallback, Check::missing("config", error.to_string(), fix))
        }
    }
}

/// Where the vault setting came from, for the finding.
fn vault_source(request: &DoctorRequest, config: &Config) -> &'static str {
    if request.vault.is_some() {
        "--vault"
    } else if request.env.get("VAULTSUM_VAULT").is_some() {
        "VAULTSUM_VAULT"
    } else if config.vault.is_some() {
        "config file"
    } else {
        "the vault containing the current folder"
    }
}

const VAULT_FIX: &str = "pass --vault DIR, set VAULTSUM_VAULT=DIR, add vault = \"DIR\" to the config file, or run inside a vault (a folder with .obsidian/)";

/// Set, readable, writable.
fn vault_checks(vault: Option<&Path>, source: &str) -> Vec<Check> {
    let Some(root) = vault else {
        return vec![Check::missing(
            "vault",
            "not set and no vault above the current folder",
            VAULT_FIX,
        )];
    };
    let vault = match Vault::open(root) {
        Ok(vault) => vault,
        Err(error) => return vec![Check::missing("vault", error.to_string(), VAULT_FIX)],
    };
    let root = vault.root();
    if let Err(error) = std::fs::read_dir(root) {
        return vec![Check::missing(
            "vault",
            format!("{}: cannot list it: {error}", root.display()),
            "give your user read access to the folder",
        )];
    }
    let obsidian = if root.join(".obsidian").is_dir() {
        ""
    } else {
        ", no .obsidian/ folder"
    };
    let read = Check::ok(
        "vault",
        format!("{} (from {source}{obsidian})", root.display()),
    );
    let write = match try_temporary_file(root) {
        Ok(()) => Check::ok(
            "vault writable",
            format!("created and removed {TEMP_PREFIX}*{TEMP_SUFFIX}"),
        ),
        Err(error) => Check::missing(
            "vault writable",
            format!("cannot create a file in {}: {error}", root.display()),
            "give your user write access to the vault folder (summaries are written into notes)",
        ),
    };
    vec![read, write]
}

/// Creates and removes one of our temporary files in `folder` (named like those of an atomic
/// write, so a leftover is hidden from the index and swept by the next write there).
fn try_temporary_file(folder: &Path) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)?;
    file.write_all(b"vaultsum doctor")?;
    file.close()
}

const LLM_KEY_FIX: &str =
    "export FIREWORKS_API_KEY=… (a key from https://fireworks.ai/account/api-keys)";

/// Which engine `summarize_file` and `read_file` (media descriptions) get, and the client the
/// network checks use when it is the LLM.
fn engine_check(config: &Config) -> (Check, Option<ChatClient>) {
    const NAME: &str = "summarize_file, read_file";
    let engine = config.summarize.engine;
    if engine == Engine::Offline {
        return (
            Check::ok(NAME, "offline engine (summarize.engine = local)"),
            None,
        );
    }
    match ChatClient::new(&config.llm) {
        Ok(client) => {
            let client = client.with_limiter(Limiter::from_config(&config.summarize));
            let finding = format!(
                "LLM engine: {} at {}",
                config.llm.summarize_model,
                client.base_url()
            );
            (Check::ok(NAME, finding), Some(client))
        }
        Err(LlmError::MissingApiKey) if engine == Engine::Auto => (
            Check::warning(
                NAME,
                "offline engine: FIREWORKS_API_KEY is not set (plainer summaries, images and audio not described)",
                format!("{LLM_KEY_FIX} for LLM summaries, image descriptions and transcripts"),
            ),
            None,
        ),
        Err(LlmError::MissingApiKey) => (
            Check::missing(
                NAME,
                "summarize.engine is llm but FIREWORKS_API_KEY is not set",
                format!("{LLM_KEY_FIX}, or set summarize.engine = \"auto\""),
            ),
            None,
        ),
        Err(error) => (
            Check::missing(
                NAME,
                error.to_string(),
                "correct FIREWORKS_API_KEY or FIREWORKS_BASE_URL (llm.base_url) as said",
            ),
            None,
        ),
    }
}

fn kagi_key_check(present: bool) -> Check {
    const NAME: &str = "summarize, web_search";
    if present {
        Check::ok(NAME, "KAGI_API_KEY is set")
    } else {
        Check::warning(
            NAME,
            "KAGI_API_KEY is not set: these two tools answer with an error",
            "export KAGI_API_KEY=… (a key from https://kagi.com/settings?p=api)",
        )
    }
}

const BASE_URL_FIX: &str = "check FIREWORKS_BASE_URL (or llm.base_url) and the network";

/// The endpoint answers with the key, the model is listed, the context window is known.
/// The model list and the window are asked at the same time.
async fn llm_checks(chat: &ChatClient, config: &Config, timeout: Duration) -> Vec<Check> {
    let model = &config.llm.summarize_model;
    let (listed, window) = tokio::join!(
        chat.list_models(timeout),
        chat.context_window(model, config.llm.context_tokens)
    );
    let base = chat.base_url();
    let mut checks = Vec::new();
    let reached = match listed {
        Ok(models) => {
            checks.push(Check::ok(
                "LLM endpoint",
                format!("{base} answers; the key is accepted"),
            ));
            checks.push(model_check(model, &models));
            true
        }
        Err(LlmError::Http { status, .. }) if status == 401 || status == 403 => {
            checks.push(Check::missing(
                "LLM endpoint",
                format!("{base}: key rejected (HTTP {status})"),
                format!("check FIREWORKS_API_KEY: {LLM_KEY_FIX}"),
            ));
            false
        }
        Err(LlmError::Http { status, .. }) if status == 404 || status == 405 => {
            checks.push(Check::ok("LLM endpoint", format!("{base} answers")));
            checks.push(Check::warning(
                "LLM model",
                format!(
                    "{model}: not checked, the server does not list its models (HTTP {status})"
                ),
                "make sure FIREWORKS_MODEL (llm.model) names a model this server serves",
            ));
            true
        }
        Err(LlmError::Http {
            status, message, ..
        }) => {
            checks.push(Check::missing(
                "LLM endpoint",
                format!("{base} answered HTTP {status}: {message}"),
                BASE_URL_FIX,
            ));
            false
        }
        Err(LlmError::Malformed(_)) => {
            checks.push(Check::warning(
                "LLM endpoint",
                format!("{base} answers, but GET /models gave no model list"),
                "make sure FIREWORKS_BASE_URL is an OpenAI-compatible base URL (usually ending in /v1)",
            ));
            true
        }
        Err(error) => {
            checks.push(Check::missing(
                "LLM endpoint",
                match error {
                    LlmError::Timeout { secs, .. } => format!("{base}: no answer within {secs} s"),
                    other => other.to_string(),
                },
                BASE_URL_FIX,
            ));
            false
        }
    };
    checks.push(window_check(window, config.llm.context_tokens, reached));
    checks
}

fn model_check(model: &str, models: &[String]) -> Check {
    if models.iter().any(|m| m == model) {
        return Check::ok(
            "LLM model",
            format!("{model} is listed ({} models)", models.len()),
        );
    }
    let near = near_matches(model, models);
    let near = if near.is_empty() {
        String::new()
    } else {
        format!("; near: {}", near.join(", "))
    };
    Check::missing(
        "LLM model",
        format!(
            "{model} is not among the {} models the server lists{near}",
            models.len()
        ),
        "set FIREWORKS_MODEL (llm.model; SUMMARIZE_MODEL for summaries alone) to a listed model",
    )
}

/// Up to three listed models whose last path segment is a few edits from the configured one's.
fn near_matches(model: &str, models: &[String]) -> Vec<String> {
    let last = |id: &str| id.rsplit('/').next().unwrap_or(id).to_lowercase();
    let wanted = last(model);
    let allowed = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &String)> = models
        .iter()
        .map(|m| (edit_distance(&wanted, &last(m)), m))
        .filter(|(distance, _)| *distance <= allowed)
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, m)| m.clone()).collect()
}

/// Levenshtein distance over characters (model names are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

fn window_check(window: Option<u64>, configured: Option<u64>, reached: bool) -> Check {
    const NAME: &str = "context window";
    match (window, configured) {
        (Some(tokens), Some(_)) => Check::ok(NAME, format!("{tokens} tokens (llm.context_tokens)")),
        (Some(tokens), None) => Check::ok(NAME, format!("{tokens} tokens (said by the server)")),
        (None, _) if !reached => Check::warning(
            NAME,
            "unknown: the endpoint did not answer",
            "fix the endpoint first; or set llm.context_tokens in the config file",
        ),
        (None, _) => Check::warning(
            NAME,
            "unknown: the server does not say (long notes are sent whole, split after a context error)",
            "set llm.context_tokens in the config file to the model's window",
        ),
    }
}

/// The free Kagi check (see `kagi/ping.rs` in vaultsum-core): reachable, key accepted.
async fn kagi_check(config: &Config, key: ApiKey, timeout: Duration) -> Check {
    const NAME: &str = "Kagi";
    let client = KagiClient::from_config(&config.kagi).with_key_source(KeySource::Fixed(Some(key)));
    let base = &config.kagi.base_url;
    match client.ping(timeout).await {
        Ok(KagiReach::Answered { status, .. }) => Check::ok(
            NAME,
            format!("{base} answers (HTTP {status} to a request that costs nothing)"),
        ),
        Ok(KagiReach::KeyRefused { status }) => Check::missing(
            NAME,
            format!("{base}: key rejected (HTTP {status})"),
            "check KAGI_API_KEY (a key from https://kagi.com/settings?p=api)",
        ),
        Err(KagiError::Network { reason, .. }) => Check::missing(
            NAME,
            format!("cannot reach {base}: {reason}"),
            "check KAGI_BASE_URL (or kagi.base_url) and the network",
        ),
        Err(other) => Check::missing(
            NAME,
            other.to_string(),
            "check KAGI_BASE_URL (or kagi.base_url)",
        ),
    }
}

/// Watch mode keeps one state file per vault in this folder; it must be creatable.
fn state_check(state_dir: &Path) -> Check {
    const NAME: &str = "watch state";
    let result = std::fs::create_dir_all(state_dir).and_then(|()| try_temporary_file(state_dir));
    match result {
        Ok(()) => Check::ok(NAME, format!("{} is writable", state_dir.display())),
        Err(error) => Check::missing(
            NAME,
            format!("cannot write in {}: {error}", state_dir.display()),
            "set VAULTSUM_STATE_DIR to a folder you can write (or fix XDG_STATE_HOME)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_matches_are_a_few_edits_away_by_last_segment() {
        let models = [
            "accounts/fireworks/models/gpt-oss-120b".to_string(),
            "accounts/fireworks/models/gpt-oss-20b".to_string(),
            "accounts/fireworks/models/llama-v3p1-8b-instruct".to_string(),
        ];
        let near = near_matches("accounts/fireworks/models/gpt-oss-12b", &models);
        assert_eq!(near[0], models[0]);
        assert!(!near.contains(&models[2]));
    }

    #[test]
    fn edit_distance_counts_insertions_deletions_substitutions() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
