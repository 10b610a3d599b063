//! Why a document could not be turned into text.

use std::path::PathBuf;

/// A document extraction failure. The variants say what was wrong with the bytes; the caller
/// knows the file and wraps it in [`DocumentFileError`] (or writes an inline marker naming it).
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    /// The document has no bytes at all.
    #[error("the {format} file is empty")]
    Empty {
        /// `PDF`, `DOCX`, … as in [`super::DocumentKind::name`].
        format: &'static str,
    },

    /// The document is larger than [`super::DocLimits::max_bytes`].
    #[error("{size} bytes is over the {limit}-byte limit for documents")]
    TooLarge {
        /// The document's size.
        size: u64,
        /// The largest size read.
        limit: u64,
    },

    /// The bytes are not a readable document of this format (truncated, corrupt, or another
    /// format under this extension).
    #[error("not a readable {format} file: {reason}")]
    Corrupt {
        /// `PDF`, `DOCX`, … as in [`super::DocumentKind::name`].
        format: &'static str,
        /// What the parser reported.
        reason: String,
    },

    /// A zip-based document (DOCX, PPTX, XLSX, ODS) would inflate past a limit: a zip bomb, or
    /// a document too large to summarize.
    #[error("refusing to unpack the {format} file: {reason}")]
    ArchiveLimit {
        /// `DOCX`, `PPTX`, `XLSX` or `ODS`.
        format: &'static str,
        /// Which limit was hit, with the numbers.
        reason: String,
    },

    /// `#page=N` names a page the PDF does not have.
    #[error("page {page} does not exist: the PDF has {pages} page(s)")]
    PageOutOfRange {
        /// The page asked for, 1-based.
        page: u32,
        /// How many pages the PDF has.
        pages: u32,
    },

    /// Extraction took longer than [`super::DocLimits::timeout`]; its thread is abandoned.
    #[error("extraction took longer than {seconds} s and was abandoned")]
    TimedOut {
        /// The time limit.
        seconds: u64,
    },

    /// The PDF is encrypted and its text could not be decrypted.
    #[error("the PDF is encrypted and cannot be read: {reason}")]
    Encrypted {
        /// Why: a password is needed, or decryption gave nothing.
        reason: &'static str,
    },

    /// The parser panicked. The panic was contained; the message is the parser's.
    #[error("the {format} parser failed on this file (a bug in the parser: {message})")]
    Panicked {
        /// `PDF`, `DOCX`, … as in [`super::DocumentKind::name`].
        format: &'static str,
        /// The panic payload, when it was a string.
        message: String,
    },
}

/// A [`DocumentError`] or a failure to stat the file, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum DocumentFileError {
    /// The file's extension is none of the document kinds ([`super::DocumentKind`]). The native
    /// host never asks (it gives other files a placeholder); a host that passes any file's
    /// bytes (vaultsum-wasm's `extractDocument`) is told so.
    #[error("cannot read {file_name} as a document: its extension is not one of .pdf, .docx, .pptx, .xlsx, .ods, .csv, .tsv or .canvas")]
    NotADocument {
        /// The file as the note names it.
        file_name: String,
    },

    /// Extraction failed.
    #[error("cannot read {file_name} as a document: {source}")]
    Extract {
        /// The file as the note names it.
        file_name: String,
        /// What went wrong.
        #[source]
        source: DocumentError,
    },

    /// The file's metadata could not be read (missing, permission denied).
    #[error("cannot read {}: {source}", path.display())]
    Stat {
        /// The file on disk.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// Not a regular file (a folder, FIFO, socket or device): reading it could block forever.
    #[error("cannot read {}: not a regular file", path.display())]
    NotAFile {
        /// The file on disk.
        path: PathBuf,
    },

    /// The file is larger than the limit; it was not read.
    #[error("cannot read {}: {size} bytes is over the {limit}-byte limit for documents", path.display())]
    TooLarge {
        /// The file on disk.
        path: PathBuf,
        /// Its size from the metadata.
        size: u64,
        /// The largest size read.
        limit: u64,
    },
}
