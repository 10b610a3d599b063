//! Configuration: built-in defaults < config file < environment < command-line flags.
//!
//! Every key is documented, with its default and its environment variable, in
//! `config.example.toml`. The file is TOML; unknown keys are refused so a typo never silently
//! falls back to a default.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use vaultsum_engine::summary::defaults;

use serde::{Deserialize, Serialize};

use crate::summary_prompt::{parse_language, PromptSpec, RuleNotes, SummaryRule, AUTO_LANGUAGE};

/// Default Fireworks endpoint (OpenAI-compatible).
pub const DEFAULT_BASE_URL: &str = defaults::BASE_URL;
/// Default chat model: a reasoning model that also returns `reasoning_content`.
pub const DEFAULT_MODEL: &str = defaults::SUMMARIZE_MODEL;
/// Default vision model used to describe embedded images.
pub const DEFAULT_VISION_MODEL: &str = defaults::VISION_MODEL;
/// Default speech-to-text model used to transcribe embedded audio.
pub const DEFAULT_WHISPER_MODEL: &str = defaults::WHISPER_MODEL;
/// Default Kagi API base URL.
pub const DEFAULT_KAGI_BASE_URL: &str = "https://kagi.com/api/v0";
/// Default `summarize.concurrency`: what hosted APIs take; the adaptive limiter finds less
/// when the server wants less.
pub const DEFAULT_SUMMARIZE_CONCURRENCY: usize = 16;
/// Default `llm.max_output_tokens`: a summary plus the default model's reasoning.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = defaults::MAX_OUTPUT_TOKENS;

/// Largest number of seconds any time setting (timeouts, retry budget, settle time) accepts:
/// one year. Larger values mean nothing useful and would overflow clock arithmetic.
pub const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// Environment variables the configuration reads: a value that is not valid UTF-8 in one of
/// these is a configuration error; such values in any other variable are ignored.
pub const ENV_VARS: &[&str] = &[
    "VAULTSUM_CONFIG",
    "VAULTSUM_VAULT",
    "VAULTSUM_CACHE_DIR",
    "VAULTSUM_ENGINE",
    "VAULTSUM_FACT_CHECK",
    "VAULTSUM_MCP_TOKEN",
    "FIREWORKS_API_KEY",
    "FIREWORKS_BASE_URL",
    "FIREWORKS_MODEL",
    "FIREWORKS_AUDIO_BASE_URL",
    "SUMMARIZE_MODEL",
    "VISION_MODEL",
    "WHISPER_MODEL",
    "KAGI_BASE_URL",
    "KAGI_API_KEY",
    "VAULTSUM_MCP_ALLOWED_ORIGINS",
];

/// Errors while loading configuration. These are usage errors (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid config file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("environment variable {name} is not valid UTF-8; fix or unset it")]
    NotUnicode { name: String },
    #[error("invalid value for {name}: {value} is too large (at most {max})")]
    TooLarge { name: String, value: u64, max: u64 },
    #[error("invalid value for {name}: {value:?} ({expected})")]
    BadValue {
        name: String,
        value: String,
        expected: &'static str,
    },
}

/// Which summarizer `summarize_file` and `summarize-text` use.
///
/// The built-in summarizer is named `offline`, so it is never mistaken for an LLM served on
/// this machine (a "local model", which is the `llm` engine pointed at a local server); its
/// first name, `local`, is still accepted wherever an engine is named (flag, environment,
/// config file), by [`Engine::parse`] and serde alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// `llm` when an API key is configured, otherwise `offline`.
    #[default]
    Auto,
    /// The OpenAI-compatible chat API (a hosted provider or a server on this machine).
    Llm,
    /// The built-in offline extractive summarizer: no network, no model.
    #[serde(alias = "local")]
    Offline,
}

impl Engine {
    /// Parses `auto`, `llm` or `offline` (or its older name `local`), case-insensitive.
    pub fn parse(name: &str, value: &str) -> Result<Engine, ConfigError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Engine::Auto),
            "llm" => Ok(Engine::Llm),
            "offline" | "local" => Ok(Engine::Offline),
            _ => Err(ConfigError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                expected: "one of auto, llm, offline; local is the same as offline",
            }),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Auto => "auto",
            Engine::Llm => "llm",
            Engine::Offline => "offline",
        })
    }
}

/// What is done with the facts of an answer the note does not support (config
/// `summarize.fact_check`; the check itself is `facts/`, its use `vaultsum-tools`'
/// `fact_check.rs`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FactCheckMode {
    /// One corrective request to the model (the answer and the facts not found, asking for it
    /// again without them); what is still not found is marked.
    #[default]
    Retry,
    /// No second request: the facts not found are marked.
    Mark,
    /// Nothing checked, nothing marked.
    Off,
}

impl FactCheckMode {
    /// Parses `retry`, `mark` or `off` (case-insensitive).
    pub fn parse(name: &str, value: &str) -> Result<FactCheckMode, ConfigError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "retry" => Ok(FactCheckMode::Retry),
            "mark" => Ok(FactCheckMode::Mark),
            "off" => Ok(FactCheckMode::Off),
            _ => Err(ConfigError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                expected: "one of retry, mark, off",
            }),
        }
    }

    /// `retry`, `mark`, `off`.
    pub fn name(self) -> &'static str {
        match self {
            FactCheckMode::Retry => "retry",
            FactCheckMode::Mark => "mark",
            FactCheckMode::Off => "off",
        }
    }
}

/// Where `summarize_file` writes a summary (config `summarize.into`, flag `--into`, MCP `into`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum SummaryInto {
    /// A `## Summary` section appended to the note.
    #[default]
    Section,
    /// A one-to-three-sentence abstract in the frontmatter property `summarize.property`.
    Property,
    /// Both: the section and the property.
    Both,
}

impl SummaryInto {
    /// Parses `section`, `property` or `both` (case-insensitive).
    pub fn parse(name: &str, value: &str) -> Result<SummaryInto, ConfigError> {
        match value.trim().to_ascii_lowercase().as_str() {
            "section" => Ok(SummaryInto::Section),
            "property" => Ok(SummaryInto::Property),
            "both" => Ok(SummaryInto::Both),
            _ => Err(ConfigError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                expected: "one of section, property, both",
            }),
        }
    }

    /// Whether a `## Summary` section is written.
    pub fn section(self) -> bool {
        matches!(self, SummaryInto::Section | SummaryInto::Both)
    }

    /// Whether the summary property is written.
    pub fn property(self) -> bool {
        matches!(self, SummaryInto::Property | SummaryInto::Both)
    }

    /// `section`, `property`, `both`.
    pub fn name(self) -> &'static str {
        match self {
            SummaryInto::Section => "section",
            SummaryInto::Property => "property",
            SummaryInto::Both => "both",
        }
    }
}

/// An API key. Its `Debug` and `Display` never show the value, so a key cannot leak through
/// logs or error messages by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key; empty or blank strings count as "no key".
    pub fn new(value: impl Into<String>) -> Option<ApiKey> {
        let value = value.into();
        let trimmed = value.trim();
        (!trimmed.is_empty()).then(|| ApiKey(trimmed.to_string()))
    }

    /// The secret itself, for building an Authorization header and nothing else.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// The OpenAI-compatible provider (Fireworks by default).
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// `FIREWORKS_API_KEY`; never read from the config file so keys stay out of dotfiles.
    pub api_key: Option<ApiKey>,
    /// `FIREWORKS_BASE_URL`, config `llm.base_url`.
    pub base_url: String,
    /// `FIREWORKS_MODEL`, config `llm.model`.
    pub model: String,
    /// `SUMMARIZE_MODEL`, config `llm.summarize_model`; defaults to `model`.
    pub summarize_model: String,
    /// `VISION_MODEL`, config `llm.vision_model`.
    pub vision_model: String,
    /// `WHISPER_MODEL`, config `llm.whisper_model`.
    pub whisper_model: String,
    /// `FIREWORKS_AUDIO_BASE_URL`, config `llm.audio_base_url`; defaults to `base_url`.
    pub audio_base_url: String,
    /// Per-request timeout in seconds (config `llm.timeout_secs`, default 120).
    pub timeout_secs: u64,
    /// Attempts per request, including the first (config `llm.max_attempts`, default 4).
    pub max_attempts: u32,
    /// Upper bound on the total time spent retrying one request (config `llm.max_retry_secs`, default 90).
    pub max_retry_secs: u64,
    /// First backoff delay in milliseconds, doubled each retry (config `llm.initial_backoff_ms`, default 500).
    pub initial_backoff_ms: u64,
    /// The summarize model's context window in tokens (config `llm.context_tokens`); unset: ask
    /// the server, else learn it from a context-length error.
    pub context_tokens: Option<u64>,
    /// The most tokens one answer may take, reasoning included (config `llm.max_output_tokens`,
    /// default 4096): sent with every chat request so a local model cannot run on for ever.
    pub max_output_tokens: u32,
    /// Whether the server queues requests it cannot serve instead of answering 429 (config
    /// `llm.local_server`); unset: judged by its address (`llm/local_server.rs`).
    pub local_server: Option<bool>,
}

