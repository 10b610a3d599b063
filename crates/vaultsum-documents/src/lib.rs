//! A document's text from its bytes: PDF, DOCX, PPTX, XLSX/ODS, CSV/TSV and JSON Canvas made
//! readable as Markdown, with no I/O (no file system, clock or thread), so that the native
//! binary (through vaultsum-core) and the WebAssembly module inside Obsidian (vaultsum-wasm)
//! read a document the same way.
//!
//! Each format has one pure, synchronous function from bytes to [`DocumentText`]; [`extract`]
//! picks one by [`DocumentKind`] and contains parser panics (where panics unwind: not in
//! WebAssembly, whose panics abort the module). What needs a platform stays with the host:
//! vaultsum-core checks a file's size on disk before reading it, runs the extraction off the
//! async runtime under the time limit, and reads a PDF's pages on several threads, through
//! [`PdfPages`], starting none past that limit.

mod archive;
mod canvas;
mod delimited;
mod docx;
mod error;
mod limits;
mod pdf;
mod pdf_byte_swapped;
mod pdf_cjk_cells;
mod pdf_compound_hyphens;
mod pdf_glyph_run;
mod pdf_not_language;
mod pdf_revision5;
mod pdf_shifted_runs;
mod pdf_text_replace;
mod pdf_word_gaps;
mod pptx;
mod sheet;
mod table;
mod xml;

pub use canvas::{
    canvas_to_markdown, parse_canvas, Canvas, CanvasEdge, CanvasNode, FileRef, NodeContent,
};
pub use delimited::delimited_to_markdown;
pub use docx::docx_to_markdown;
pub use error::{DocumentError, DocumentFileError};
pub use limits::DocLimits;
pub use pdf::{pdf_to_markdown, pdf_to_markdown_with, OneByOne, OpenPdf, PageText, PdfPages};
pub use pptx::pptx_to_markdown;
pub use sheet::sheet_to_markdown;

/// A document as Markdown: labelled sections in document order, plus notes about what was left
/// out or could not be read.
///
/// Sections are the unit a reader shows as one labelled block: a PDF page (`Page 3`), a slide
/// (`Slide 2`), a sheet (`Sheet: Ledger`); formats without natural parts have one section.
/// Notes are for the reader too (`text cut at 2000000 characters`), not just logs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentText {
    /// The document's parts, in order.
    pub sections: Vec<Section>,
    /// What the extraction left out or could not read, one sentence each.
    pub notes: Vec<String>,
}

/// One labelled part of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// What the part is: `Page 3`, `Slide 2`, `Sheet: Ledger`, `Document`.
    pub label: String,
    /// Its text as Markdown (may be a marker such as a scan notice, never silently empty).
    pub markdown: String,
}

impl Section {
    fn new(label: impl Into<String>, markdown: impl Into<String>) -> Section {
        Section {
            label: label.into(),
            markdown: markdown.into(),
        }
    }
}

impl DocumentText {
    /// All sections as one Markdown text, each under a `**label**` line, notes last in italics.
    /// A plain rendering for callers that do not lay sections out themselves.
    pub fn to_markdown(&self) -> String {
        let mut parts: Vec<String> = self
            .sections
            .iter()
            .map(|s| format!("**{}**\n\n{}", s.label, s.markdown.trim_end()))
            .collect();
        parts.extend(self.notes.iter().map(|n| format!("_{n}_")));
        parts.join("\n\n")
    }

    /// Cuts the text to `max_chars` characters in total, noting the cut.
    fn cap_chars(&mut self, max_chars: usize) {
        let mut left = max_chars;
        let mut cut_at = None;
        for (i, section) in self.sections.iter_mut().enumerate() {
            let chars = section.markdown.chars().count();
            if chars <= left {
                left -= chars;
                continue;
            }
            let end = section
                .markdown
                .char_indices()
                .nth(left)
                .map_or(section.markdown.len(), |(at, _)| at);
            section.markdown.truncate(end);
            cut_at = Some(i + 1);
            break;
        }
        if let Some(keep) = cut_at {
            self.sections.truncate(keep);
            self.notes.push(format!(
                "text cut at {max_chars} characters (the document limit)"
            ));
        }
    }
}

pub use vaultsum_engine::vault::document_kind::DocumentKind;

