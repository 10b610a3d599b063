//! The vault: its root, safe paths inside it, the note index and link resolution, markdown
//! spans, embed expansion and safe writes of summaries.
//!
//! Everything that touches the vault's files goes through [`Vault`], which refuses any path
//! that would leave the root (`..`, absolute paths elsewhere, symlinks pointing out, NUL).

pub mod attachment;
pub mod bounded;
pub mod callout;
pub mod changes;
pub mod companion;
mod confined;
pub mod embed;
pub mod error;
pub use vaultsum_engine::vault::exclusions;
pub use vaultsum_engine::vault::fragment;
pub use vaultsum_engine::vault::frontmatter_edit;
pub mod generated_note;
pub mod index;
pub use vaultsum_engine::vault::inert_check;
pub use vaultsum_engine::vault::link;
pub use vaultsum_engine::vault::markdown;
pub mod new_folders;
pub mod note_cache;
pub use vaultsum_engine::vault::note_end;
pub use vaultsum_engine::vault::note_facts;
mod note_file;
#[cfg(target_os = "linux")]
mod note_swap;
pub mod obsidian_settings;
pub use vaultsum_engine::vault::output_policy;
#[cfg(test)]
mod output_policy_tests;
pub mod paths;
pub use vaultsum_engine::vault::policy;
pub use vaultsum_engine::vault::resolve;
pub use vaultsum_engine::vault::summary_fingerprint;
pub mod walk;
pub mod write;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;

pub use attachment::{AttachmentKind, AttachmentReader, PlaceholderAttachments};
pub use bounded::{
    human_bytes, read_capped, regular_file_size, ReadLimit, SpecialFile, DEFAULT_MAX_NOTE_BYTES,
};
pub use changes::{ChangeBackend, VaultChange, VaultChanges};
pub use embed::{expand_note, expand_source, ExpandOptions, Expansion, Replacement};
pub use error::VaultError;
/// Which file a path leads to ([`VaultPath::identity`]).
pub use file_id::FileId;
pub use index::NoteIndex;
pub use note_facts::{content_hash, ContentStamp, NoteFacts, TextFacts};
pub use obsidian_settings::ObsidianSettings;
pub use output_policy::{Defused, DefusedText, LinkRule, OutputPolicy, SourceLinks};
pub use paths::VaultPath;
pub use walk::{FileTimes, FoundFile, LeftOut, LeftOutReason, Scan};
pub use write::{
    append_summary, compose_and_check, compose_with_summary, create_with_summary, write_summary,
    PropertyEdit, SectionEdit, SummaryEdit, WriteOutcome,
};

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

/// An Obsidian vault on disk, with an index of its files built when first needed and kept
/// warm by [`Vault::note_created`] / [`Vault::note_removed`] (or rebuilt by
/// [`Vault::refresh_index`]).
///
/// Opening a vault does not walk it: a server must be able to answer `initialize` and
/// `tools/list` at once, whatever the vault's size. The index is built by the vault-change
/// service when it starts (see [`VaultChanges::start`]), or else by the first call that needs
/// it (link resolution, listing); calls that arrive during a build wait for it.
#[derive(Debug)]
pub struct Vault {
    root: PathBuf,
    confined: confined::ConfinedRoot,
    /// The current index, published whole: readers take a snapshot (an `Arc`) and hold no
    /// lock while they read files; a change publishes a new index. Empty until built.
    index: ArcSwap<NoteIndex>,
    /// Whether `index` was built; held while it is (re)built, so that a change reported
    /// meanwhile is applied to the built index, never lost to it.
    index_built: Mutex<bool>,
    /// `index_built` once it is true (it never goes back): the lock-free fast path.
    index_ready: AtomicBool,
    parsed: note_cache::NoteCache,
    /// The largest note read (`read.max_note_bytes`).
    max_note_bytes: u64,
    /// Whether expansions read files on the calling thread (see
    /// [`Vault::read_files_on_caller`]) rather than on the blocking pool.
    files_on_caller: AtomicBool,
    /// Whether a note this process parsed is reused without looking at its file again (see
    /// [`Vault::keep_notes_as_first_read`]).
    kept_as_first_read: AtomicBool,
}

