//! What every tool shares: the configuration, the vault (opened once, its index kept warm), the
//! LLM client when a key is configured, and the reader for embedded media.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};

use crate::config::{Config, Engine};
use crate::llm::{ChatClient, Limiter, LlmError, Usage};
use crate::vault::embed::{AttachmentReader, ExpandOptions};
use crate::vault::{AttachmentKind, OutputPolicy, Vault, VaultError};

use super::attachments::MediaAttachments;
use super::note_locks::{NoteGuard, NoteLocks};
use super::summarizer::Summarizer;

/// Why a tool could not get what it needs from the context.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    #[error(
        "no vault configured: pass --vault DIR, set VAULTSUM_VAULT, or run inside a vault (a folder with .obsidian/)"
    )]
    NoVault,
    #[error(transparent)]
    Vault(#[from] VaultError),
    #[error(transparent)]
    Llm(#[from] LlmError),
    /// A read on the blocking pool ended without an answer (the runtime is shutting down).
    #[error("the read was interrupted: {0}")]
    Interrupted(String),
}

impl ContextError {
    /// The vault's error when the vault refused (a path, a read, a write).
    pub fn vault_error(&self) -> Option<&VaultError> {
        match self {
            ContextError::Vault(error) => Some(error),
            _ => None,
        }
    }
}

/// Said once on stderr when `auto` falls back to the offline engine.
pub const LOCAL_FALLBACK_NOTICE: &str =
    "FIREWORKS_API_KEY is not set; using the built-in offline summarizer (--engine offline)";

/// The engine a summary will be made with; see [`ToolContext::engine_choice`].
#[derive(Debug, Clone)]
pub struct EngineChoice {
    /// The summarizer for the configured engine.
    pub summarizer: Summarizer,
    /// `auto` chose the offline engine because no API key is configured.
    pub fell_back_to_local: bool,
}

/// Shared state handed to every tool when the registry is built.
pub struct ToolContext {
    /// The fully layered configuration.
    pub config: Config,
    vault: Option<Arc<Vault>>,
    chat: Option<Arc<ChatClient>>,
    attachments: Arc<dyn AttachmentReader>,
    local_fallback_notice: Once,
    note_locks: NoteLocks,
    /// Cleared by a read-only server (`mcp --read-only`): no tool writes to the vault.
    writes_allowed: std::sync::atomic::AtomicBool,
    /// What a model's or Kagi's text becomes before it is written (`vault/output_policy/`).
    output_policy: OutputPolicy,
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field(
                "vault",
                &self.vault.as_ref().map(|v| v.root().to_path_buf()),
            )
            .field("llm", &self.chat.is_some())
            .finish()
    }
}

impl ToolContext {
    /// Opens the configured vault and builds the LLM client when a key is configured. A
    /// configured vault that cannot be opened is an error; no vault at all is fine until a tool
    /// needs one.
    pub fn new(config: Config) -> Result<ToolContext, ContextError> {
        let vault = match &config.vault {
            Some(root) => Some(Arc::new(
                Vault::open(root)?.with_max_note_bytes(config.read.max_note_bytes),
            )),
            None => None,
        };
        // One limiter for the process: every summary, description and transcription of every
        // front end shares what it learns about the server. Identical requests at the same
        // moment, from any process of this machine, are paid once.
        let chat = ChatClient::from_config_if_keyed(
            &config.llm,
            Limiter::from_config(&config.summarize),
            &config.cache_dir.join("answers"),
        )?;
        // The offline engine sends nothing: no picture or recording either, whatever key is
        // kept for another run ("nothing leaves this computer" is what the person was told).
        let reads_media = config.read.describe_media && config.summarize.engine != Engine::Offline;
        let attachments: Arc<dyn AttachmentReader> = Arc::new(MediaAttachments::new(
            &config,
            chat.clone().filter(|_| reads_media),
        ));
        // `summarize.allow_links` was checked when the config file was read; a list built in
        // code that does not parse widens nothing (the policy without it is the stricter one).
        let output_policy = OutputPolicy::new(&config.summarize.allow_links).unwrap_or_default();
        Ok(ToolContext {
            config,
            vault,
            chat,
            attachments,
            local_fallback_notice: Once::new(),
            note_locks: NoteLocks::default(),
            writes_allowed: std::sync::atomic::AtomicBool::new(true),
            output_policy,
        })
    }

    /// The output policy every text written into the vault goes through: a summary's section,
    /// its property, a rollup's or a web page's note.
    pub(crate) fn output_policy(&self) -> &OutputPolicy {
        &self.output_policy
    }

