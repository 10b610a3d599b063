//! Which documents are read as text, by extension (PDF, office files, tables, canvases).

/// The largest document read, in bytes (50 MiB): vaultsum-documents' `DocLimits::default`, and
/// what a host checks from the file's size before reading it (the binary's metadata check, the
/// app's `{"documents"}` entries).
pub const MAX_DOCUMENT_BYTES: u64 = 50 * 1024 * 1024;

/// The document formats extracted to text, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// `.pdf`: the text layer, page by page.
    Pdf,
    /// `.docx`: paragraphs, headings, tables.
    Docx,
    /// `.pptx`: slides with titles, body text and speaker notes.
    Pptx,
    /// `.xlsx`: each sheet a table.
    Xlsx,
    /// `.ods`: each sheet a table.
    Ods,
    /// `.csv`: one table.
    Csv,
    /// `.tsv`: one table.
    Tsv,
    /// `.canvas` (JSON Canvas): cards, links, groups and labelled edges.
    Canvas,
}

impl DocumentKind {
    /// The kind for a file name's extension (case-insensitive), `None` for other files.
    pub fn from_file_name(file_name: &str) -> Option<DocumentKind> {
        let name = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        let (stem, ext) = name.rsplit_once('.')?;
        if stem.is_empty() {
            return None;
        }
        Some(match ext.to_ascii_lowercase().as_str() {
            "pdf" => DocumentKind::Pdf,
            "docx" => DocumentKind::Docx,
            "pptx" => DocumentKind::Pptx,
            "xlsx" => DocumentKind::Xlsx,
            "ods" => DocumentKind::Ods,
            "csv" => DocumentKind::Csv,
            "tsv" => DocumentKind::Tsv,
            "canvas" => DocumentKind::Canvas,
            _ => return None,
        })
    }

    /// The format's name in messages: `PDF`, `DOCX`, ….
    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::Pdf => "PDF",
            DocumentKind::Docx => "DOCX",
            DocumentKind::Pptx => "PPTX",
            DocumentKind::Xlsx => "XLSX",
            DocumentKind::Ods => "ODS",
            DocumentKind::Csv => "CSV",
            DocumentKind::Tsv => "TSV",
            DocumentKind::Canvas => "canvas",
        }
    }
}
