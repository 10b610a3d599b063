//! The one error type of the vault layer; it owns every message a person or an agent reads.

use std::path::PathBuf;
use vaultsum_engine::vault::summary_section::SectionRefused;

/// What went wrong with a vault, a path inside it, or a write to a note.
///
/// Messages say what failed and on which path, so they can be shown as they are.
#[derive(Debug, thiserror::Error)]
pub enum VaultError {
    /// The vault root does not exist or is not a folder.
    #[error("vault not found: {0} (give an existing folder with --vault or VAULTSUM_VAULT)")]
    VaultNotFound(PathBuf),
    /// An empty path was given where a note was expected.
    #[error("empty path: give a note path relative to the vault")]
    EmptyPath,
    /// A path with a NUL byte, which no file system accepts.
    #[error("path contains a NUL byte: {0:?}")]
    NulByte(String),
    /// A path that leaves the vault (`..`, absolute elsewhere, or a symlink pointing out).
    #[error("path escapes the vault: {0}")]
    Escapes(String),
    /// A name Windows gives another meaning (a device such as `CON` or `NUL`, or a trailing dot
    /// or space it drops): reading or writing it would reach something else.
    #[error("{path}: {reason}; rename it (Windows would read or write something else)")]
    NotPortable {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The path names nothing in the vault.
    #[error("note not found: {0}")]
    NotFound(String),
    /// The path names a folder where a note was expected.
    #[error("is a folder, not a note: {0}")]
    IsFolder(String),
    /// Something that is not a regular file (a FIFO, a socket, a device): never opened for a
    /// read that could block, never read.
    #[error("not a regular file ({}): {path}", kind.describe())]
    NotRegular {
        /// What it is.
        kind: super::bounded::SpecialFile,
        /// The vault-relative path.
        path: String,
    },
    /// A file over the read cap for its kind, refused before any byte is read.
    #[error("too large to read: {path} is {}, over {limit}", super::bounded::human_bytes(*size))]
    TooLarge {
        /// The vault-relative path.
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The limit, described (`the 10.0 MB limit for a note (read.max_note_bytes)`).
        limit: String,
    },
    /// A write into a hidden folder (`.obsidian/`, `.git/`, `.trash/`, …).
    #[error("refusing to write inside {dir}/: {path}")]
    ForbiddenFolder {
        /// The hidden folder (`.obsidian`, `.git`, `.trash`, `.stversions`, …).
        dir: String,
        /// The vault-relative path that was refused.
        path: String,
    },
    /// A write to a hidden file (its name starts with `.`), which Obsidian does not show.
    #[error("refusing to write a hidden file: {0}")]
    HiddenFile(String),
    /// A write to something that is not a note.
    #[error("not a note (only .md, .markdown and .txt can be written): {0}")]
    NotANote(String),
    /// A note whose permissions forbid writing; vaultsum does not override them.
    #[error("note is read-only, not writing to it: {0}")]
    ReadOnly(String),
    /// The note kept changing while the summary was being written (another program was saving
    /// it): nothing was written, the note is as that program left it. Worth trying again later.
    #[error("note is busy (it changed while the summary was being written); it was left unchanged, try again: {0}")]
    Busy(String),
    /// The section could not be written safely: something live in what a summary write
    /// would put on disk, or a note that ends inside a block that runs or hides
    /// (`vaultsum_engine::vault::summary_section::SectionRefused`). Nothing was written.
    #[error(transparent)]
    Refused(#[from] SectionRefused),
    /// Another program holds the file open and bars others from it (Windows: an editor, an
    /// antivirus, a sync client), still after a short wait. Nothing was read or written;
    /// worth trying again later.
    #[error("note is held open by another program (an editor, an antivirus or a sync client); it was left unchanged, try again: {0}")]
    Held(String),
    /// The companion note of a document exists but does not embed the document: it is someone
    /// else's note and is never written.
    #[error("refusing to write to {path}: it exists and does not embed {document}, so it is not that document's companion note (rename it, or summarize the note itself)")]
    NotACompanion {
        /// The note at the companion's name.
        path: String,
        /// The document being summarized.
        document: String,
    },
    /// A canvas (`.canvas`) that is not valid JSON Canvas.
    #[error("not a valid canvas: {path}: {reason}")]
    InvalidCanvas {
        /// The vault-relative path.
        path: String,
        /// What the parser said.
        reason: String,
    },
    /// The summary property cannot be written: the frontmatter does not parse, or is not a set
    /// of properties.
    #[error("refusing to write the summary property of {path}: {source}; the note was left unchanged (fix the frontmatter, or write the summary as a section with --into section)")]
    Frontmatter {
        /// The vault-relative path.
        path: String,
        /// What is wrong with the frontmatter.
        source: super::frontmatter_edit::FrontmatterError,
    },
    /// A note vaultsum would generate (a rollup's `save_to`, a web page's note) exists and is
    /// not that generated note: a person's note is never overwritten.
    #[error("{path} exists and is not a note vaultsum wrote for this (it has no `{key}` property saying so); it was left unchanged: choose another name, or delete it first")]
    NotGenerated {
        /// The vault-relative path.
        path: String,
        /// The property that marks the generated note.
        key: String,
    },
    /// A generated note (a rollup's, a web page's) whose own summary is no longer as vaultsum
    /// wrote it (edited by hand, or written before vaultsum marked it), so rewriting it could
    /// drop what a person wrote: refused, the note left as it is.
    #[error("{path}: {what}; it was left unchanged so nothing written there is lost: {todo}")]
    GeneratedEdited {
        /// The vault-relative path.
        path: String,
        /// What is not as vaultsum wrote it.
        what: String,
        /// What the person can do.
        todo: &'static str,
    },
    /// A folder to create for a new note whose way goes through a symlinked folder: vaultsum
    /// creates folders only inside the vault's own folders.
    #[error("refusing to create the folder {folder}/: {link}/ on the way is a symlink (vaultsum creates folders only inside the vault's own folders); create it yourself or choose another place")]
    FolderThroughSymlink {
        /// The folder that would have been created (vault-relative).
        folder: String,
        /// The symlink on the way.
        link: String,
    },
    /// A name on the way to a new note that exists and is not a folder.
    #[error("{}", vaultsum_engine::vault::policy::not_a_folder(.0))]
    NotAFolder(String),
    /// A summary that is empty once trimmed.
    #[error("refusing to write an empty summary to {0}")]
    EmptySummary(String),
    /// An I/O failure, with the action and the path it failed on.
    #[error("could not {action} {path}: {source}")]
    Io {
        /// What was being done (`read`, `write`, ...).
        action: &'static str,
        /// The vault-relative path (or the root) it was done to.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl VaultError {
    /// Wraps an I/O error with the action and path it failed on; a missing file becomes `NotFound`.
    pub fn io(action: &'static str, path: &str, source: std::io::Error) -> VaultError {
        if source.kind() == std::io::ErrorKind::NotFound {
            return VaultError::NotFound(path.to_string());
        }
        VaultError::Io {
            action,
            path: path.to_string(),
            source,
        }
    }
}

impl From<vaultsum_engine::vault::summary_edit::EditRefused> for VaultError {
    /// The engine's refusal as the binary's error, with the same words.
    fn from(refused: vaultsum_engine::vault::summary_edit::EditRefused) -> VaultError {
        use vaultsum_engine::vault::summary_edit::EditRefused;
        match refused {
            EditRefused::Frontmatter { path, source } => VaultError::Frontmatter { path, source },
            EditRefused::GeneratedEdited { path, what, todo } => {
                VaultError::GeneratedEdited { path, what, todo }
            }
            EditRefused::NotGenerated { path, key } => VaultError::NotGenerated { path, key },
            EditRefused::Refused(refused) => VaultError::Refused(refused),
        }
    }
}