/// `summarize_file` settings.
#[derive(Debug, Clone)]
pub struct SummarizeConfig {
    /// `VAULTSUM_ENGINE`, config `summarize.engine`, flag `--engine`.
    pub engine: Engine,
    /// Maximum characters of expanded note sent to the model (config `summarize.max_chars`).
    pub max_chars: usize,
    /// Notes summarized at once by `summarize-file` with several paths, and the most LLM
    /// requests the process has in flight at once (config `summarize.concurrency`, default 16).
    pub concurrency: usize,
    /// Adapt the LLM requests in flight (up to `concurrency`) and their pace to the server's
    /// answers: fewer on 429 and 503 (config `summarize.adaptive`, default true). Off, the
    /// client keeps `concurrency` requests in flight whatever the server answers.
    pub adaptive: bool,
    /// The frontmatter property a summary abstract is kept in (config `summarize.property`,
    /// default `summary`). A summarizer never receives it, nor the note's `## Summary` sections.
    pub property: String,
    /// Where a summary goes: a `## Summary` section, the property, or both (config
    /// `summarize.into`, flag `--into`, MCP `into`; default `section`).
    pub into: SummaryInto,
    /// The prompt of notes no call, note property or rule chooses one for (config
    /// `summarize.prompt`; default the `default` preset).
    pub prompt: PromptSpec,
    /// The summaries' language: `auto` (the note's) or a language name (config
    /// `summarize.language`, flag `--language`, MCP `language`).
    pub language: String,
    /// `[[summarize.rules]]`: prompt, `into` and language per folder or glob, first match wins.
    pub rules: Vec<SummaryRule>,
    /// Hosts a summary may link to even when the link's URL is not in what was summarized
    /// (config `summarize.allow_links`, globs over the host: `*.wikipedia.org`; default none).
    /// It widens the output policy's link allow-list; nothing turns the policy off
    /// (`vault/output_policy/`).
    pub allow_links: Vec<String>,
    /// What is done with an answer's names, numbers, dates, quotes and links that the text
    /// the model was given does not hold (config `summarize.fact_check`: `retry`, the default,
    /// `mark` or `off`).
    pub fact_check: FactCheckMode,
    /// Each point of a summary links the section it comes from, `[[#Heading]]` (config
    /// `summarize.cite_sections`, default false; `[[summarize.rules]]` may turn it on or off).
    pub cite_sections: bool,
}

/// `read_file` and embed-expansion settings.
#[derive(Debug, Clone)]
pub struct ReadConfig {
    /// Nested embed depth limit (config `read.max_depth`, default 5).
    pub max_depth: usize,
    /// Total bytes of expanded text one read may produce (config `read.max_expanded_bytes`).
    pub max_expanded_bytes: usize,
    /// Default `length` of `read_file` in characters (config `read.default_length`, default 30000).
    pub default_length: usize,
    /// Describe images and transcribe audio with the LLM when a key is set (config `read.describe_media`).
    pub describe_media: bool,
    /// The largest note read, in bytes (config `read.max_note_bytes`, default 10 MiB); a larger
    /// note is refused before any byte of it is read.
    pub max_note_bytes: u64,
}

/// How embedded media is turned into text.
#[derive(Debug, Clone)]
pub struct MediaConfig {
    /// Ask the transcription endpoint for speaker diarization and show the transcript as
    /// speaker turns (config `media.diarize`, default on). Servers without diarization still
    /// give the plain transcript.
    pub diarize: bool,
}

/// Kagi settings. The key itself is read from `KAGI_API_KEY` at call time, not here.
#[derive(Debug, Clone)]
pub struct KagiConfig {
    /// `KAGI_BASE_URL`, config `kagi.base_url`.
    pub base_url: String,
    /// Search request timeout in seconds (config `kagi.search_timeout_secs`, default 30).
    pub search_timeout_secs: u64,
    /// Summarizer request timeout in seconds (config `kagi.summarize_timeout_secs`, default 180).
    pub summarize_timeout_secs: u64,
}

/// Watch-mode settings.
#[derive(Debug, Clone)]
pub struct WatchConfig {
    /// Seconds a note must stay unchanged before it is summarized (`--settle`, default 30).
    pub settle_secs: u64,
    /// Minimum body characters for a note to be summarized (`--min-chars`, default 500).
    pub min_chars: usize,
    /// LLM calls in flight at once (config `watch.concurrency`, default 2).
    pub concurrency: usize,
    /// Extra glob patterns (vault-relative) never summarized (config `watch.exclude`).
    pub exclude: Vec<String>,
    /// Summaries started per rolling hour at most (`--max-per-hour`, config
    /// `watch.max_per_hour`, default 60; 0 means no limit).
    pub max_per_hour: u32,
    /// Seconds between walks of the whole vault that catch notes whose file events were lost
    /// (config `watch.reconcile_secs`, default 300; 0 means never).
    pub reconcile_secs: u64,
    /// Refresh a summary whose note was edited after it (config `watch.refresh`, flag
    /// `--refresh`; default off): once the note settles, within the hourly limit.
    pub refresh: bool,
}

/// MCP server settings.
#[derive(Debug, Clone)]
pub struct McpConfig {
    /// `VAULTSUM_MCP_TOKEN`: bearer token required for non-loopback HTTP binds.
    pub token: Option<ApiKey>,
    /// Browser origins the HTTP server accepts besides loopback ones (config
    /// `mcp.allowed_origins`, env `VAULTSUM_MCP_ALLOWED_ORIGINS`; default none). Each is
    /// normalized by [`normalize_origin_pattern`] to `scheme://host:port` or `scheme://host:*`.
    pub allowed_origins: Vec<String>,
    /// Serve no tool that writes (config `mcp.read_only`, flag `--read-only`; default false).
    pub read_only: bool,
    /// Serve only these tools (config `mcp.tools`, flag `--tools`; default all).
    pub tools: Option<Vec<String>>,
}

/// Transcript compaction settings (seed 004).
#[derive(Debug, Clone)]
pub struct CompactionConfig {
    /// Tool results kept whole at the end of a transcript (`--keep-last`, default 3).
    pub keep_last: usize,
    /// Keep error results whole instead of stubbing them (default true).
    pub preserve_errors: bool,
    /// Longest stub in characters (default 200).
    pub max_summary_length: usize,
}

