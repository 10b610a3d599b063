//! The vault: its root, safe paths inside it, the note index and link resolution, markdown
//! spans, embed expansion and safe writes of summaries.
//!
//! Everything that touches the vault's files goes through [`Vault`], which refuses any path
//! that would leave the root (`..`, absolute paths elsewhere, symlinks pointing out, NUL).

pub mod attachment;
pub mod bounded;
pub mod changes;
pub mod companion;
mod confined;
pub mod embed;
pub mod error;
pub mod fragment;
pub mod index;
pub mod link;
pub mod markdown;
pub mod note_cache;
pub mod note_facts;
mod note_file;
#[cfg(target_os = "linux")]
mod note_swap;
pub mod obsidian_settings;
pub mod paths;
pub mod policy;
pub mod resolve;
pub mod walk;
pub mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arc_swap::ArcSwap;

pub use attachment::{AttachmentKind, AttachmentReader, PlaceholderAttachments};
pub use bounded::{
    human_bytes, read_capped, regular_file_size, ReadLimit, SpecialFile, DEFAULT_MAX_NOTE_BYTES,
};
pub use changes::{ChangeBackend, VaultChange, VaultChanges};
pub use embed::{expand_note, expand_source, ExpandOptions, Expansion, Replacement};
pub use error::VaultError;
pub use index::NoteIndex;
pub use note_facts::{content_hash, ContentStamp, NoteFacts, TextFacts};
pub use obsidian_settings::ObsidianSettings;
pub use paths::VaultPath;
pub use walk::{FileTimes, FoundFile};
pub use write::{append_summary, compose_with_summary, create_with_summary, WriteOutcome};

use bounded::{read_error, read_open_file};
use paths::{confine, normalize_relative, relative_below};

