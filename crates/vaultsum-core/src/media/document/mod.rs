//! Documents embedded in notes (PDF, DOCX, PPTX, XLSX/ODS, CSV/TSV, JSON Canvas) made readable as
//! Markdown: vaultsum-documents' extractors (bytes to text, no I/O, shared with the WebAssembly
//! build), re-exported here at the paths the callers use, with what needs the platform.
//!
//! [`extract`] reads a PDF's pages on several threads and stops starting them at the time limit
//! (`pdf_pages.rs`), and [`extract_blocking`] runs it off the async runtime under that limit.
//! None of this knows about vaults or tools: the caller checks the file's size with
//! [`check_file_size`] before reading it, and renders the sections.

mod limits;
mod pdf_pages;

pub use limits::{check_file_size, extract_blocking};
pub use vaultsum_documents::{
    canvas_to_markdown, delimited_to_markdown, docx_to_markdown, parse_canvas, pptx_to_markdown,
    sheet_to_markdown, Canvas, CanvasEdge, CanvasNode, DocLimits, DocumentError, DocumentFileError,
    DocumentKind, DocumentText, FileRef, NodeContent, Section,
};

/// Extracts `bytes` as a document of `kind`, synchronously, with a parser panic turned into
/// [`DocumentError::Panicked`] and the text capped at `limits.max_chars`. `page` (1-based) picks
/// one PDF page and is ignored for other kinds. A PDF's pages are read on several threads, none
/// started past `limits.timeout`.
pub fn extract(
    kind: DocumentKind,
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    vaultsum_documents::extract_with(kind, bytes, page, limits, &pdf_pages::Threaded)
}

/// The text layer of a PDF, one `Page N` section per page (vaultsum-documents'
/// `pdf_to_markdown`), its pages read on several threads; pages past `limits.timeout` are left
/// out with a note.
pub fn pdf_to_markdown(
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    vaultsum_documents::pdf_to_markdown_with(bytes, page, limits, &pdf_pages::Threaded)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    /// A document fixture: they live beside the extractors, in vaultsum-documents.
    pub(crate) fn fixture(name: &str) -> PathBuf {
        PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../vaultsum-documents/tests/fixtures"
        ))
        .join(name)
    }

    /// The bytes of [`fixture`] `name`.
    pub(crate) fn fixture_bytes(name: &str) -> Vec<u8> {
        let path = fixture(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
    }
}