/// The whole configuration, after all layers are applied.
#[derive(Debug, Clone)]
pub struct Config {
    /// The vault root (`--vault`, `VAULTSUM_VAULT`, config `vault`).
    pub vault: Option<PathBuf>,
    /// Where image descriptions and transcripts are cached (`VAULTSUM_CACHE_DIR`, config
    /// `cache_dir`; default `$XDG_CACHE_HOME/vaultsum`). Never inside a vault.
    pub cache_dir: PathBuf,
    pub llm: LlmConfig,
    pub summarize: SummarizeConfig,
    pub read: ReadConfig,
    pub media: MediaConfig,
    pub kagi: KagiConfig,
    pub watch: WatchConfig,
    pub mcp: McpConfig,
    pub compaction: CompactionConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            vault: None,
            cache_dir: cache_dir(),
            llm: LlmConfig {
                api_key: None,
                base_url: DEFAULT_BASE_URL.to_string(),
                model: DEFAULT_MODEL.to_string(),
                summarize_model: DEFAULT_MODEL.to_string(),
                vision_model: DEFAULT_VISION_MODEL.to_string(),
                whisper_model: DEFAULT_WHISPER_MODEL.to_string(),
                audio_base_url: DEFAULT_BASE_URL.to_string(),
                timeout_secs: defaults::TIMEOUT_SECS,
                max_attempts: 4,
                max_retry_secs: 90,
                initial_backoff_ms: 500,
                context_tokens: None,
                max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
                local_server: None,
            },
            summarize: SummarizeConfig {
                engine: Engine::Auto,
                max_chars: defaults::MAX_CHARS,
                concurrency: DEFAULT_SUMMARIZE_CONCURRENCY,
                adaptive: true,
                property: defaults::SUMMARY_PROPERTY.to_string(),
                into: SummaryInto::Section,
                prompt: PromptSpec::Preset(defaults::PROMPT_PRESET),
                language: AUTO_LANGUAGE.to_string(),
                rules: Vec::new(),
                allow_links: Vec::new(),
                fact_check: FactCheckMode::Retry,
                cite_sections: defaults::CITE_SECTIONS,
            },
            read: ReadConfig {
                max_depth: defaults::MAX_DEPTH,
                max_expanded_bytes: defaults::MAX_EXPANDED_BYTES,
                default_length: 30_000,
                describe_media: true,
                max_note_bytes: crate::vault::DEFAULT_MAX_NOTE_BYTES,
            },
            media: MediaConfig { diarize: true },
            kagi: KagiConfig {
                base_url: DEFAULT_KAGI_BASE_URL.to_string(),
                search_timeout_secs: 30,
                summarize_timeout_secs: 180,
            },
            watch: WatchConfig {
                settle_secs: 30,
                min_chars: 500,
                concurrency: 2,
                exclude: Vec::new(),
                max_per_hour: 60,
                reconcile_secs: 300,
                refresh: false,
            },
            mcp: McpConfig {
                token: None,
                allowed_origins: Vec::new(),
                read_only: false,
                tools: None,
            },
            compaction: CompactionConfig {
                keep_last: 3,
                preserve_errors: true,
                max_summary_length: 200,
            },
        }
    }
}