/// The text the expander reads for a file it treats as a note: a note's bytes as UTF-8 (invalid
/// sequences replaced), and a canvas rendered as Markdown, its file cards as `![[file#subpath]]`
/// embeds, so they are expanded by the same expander, with the same cycle and depth guards.
pub(crate) fn note_source(relative: &str, bytes: Vec<u8>) -> Result<String, VaultError> {
    if policy::is_canvas_name(relative) {
        let limits = crate::media::document::DocLimits::default();
        return crate::media::document::canvas_to_markdown(&bytes, &limits)
            .map(|text| text.to_markdown())
            .map_err(|e| VaultError::InvalidCanvas {
                path: relative.to_string(),
                reason: e.to_string(),
            });
    }
    // Valid UTF-8 (nearly always) is checked by the fast validator and kept without a copy.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// An Obsidian vault on disk, with an index of its files built once and kept warm by
/// [`Vault::note_created`] / [`Vault::note_removed`] (or rebuilt by [`Vault::refresh_index`]).
#[derive(Debug)]
pub struct Vault {
    root: PathBuf,
    confined: confined::ConfinedRoot,
    /// The current index, published whole: readers take a snapshot (an `Arc`) and hold no
    /// lock while they read files; a change publishes a new index.
    index: ArcSwap<NoteIndex>,
    parsed: note_cache::NoteCache,
    /// The largest note read (`read.max_note_bytes`).
    max_note_bytes: u64,
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
            confined: confined::ConfinedRoot::open(&root),
            root,
            index: ArcSwap::from_pointee(index),
            parsed: note_cache::NoteCache::default(),
            max_note_bytes: DEFAULT_MAX_NOTE_BYTES,
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

    /// The same vault, reading notes of at most `max_bytes` bytes (`read.max_note_bytes`).
    pub fn with_max_note_bytes(mut self, max_bytes: u64) -> Vault {
        self.max_note_bytes = max_bytes;
        self
    }

    /// The limit every note read is held to.
    pub fn note_limit(&self) -> ReadLimit {
        ReadLimit::note(self.max_note_bytes)
    }

    /// The bytes of a file in the vault (a regular file within the note limit).
    pub fn read_bytes(&self, path: &VaultPath) -> Result<Vec<u8>, VaultError> {
        self.read_stamped(path).map(|(bytes, _)| bytes)
    }

    /// The bytes of a file in the vault and the stamp of the version read.
    pub(crate) fn read_stamped(
        &self,
        path: &VaultPath,
    ) -> Result<(Vec<u8>, Option<note_cache::Stamp>), VaultError> {
        let file = bounded::open_nonblocking(&path.absolute)
            .map_err(|e| read_error(&path.relative, &path.absolute, e))?;
        read_open_file(file, &path.relative, &path.absolute, self.note_limit())
    }

    /// Reads the vault-relative `relative` (a path from the index or a link), refusing it when
    /// it leads out of the vault: the kernel checks where it can, [`Vault::path`] otherwise.
    pub(crate) fn read_confined(
        &self,
        relative: &str,
    ) -> Result<(Vec<u8>, Option<note_cache::Stamp>), VaultError> {
        let file = match self.confined.open_beneath(relative) {
            confined::Beneath::Opened(file) => file,
            confined::Beneath::Failed(e) => {
                return Err(read_error(relative, &self.root.join(relative), e))
            }
            confined::Beneath::CheckSlowly => {
                let path = self.path(relative)?;
                bounded::open_nonblocking(&path.absolute)
                    .map_err(|e| read_error(relative, &path.absolute, e))?
            }
        };
        read_open_file(file, relative, &self.root.join(relative), self.note_limit())
    }

    /// The facts of the note at vault-relative `relative` and the stamp of the exact version
    /// they were read from (one confined read: the stamp comes from the open file).
    pub fn inspect(&self, relative: &str) -> Result<NoteFacts, VaultError> {
        let (bytes, stamp) = self.read_confined(relative)?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(NoteFacts {
            stamp: ContentStamp {
                hash: content_hash(&bytes),
                size: bytes.len() as u64,
                modified_ns: stamp.map_or(0, |s| s.modified_ns()),
            },
            text: note_facts::text_facts(&text),
        })
    }

    /// Every note at or below the vault-relative folder `below` (the whole vault for `""`),
    /// found by walking the disk, in path order.
    pub fn walk_notes(&self, below: &str) -> Result<Vec<FoundFile>, VaultError> {
        let folder = if below.is_empty() {
            self.root.clone()
        } else {
            self.path(below)?.absolute
        };
        Ok(walk::walk_notes(&self.root, &folder))
    }

    /// Every note (`.md`, `.markdown`, `.txt`) in the index, in path order.
    pub fn notes(&self) -> Vec<String> {
        self.index()
            .iter()
            .filter(|p| policy::is_note_name(p))
            .map(str::to_string)
            .collect()
    }

    /// A snapshot of the file index (link resolution, listing): it stays as it is while the
    /// caller uses it, whatever changes are published meanwhile.
    pub fn index(&self) -> Arc<NoteIndex> {
        self.index.load_full()
    }

    /// A note parsed, from the cache while the file is unchanged on disk; the confinement
    /// check of [`Vault::read_confined`] is made whenever the file is (re)read.
    pub(crate) fn parsed_note(
        &self,
        relative: &str,
    ) -> Result<Arc<note_cache::ParsedNote>, VaultError> {
        // The file is looked at only when a parse of it is cached.
        if let Some(note) = self
            .parsed
            .get_fresh(relative, || self.confined.stamp(relative))
        {
            return Ok(note);
        }
        let (bytes, stamp) = self.read_confined(relative)?;
        let source = note_source(relative, bytes)?;
        let note = match self.parsed.get_same_text(relative, &source) {
            Some(note) => note,
            None => Arc::new(note_cache::ParsedNote::new(source)),
        };
        if let Some(stamp) = stamp {
            self.parsed.insert(relative, stamp, note.clone());
        }
        Ok(note)
    }

    /// The parsed form of `source`, the current text of `relative`, reusing the cache when the
    /// text is the same. With the `stamp` of the file version it was read from, the parse is
    /// kept for later expansions that embed this note.
    pub(crate) fn parse_text(
        &self,
        relative: &str,
        source: &str,
        stamp: Option<note_cache::Stamp>,
    ) -> Arc<note_cache::ParsedNote> {
        if let Some(note) = self.parsed.get_same_text(relative, source) {
            return note;
        }
        let note = Arc::new(note_cache::ParsedNote::new(source.to_string()));
        if let Some(stamp) = stamp {
            self.parsed.insert(relative, stamp, note.clone());
        }
        note
    }

    /// Rebuilds the index from disk.
    pub fn refresh_index(&self) {
        let fresh = NoteIndex::build(&self.root);
        self.index.store(Arc::new(fresh));
        self.parsed.clear();
    }

    /// Records a file created (or renamed into place) at the vault-relative path `rel`.
    pub fn note_created(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.index.rcu(|current| {
                let mut next = NoteIndex::clone(current);
                next.insert(&rel);
                next
            });
        }
    }

    /// Records a file removed (or renamed away) from the vault-relative path `rel`.
    pub fn note_removed(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.index.rcu(|current| {
                let mut next = NoteIndex::clone(current);
                next.remove(&rel);
                next
            });
            self.parsed.remove(&rel);
        }
    }
}
