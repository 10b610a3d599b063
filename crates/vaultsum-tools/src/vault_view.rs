//! What the long-running front ends may learn about the vault without touching it: the notes in
//! it, what a note says about itself, Obsidian's settings, and a stream of its changes.
//!
//! The watcher decides *when* and *whether* to summarize from these facts; *what a note is*,
//! which folders are never touched, how a note is read and stamped and how the vault is walked
//! are answered here by the vault layer, the same way for every tool.

use std::path::Path;
use std::time::Duration;

pub use crate::vault::content_hash;
pub use crate::vault::exclusions::{BadGlob, ExcludedBy, Exclusions};
pub use crate::vault::note_facts::text_facts;
pub use crate::vault::policy::is_visible_note;
pub use crate::vault::{
    ChangeBackend, ContentStamp, FileTimes, NoteFacts, ObsidianSettings, TextFacts, VaultChange,
    VaultChanges,
};
// Front ends write their own files (watch state, MCP client configs) the same all-or-nothing
// way; `stage` keeps a file's permissions.
pub use vaultsum_core::atomic_file::{stage, write_atomically, StagedFile};

use super::context::{ContextError, ToolContext};
pub use super::left_out::{LeftOut, LeftOutReason};

/// A note found by walking the vault, with its size and times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteEntry {
    /// Vault-relative path with `/` separators.
    pub path: String,
    /// Size and times as the file system reports them.
    pub times: FileTimes,
}

/// The notes a walk found, and what it left out.
#[derive(Debug, Clone, Default)]
pub struct NoteList {
    pub notes: Vec<NoteEntry>,
    pub left_out: Vec<LeftOut>,
}

impl ToolContext {
    /// The vault's root folder (canonical).
    pub fn vault_root(&self) -> Result<&Path, ContextError> {
        Ok(self.vault()?.root())
    }

    /// Every note in the vault (hidden folders left out), walked from disk now, in path order,
    /// and the entries the walk left out (a symlink out of the vault, a loop, a note deleted
    /// before its size was read, …), for the front end to say.
    pub fn list_notes(&self) -> Result<NoteList, ContextError> {
        let vault = self.vault()?;
        let scan = vault.scan_notes("")?;
        let mut list = NoteList {
            notes: Vec::with_capacity(scan.files.len()),
            left_out: scan.left_out,
        };
        for file in scan.files {
            match file.times() {
                Some(times) => list.notes.push(NoteEntry {
                    times,
                    path: file.relative,
                }),
                None => list.left_out.push(LeftOut {
                    path: file.relative,
                    reason: LeftOutReason::Deleted,
                }),
            }
        }
        Ok(list)
    }

    /// What the note at `path` says about itself, with the stamp of the version read.
    pub fn inspect_note(&self, path: &str) -> Result<NoteFacts, ContextError> {
        Ok(self.vault()?.inspect(path)?)
    }

    /// True when the index knows a file at this vault-relative path.
    pub fn file_exists(&self, path: &str) -> Result<bool, ContextError> {
        Ok(self.vault()?.index().contains(path))
    }

    /// The vault's Obsidian settings that matter for choosing notes.
    pub fn obsidian_settings(&self) -> Result<ObsidianSettings, ContextError> {
        Ok(self.vault()?.obsidian_settings())
    }

    /// Starts the vault-change service: keeps the note index in step with the disk for as long
    /// as the returned handle lives, and lets the caller subscribe to the changes.
    /// `backend` falls back to polling every `poll_interval` when the OS watcher is exhausted;
    /// every `reconcile_every` the index is rebuilt from a walk in case events were lost.
    pub fn watch_vault(
        &self,
        backend: ChangeBackend,
        poll_interval: Duration,
        reconcile_every: Duration,
    ) -> Result<VaultChanges, ContextError> {
        let vault = self.vault()?.clone();
        Ok(VaultChanges::start(
            vault,
            backend,
            poll_interval,
            reconcile_every,
        )?)
    }
}