/// The config file's shape. Every field is optional: absent keys keep the default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    vault: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    #[serde(default)]
    llm: FileLlm,
    #[serde(default)]
    summarize: FileSummarize,
    #[serde(default)]
    read: FileRead,
    #[serde(default)]
    media: FileMedia,
    #[serde(default)]
    kagi: FileKagi,
    #[serde(default)]
    watch: FileWatch,
    #[serde(default)]
    mcp: FileMcp,
    #[serde(default)]
    compaction: FileCompaction,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLlm {
    base_url: Option<String>,
    model: Option<String>,
    summarize_model: Option<String>,
    vision_model: Option<String>,
    whisper_model: Option<String>,
    audio_base_url: Option<String>,
    timeout_secs: Option<u64>,
    max_attempts: Option<u32>,
    max_retry_secs: Option<u64>,
    initial_backoff_ms: Option<u64>,
    context_tokens: Option<u64>,
    max_output_tokens: Option<u32>,
    local_server: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSummarize {
    engine: Option<Engine>,
    max_chars: Option<usize>,
    concurrency: Option<usize>,
    adaptive: Option<bool>,
    property: Option<String>,
    into: Option<SummaryInto>,
    prompt: Option<String>,
    language: Option<String>,
    rules: Option<Vec<FileRule>>,
    allow_links: Option<Vec<String>>,
    fact_check: Option<FactCheckMode>,
    cite_sections: Option<bool>,
}

/// One `[[summarize.rules]]` entry as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRule {
    folder: Option<String>,
    glob: Option<String>,
    prompt: Option<String>,
    into: Option<SummaryInto>,
    language: Option<String>,
    cite_sections: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRead {
    max_depth: Option<usize>,
    max_expanded_bytes: Option<usize>,
    default_length: Option<usize>,
    describe_media: Option<bool>,
    max_note_bytes: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMedia {
    diarize: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileKagi {
    base_url: Option<String>,
    search_timeout_secs: Option<u64>,
    summarize_timeout_secs: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileWatch {
    settle_secs: Option<u64>,
    min_chars: Option<usize>,
    concurrency: Option<usize>,
    exclude: Option<Vec<String>>,
    max_per_hour: Option<u32>,
    reconcile_secs: Option<u64>,
    refresh: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMcp {
    allowed_origins: Option<Vec<String>>,
    read_only: Option<bool>,
    tools: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCompaction {
    keep_last: Option<usize>,
    preserve_errors: Option<bool>,
    max_summary_length: Option<usize>,
}

/// A snapshot of the environment variables the configuration reads. Taking it as a value keeps
/// [`Config::load`] testable without touching the process environment.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: HashMap<String, String>,
    /// Variables of [`ENV_VARS`] whose value is not valid UTF-8 (reported by [`Config::load`]).
    not_unicode: Vec<String>,
}

impl Env {
    /// Reads the real process environment. Never panics: names or values that are not valid
    /// UTF-8 are skipped, and remembered when the variable is one the configuration reads.
    pub fn from_process() -> Env {
        Env::from_os_pairs(std::env::vars_os())
    }

    /// An environment from raw OS pairs, as [`Env::from_process`] reads them.
    pub fn from_os_pairs(
        pairs: impl IntoIterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
    ) -> Env {
        let mut env = Env::default();
        for (name, value) in pairs {
            let Ok(name) = name.into_string() else {
                continue;
            };
            match value.into_string() {
                Ok(value) => {
                    env.vars.insert(name, value);
                }
                Err(_) if ENV_VARS.contains(&name.as_str()) => env.not_unicode.push(name),
                Err(_) => {}
            }
        }
        env.not_unicode.sort();
        env
    }

    /// An environment made of the given pairs (tests).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Env {
        Env {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            not_unicode: Vec::new(),
        }
    }

    /// A variable's value; empty values count as unset.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.trim().is_empty())
    }
}

impl Config {
    /// Loads defaults, then the config file, then the environment. Flags are applied by the
    /// caller afterwards (they are the last layer).
    ///
    /// The file is `explicit_file` if given, else `VAULTSUM_CONFIG`, else
    /// `$XDG_CONFIG_HOME/vaultsum/config.toml` when it exists. An explicitly named file that
    /// does not exist is an error; the default location is optional.
    pub fn load(explicit_file: Option<&Path>, env: &Env) -> Result<Config, ConfigError> {
        if let Some(name) = env.not_unicode.first() {
            return Err(ConfigError::NotUnicode { name: name.clone() });
        }
        let mut config = Config::default();
        if let Some(path) = config_file(explicit_file, env) {
            let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                path: path.clone(),
                source,
            })?;
            let mut parsed: FileConfig = toml::from_str(&text).map_err(|e| ConfigError::Parse {
                path: path.clone(),
                message: parse_message(&text, &e),
            })?;
            if let Some(origins) = parsed.mcp.allowed_origins.take() {
                let normalized = normalize_origins(origins.iter().map(String::as_str)).map_err(
                    |(entry, why)| ConfigError::Parse {
                        path: path.clone(),
                        message: format!("mcp.allowed_origins: {entry:?}: {why}"),
                    },
                )?;
                parsed.mcp.allowed_origins = Some(normalized);
            }
            if let Some(hosts) = &parsed.summarize.allow_links {
                crate::vault::output_policy::OutputPolicy::new(hosts).map_err(|e| {
                    ConfigError::Parse {
                        path: path.clone(),
                        message: e.to_string(),
                    }
                })?;
            }
            let dir = path.parent().unwrap_or(Path::new("."));
            config
                .apply_prompts(&mut parsed.summarize, dir)
                .map_err(|message| ConfigError::Parse {
                    path: path.clone(),
                    message,
                })?;
            config.apply_file(parsed, dir);
        }
        config.apply_env(env)?;
        config.check_limits()?;
        Ok(config)
    }

    /// Defaults and the environment, without any config file: what `vaultsum doctor` goes on
    /// with after reporting a config file it cannot use.
    pub fn load_without_file(env: &Env) -> Result<Config, ConfigError> {
        if let Some(name) = env.not_unicode.first() {
            return Err(ConfigError::NotUnicode { name: name.clone() });
        }
        let mut config = Config::default();
        config.apply_env(env)?;
        config.check_limits()?;
        Ok(config)
    }

    /// Refuses time settings too large for clock arithmetic (at most [`MAX_SECONDS`]), and a
    /// summary property that is not a plain frontmatter key.
    pub fn check_limits(&self) -> Result<(), ConfigError> {
        let property = &self.summarize.property;
        let plain_key = !property.is_empty()
            && property
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if !plain_key {
            return Err(ConfigError::BadValue {
                name: "summarize.property".to_string(),
                value: property.clone(),
                expected: "a plain frontmatter key: letters, digits, _ and -",
            });
        }
        let secs = [
            ("llm.timeout_secs", self.llm.timeout_secs),
            ("llm.max_retry_secs", self.llm.max_retry_secs),
            ("kagi.search_timeout_secs", self.kagi.search_timeout_secs),
            (
                "kagi.summarize_timeout_secs",
                self.kagi.summarize_timeout_secs,
            ),
            ("watch.settle_secs", self.watch.settle_secs),
            ("watch.reconcile_secs", self.watch.reconcile_secs),
        ];
        let millis = [("llm.initial_backoff_ms", self.llm.initial_backoff_ms)];
        let too_large = secs
            .into_iter()
            .map(|(name, value)| (name, value, MAX_SECONDS))
            .chain(
                millis
                    .into_iter()
                    .map(|(name, value)| (name, value, MAX_SECONDS * 1000)),
            )
            .find(|&(_, value, max)| value > max);
        match too_large {
            Some((name, value, max)) => Err(ConfigError::TooLarge {
                name: name.to_string(),
                value,
                max,
            }),
            None => Ok(()),
        }
    }

    /// `summarize.prompt`, `summarize.language` and `[[summarize.rules]]`, checked: a rule
    /// names a folder or a glob (one of them), a prompt is a preset, a `[[note]]` or a file,
    /// a language is `auto` or a name. The message names the key.
    fn apply_prompts(&mut self, file: &mut FileSummarize, dir: &Path) -> Result<(), String> {
        if let Some(prompt) = file.prompt.take() {
            self.summarize.prompt = PromptSpec::parse_in_config(&prompt, dir, expand_tilde)
                .map_err(|e| format!("summarize.prompt: {e}"))?;
        }
        if let Some(language) = file.language.take() {
            self.summarize.language =
                parse_language(&language).map_err(|e| format!("summarize.language: {e}"))?;
        }
        for (index, rule) in file
            .rules
            .take()
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            let key = format!("summarize.rules[{}]", index + 1);
            let notes = match (&rule.folder, &rule.glob) {
                (Some(folder), None) => RuleNotes::folder(folder),
                (None, Some(glob)) => {
                    RuleNotes::glob(glob).map_err(|e| format!("{key}.glob: {e}"))?
                }
                _ => return Err(format!("{key}: give either folder or glob (one of them)")),
            };
            let prompt = rule
                .prompt
                .map(|p| PromptSpec::parse_in_config(&p, dir, expand_tilde))
                .transpose()
                .map_err(|e| format!("{key}.prompt: {e}"))?;
            let language = rule
                .language
                .map(|l| parse_language(&l))
                .transpose()
                .map_err(|e| format!("{key}.language: {e}"))?;
            self.summarize.rules.push(SummaryRule {
                notes,
                prompt,
                into: rule.into,
                language,
                cite_sections: rule.cite_sections,
            });
        }
        Ok(())
    }

    fn apply_file(&mut self, file: FileConfig, file_dir: &Path) {
        if let Some(vault) = file.vault.map(expand_tilde) {
            // A relative vault path in a config file is relative to the file, not to the cwd.
            self.vault = Some(if vault.is_relative() {
                file_dir.join(vault)
            } else {
                vault
            });
        }
        set(&mut self.cache_dir, file.cache_dir.map(expand_tilde));
        let llm = file.llm;
        let summarize_model_set = llm.summarize_model.is_some();
        let audio_base_set = llm.audio_base_url.is_some();
        set(&mut self.llm.base_url, llm.base_url);
        set(&mut self.llm.model, llm.model);
        set(&mut self.llm.summarize_model, llm.summarize_model);
        set(&mut self.llm.vision_model, llm.vision_model);
        set(&mut self.llm.whisper_model, llm.whisper_model);
        set(&mut self.llm.audio_base_url, llm.audio_base_url);
        set(&mut self.llm.timeout_secs, llm.timeout_secs);
        set(&mut self.llm.max_attempts, llm.max_attempts);
        set(&mut self.llm.max_retry_secs, llm.max_retry_secs);
        if llm.context_tokens.is_some() {
            self.llm.context_tokens = llm.context_tokens;
        }
        set(&mut self.llm.initial_backoff_ms, llm.initial_backoff_ms);
        // 0 would ask for an empty answer: taken as 1, which fails clearly as cut off.
        set(
            &mut self.llm.max_output_tokens,
            llm.max_output_tokens.map(|n| n.max(1)),
        );
        if llm.local_server.is_some() {
            self.llm.local_server = llm.local_server;
        }
        if !summarize_model_set {
            self.llm.summarize_model = self.llm.model.clone();
        }
        if !audio_base_set {
            self.llm.audio_base_url = self.llm.base_url.clone();
        }
        set(&mut self.summarize.engine, file.summarize.engine);
        set(&mut self.summarize.max_chars, file.summarize.max_chars);
        set(&mut self.summarize.concurrency, file.summarize.concurrency);
        set(&mut self.summarize.adaptive, file.summarize.adaptive);
        set(&mut self.summarize.property, file.summarize.property);
        set(&mut self.summarize.into, file.summarize.into);
        set(&mut self.summarize.allow_links, file.summarize.allow_links);
        set(&mut self.summarize.fact_check, file.summarize.fact_check);
        set(
            &mut self.summarize.cite_sections,
            file.summarize.cite_sections,
        );
        set(&mut self.read.max_depth, file.read.max_depth);
        set(
            &mut self.read.max_expanded_bytes,
            file.read.max_expanded_bytes,
        );
        set(&mut self.read.default_length, file.read.default_length);
        set(&mut self.read.describe_media, file.read.describe_media);
        set(&mut self.read.max_note_bytes, file.read.max_note_bytes);
        set(&mut self.media.diarize, file.media.diarize);
        set(&mut self.kagi.base_url, file.kagi.base_url);
        set(
            &mut self.kagi.search_timeout_secs,
            file.kagi.search_timeout_secs,
        );
        set(
            &mut self.kagi.summarize_timeout_secs,
            file.kagi.summarize_timeout_secs,
        );
        set(&mut self.watch.settle_secs, file.watch.settle_secs);
        set(&mut self.watch.min_chars, file.watch.min_chars);
        set(&mut self.watch.concurrency, file.watch.concurrency);
        set(&mut self.watch.exclude, file.watch.exclude);
        set(&mut self.watch.max_per_hour, file.watch.max_per_hour);
        set(&mut self.watch.reconcile_secs, file.watch.reconcile_secs);
        set(&mut self.watch.refresh, file.watch.refresh);
        set(&mut self.mcp.allowed_origins, file.mcp.allowed_origins);
        set(&mut self.mcp.read_only, file.mcp.read_only);
        if file.mcp.tools.is_some() {
            self.mcp.tools = file.mcp.tools;
        }
        set(&mut self.compaction.keep_last, file.compaction.keep_last);
        set(
            &mut self.compaction.preserve_errors,
            file.compaction.preserve_errors,
        );
        set(
            &mut self.compaction.max_summary_length,
            file.compaction.max_summary_length,
        );
    }

    fn apply_env(&mut self, env: &Env) -> Result<(), ConfigError> {
        if let Some(vault) = env.get("VAULTSUM_VAULT") {
            self.vault = Some(expand_tilde(PathBuf::from(vault)));
        }
        if let Some(dir) = env.get("VAULTSUM_CACHE_DIR") {
            self.cache_dir = expand_tilde(PathBuf::from(dir));
        }
        if let Some(engine) = env.get("VAULTSUM_ENGINE") {
            self.summarize.engine = Engine::parse("VAULTSUM_ENGINE", engine)?;
        }
        if let Some(mode) = env.get("VAULTSUM_FACT_CHECK") {
            self.summarize.fact_check = FactCheckMode::parse("VAULTSUM_FACT_CHECK", mode)?;
        }
        self.llm.api_key = env.get("FIREWORKS_API_KEY").and_then(ApiKey::new);
        if let Some(base) = env.get("FIREWORKS_BASE_URL").map(str::to_string) {
            // The audio endpoint follows the chat endpoint unless it was set on its own.
            if self.llm.audio_base_url == self.llm.base_url {
                self.llm.audio_base_url = base.clone();
            }
            self.llm.base_url = base;
        }
        if let Some(model) = env.get("FIREWORKS_MODEL") {
            if self.llm.summarize_model == self.llm.model {
                self.llm.summarize_model = model.to_string();
            }
            self.llm.model = model.to_string();
        }
        if let Some(model) = env.get("SUMMARIZE_MODEL") {
            self.llm.summarize_model = model.to_string();
        }
        if let Some(model) = env.get("VISION_MODEL") {
            self.llm.vision_model = model.to_string();
        }
        if let Some(model) = env.get("WHISPER_MODEL") {
            self.llm.whisper_model = model.to_string();
        }
        if let Some(audio) = env.get("FIREWORKS_AUDIO_BASE_URL") {
            self.llm.audio_base_url = audio.to_string();
        }
        if let Some(kagi) = env.get("KAGI_BASE_URL") {
            self.kagi.base_url = kagi.to_string();
        }
        self.mcp.token = env.get("VAULTSUM_MCP_TOKEN").and_then(ApiKey::new);
        if let Some(list) = env.get("VAULTSUM_MCP_ALLOWED_ORIGINS") {
            let entries = list.split([',', ' ']).filter(|e| !e.trim().is_empty());
            self.mcp.allowed_origins =
                normalize_origins(entries).map_err(|(entry, _)| ConfigError::BadValue {
                    name: "VAULTSUM_MCP_ALLOWED_ORIGINS".to_string(),
                    value: entry,
                    expected: "comma-separated origins like https://app.example.com, \
                               http://host:8080 or http://host:* (any port)",
                })?;
        }
        Ok(())
    }

    /// The engine `auto` resolves to, given whether an API key is configured.
    pub fn effective_engine(&self) -> Engine {
        match self.summarize.engine {
            Engine::Auto if self.llm.api_key.is_some() => Engine::Llm,
            Engine::Auto => Engine::Offline,
            other => other,
        }
    }
}