impl Vault {
    /// Opens the vault at `root`, without walking it (the index is built when first needed).
    /// Fails when `root` is missing or not a folder.
    pub fn open(root: &Path) -> Result<Vault, VaultError> {
        let root =
            dunce::canonicalize(root).map_err(|_| VaultError::VaultNotFound(root.to_path_buf()))?;
        if !root.is_dir() {
            return Err(VaultError::VaultNotFound(root));
        }
        Ok(Vault {
            confined: confined::ConfinedRoot::open(&root),
            root,
            index: ArcSwap::from_pointee(NoteIndex::default()),
            index_built: Mutex::new(false),
            index_ready: AtomicBool::new(false),
            parsed: note_cache::NoteCache::default(),
            max_note_bytes: DEFAULT_MAX_NOTE_BYTES,
            files_on_caller: AtomicBool::new(false),
            kept_as_first_read: AtomicBool::new(false),
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
            let path = dunce::simplified(path);
            relative_below(&self.root, path)
                .or_else(|| {
                    // Through a symlinked folder, perhaps; never on another drive or share,
                    // which would only cost a network round trip to refuse.
                    if path.components().next() != self.root.components().next() {
                        return None;
                    }
                    let real = dunce::canonicalize(path).ok()?;
                    relative_below(&self.root, &real)
                })
                .ok_or_else(escapes)?
        } else if paths::is_rooted_form(trimmed) {
            // `C:\x` on Linux, `\x` or `C:x` on Windows: not inside the vault either way.
            return Err(escapes());
        } else {
            trimmed.to_string()
        };
        let mut relative = normalize_relative(&relative).ok_or_else(escapes)?;
        if !relative.is_empty() && self.confined.is_real_path_beneath(&relative) {
            // It exists, below the root, with no symlink on the way: its own real path.
            let absolute = self.root.join(&relative);
            return Ok(VaultPath { relative, absolute });
        }
        if !relative.is_empty() && !self.root.join(&relative).exists() {
            let with_md = format!("{relative}.md");
            if self.root.join(&with_md).is_file() {
                relative = with_md;
            }
        }
        let absolute = self.confine(&relative).map_err(|error| match error {
            VaultError::NotPortable { .. } => error,
            _ => escapes(),
        })?;
        Ok(VaultPath { relative, absolute })
    }

    /// Which file the vault-relative `relative` (a real path, as the walk finds them) is on
    /// disk, as [`VaultPath::identity`]; `None` when it cannot be looked at.
    pub fn identity_of(&self, relative: &str) -> Option<FileId> {
        paths::identity_of(&self.root.join(relative))
    }

    /// Places an already vault-relative path (from the index or a link) in the vault, with the
    /// same symlink check as [`Vault::resolve_input`].
    pub fn path(&self, relative: &str) -> Result<VaultPath, VaultError> {
        let normalized = normalize_relative(relative)
            .ok_or_else(|| VaultError::Escapes(relative.to_string()))?;
        let absolute = self.confine(&normalized)?;
        Ok(VaultPath {
            relative: normalized,
            absolute,
        })
    }

    /// Where the normalised vault-relative `relative` really is, refused when it leads out of
    /// the vault ([`confine`]). A path the kernel finds below the root with no symlink on the
    /// way is its own real path, which spares the `canonicalize` of every note a batch reads.
    fn confine(&self, relative: &str) -> Result<PathBuf, VaultError> {
        if !relative.is_empty() && self.confined.is_real_path_beneath(relative) {
            return Ok(self.root.join(relative));
        }
        confine(&self.root, relative)
    }

    /// From now on, expansions read and parse files on the thread that asks, instead of
    /// handing that work to tokio's blocking pool and waiting for it. For a front end whose
    /// every task is a read (a batch `read`, its calls spread over the runtime's workers),
    /// where the two thread hand-offs per note cost about a fifth of the CPU; never for a
    /// server, whose other calls would wait behind a slow (cloud-synced, network) file.
    pub fn read_files_on_caller(&self) {
        self.files_on_caller.store(true, Ordering::Relaxed);
    }

    /// From now on, a note this process parsed is reused as it was first read, without a
    /// `stat` of its file: for a one-shot batch `read`, which shows each note as it was when
    /// the command first read it, where a note embedded by three others was looked at on disk
    /// once per embed (three `stat`s a note, a fifth of the read's file calls). Never for a
    /// server or the watcher, whose later calls must see edits.
    pub fn keep_notes_as_first_read(&self) {
        self.kept_as_first_read.store(true, Ordering::Relaxed);
    }

    /// Whether [`Vault::read_files_on_caller`] was called.
    pub(crate) fn files_on_caller(&self) -> bool {
        self.files_on_caller.load(Ordering::Relaxed)
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

    /// The text of the note at vault-relative `relative` (read confined, like every note read;
    /// invalid UTF-8 replaced), for what a person keeps in notes besides their content: a
    /// prompt note, a note's properties.
    pub fn read_note_text(&self, relative: &str) -> Result<String, VaultError> {
        let (bytes, _) = self.read_confined(relative)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
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
    /// found by walking the disk, in path order, and the note-named entries the walk left out
    /// (see [`walk`]: a symlink out, a loop, a FIFO, a name that is not UTF-8, …).
    pub fn scan_notes(&self, below: &str) -> Result<Scan, VaultError> {
        let folder = if below.is_empty() {
            self.root.clone()
        } else {
            self.path(below)?.absolute
        };
        Ok(walk::scan_notes(&self.root, &folder))
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
    /// caller uses it, whatever changes are published meanwhile. The first call builds the
    /// index (walking the vault); calls made during that build wait for it.
    pub fn index(&self) -> Arc<NoteIndex> {
        if !self.index_ready.load(Ordering::Acquire) {
            let mut built = self.lock_index_state();
            if !*built {
                self.build_index();
                *built = true;
                self.index_ready.store(true, Ordering::Release);
            }
        }
        self.index.load_full()
    }

    /// Whether the index has been built (a vault just opened has none yet).
    pub fn is_indexed(&self) -> bool {
        self.index_ready.load(Ordering::Acquire)
    }

    fn lock_index_state(&self) -> std::sync::MutexGuard<'_, bool> {
        self.index_built
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Walks the vault and publishes the index it finds; the caller holds `index_built`.
    fn build_index(&self) {
        let started = std::time::Instant::now();
        let index = index::build(&self.root);
        tracing::debug!(
            root = %self.root.display(),
            files = index.len(),
            elapsed = ?started.elapsed(),
            "vault indexed"
        );
        self.index.store(Arc::new(index));
    }

    /// Applies `change` to the index when it has been built. Before that there is nothing to
    /// change: the build, whenever it comes, reads the disk as it is then. A build in progress
    /// is waited for, so its result gets the change too.
    fn update_index(&self, change: impl Fn(&mut NoteIndex)) {
        let _built = if self.index_ready.load(Ordering::Acquire) {
            None
        } else {
            let built = self.lock_index_state();
            if !*built {
                return;
            }
            Some(built)
        };
        self.index.rcu(|current| {
            let mut next = NoteIndex::clone(current);
            change(&mut next);
            next
        });
    }

    /// A note parsed, from the cache while the file is unchanged on disk; the confinement
    /// check of [`Vault::read_confined`] is made whenever the file is (re)read.
    pub(crate) fn parsed_note(
        &self,
        relative: &str,
    ) -> Result<Arc<note_cache::ParsedNote>, VaultError> {
        // The file is looked at only when a parse of it is cached.
        if let Some(note) = self.parsed_if_unchanged(relative) {
            return Ok(note);
        }
        let (bytes, stamp) = self.read_confined(relative)?;
        let source = note_source(relative, bytes)?;
        Ok(self.parse_owned(relative, source, stamp))
    }

    /// The note at `relative` as this process parsed it before, when its file has the stamp
    /// it was read with (one stat); `None` when it was not parsed, or may have changed.
    pub(crate) fn parsed_if_unchanged(
        &self,
        relative: &str,
    ) -> Option<Arc<note_cache::ParsedNote>> {
        if self.kept_as_first_read.load(Ordering::Relaxed) {
            return self.parsed.get_as_read(relative);
        }
        self.parsed
            .get_fresh(relative, || self.confined.stamp(relative))
    }

    /// [`Vault::parse_text`] of a text already owned, which is kept rather than copied.
    pub(crate) fn parse_owned(
        &self,
        relative: &str,
        source: String,
        stamp: Option<note_cache::Stamp>,
    ) -> Arc<note_cache::ParsedNote> {
        match self.parsed.get_same_text(relative, &source) {
            Some(note) => note,
            None => self.parse_new(relative, source, stamp),
        }
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
        match self.parsed.get_same_text(relative, source) {
            Some(note) => note,
            None => self.parse_new(relative, source.to_string(), stamp),
        }
    }

    /// Parses `source`, kept for later expansions when the `stamp` of its file is known.
    fn parse_new(
        &self,
        relative: &str,
        source: String,
        stamp: Option<note_cache::Stamp>,
    ) -> Arc<note_cache::ParsedNote> {
        let note = Arc::new(note_cache::ParsedNote::new(source));
        if let Some(stamp) = stamp {
            self.parsed.insert(relative, stamp, note.clone());
        }
        note
    }

    /// Rebuilds the index from disk now (builds it, if it never was).
    pub fn refresh_index(&self) {
        {
            let mut built = self.lock_index_state();
            self.build_index();
            *built = true;
            self.index_ready.store(true, Ordering::Release);
        }
        self.parsed.clear();
    }

    /// Records a file created (or renamed into place) at the vault-relative path `rel`.
    pub fn note_created(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.update_index(|index| index.insert(&rel));
        }
    }

    /// Records a file removed (or renamed away) from the vault-relative path `rel`.
    pub fn note_removed(&self, rel: &str) {
        if let Some(rel) = normalize_relative(rel) {
            self.update_index(|index| index.remove(&rel));
            self.parsed.remove(&rel);
        }
    }
}