/// Extracts `bytes` as a document of `kind`, synchronously, with a parser panic turned into
/// [`DocumentError::Panicked`] and the text capped at `limits.max_chars`. `page` (1-based) picks
/// one PDF page and is ignored for other kinds. A PDF's pages are read one by one ([`OneByOne`]),
/// with no time limit: see [`extract_with`] for a host that has threads and a clock.
pub fn extract(
    kind: DocumentKind,
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    extract_with(kind, bytes, page, limits, &OneByOne)
}

/// [`extract`], with a PDF's pages read by `pdf_pages`.
pub fn extract_with(
    kind: DocumentKind,
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
    pdf_pages: &dyn PdfPages,
) -> Result<DocumentText, DocumentError> {
    let mut text = limits::contain_panic(kind.name(), || match kind {
        DocumentKind::Pdf => pdf_to_markdown_with(bytes, page, limits, pdf_pages),
        DocumentKind::Docx => docx_to_markdown(bytes, limits),
        DocumentKind::Pptx => pptx_to_markdown(bytes, limits),
        DocumentKind::Xlsx | DocumentKind::Ods => sheet_to_markdown(kind, bytes, limits),
        DocumentKind::Csv => delimited_to_markdown(b',', bytes, limits),
        DocumentKind::Tsv => delimited_to_markdown(b'\t', bytes, limits),
        DocumentKind::Canvas => canvas_to_markdown(bytes, limits),
    })?;
    text.cap_chars(limits.max_chars);
    Ok(text)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A file under `tests/fixtures/` (made by `make_fixtures.py` there).
    pub(crate) fn fixture(name: &str) -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")).join(name)
    }

    /// The bytes of [`fixture`] `name`.
    #[allow(clippy::disallowed_methods)] // a test reads its fixture; the crate itself reads nothing
    pub(crate) fn fixture_bytes(name: &str) -> Vec<u8> {
        let path = fixture(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
    }

    #[test]
    fn kind_comes_from_the_extension_case_insensitively() {
        assert_eq!(
            DocumentKind::from_file_name("a/Café – résumé.PDF"),
            Some(DocumentKind::Pdf)
        );
        assert_eq!(
            DocumentKind::from_file_name("board.canvas"),
            Some(DocumentKind::Canvas)
        );
        assert_eq!(DocumentKind::from_file_name("movie.mp4"), None);
        assert_eq!(DocumentKind::from_file_name(".pdf"), None);
    }

    #[test]
    fn text_over_the_character_limit_is_cut_with_a_note() {
        let mut text = DocumentText {
            sections: vec![
                Section::new("Page 1", "abcdef"),
                Section::new("Page 2", "ghij"),
            ],
            notes: vec![],
        };
        text.cap_chars(8);
        assert_eq!(text.sections.len(), 2);
        assert_eq!(text.sections[1].markdown, "gh");
        assert_eq!(
            text.notes,
            ["text cut at 8 characters (the document limit)"]
        );
    }

    #[test]
    fn every_kind_reads_its_fixture_through_extract() {
        for (name, word) in [
            ("multipage.pdf", "Methods"),
            ("report.docx", "Quarterly report"),
            ("deck.pptx", "Timeline"),
            ("budget.xlsx", "Laptop"),
            ("planets.ods", "Mars"),
            ("contacts.csv", "São Paulo"),
            ("values.tsv", "v42"),
            ("board.canvas", "supports"),
            ("Café – résumé.pdf", "Curriculum"),
        ] {
            let kind = DocumentKind::from_file_name(name).unwrap();
            let text = extract(kind, &fixture_bytes(name), None, &DocLimits::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                text.to_markdown().contains(word),
                "{name}: {}",
                text.to_markdown()
            );
        }
    }

    #[test]
    fn truncated_file_of_each_kind_is_an_error_not_a_panic() {
        for name in [
            "truncated.pdf",
            "truncated.docx",
            "truncated.pptx",
            "truncated.xlsx",
            "truncated.ods",
            "corrupt.canvas",
        ] {
            let kind = DocumentKind::from_file_name(name).unwrap();
            let result = extract(kind, &fixture_bytes(name), None, &DocLimits::default());
            assert!(result.is_err(), "{name} gave {result:?}");
        }
    }
}