/// The parser's message, followed by the line it is about (which names the key), so an
/// out-of-range number says which setting it is.
fn parse_message(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().to_string();
    let Some(span) = error.span() else {
        return message;
    };
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let number = text[..start].matches('\n').count() + 1;
    match text.lines().nth(number - 1).map(str::trim) {
        Some(line) if !line.is_empty() => {
            let line: String = line.chars().take(80).collect();
            format!("{message} (line {number}: {line})")
        }
        _ => format!("{message} (line {number})"),
    }
}

/// `~/x` → `$HOME/x`, as a shell would; config files and env vars are not expanded by a shell.
/// Normalizes each entry; the first bad one is returned with the reason.
fn normalize_origins<'a>(
    entries: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<String>, (String, &'static str)> {
    entries
        .into_iter()
        .map(|entry| normalize_origin_pattern(entry).map_err(|why| (entry.to_string(), why)))
        .collect()
}

/// Normalizes an allowed-origin entry to `scheme://host:port` or `scheme://host:*`: scheme and
/// host lowercased, one trailing `/` dropped, a missing port made explicit (80 for `http`,
/// 443 for `https`, as a browser sends them; any port for other schemes). `null` is refused:
/// every sandboxed frame and `file:` page sends it, so allowing it would allow them all.
pub fn normalize_origin_pattern(entry: &str) -> Result<String, &'static str> {
    const FORM: &str = "expected an origin like https://app.example.com, http://host:8080 or \
                        http://host:* (any port), without a path";
    let entry = entry.trim();
    if entry.eq_ignore_ascii_case("null") {
        return Err("`null` cannot be allowed: sandboxed frames and file: pages all send it");
    }
    let (scheme, rest) = entry.split_once("://").ok_or(FORM)?;
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(FORM);
    }
    let scheme = scheme.to_ascii_lowercase();
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (inside, after) = v6.split_once(']').ok_or(FORM)?;
        let ok = !inside.is_empty()
            && inside
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.'));
        if !ok {
            return Err(FORM);
        }
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':').ok_or(FORM)?),
        };
        (format!("[{}]", inside.to_ascii_lowercase()), port)
    } else {
        let (host, port) = match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        };
        let ok = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if !ok {
            return Err(FORM);
        }
        (host.to_ascii_lowercase(), port)
    };
    let port = match port {
        Some("*") => "*".to_string(),
        Some(port) if port.bytes().all(|b| b.is_ascii_digit()) => match port.parse::<u16>() {
            Ok(port) if port > 0 => port.to_string(),
            _ => return Err(FORM),
        },
        Some(_) => return Err(FORM),
        None => match scheme.as_str() {
            "http" => "80".to_string(),
            "https" => "443".to_string(),
            _ => "*".to_string(),
        },
    };
    Ok(format!("{scheme}://{host}:{port}"))
}

pub(crate) fn expand_tilde(path: PathBuf) -> PathBuf {
    match (path.strip_prefix("~"), dirs::home_dir()) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path,
    }
}

fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

/// The config file [`Config::load`] reads: `explicit_file` if given, else `VAULTSUM_CONFIG`, else
/// the default location when a file is there; `None` when there is no file to read.
pub fn config_file(explicit_file: Option<&Path>, env: &Env) -> Option<PathBuf> {
    let (path, named_by) = config_file_location(explicit_file, env)?;
    (named_by != ConfigNamedBy::Default || path.is_file()).then_some(path)
}

/// What names the config file: `--config`, `VAULTSUM_CONFIG`, or nothing (the default place).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigNamedBy {
    /// `--config FILE`.
    Flag,
    /// `VAULTSUM_CONFIG`.
    Environment,
    /// Neither: [`default_config_path`].
    Default,
}

/// Where the config file is, or would be created to be read (`vaultsum config path`): the
/// precedence of [`config_file`], the default place whether or not a file is there. `None`
/// only when the system has no config folder.
pub fn config_file_location(
    explicit_file: Option<&Path>,
    env: &Env,
) -> Option<(PathBuf, ConfigNamedBy)> {
    match explicit_file {
        Some(path) => Some((path.to_path_buf(), ConfigNamedBy::Flag)),
        None => match env.get("VAULTSUM_CONFIG") {
            Some(path) => Some((PathBuf::from(path), ConfigNamedBy::Environment)),
            None => default_config_path().map(|path| (path, ConfigNamedBy::Default)),
        },
    }
}

/// `$XDG_CONFIG_HOME/vaultsum/config.toml` (or the platform equivalent).
pub fn default_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("vaultsum").join("config.toml"))
}

/// Per-user cache folder for media descriptions and transcripts, never inside a vault.
pub fn cache_dir() -> PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("vaultsum")
}