    /// Forbids every write to the vault from now on (`mcp --read-only`): a tool that writes
    /// only on request (a rollup's `save_to`) refuses the request.
    pub fn forbid_writes(&self) {
        self.writes_allowed
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// Reads and expands notes on the calling thread from now on (see
    /// [`Vault::read_files_on_caller`]): for the batch `read`, never for a server.
    pub fn read_files_on_caller(&self) {
        if let Some(vault) = &self.vault {
            vault.read_files_on_caller();
        }
    }

    /// Reuses every note this process parsed as it was first read, without looking at its
    /// file again (see [`Vault::keep_notes_as_first_read`]): for the batch `read`, never for
    /// a server.
    pub fn keep_notes_as_first_read(&self) {
        if let Some(vault) = &self.vault {
            vault.keep_notes_as_first_read();
        }
    }

    /// Starts building the vault's index on a thread of its own, so a command that will need
    /// it (a batch `read` of `paths`) does its own start-up work meanwhile (listing the folders
    /// it was given); the first call that needs the index waits for this build, never starts
    /// another. Not when every path names a document, image or recording: their text has no
    /// links to resolve, and walking a large vault cost more than a small PDF's whole read.
    pub fn index_vault_in_background(&self, paths: &[String]) {
        let may_need_index = |path: &String| {
            !matches!(
                AttachmentKind::of(path),
                Some(
                    AttachmentKind::Pdf
                        | AttachmentKind::Office
                        | AttachmentKind::Image
                        | AttachmentKind::Audio
                        | AttachmentKind::Video
                )
            )
        };
        if !paths.iter().any(may_need_index) {
            return;
        }
        if let Some(vault) = &self.vault {
            let vault = Arc::clone(vault);
            // Without a thread for it, the first call that needs the index builds it, as it
            // would have anyway.
            let _ = std::thread::Builder::new()
                .name("vault-index".into())
                .spawn(move || {
                    vault.index();
                });
        }
    }

    /// False once [`ToolContext::forbid_writes`] was called.
    pub fn writes_allowed(&self) -> bool {
        self.writes_allowed
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The vault, or an error telling how to configure one.
    pub(crate) fn vault(&self) -> Result<&Arc<Vault>, ContextError> {
        self.vault.as_ref().ok_or(ContextError::NoVault)
    }

    /// Holds the note `input` resolves to against every other writer of it in this process
    /// (see [`NoteLocks`]); returns the guard and the resolved vault-relative path.
    pub async fn lock_note(&self, input: &str) -> Result<(NoteGuard, String), ContextError> {
        let relative = self.vault()?.resolve_input(input)?.relative().to_string();
        let guard = self.note_locks.lock(&relative).await;
        Ok((guard, relative))
    }

    /// What the LLM client was answered so far in this process (zero without a client).
    pub fn chat_usage(&self) -> Usage {
        self.chat.as_ref().map(|c| c.usage()).unwrap_or_default()
    }

    /// The reader that describes embedded images and transcribes embedded audio.
    pub fn attachments(&self) -> &dyn AttachmentReader {
        self.attachments.as_ref()
    }

    /// Embed-expansion limits from the configuration.
    pub fn expand_options(&self) -> ExpandOptions {
        ExpandOptions {
            max_depth: self.config.read.max_depth,
            max_total_bytes: self.config.read.max_expanded_bytes,
            leave_out_summaries: None,
        }
    }

    /// How a note is expanded for a summarizer: as [`ToolContext::expand_options`], with the
    /// summaries left out (the note's `## Summary` sections and summary property, and the
    /// summaries of the notes it embeds).
    pub fn summary_expand_options(&self) -> ExpandOptions {
        ExpandOptions {
            leave_out_summaries: Some(self.config.summarize.property.clone()),
            ..self.expand_options()
        }
    }

    /// The summarizer for the configured engine. `auto` without a key falls back to the
    /// offline engine and says so once on stderr.
    pub fn summarizer(&self) -> Summarizer {
        let choice = self.engine_choice();
        if choice.fell_back_to_local {
            self.local_fallback_notice
                .call_once(|| eprintln!("vaultsum: {LOCAL_FALLBACK_NOTICE}"));
        }
        choice.summarizer
    }

    /// The summarizer for the configured engine, and whether `auto` fell back to the offline
    /// engine for want of a key, without saying so: for callers that report it themselves.
    pub fn engine_choice(&self) -> EngineChoice {
        let engine = self.config.summarize.engine;
        EngineChoice {
            summarizer: Summarizer::for_engine(engine, self.chat.clone(), &self.config.llm),
            fell_back_to_local: engine == Engine::Auto && self.chat.is_none(),
        }
    }
}

/// The nearest folder at or above `start` that contains `.obsidian/`.
pub fn find_vault_upward(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(".obsidian").is_dir())
        .map(Path::to_path_buf)
}
