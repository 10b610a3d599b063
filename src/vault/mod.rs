//! The vault: its root, safe paths inside it, the note index and link resolution, markdown
//! spans, embed expansion and safe writes of summaries.
//!
//! Everything that touches the vault's files goes through [`Vault`], which refuses any path
//! that would leave the root (`..`, absolute paths elsewhere, symlinks pointing out, NUL).

pub mod attachment;
pub mod embed;
pub mod error;
pub mod follow;
pub mod fragment;
pub mod index;
pub mod link;
pub mod markdown;
pub mod note_cache;
pub mod paths;
pub mod resolve;
pub mod write;

use std::path::{Path, PathBuf};
use std::sync::{RwLock, RwLockReadGuard};

pub use attachment::{AttachmentKind, AttachmentReader, PlaceholderAttachments};
pub use embed::{expand_note, expand_source, ExpandOptions, Expansion, Replacement};
pub use error::VaultError;
pub use index::NoteIndex;
pub use paths::VaultPath;
pub use write::{append_summary, compose_with_summary, WriteOutcome};

use paths::{confine, normalize_relative, relative_below};

/// An Obsidian vault on disk, with an index of its files built once and kept warm by
/// [`Vault::note_created`] / [`Vault::note_removed`] (or rebuilt by [`Vault::refresh_index`]).
#[derive(Debug)]
pub struct Vault {
    root: PathBuf,
    index: RwLock<NoteIndex>,
    parsed: note_cache::NoteCache,
}

impl Vault {
    /// Opens the vault at `root` and indexes its files. Fails when `root` is missing or not a folder.
    pub fn open(root: &Path) -> Result<Vault, VaultError> {
        let root = root
            .canonicalize()
            .map_err(|_| VaultError::VaultNotFound(root.to_path_buf()))?;
        if !root.is_dir() {
            return Err(VaultError::VaultNotFound(root));
        }
        let index = NoteIndex::build(&root);
        tracing::debug!(root = %root.display(), files = index.len(), "vault indexed");
        Ok(Vault {
            root,
            index: RwLock::new(index),
            parsed: note_cache::NoteCache::default(),
        })
    }

    /// The vault root (canonical, symlinks resolved).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Checks a path given by a person or an agent and places it in the vault.
    ///
    /// Accepts a vault-relative path (`Projects/Plan.md`) or an absolute path inside the vault.
    /// `Projects/Plan` finds `Projects/Plan.md` when only the latter exists. Refuses NUL bytes,
    /// `..` that climbs out, absolute paths elsewhere and symlinks whose target leaves the vault.
    /// The file need not exist (reading it then reports `note not found`).
    pub fn resolve_input(&self, input: &str) -> Result<VaultPath, VaultError> {
        if input.contains('\0') {
            return Err(VaultError::NulByte(input.to_string()));
        }
        let trimmed = input.trim();
        if trimmed.is_empty() {
            return Err(VaultError::EmptyPath);
        }
        let escapes = || VaultError::Escapes(trimmed.to_string());
        let path = Path::new(trimmed);
        let relative = if path.is_absolute() {
            relative_below(&self.root, path)
                .or_else(|| {
                    let real = path.canonicalize().ok()?;
                    relative_below(&self.root, &real)
                })
                .ok_or_else(escapes)?
        } else {
            trimmed.to_string()
        };
        let mut relative = normalize_relative(&relative).ok_or_else(escapes)?;
        if !relative.is_empty() && !self.root.join(&relative).exists() {
            let with_md = format!("{relative}.md");
            if self.root.join(&with_md).is_file() {
                relative = with_md;
            }
        }
        let absolute = confine(&self.root, &relative).map_err(|_| escapes())?;
        Ok(VaultPath { relative, absolute })
    }

    /// Places an already vault-relative path (from the index or a link) in the vault, with the
    /// same symlink check as [`Vault::resolve_input`].
    pub fn path(&self, relative: &str) -> Result<VaultPath, VaultError> {
        let normalized = normalize_relative(relative)
            .ok_or_else(|| VaultError::Escapes(relative.to_string()))?;
        let absolute = confine(&self.root, &normalized)?;
        Ok(VaultPath {
            relative: normalized,
            absolute,
        })
    }

    /// The bytes of a file in the vault.
    pub fn read_bytes(&self, path: &VaultPath) -> Result<Vec<u8>, VaultError> {
        std::fs::read(&path.absolute).map_err(|e| {
            if e.kind() == std::io::ErrorKind::IsADirectory || path.absolute.is_dir() {
                VaultError::IsFolder(path.relative.clone())
            } else {
                VaultError::io("read", &path.relative, e)
            }
        })
    }

    /// Every note (`.md`, `.markdown`, `.txt`) in the index, in path order.
    pub fn notes(&self) -> Vec<String> {
        self.index()
            .iter()
            .filter(|p| paths::is_note_name(p))
            .map(str::to_string)
            .collect()
    }

    /// Read access to the file index (link resolution, listing).
    pub fn index(&self) -> RwLockReadGuard<'_, NoteIndex> {
        self.index
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A note parsed, from the cache while the file is unchanged on disk; the symlink check of
    /// [`Vault::path`] is made whenever the file is (re)read.
    pub(crate) fn parsed_note(
        &self,
        relative: &str,
    ) -> Result<std::sync::Arc<note_cache::ParsedNote>, VaultError> {
        let metadata = std::fs::metadata(self.root.join(relative))
            .map_err(|e| VaultError::io("read", relative, e))?;
        let stamp = note_cache::Stamp::of(&metadata);
        if let Some(note) = self.parsed.get(relative, stamp) {
            return Ok(note);
        }
        let path = self.path(relative)?;
        let bytes = self.read_bytes(&path)?;
        let note = std::sync::Arc::new(note_cache::ParsedNote::new(
            String::from_utf8_lossy(&bytes).into_owned(),
        ));
        self.parsed.insert(relative, stamp, note.clone());
        Ok(note)
    }

    /// The parsed form of `source`, the current text of `relative`, reusing the cache when the
    /// text is the same.
    pub(crate) fn parse_text(
        &self,
        relative: &str,
        source: &str,
    ) -> std::sync::Arc<note_cache::ParsedNote> {
        self.parsed
            .get_same_text(relative, source)
            .unwrap_or_else(|| std::sync::Arc::new(note_cache::ParsedNote::new(source.to_string())))
    }

    /// Rebuilds the index from disk.
    pub fn refresh_index(&self) {
        let fresh = NoteIndex::build(&self.root);
        *self.index.write().unwrap_or_else(|p| p.into_inner()) = fresh;
        self.parsed.clear();
    }

    /// Records a file created (or renamed into place) at the vault-relative path `rel`.
    pub fn note_created(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.index
                .write()
                .unwrap_or_else(|p| p.into_inner())
                .insert(&rel);
        }
    }

    /// Records a file removed (or renamed away) from the vault-relative path `rel`.
    pub fn note_removed(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.index
                .write()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&rel);
            self.parsed.remove(&rel);
        }
    }
}