/// Per-user state folder (watch mode keeps one file per vault here).
pub fn state_dir() -> PathBuf {
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("vaultsum")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_app_engines_defaults() {
        // The plugin's in-app engine summarizes with vaultsum_engine::summary::defaults; a
        // default changed here alone would make the app and the binary write different notes.
        let config = Config::default();
        assert_eq!(config.summarize.fact_check.name(), defaults::FACT_CHECK);
        assert_eq!(config.summarize.into, SummaryInto::Section);
        assert!(config.summarize.rules.is_empty() && config.summarize.allow_links.is_empty());
    }

    fn write_config(text: &str) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), text).unwrap();
        file
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_values_are_an_error_for_our_variables_only() {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStringExt;
        let bad = || OsString::from_vec(b"x\xffy".to_vec());
        let env = Env::from_os_pairs([
            (OsString::from("OTHER"), bad()),
            (OsString::from_vec(b"N\xff".to_vec()), OsString::from("v")),
            (OsString::from("FIREWORKS_MODEL"), OsString::from("m")),
        ]);
        let config = Config::load(None, &env).unwrap();
        assert_eq!(config.llm.model, "m");
        let env = Env::from_os_pairs([(OsString::from("VAULTSUM_ENGINE"), bad())]);
        let error = Config::load(None, &env).unwrap_err().to_string();
        assert!(
            error.contains("VAULTSUM_ENGINE") && error.contains("UTF-8"),
            "{error}"
        );
    }

    #[test]
    fn time_settings_beyond_a_year_are_refused_by_name() {
        let file = write_config("[llm]\ntimeout_secs = 18446744073709551615\n");
        let error = Config::load(Some(file.path()), &Env::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains("llm.timeout_secs"), "{error}");
        let file = write_config(&format!("[watch]\nsettle_secs = {MAX_SECONDS}\n"));
        assert!(Config::load(Some(file.path()), &Env::default()).is_ok());
    }

    #[test]
    fn watch_hourly_limit_defaults_to_60_and_is_read_from_the_file() {
        let config = Config::load(None, &Env::from_pairs([("VAULTSUM_CONFIG", "")])).unwrap();
        assert_eq!(config.watch.max_per_hour, 60);
        let file = write_config("[watch]\nmax_per_hour = 0\n");
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        assert_eq!(config.watch.max_per_hour, 0);
        let file = write_config("[watch]\nmax_per_hour = -5\n");
        let error = Config::load(Some(file.path()), &Env::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains("max_per_hour"), "{error}");
    }

    #[test]
    fn out_of_range_numbers_name_their_line() {
        let file = write_config("[llm]\nmax_attempts = -1\n");
        let error = Config::load(Some(file.path()), &Env::default())
            .unwrap_err()
            .to_string();
        assert!(error.contains("line 2: max_attempts = -1"), "{error}");
    }

    #[test]
    fn defaults_apply_without_file_or_env() {
        let config = Config::load(None, &Env::from_pairs([("VAULTSUM_CONFIG", "")])).unwrap();
        assert_eq!(config.llm.base_url, DEFAULT_BASE_URL);
        assert_eq!(config.llm.summarize_model, DEFAULT_MODEL);
        assert_eq!(config.summarize.max_chars, 200_000);
        assert_eq!(config.read.max_depth, 5);
        assert_eq!(config.summarize.engine, Engine::Auto);
    }

    /// An MCP host (Claude Desktop, from packaging/mcpb/manifest.json) sets every mapped
    /// variable, optional settings left empty: empty must mean unset, not a key or a URL.
    #[test]
    fn empty_env_vars_from_an_mcp_host_count_as_unset() {
        let env = Env::from_pairs([
            ("VAULTSUM_CONFIG", ""),
            ("VAULTSUM_VAULT", "/vault"),
            ("FIREWORKS_API_KEY", ""),
            ("FIREWORKS_BASE_URL", ""),
            ("FIREWORKS_MODEL", ""),
            ("KAGI_API_KEY", ""),
        ]);
        let config = Config::load(None, &env).unwrap();
        assert!(config.llm.api_key.is_none());
        assert_eq!(config.effective_engine(), Engine::Offline);
        assert_eq!(config.llm.base_url, DEFAULT_BASE_URL);
        assert_eq!(config.llm.model, DEFAULT_MODEL);
        assert_eq!(config.vault.as_deref(), Some(Path::new("/vault")));
    }

    #[test]
    fn env_overrides_file_and_file_overrides_defaults() {
        let file = write_config(
            "[llm]\nmodel = \"file-model\"\ntimeout_secs = 7\n[summarize]\nengine = \"local\"\n",
        );
        let env = Env::from_pairs([("FIREWORKS_MODEL", "env-model")]);
        let config = Config::load(Some(file.path()), &env).unwrap();
        assert_eq!(config.llm.model, "env-model");
        assert_eq!(config.llm.summarize_model, "env-model");
        assert_eq!(config.llm.timeout_secs, 7);
        assert_eq!(config.summarize.engine, Engine::Offline);
    }

    #[test]
    fn summarize_model_defaults_to_fireworks_model_but_can_differ() {
        let env = Env::from_pairs([("FIREWORKS_MODEL", "m1"), ("SUMMARIZE_MODEL", "m2")]);
        let config = Config::load(None, &env).unwrap();
        assert_eq!(config.llm.model, "m1");
        assert_eq!(config.llm.summarize_model, "m2");
    }

    #[test]
    fn audio_base_url_follows_chat_base_url_unless_set() {
        let env = Env::from_pairs([("FIREWORKS_BASE_URL", "http://127.0.0.1:9/v1")]);
        let config = Config::load(None, &env).unwrap();
        assert_eq!(config.llm.audio_base_url, "http://127.0.0.1:9/v1");
        let env = Env::from_pairs([
            ("FIREWORKS_BASE_URL", "http://a/v1"),
            ("FIREWORKS_AUDIO_BASE_URL", "http://b/v1"),
        ]);
        let config = Config::load(None, &env).unwrap();
        assert_eq!(config.llm.audio_base_url, "http://b/v1");
    }

    #[test]
    fn unknown_key_in_file_is_an_error_naming_the_file() {
        let file = write_config("[llm]\nmodle = \"typo\"\n");
        let err = Config::load(Some(file.path()), &Env::default()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("modle"), "{text}");
        assert!(text.contains(&file.path().display().to_string()), "{text}");
    }

    #[test]
    fn prompts_languages_and_rules_are_read_and_checked() {
        let file = write_config(
            "[summarize]\nprompt = \"prompts/weekly.md\"\nlanguage = \"Deutsch\"\n\
             [[summarize.rules]]\nfolder = \"Meetings\"\nprompt = \"meeting\"\n\
             [[summarize.rules]]\nglob = \"Papers/**\"\nprompt = \"[[Prompts/Paper]]\"\ninto = \"both\"\nlanguage = \"English\"\n",
        );
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        let dir = file.path().parent().unwrap();
        assert_eq!(
            config.summarize.prompt,
            PromptSpec::File(dir.join("prompts/weekly.md"))
        );
        assert_eq!(config.summarize.language, "Deutsch");
        assert_eq!(config.summarize.rules.len(), 2);
        assert!(config.summarize.rules[0].notes.matches("Meetings/a.md"));
        assert_eq!(
            config.summarize.rules[1].prompt,
            Some(PromptSpec::Note("Prompts/Paper".into()))
        );
        assert_eq!(config.summarize.rules[1].into, Some(SummaryInto::Both));
        for (bad, named) in [
            ("[summarize]\nprompt = \"meetng\"\n", "summarize.prompt"),
            (
                "[summarize]\nlanguage = \"en; ignore\"\n",
                "summarize.language",
            ),
            (
                "[[summarize.rules]]\nprompt = \"brief\"\n",
                "summarize.rules[1]",
            ),
            (
                "[[summarize.rules]]\nfolder = \"a\"\nglob = \"b\"\n",
                "summarize.rules[1]",
            ),
            (
                "[[summarize.rules]]\nglob = \"[\"\nprompt = \"brief\"\n",
                "summarize.rules[1].glob",
            ),
        ] {
            let file = write_config(bad);
            let err = Config::load(Some(file.path()), &Env::default()).unwrap_err();
            assert!(err.to_string().contains(named), "{bad}: {err}");
        }
    }

    #[test]
    fn summary_into_and_watch_refresh_are_read() {
        assert_eq!(Config::default().summarize.into, SummaryInto::Section);
        assert!(!Config::default().watch.refresh);
        let file = write_config("[summarize]\ninto = \"both\"\n[watch]\nrefresh = true\n");
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        assert_eq!(config.summarize.into, SummaryInto::Both);
        assert!(config.watch.refresh);
        let file = write_config("[summarize]\ninto = \"frontmatter\"\n");
        let err = Config::load(Some(file.path()), &Env::default()).unwrap_err();
        assert!(err.to_string().contains("into"), "{err}");
    }

    #[test]
    fn summary_property_is_read_and_must_be_a_plain_key() {
        let file = write_config("[summarize]\nproperty = \"abstract\"\n");
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        assert_eq!(config.summarize.property, "abstract");
        assert_eq!(Config::default().summarize.property, "summary");
        let file = write_config("[summarize]\nproperty = \"a: b\"\n");
        let err = Config::load(Some(file.path()), &Env::default()).unwrap_err();
        assert!(err.to_string().contains("summarize.property"), "{err}");
    }

    #[test]
    fn missing_explicit_config_file_is_an_error() {
        let err = Config::load(
            Some(Path::new("/nonexistent/vaultsum.toml")),
            &Env::default(),
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::Read { .. }));
    }

    #[test]
    fn tilde_in_vault_path_means_home() {
        let file = write_config("vault = \"~/Notes\"\n");
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        assert_eq!(config.vault, Some(dirs::home_dir().unwrap().join("Notes")));
    }

    #[test]
    fn offline_and_its_older_name_local_are_one_engine_in_env_and_file() {
        for name in ["offline", "local", "Offline"] {
            let env = Env::from_pairs([("VAULTSUM_CONFIG", ""), ("VAULTSUM_ENGINE", name)]);
            let config = Config::load(None, &env).unwrap();
            assert_eq!(
                config.summarize.engine,
                Engine::Offline,
                "VAULTSUM_ENGINE={name}"
            );
        }
        for name in ["offline", "local"] {
            let file = write_config(&format!("[summarize]\nengine = \"{name}\"\n"));
            let config = Config::load(Some(file.path()), &Env::default()).unwrap();
            assert_eq!(
                config.summarize.engine,
                Engine::Offline,
                "engine = {name:?}"
            );
        }
        assert_eq!(Engine::Offline.to_string(), "offline");
        let refused = Engine::parse("--engine", "locall").unwrap_err().to_string();
        assert!(
            refused.contains("offline") && refused.contains("local"),
            "{refused}"
        );
    }

    #[test]
    fn bad_engine_in_env_names_the_variable() {
        let err = Config::load(None, &Env::from_pairs([("VAULTSUM_ENGINE", "gpt")])).unwrap_err();
        assert!(err.to_string().contains("VAULTSUM_ENGINE"));
    }

    #[test]
    fn allowed_origins_default_to_none_and_are_normalized() {
        assert!(Config::default().mcp.allowed_origins.is_empty());
        let cases = [
            ("https://App.Example.com", "https://app.example.com:443"),
            ("http://app.example.com/", "http://app.example.com:80"),
            ("http://host:8080", "http://host:8080"),
            ("http://host:*", "http://host:*"),
            ("http://[::1]:3000", "http://[::1]:3000"),
            ("vscode-webview://abc123", "vscode-webview://abc123:*"),
        ];
        for (entry, normalized) in cases {
            assert_eq!(normalize_origin_pattern(entry).as_deref(), Ok(normalized));
        }
        for entry in [
            "null",
            "NULL",
            "app.example.com",
            "https://",
            "https://app.example.com/path",
            "https://app.example.com:0",
            "https://app.example.com:99999",
            "https://app.example.com:+80",
            "https://user@app.example.com",
            "https://[zz]:80",
            "*",
            "",
        ] {
            assert!(
                normalize_origin_pattern(entry).is_err(),
                "{entry:?} accepted"
            );
        }
    }

    #[test]
    fn allowed_origins_from_file_and_env() {
        let file = write_config("[mcp]\nallowed_origins = [\"https://app.example.com\"]\n");
        let config = Config::load(Some(file.path()), &Env::default()).unwrap();
        assert_eq!(config.mcp.allowed_origins, ["https://app.example.com:443"]);

        let env = Env::from_pairs([(
            "VAULTSUM_MCP_ALLOWED_ORIGINS",
            "http://a.test:8080, https://b.test",
        )]);
        let config = Config::load(Some(file.path()), &env).unwrap();
        assert_eq!(
            config.mcp.allowed_origins,
            ["http://a.test:8080", "https://b.test:443"]
        );

        let bad = write_config("[mcp]\nallowed_origins = [\"null\"]\n");
        let message = Config::load(Some(bad.path()), &Env::default())
            .unwrap_err()
            .to_string();
        assert!(message.contains("mcp.allowed_origins"), "{message}");
        let env = Env::from_pairs([("VAULTSUM_MCP_ALLOWED_ORIGINS", "evil.test")]);
        let message = Config::load(None, &env).unwrap_err().to_string();
        assert!(
            message.contains("VAULTSUM_MCP_ALLOWED_ORIGINS"),
            "{message}"
        );
    }

    #[test]
    fn auto_engine_resolves_by_key_presence() {
        let config = Config::load(None, &Env::default()).unwrap();
        assert_eq!(config.effective_engine(), Engine::Offline);
        let config = Config::load(None, &Env::from_pairs([("FIREWORKS_API_KEY", "k")])).unwrap();
        assert_eq!(config.effective_engine(), Engine::Llm);
    }

    #[test]
    fn api_key_never_shows_in_debug_output() {
        let config = Config::load(
            None,
            &Env::from_pairs([("FIREWORKS_API_KEY", "sk-secret-123")]),
        )
        .unwrap();
        assert!(!format!("{config:?}").contains("sk-secret-123"));
    }
}

#[cfg(test)]
mod example_file_tests {
    use super::*;

    /// `config.example.toml` documents the defaults; it must parse and agree with them.
    #[test]
    fn example_config_parses_and_matches_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config.example.toml");
        let config = Config::load(Some(&path), &Env::default()).unwrap();
        let defaults = Config::default();
        assert_eq!(config.llm.base_url, defaults.llm.base_url);
        assert_eq!(config.llm.summarize_model, defaults.llm.summarize_model);
        assert_eq!(config.llm.timeout_secs, defaults.llm.timeout_secs);
        assert_eq!(config.llm.max_output_tokens, defaults.llm.max_output_tokens);
        assert_eq!(config.summarize.max_chars, defaults.summarize.max_chars);
        assert_eq!(config.summarize.engine, defaults.summarize.engine);
        assert_eq!(config.summarize.concurrency, defaults.summarize.concurrency);
        assert_eq!(config.summarize.adaptive, defaults.summarize.adaptive);
        assert_eq!(config.read.max_depth, defaults.read.max_depth);
        assert_eq!(config.read.default_length, defaults.read.default_length);
        assert_eq!(config.kagi.base_url, defaults.kagi.base_url);
        assert_eq!(config.watch.settle_secs, defaults.watch.settle_secs);
        assert_eq!(config.watch.min_chars, defaults.watch.min_chars);
        assert_eq!(config.watch.max_per_hour, defaults.watch.max_per_hour);
        assert_eq!(config.compaction.keep_last, defaults.compaction.keep_last);
        assert_eq!(config.mcp.allowed_origins, defaults.mcp.allowed_origins);
    }

    fn repository_file(relative: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(relative)
    }

    /// The pages that show config keys: the README and every page of `docs/`.
    fn documentation() -> Vec<(String, String)> {
        let mut pages = vec![repository_file("README.md")];
        let mut docs: Vec<_> = std::fs::read_dir(repository_file("docs"))
            .expect("docs/ exists")
            .map(|entry| entry.expect("docs/ entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            .collect();
        docs.sort();
        pages.extend(docs);
        pages
            .into_iter()
            .map(|page| {
                let text = std::fs::read_to_string(&page).expect("page reads");
                (page.display().to_string(), text)
            })
            .collect()
    }

    /// `config.example.toml` with its commented-out examples (`# context_tokens = 8192`,
    /// `# [[summarize.rules]]`) switched on: every key the file documents, set.
    fn example_with_every_key() -> String {
        let commented = regex::Regex::new(r"^# (\[\[?[a-z_.]+\]\]?|[a-z_]+ = .+)$").unwrap();
        let text = std::fs::read_to_string(repository_file("config.example.toml")).unwrap();
        text.lines()
            .map(|line| match commented.captures(line) {
                Some(found) => found[1].to_string(),
                None => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every dotted key of a TOML table (`llm.model`, `summarize.rules.folder`).
    fn dotted_keys(
        table: &toml::Table,
        prefix: &str,
        keys: &mut std::collections::BTreeSet<String>,
    ) {
        for (name, value) in table {
            let key = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            match value {
                toml::Value::Table(inner) => dotted_keys(inner, &key, keys),
                toml::Value::Array(items)
                    if items.iter().all(toml::Value::is_table) && !items.is_empty() =>
                {
                    for item in items {
                        dotted_keys(item.as_table().unwrap(), &key, keys);
                    }
                }
                _ => {}
            }
            keys.insert(key);
        }
    }

    fn load_text(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        Config::load(Some(&path), &Env::default())
    }

    /// A key the README or `docs/` shows (`summarize.into`, `llm.local_server = true`,
    /// `[mcp] allowed_origins = …`) is one `config.example.toml` documents, and the parser
    /// (which refuses unknown keys) takes the example with every key set; a TOML block they
    /// show is a config the parser takes, made of documented keys.
    #[test]
    fn every_config_key_the_documentation_shows_is_in_the_example_and_accepted() {
        let example = example_with_every_key();
        load_text(&example).unwrap_or_else(|e| panic!("the example with every key set: {e}"));
        let mut documented = std::collections::BTreeSet::new();
        dotted_keys(
            &example.parse::<toml::Table>().unwrap(),
            "",
            &mut documented,
        );
        let sections: Vec<String> = example
            .parse::<toml::Table>()
            .unwrap()
            .iter()
            .filter(|(_, value)| value.is_table())
            .map(|(name, _)| name.clone())
            .collect();
        let dotted = regex::Regex::new(r"^([a-z_]+)((?:\.[a-z_]+)+)(?: = .+)?$").unwrap();
        let bracketed = regex::Regex::new(r"^\[([a-z_]+)\] ([a-z_]+) = ").unwrap();
        let table = regex::Regex::new(r"^\[\[?([a-z_]+(?:\.[a-z_]+)*)\]\]?$").unwrap();
        // `mcp.json` is a client's file, not the key `json` of `[mcp]`.
        let file_name = regex::Regex::new(r"\.(json|toml|md|plist|service)$").unwrap();
        let mut shown = Vec::new();
        let mut missing = Vec::new();
        for (page, text) in documentation() {
            for span in text.split('`').skip(1).step_by(2) {
                let key = if file_name.is_match(span) {
                    None
                } else if let Some(found) = dotted.captures(span) {
                    sections
                        .contains(&found[1].to_string())
                        .then(|| format!("{}{}", &found[1], &found[2]))
                } else if let Some(found) = bracketed.captures(span) {
                    Some(format!("{}.{}", &found[1], &found[2]))
                } else {
                    // `[mcp]`, `[[summarize.rules]]`; not a wikilink such as `[[link]]`.
                    table
                        .captures(span)
                        .map(|found| found[1].to_string())
                        .filter(|name| sections.iter().any(|s| name.split('.').next() == Some(s)))
                };
                if let Some(key) = key {
                    if !documented.contains(&key) {
                        missing.push(format!("{page}: {key}"));
                    }
                    shown.push(key);
                }
            }
            for block in text.split("```toml\n").skip(1) {
                let block = block.split("```").next().unwrap();
                if let Err(e) = load_text(block) {
                    missing.push(format!(
                        "{page}: a TOML block the parser refuses: {e}\n{block}"
                    ));
                }
                let mut keys = std::collections::BTreeSet::new();
                dotted_keys(&block.parse::<toml::Table>().unwrap(), "", &mut keys);
                missing.extend(
                    keys.difference(&documented)
                        .map(|key| format!("{page}: {key} (TOML block)")),
                );
            }
        }
        assert!(shown.len() > 30, "the pages show config keys: {shown:?}");
        assert!(
            missing.is_empty(),
            "not in config.example.toml:\n{}",
            missing.join("\n")
        );
    }

    /// The fields a table of the config file takes, asked of the parser itself: given a key it
    /// does not know, it answers `unknown field …, expected one of `a`, `b``. `None` when
    /// `table` is not a table (a value), in either TOML form (`[t]`, `[[t]]`).
    fn fields_of_table(table: &str) -> Option<Vec<String>> {
        let probes = if table.is_empty() {
            vec!["zz_probe = 1\n".to_string()]
        } else {
            vec![
                format!("[{table}]\nzz_probe = 1\n"),
                format!("[[{table}]]\nzz_probe = 1\n"),
            ]
        };
        probes.iter().find_map(|text| {
            let error = toml::from_str::<FileConfig>(text).err()?;
            let message = error.message();
            let (_, expected) = message
                .split_once("unknown field `zz_probe`, expected ")
                .filter(|_| message.starts_with("unknown field"))?;
            Some(
                expected
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_string)
                    .collect(),
            )
        })
    }

    /// Every key the parser takes (`llm.model`, `summarize.rules.folder`), tables walked.
    fn parser_keys(table: &str, keys: &mut std::collections::BTreeSet<String>) {
        let fields = fields_of_table(table)
            .unwrap_or_else(|| panic!("the parser names no fields for [{table}]"));
        for field in fields {
            let key = if table.is_empty() {
                field
            } else {
                format!("{table}.{field}")
            };
            if fields_of_table(&key).is_some() {
                parser_keys(&key, keys);
            } else {
                keys.insert(key);
            }
        }
    }

    /// The keys `config.example.toml` sets (commented-out examples included), tables left out.
    fn example_keys() -> std::collections::BTreeSet<String> {
        let mut all = std::collections::BTreeSet::new();
        dotted_keys(
            &example_with_every_key().parse::<toml::Table>().unwrap(),
            "",
            &mut all,
        );
        all.iter()
            .filter(|key| {
                !all.iter()
                    .any(|other| other.starts_with(&format!("{key}.")))
            })
            .cloned()
            .collect()
    }

    /// Every key the parser accepts is in `config.example.toml` (with its default) and in the
    /// reference, `docs/configuration.md`, written out whole (`` `llm.timeout_secs` ``); and
    /// the example sets no key the parser would refuse.
    #[test]
    fn every_key_the_parser_takes_is_in_the_example_and_the_reference() {
        let mut parser = std::collections::BTreeSet::new();
        parser_keys("", &mut parser);
        assert!(
            parser.len() > 50 && parser.contains("summarize.rules.glob"),
            "{parser:?}"
        );
        let example = example_keys();
        assert_eq!(
            parser.difference(&example).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "keys the parser takes that config.example.toml does not show"
        );
        assert_eq!(
            example.difference(&parser).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "keys config.example.toml shows that the parser refuses"
        );
        let reference = std::fs::read_to_string(repository_file("docs/configuration.md")).unwrap();
        let missing: Vec<&String> = parser
            .iter()
            .filter(|key| !reference.contains(&format!("`{key}`")))
            .collect();
        assert!(
            missing.is_empty(),
            "keys docs/configuration.md does not document: {missing:?}"
        );
    }

    /// The environment variables the program reads, from its sources: `env.get("X")`,
    /// `env::var("X")`, `var_os("X")`, `var("X")` and the names of [`ENV_VARS`] and the key
    /// constants (`KAGI_API_KEY_VAR`, `KEY_VARIABLES`).
    fn variables_read() -> std::collections::BTreeSet<String> {
        let read = regex::Regex::new(
            r#"(?:env\.get|env::var|env::var_os|\bvar|\bvar_os)\("([A-Z][A-Z0-9_]+)"\)"#,
        )
        .unwrap();
        let constant = regex::Regex::new(r#"const [A-Z_]*VAR[A-Z_]*: [^=]+= ([^;]+);"#).unwrap();
        let name = regex::Regex::new(r#""([A-Z][A-Z0-9_]+)""#).unwrap();
        let mut found: std::collections::BTreeSet<String> =
            ENV_VARS.iter().map(|v| v.to_string()).collect();
        for root in [
            "src",
            "crates/vaultsum-engine/src",
            "crates/vaultsum-core/src",
            "crates/vaultsum-tools/src",
        ] {
            for entry in walkdir::WalkDir::new(repository_file(root)) {
                let entry = entry.unwrap();
                // What the code reads, not what its tests set up (a module's `tests.rs`, or
                // `NAME_tests.rs`, is compiled for tests only).
                if entry.path().extension().is_none_or(|ext| ext != "rs")
                    || entry.file_name() == "tests.rs"
                    || entry.file_name().to_string_lossy().ends_with("_tests.rs")
                {
                    continue;
                }
                let text = std::fs::read_to_string(entry.path()).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap();
                found.extend(read.captures_iter(code).map(|c| c[1].to_string()));
                for list in constant.captures_iter(code) {
                    found.extend(name.captures_iter(&list[1]).map(|c| c[1].to_string()));
                }
            }
        }
        found
    }

    /// Every environment variable the program reads is documented in `docs/configuration.md`,
    /// and every variable the configuration reads is one [`ENV_VARS`] lists (checked for UTF-8
    /// in one place).
    #[test]
    fn every_environment_variable_read_is_documented() {
        let read = variables_read();
        for expected in [
            "VAULTSUM_STATE_DIR",
            "KAGI_API_KEY",
            "VAULTSUM_MCP_ALLOWED_ORIGINS",
        ] {
            assert!(read.contains(expected), "{expected} not found in {read:?}");
        }
        let config =
            std::fs::read_to_string(repository_file("crates/vaultsum-core/src/config.rs")).unwrap();
        let config = config.split("#[cfg(test)]").next().unwrap();
        let got = regex::Regex::new(r#"env\.get\("([A-Z][A-Z0-9_]+)"\)"#).unwrap();
        for found in got.captures_iter(config) {
            assert!(
                ENV_VARS.contains(&&found[1]),
                "config.rs reads {} but ENV_VARS does not list it",
                &found[1]
            );
        }
        let reference = std::fs::read_to_string(repository_file("docs/configuration.md")).unwrap();
        // RUST_LOG is read by the logging library, which the sources do not name this way.
        let mut names = read;
        names.insert("RUST_LOG".to_string());
        let missing: Vec<String> = names
            .into_iter()
            .filter(|name| !reference.contains(&format!("`{name}`")))
            .collect();
        assert!(
            missing.is_empty(),
            "environment variables docs/configuration.md does not document: {missing:?}"
        );
    }
}
