//! PDF as Markdown: the text layer page by page, with pdf_oxide (pure Rust;
//! docs/documents-and-recordings.md says why it was chosen over pdf-extract and lopdf).

use std::ops::Range;

use pdf_oxide::PdfDocument;
use unicode_normalization::UnicodeNormalization;

use super::error::DocumentError;
use super::limits::{check_bytes, contain_panic, DocLimits};
use super::pdf_byte_swapped::unswapped;
use super::pdf_cjk_cells::{is_cjk_script, space_cjk_cells};
use super::pdf_compound_hyphens::with_compound_hyphens;
use super::pdf_glyph_run::GlyphRun;
use super::pdf_not_language::{reading, Reading};
use super::pdf_revision5::restated_as_revision_6;
use super::pdf_shifted_runs::{mark_shifted_runs, PlacedGlyph};
use super::pdf_word_gaps::space_word_gaps;
use super::{DocumentText, Section};

const FORMAT: &str = "PDF";

/// The text layer of a PDF, one `Page N` section per page; with `page` (1-based, from a
/// `#page=N` link) that page alone.
///
/// A page without a text layer (a scan) gets a marker saying so instead of an empty block, and
/// so does a page whose text cannot be read (the other pages are still returned). Ligature
/// characters (`ﬁ`, `ﬃ`) are spelled out so words are searchable. The pages are read one by one
/// ([`OneByOne`]), all of them: this crate has no clock to stop at `limits.timeout`.
pub fn pdf_to_markdown(
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    pdf_to_markdown_with(bytes, page, limits, &OneByOne)
}

/// [`pdf_to_markdown`], with the pages read by `pages_reader`; the pages it did not start (out
/// of time) are left out with a note, or make the document [`DocumentError::TimedOut`] when it
/// started none.
pub fn pdf_to_markdown_with(
    bytes: &[u8],
    page: Option<u32>,
    limits: &DocLimits,
    pages_reader: &dyn PdfPages,
) -> Result<DocumentText, DocumentError> {
    check_bytes(FORMAT, bytes, limits)?;
    // pdf_oxide is large and young: every call into it is panic-contained, so this function
    // keeps the no-panic promise even when called without `extract`.
    let doc = open(bytes)?;
    // pdf_oxide tries the empty password when it opens a file; one that needs a real password
    // would otherwise read as blank pages, and a model told "blank" summarizes nothing as if
    // that were the document.
    let (encrypted, needs_password) = contain_panic(FORMAT, || {
        let encrypted = doc.is_encrypted();
        Ok((
            encrypted,
            encrypted && matches!(doc.authenticate(b""), Ok(false)),
        ))
    })?;
    if needs_password {
        return Err(DocumentError::Encrypted {
            reason: "it needs a password to open, and vaultsum is given none",
        });
    }
    let restated = match encrypted {
        true => contain_panic(FORMAT, || Ok(restated_as_revision_6(bytes, &doc)))?,
        false => None,
    };
    let (doc, bytes) = match &restated {
        Some(restated) => {
            drop(doc);
            (open(restated)?, restated.as_slice())
        }
        None => (doc, bytes),
    };
    let count = contain_panic(FORMAT, || doc.page_count().map_err(|e| corrupt(&e)))?;
    if count == 0 {
        return Err(corrupt(&"it has no pages"));
    }
    let pages = match page {
        Some(n) if n == 0 || n as usize > count => {
            return Err(DocumentError::PageOutOfRange {
                page: n,
                pages: u32::try_from(count).unwrap_or(u32::MAX),
            })
        }
        Some(n) => (n as usize - 1)..(n as usize),
        None => 0..count,
    };
    let doc = OpenPdf { doc };
    let mut read: Vec<Option<Page>> = pages_reader
        .read(&doc, bytes, pages.clone(), limits)
        .into_iter()
        .map(|page| page.map(|PageText(page)| page))
        .collect();
    pages_reader.release(doc, bytes.len());
    settle_undecided(&mut read);
    with_compound_hyphens(read.iter_mut().filter_map(|page| match page {
        Some(Page::Text(text)) => Some(text),
        _ => None,
    }));
    let mut read = read.into_iter();
    let mut sections = Vec::new();
    let mut notes = Vec::new();
    let mut unreadable = 0usize;
    let mut texted = 0usize;
    let mut blank = 0usize;
    for index in pages.clone() {
        let number = index + 1;
        // Pages are started in order, so the first one left unread is where time ran out.
        let Some(Some(page)) = read.next() else {
            if sections.is_empty() {
                return Err(DocumentError::TimedOut {
                    seconds: limits.timeout.as_secs(),
                });
            }
            notes.push(format!(
                "pages {number}–{} left out: extraction passed the {} s time limit",
                pages.end,
                limits.timeout.as_secs()
            ));
            break;
        };
        let markdown = match page {
            // Every undecided and short page was settled after reading.
            Page::Text(text) | Page::Undecided(text) | Page::Short(text) => {
                texted += 1;
                text
            }
            Page::Marker(marker) => {
                blank += usize::from(marker == BLANK_MARKER);
                marker.to_string()
            }
            Page::Failed(e) => {
                unreadable += 1;
                format!("_[this page could not be read: {e}]_")
            }
        };
        sections.push(Section::new(format!("Page {number}"), markdown));
    }
    if unreadable == sections.len() {
        return Err(corrupt(&"no page could be read"));
    }
    says_once_when_no_page_is_readable(&mut sections);
    if encrypted && texted == 0 && blank == sections.len() {
        // Opened without a password, then every page came out with nothing on it: the
        // decryption did not work (a damaged key, or a revision-5 dictionary that
        // `pdf_revision5` could not restate).
        return Err(DocumentError::Encrypted {
            reason: "it opened without a password but every page decrypted to nothing",
        });
    }
    // A cut-off download still parses (the reader rebuilds what it can) but its pages come out
    // empty; calling them all blank or scanned would hide the real problem.
    if !has_eof_marker(bytes) {
        if texted == 0 {
            return Err(corrupt(
                &"the file is truncated (no %%EOF) and no page has text",
            ));
        }
        notes.push("the file looks truncated (no %%EOF marker): some text may be missing".into());
    }
    Ok(DocumentText { sections, notes })
}

/// The document in `bytes`, opened (a copy of the bytes is the document's own).
fn open(bytes: &[u8]) -> Result<PdfDocument, DocumentError> {
    contain_panic(FORMAT, || {
        PdfDocument::from_bytes(bytes.to_vec()).map_err(|e| corrupt(&e))
    })
}

/// The error for bytes that are not a readable PDF, saying why.
fn corrupt(reason: &dyn std::fmt::Display) -> DocumentError {
    DocumentError::Corrupt {
        format: FORMAT,
        reason: reason.to_string(),
    }
}

/// What one page gave.
#[derive(Debug)]
enum Page {
    /// Its text, cleaned.
    Text(String),
    /// Its text, cleaned, with too few letters to tell language from soup by itself
    /// ([`Reading::Undecided`]); [`settle_undecided`] makes it text or unreadable.
    Undecided(String),
    /// Its text, cleaned: a few letters, all in words ([`Reading::Short`]). Text, but no sign
    /// that the document around it is language.
    Short(String),
    /// No text to give: a scan, a blank page or an unreadable text layer.
    Marker(&'static str),
    /// The parser failed (or panicked) on this page.
    Failed(DocumentError),
}

/// How a PDF's pages are read once it is open: [`OneByOne`] here; vaultsum-core reads them on
/// several threads, each with its own [`OpenPdf::open_copy`], and starts none past the time
/// limit (a clock and threads are the host's, never this crate's).
pub trait PdfPages {
    /// One entry per page of `pages` of `pdf` (opened from `bytes`), in order: the page's
    /// [`OpenPdf::read_page`], or `None` for a page not started. What is read must be a run of
    /// pages from the first: every `None` comes after every page read.
    fn read(
        &self,
        pdf: &OpenPdf,
        bytes: &[u8],
        pages: Range<usize>,
        limits: &DocLimits,
    ) -> Vec<Option<PageText>>;

    /// Frees `pdf`, opened from `size` bytes, once its pages are read. Here, at once.
    fn release(&self, pdf: OpenPdf, size: usize) {
        let _ = size;
        drop(pdf);
    }
}

/// Every page read in turn, on the caller's thread, with no time limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct OneByOne;

impl PdfPages for OneByOne {
    fn read(
        &self,
        pdf: &OpenPdf,
        _bytes: &[u8],
        pages: Range<usize>,
        _limits: &DocLimits,
    ) -> Vec<Option<PageText>> {
        pages.map(|index| Some(pdf.read_page(index))).collect()
    }
}

/// A PDF opened for reading its pages (its own copy of the bytes).
pub struct OpenPdf {
    doc: PdfDocument,
}

impl OpenPdf {
    /// Another copy of the document in `bytes` (the bytes this one was opened from), for a
    /// thread of its own: pdf_oxide's shared object cache makes threads reading one copy wait
    /// on each other.
    pub fn open_copy(bytes: &[u8]) -> Result<OpenPdf, DocumentError> {
        open(bytes).map(|doc| OpenPdf { doc })
    }

    /// Takes over what `first` worked out for the whole document while reading its first page
    /// (running headers and footers, the structure tree) instead of working it out again.
    pub fn adopt_document_wide_results_of(&self, first: &OpenPdf) -> Result<(), DocumentError> {
        contain_panic(FORMAT, || {
            self.doc.adopt_document_wide_results_of(&first.doc);
            Ok(())
        })
    }

    /// The page at `index` (0-based), read and cleaned; its parser failing or panicking costs
    /// that page only.
    pub fn read_page(&self, index: usize) -> PageText {
        PageText(read_page(&self.doc, index))
    }
}

/// What one page gave: its text, a marker standing for it, or its failure. Opaque; its
/// `Debug` shows which, for comparing two reads.
#[derive(Debug)]
pub struct PageText(Page);

/// One page's text or the marker that stands for it. One page's parser bug costs that page,
/// not the document.
fn read_page(doc: &PdfDocument, index: usize) -> Page {
    match contain_panic(FORMAT, || doc.extract_text(index).map_err(|e| corrupt(&e))) {
        Ok(text) => {
            let text = clean(&repaired_from_runs(doc, index, unswapped(text)));
            let read = match is_unmapped_glyphs(&text) {
                true => Reading::NotLanguage,
                false => reading(&text),
            };
            if read == Reading::NotLanguage {
                Page::Marker(UNREADABLE_LAYER_MARKER)
            } else if !text.is_empty() {
                match read {
                    Reading::Undecided => Page::Undecided(text),
                    Reading::Short => Page::Short(text),
                    _ => Page::Text(text),
                }
            } else if shows_type3_glyphs(doc, index) {
                // Glyphs are drawn and none could be read. "Blank" would tell the model the
                // page says nothing.
                Page::Marker(UNREADABLE_LAYER_MARKER)
            } else if has_images(doc, index) {
                Page::Marker(SCAN_MARKER)
            } else {
                Page::Marker(BLANK_MARKER)
            }
        }
        Err(e) => Page::Failed(e),
    }
}

/// Settles each [`Page::Undecided`] page by the document it is in: where another page is
/// unreadable and none reads as language, it is the same soup with less on it (most pages of
/// data-compression.pdf: `/J3 3 93 %&00A %&’!1`), and is unreadable too; anywhere else it is
/// text (a page of figure labels). A [`Page::Short`] page (a few letters, all in words: a
/// title) is text wherever it stands, and tells nothing of the pages around it.
fn settle_undecided(pages: &mut [Option<Page>]) {
    let read = || pages.iter().flatten();
    let soup = read().any(|page| matches!(page, Page::Marker(m) if *m == UNREADABLE_LAYER_MARKER))
        && !read().any(|page| matches!(page, Page::Text(_)));
    for page in pages.iter_mut().flatten() {
        match page {
            Page::Undecided(_) if soup => *page = Page::Marker(UNREADABLE_LAYER_MARKER),
            Page::Undecided(text) | Page::Short(text) => *page = Page::Text(std::mem::take(text)),
            _ => {}
        }
    }
}

/// `text` of page `index` repaired from the page's glyph runs (cached by pdf_oxide after
/// `extract_text`: no second parse): superscripts and subscripts marked (`x^2`, `H_2O`;
/// [`mark_shifted_runs`]), the spaces pdf_oxide leaves out put back: word gaps inside a run
/// narrower than its threshold ([`space_word_gaps`]), and on a page with CJK text the gaps
/// between table cells ([`space_cjk_cells`]). Should reading the runs fail, the text is kept
/// as it came.
fn repaired_from_runs(doc: &PdfDocument, index: usize, text: String) -> String {
    if text.is_empty() {
        return text;
    }
    let Ok(spans) = contain_panic(FORMAT, || {
        doc.extract_spans_shared(index).map_err(|e| corrupt(&e))
    }) else {
        return text;
    };
    let runs: Vec<GlyphRun> = spans
        .iter()
        .map(|span| GlyphRun {
            text: &span.text,
            left: span.bbox.x,
            right: span.bbox.x + span.bbox.width,
            baseline: span.bbox.y,
            font_size: span.font_size,
            glyph_left: &span.char_x_offsets,
            glyph_width: &span.char_widths,
        })
        .collect();
    // The page's glyphs (with their own baselines, which the runs no longer have) are cached by
    // pdf_oxide too; a page whose glyphs cannot be read marks nothing.
    let text = mark_shifted_runs(text, &runs, || {
        contain_panic(FORMAT, || {
            doc.extract_chars_shared(index).map_err(|e| corrupt(&e))
        })
        .map(|chars| {
            chars
                .iter()
                .map(|c| PlacedGlyph {
                    ch: c.char,
                    left: c.origin_x,
                    baseline: c.origin_y,
                })
                .collect()
        })
        .unwrap_or_default()
    });
    let text = space_word_gaps(text, &runs);
    if !text.chars().any(is_cjk_script) {
        return text;
    }
    space_cjk_cells(text, &runs)
}

/// Shown for a page with pictures but no text: what a scanner makes.
const SCAN_MARKER: &str =
    "_[no text layer on this page: it is an image (a scan?), and no OCR was run]_";

/// Shown instead of a text layer made mostly of glyphs without a Unicode map: sent as text,
/// it would be pages of mojibake the model takes for content. Such glyphs read as replacement
/// and private-use characters ([`is_unmapped_glyphs`]), or as the punctuation, letters and
/// digits their codes land on, which is not language ([`is_not_language`]). What the page shows
/// can still be read from its picture, as a scan's is: by OCR, which vaultsum does not run.
const UNREADABLE_LAYER_MARKER: &str = "_[text layer unreadable on this page: its glyphs have no \
Unicode map, so its text is not language; OCR would read it (vaultsum runs none)]_";

/// Shown once for a document of several pages none of whose text layer can be read: the same
/// marker on every page would cost the model a line per page to learn one fact.
const UNREADABLE_DOCUMENT_MARKER: &str = "_[text layer unreadable on every page: its glyphs \
have no Unicode map, so its text is not language; OCR would read it (vaultsum runs none)]_";

/// Replaces `sections` (`Page N`, in order) by one `Pages N–M` section that says so once, when
/// each of several pages got [`UNREADABLE_LAYER_MARKER`].
fn says_once_when_no_page_is_readable(sections: &mut Vec<Section>) {
    let all_unreadable = sections.len() > 1
        && sections
            .iter()
            .all(|section| section.markdown == UNREADABLE_LAYER_MARKER);
    if !all_unreadable {
        return;
    }
    let first = sections[0].label.trim_start_matches("Page ");
    let last = sections[sections.len() - 1]
        .label
        .trim_start_matches("Page ");
    *sections = vec![Section::new(
        format!("Pages {first}–{last}"),
        UNREADABLE_DOCUMENT_MARKER,
    )];
}

/// Whether a page's text is mostly glyphs the PDF gives no Unicode for: replacement characters,
/// private-use code points and control characters, which is what a font without a
/// `ToUnicode` map yields. A few of them among real words (a symbol font's bullet) is text.
fn is_unmapped_glyphs(text: &str) -> bool {
    let (mut unmapped, mut visible) = (0usize, 0usize);
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        visible += 1;
        if c == '\u{FFFD}' || c.is_control() || ('\u{E000}'..='\u{F8FF}').contains(&c) {
            unmapped += 1;
        }
    }
    visible >= 20 && unmapped * 2 > visible
}

/// Whether page `index`'s own content stream shows glyphs (a string not only of spaces) in a
/// Type 3 font. pdf_oxide drops the glyphs of a Type 3 font with made-up glyph names and no
/// Unicode map (ocrmypdf's `type3_font_nomapping.pdf`), so such a page extracts as empty.
/// Other fonts are not counted: when their text extracts as nothing, it lies off the page
/// (ImageMagick writes a label outside a picture's page box), which is rightly not read. Asked
/// only of a page whose text is empty, so a scan or a blank page pays one parse of a short
/// stream; text inside a form XObject is not looked for.
fn shows_type3_glyphs(doc: &PdfDocument, index: usize) -> bool {
    use pdf_oxide::content::{parse_content_stream, Operator, TextElement};
    use pdf_oxide::object::Object;
    let resolved = |object: &Object| match object.as_reference() {
        Some(reference) => doc.load_object(reference).ok(),
        None => Some(object.clone()),
    };
    let shown = |bytes: &[u8]| bytes.iter().any(|&b| b != b' ');
    contain_panic(FORMAT, || {
        let data = doc.get_page_content_data(index).map_err(|e| corrupt(&e))?;
        let operators = parse_content_stream(&data).map_err(|e| corrupt(&e))?;
        let page = doc.get_page(index).map_err(|e| corrupt(&e))?;
        let fonts = page
            .as_dict()
            .and_then(|page| page.get("Resources"))
            .and_then(resolved)
            .and_then(|resources| resources.as_dict()?.get("Font").and_then(resolved));
        let is_type3 = |name: &str| {
            let font = fonts.as_ref()?.as_dict()?.get(name).and_then(resolved)?;
            let subtype = font.as_dict()?.get("Subtype")?.as_name()? == "Type3";
            Some(subtype)
        };
        let mut in_type3 = false;
        for operator in &operators {
            let text_shown = match operator {
                Operator::Tf { font, .. } => {
                    in_type3 = is_type3(font).unwrap_or(false);
                    false
                }
                Operator::Tj { text }
                | Operator::Quote { text }
                | Operator::DoubleQuote { text, .. } => shown(text),
                Operator::TJ { array } => array
                    .iter()
                    .any(|element| matches!(element, TextElement::String(text) if shown(text))),
                _ => false,
            };
            if in_type3 && text_shown {
                return Ok(true);
            }
        }
        Ok(false)
    })
    .unwrap_or(false)
}

/// Shown for a page with neither text nor pictures.
const BLANK_MARKER: &str = "_[blank page: no text and no images]_";

/// Whether the page draws any image. pdf_oxide's `has_text_layer` is not used: it answers
/// `true` for a scanned page whose resources merely list a font (reportlab does this). The
/// images are found, not decoded: decoding a scan's pages to learn they exist took 200 ms for
/// four pages (ocrmypdf's `multipage.pdf`), 100 times what PDFium takes to read the file.
fn has_images(doc: &PdfDocument, index: usize) -> bool {
    contain_panic(FORMAT, || {
        Ok(doc
            .page_image_handles(index)
            .map(|images| !images.is_empty()))
    })
    .ok()
    .and_then(Result::ok)
    .unwrap_or(false)
}

/// Whether `%%EOF` appears in the last KB, where every complete PDF has it (writers may add a
/// little garbage after it, which readers tolerate).
fn has_eof_marker(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    tail.windows(5).any(|w| w == b"%%EOF")
}

/// Extracted text made readable: ligatures spelled out, composed Unicode (NFC), trailing spaces
/// and runs of blank lines removed, and a word hyphenated at a line's end joined again
/// (`amoun-` / `ting` reads `amounting`; `self-` / `Evident` keeps its hyphen).
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    let mut lines = text.lines().peekable();
    let mut joined = false;
    while let Some(line) = lines.next() {
        let mut line = line.trim_end();
        if std::mem::take(&mut joined) {
            line = line.trim_start();
        }
        let next = lines.peek().map(|l| l.trim_start());
        let hyphenated = next.is_some_and(|next| ends_with_hyphenated_word(line, next));
        if hyphenated {
            line = &line[..line.len() - 1];
        }
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        for c in line.nfc() {
            match ligature(c) {
                Some(spelled) => out.push_str(spelled),
                None => out.push(c),
            }
        }
        if hyphenated {
            // The next line continues this one, starting with the rest of the word.
            joined = true;
            continue;
        }
        out.push('\n');
    }
    out.trim().to_string()
}

/// A line ending in `letter-` whose next line starts with a lowercase letter: a word the
/// typesetter broke, not a compound (`well-` / `Known`) or a dash.
fn ends_with_hyphenated_word(line: &str, next: &str) -> bool {
    let Some(stem) = line.strip_suffix('-') else {
        return false;
    };
    let before_hyphen = stem.chars().next_back();
    let after_break = next.chars().next();
    before_hyphen.is_some_and(char::is_alphabetic) && after_break.is_some_and(char::is_lowercase)
}

/// The letters of a Latin ligature character (U+FB00–U+FB06).
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{FB00}' => "ff",
        '\u{FB01}' => "fi",
        '\u{FB02}' => "fl",
        '\u{FB03}' => "ffi",
        '\u{FB04}' => "ffl",
        '\u{FB05}' | '\u{FB06}' => "st",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    fn pdf(name: &str, page: Option<u32>) -> DocumentText {
        pdf_to_markdown(&fixture_bytes(name), page, &DocLimits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    #[test]
    fn pdf_pages_become_labelled_sections_in_order() {
        let text = pdf("multipage.pdf", None);
        let labels: Vec<&str> = text.sections.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["Page 1", "Page 2", "Page 3"]);
        for (section, word) in text
            .sections
            .iter()
            .zip(["Introduction", "Methods", "Results"])
        {
            assert!(
                section.markdown.contains(&format!("{word} on page")),
                "{section:?}"
            );
        }
        assert!(text.sections[1]
            .markdown
            .contains("Line 8 of page 2 mentions the methods section."));
    }

    /// What a page gave, comparable: its text or marker, or the failure's message.
    fn shown(page: &Option<Page>) -> Option<String> {
        page.as_ref().map(|page| match page {
            Page::Text(text) | Page::Undecided(text) | Page::Short(text) => text.clone(),
            Page::Marker(marker) => marker.to_string(),
            Page::Failed(e) => e.to_string(),
        })
    }

    #[test]
    fn a_page_reads_the_same_from_the_spans_the_whole_document_pass_kept() {
        // pdf_oxide extracts every page once before the first page's text (running headers
        // and footers); the patched copy keeps those spans for each page's own read, and a
        // second copy of the document takes them over (vendor/VENDORED.md).
        let bytes = fixture_bytes("multipage.pdf");
        let fresh: Vec<String> = (0..3)
            .map(|index| {
                let doc = PdfDocument::from_bytes(bytes.clone()).unwrap();
                doc.extract_text(index).unwrap()
            })
            .collect();
        let first = PdfDocument::from_bytes(bytes.clone()).unwrap();
        assert_eq!(first.extract_text(0).unwrap(), fresh[0]);
        assert_eq!(first.extract_text(2).unwrap(), fresh[2]);
        let second = PdfDocument::from_bytes(bytes).unwrap();
        second.adopt_document_wide_results_of(&first);
        assert_eq!(second.extract_text(1).unwrap(), fresh[1]);
    }

    #[test]
    fn a_raised_exponent_reads_as_one_not_as_part_of_the_number() {
        // pdfTeX's `x² = 9`: pdf_oxide joins the raised `2` to the `x` (`x2 = 9`).
        let text = pdf("superscript-pdftex.pdf", None);
        assert_eq!(
            text.sections[0].markdown.trim(),
            "x^2 = 9 means x ∈ {3, −3}."
        );
    }

    #[test]
    fn pdf_page_fragment_returns_only_that_page() {
        let text = pdf("multipage.pdf", Some(2));
        assert_eq!(text.sections.len(), 1);
        assert_eq!(text.sections[0].label, "Page 2");
        assert!(text.sections[0].markdown.contains("Methods on page 2"));
        assert!(!text.sections[0].markdown.contains("Introduction"));
    }

    #[test]
    fn pdf_page_past_the_end_is_an_error() {
        let err = pdf_to_markdown(
            &fixture_bytes("multipage.pdf"),
            Some(4),
            &DocLimits::default(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "page 4 does not exist: the PDF has 3 page(s)"
        );
        assert!(pdf_to_markdown(
            &fixture_bytes("multipage.pdf"),
            Some(0),
            &DocLimits::default()
        )
        .is_err());
    }

    #[test]
    fn pdf_scanned_page_gets_a_marker_not_an_empty_block() {
        let text = pdf("scanned.pdf", None);
        assert!(text.sections[0]
            .markdown
            .contains("Cover letter with a real text layer."));
        assert_eq!(text.sections[1].markdown, SCAN_MARKER);
    }

    #[test]
    fn a_page_of_type3_glyphs_without_unicode_is_unreadable_not_blank() {
        let text = pdf("type3-unmapped.pdf", None);
        assert_eq!(text.sections[0].markdown, UNREADABLE_LAYER_MARKER);
        // Text in an ordinary font that extracts as nothing (a label ImageMagick draws outside
        // the page box) is not taken for it: those pages are pictures.
        let pictures = pdf("offpage-labels.pdf", None);
        assert!(pictures.sections.len() > 1);
        for section in &pictures.sections {
            assert_eq!(section.markdown, SCAN_MARKER, "{}", section.label);
        }
    }

    #[test]
    fn pages_whose_codes_land_on_punctuation_are_unreadable_and_the_real_page_is_kept() {
        let text = pdf("punctuation-codes.pdf", None);
        let pages: Vec<(&str, &str)> = text
            .sections
            .iter()
            .map(|s| (s.label.as_str(), s.markdown.as_str()))
            .collect();
        assert_eq!(
            pages,
            [
                (
                    "Page 1",
                    "Summary of the pump survey\nThis page is set in Helvetica and reads as it is written."
                ),
                ("Page 2", UNREADABLE_LAYER_MARKER),
                ("Page 3", UNREADABLE_LAYER_MARKER),
            ]
        );
        // A page asked for alone says the same.
        let page = pdf("punctuation-codes.pdf", Some(3));
        assert_eq!(page.sections[0].markdown, UNREADABLE_LAYER_MARKER);
    }

    #[test]
    fn pages_whose_codes_land_on_letters_and_symbols_are_unreadable_and_the_real_page_is_kept() {
        // The text of `punctuation-codes.pdf` in a font whose codes land on letters, digits and
        // punctuation alike: its layer reads `rNCh:<C co </N ihui Ch;INe`.
        let text = pdf("scrambled-codes.pdf", None);
        let pages: Vec<(&str, &str)> = text
            .sections
            .iter()
            .map(|s| (s.label.as_str(), s.markdown.as_str()))
            .collect();
        assert_eq!(
            pages,
            [
                (
                    "Page 1",
                    "Summary of the pump survey\nThis page is set in Helvetica and reads as it is written."
                ),
                ("Page 2", UNREADABLE_LAYER_MARKER),
                ("Page 3", UNREADABLE_LAYER_MARKER),
            ]
        );
    }

    #[test]
    fn a_page_too_short_to_tell_goes_with_its_document() {
        let settled = |pages: Vec<Page>| {
            let mut pages: Vec<Option<Page>> = pages.into_iter().map(Some).collect();
            settle_undecided(&mut pages);
            pages.iter().map(shown).collect::<Vec<_>>()
        };
        let short = || Page::Undecided("!\"# $ %&’(".into());
        // Among unreadable pages and none that reads as language: the same soup.
        assert_eq!(
            settled(vec![
                short(),
                Page::Marker(UNREADABLE_LAYER_MARKER),
                Page::Marker(BLANK_MARKER),
            ]),
            [
                Some(UNREADABLE_LAYER_MARKER.to_string()),
                Some(UNREADABLE_LAYER_MARKER.to_string()),
                Some(BLANK_MARKER.to_string()),
            ]
        );
        // A title among them stays text, and the soup beside it is still soup.
        let mut pages: Vec<Option<Page>> = vec![
            Some(Page::Short("4 Review of Pr vious Key".into())),
            Some(short()),
            Some(Page::Marker(UNREADABLE_LAYER_MARKER)),
        ];
        settle_undecided(&mut pages);
        assert!(matches!(&pages[0], Some(Page::Text(_))));
        assert_eq!(shown(&pages[1]), Some(UNREADABLE_LAYER_MARKER.to_string()));
        // Beside a page of language, or with no unreadable page: text as it came.
        for (pages, at) in [
            (
                vec![
                    Page::Marker(UNREADABLE_LAYER_MARKER),
                    short(),
                    Page::Text("Words.".into()),
                ],
                1,
            ),
            (vec![short(), Page::Marker(BLANK_MARKER)], 0),
        ] {
            let mut pages: Vec<Option<Page>> = pages.into_iter().map(Some).collect();
            settle_undecided(&mut pages);
            assert!(
                matches!(&pages[at], Some(Page::Text(text)) if text == "!\"# $ %&’("),
                "{:?}",
                shown(&pages[at])
            );
        }
    }

    #[test]
    fn a_document_none_of_whose_pages_reads_says_so_once() {
        let text = pdf("punctuation-codes-only.pdf", None);
        assert_eq!(text.sections.len(), 1);
        assert_eq!(text.sections[0].label, "Pages 1–2");
        assert_eq!(text.sections[0].markdown, UNREADABLE_DOCUMENT_MARKER);
        assert!(text.notes.is_empty(), "{:?}", text.notes);
        // One page unreadable among readable ones is said on that page.
        let mut mixed = vec![
            Section::new("Page 1", "Words."),
            Section::new("Page 2", UNREADABLE_LAYER_MARKER),
        ];
        says_once_when_no_page_is_readable(&mut mixed);
        assert_eq!(mixed[1].markdown, UNREADABLE_LAYER_MARKER);
        assert_eq!(mixed.len(), 2);
    }

    #[test]
    fn pdf_ligatures_are_spelled_out() {
        let md = &pdf("ligatures.pdf", None).sections[0].markdown;
        for word in [
            "office",
            "efficient",
            "effective",
            "difficult",
            "affine",
            "flow",
            "official",
            "traffic",
            "Fluffy",
            "waffles",
            "floor",
        ] {
            assert!(md.contains(word), "{word} missing from {md}");
        }
        assert!(md.contains("Café résumé naïve"), "{md}");
    }

    #[test]
    fn pdf_two_columns_keep_both_columns() {
        let md = &pdf("two-column.pdf", None).sections[0].markdown;
        let alpha = md.find("Alpha column begins here").expect("left column");
        let omega = md.find("Omega column ends the page").expect("right column");
        assert!(alpha < omega, "{md}");
    }

    #[test]
    fn words_set_tighter_than_pdf_oxides_threshold_read_apart() {
        // Each word drawn on its own 0.17 em after the last, in an embedded font: pdf_oxide
        // alone reads `Thetoneholegeometryoftheclarinet…`.
        let md = &pdf("tight-words.pdf", None).sections[0].markdown;
        assert_eq!(
            md,
            "The tone hole geometry of the clarinet is optimized numerically.\n\
             Each fingering is compared with an equal tempered scale.\n\
             Watertight"
        );
    }

    /// A one-page PDF in Helvetica whose page dictionary has `page_extra` and whose page draws
    /// `content`; `forms` are form XObjects (`/Fm0`, `/Fm1`, …: their content streams), each
    /// drawing in the page's own coordinates.
    fn helvetica_page(page_extra: &str, content: &str, forms: &[&str]) -> Vec<u8> {
        let names: String = (0..forms.len())
            .map(|n| format!("/Fm{n} {} 0 R ", 6 + n))
            .collect();
        let mut objects = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] {page_extra} /Resources                  << /Font << /F1 4 0 R >> /XObject << {names}>> >> /Contents 5 0 R >>"
            ),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len() + 1
            ),
        ];
        objects.extend(forms.iter().map(|form| {
            format!(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font                  << /F1 4 0 R >> >> /Length {} >>\nstream\n{form}\nendstream",
                form.len() + 1
            )
        }));
        let mut pdf = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (n, object) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.extend(format!("{} 0 obj\n{object}\nendobj\n", n + 1).bytes());
        }
        let xref = pdf.len();
        pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
        for offset in offsets {
            pdf.extend(format!("{offset:010} 00000 n \n").bytes());
        }
        pdf.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .bytes(),
        );
        pdf
    }

    /// The text of the only page of `bytes`.
    fn only_page(bytes: &[u8]) -> String {
        let text = pdf_to_markdown(bytes, None, &DocLimits::default()).unwrap();
        text.sections[0].markdown.clone()
    }

    /// `BT` … `ET` drawing `words` one `Tm` each along a line, in Helvetica at 1 pt scaled by
    /// the matrix `[scale 0 0 scale]` (the font size set in the matrix, as InDesign and
    /// Acrobat's OCR write it) inside the `cm` matrix `ctm`, each word `gap` ems after the last
    /// one's advance.
    fn one_tm_per_word(words: &[&str], scale: f32, gap: f32, ctm: &str) -> String {
        // Helvetica's advances (per mille), for the letters used here.
        let advance = |c: char| match c {
            'i' | 'l' => 222.0,
            't' => 278.0,
            'r' => 333.0,
            's' => 500.0,
            'm' => 833.0,
            'L' | 'W' => 556.0,
            _ => 556.0,
        } / 1000.0;
        let mut content = format!("q {ctm} cm BT /F1 1 Tf\n");
        let mut x = 72.0;
        for word in words {
            content += &format!("{scale} 0 0 {scale} {x} 300 Tm ({word}) Tj\n");
            x += (word.chars().map(advance).sum::<f32>() + gap) * scale;
        }
        content + "ET Q"
    }

    #[test]
    fn dictionaries_nested_past_any_writer_are_refused_not_a_stack_overflow() {
        // 200,000 `<<` one inside the other: each was a recursion of pdf_oxide's parser, and
        // the native stack overflowed (an abort that took the MCP server with it).
        let mut pdf = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages ".to_vec();
        pdf.extend(std::iter::repeat_n(b"<< /A ".as_slice(), 200_000).flatten());
        pdf.extend(b"1 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
        let read = crate::extract(crate::DocumentKind::Pdf, &pdf, None, &DocLimits::default());
        assert!(read.is_err(), "{:?}", read.map(|text| text.to_markdown()));
    }

    #[test]
    fn an_object_header_with_a_non_ascii_byte_before_obj_costs_that_page_only() {
        // pdf_oxide sliced the header as a str and panicked on the byte (vendor/VENDORED.md 4):
        // natively the panic was caught and the document lost, in WebAssembly a trap.
        let bytes = crate::tests::fixture_bytes("bad-object-header.pdf");
        let text = crate::extract(
            crate::DocumentKind::Pdf,
            &bytes,
            None,
            &DocLimits::default(),
        )
        .expect("read")
        .to_markdown();
        assert!(text.contains("budget for the new library"), "{text}");
        assert!(text.contains("opening planned for June"), "{text}");
    }

    #[test]
    fn words_placed_one_tm_each_read_apart() {
        // pdf_oxide carried a run on across each `Tm` that continued its line and dropped the
        // gap, so every word ran into the next: `Loremipsumdolorsitamet` (vendor/VENDORED.md).
        let words = ["Lorem", "ipsum", "dolor", "sit", "amet"];
        let upright = one_tm_per_word(&words, 10.0, 0.3, "1 0 0 1 0 0");
        assert_eq!(
            only_page(&helvetica_page("", &upright, &[])),
            "Lorem ipsum dolor sit amet"
        );
        // Turned a quarter and shown upright by the page's /Rotate, as a scan's OCR layer is
        // (pdf.js issue5747.pdf): such runs read on whole, and the gap is a space there too.
        let turned = one_tm_per_word(&words, 10.0, 0.3, "0 -1 1 0 0 792");
        assert_eq!(
            only_page(&helvetica_page("/Rotate 270", &turned, &[])),
            "Lorem ipsum dolor sit amet"
        );
        // Letters placed one `Tm` each, edge to edge, stay one word.
        let letters: Vec<String> = "Watertight".chars().map(String::from).collect();
        let letters: Vec<&str> = letters.iter().map(String::as_str).collect();
        let tight = one_tm_per_word(&letters, 10.0, 0.0, "1 0 0 1 0 0");
        assert_eq!(only_page(&helvetica_page("", &tight, &[])), "Watertight");
    }

    #[test]
    fn a_page_placed_as_one_form_in_a_placed_pdf_scope_is_read() {
        // InDesign places a page as a form XObject whose whole stream is one `/PlacedPDF`
        // marked-content scope. pdf_oxide drops a placed region's text unless it dominates
        // the page, and looked for it in the page's own stream only: the page read as its
        // running footer alone (USENIX ATC '15, "Tiered Replication", page 8).
        let sentence = "Placed text is the body of this page and must be read. ";
        let body: String = (0..20)
            .map(|n| format!("BT /F1 9 Tf 72 {} Td ({sentence}) Tj ET\n", 700 - 12 * n))
            .collect();
        let form = format!("/PlacedPDF BMC\n{body}EMC");
        let page = "BT /F1 8 Tf 72 30 Td (USENIX Association) Tj ET\n/Fm0 Do";
        let text = only_page(&helvetica_page("", page, &[&form]));
        assert_eq!(text.matches(sentence.trim()).count(), 20, "{text}");
        assert!(text.contains("USENIX Association"), "{text}");
    }

    #[test]
    fn cjk_table_cells_read_apart() {
        let md = &pdf("cjk-table.pdf", None).sections[0].markdown;
        for row in [
            "商品编码 数量 商品名称 商品基本条码 334010052 2.18 华联绿豆",
            "302000002 -2.98 散称华联粉块 2700550 340010001 0 蒙牛桶装原味酸牛奶1100g",
        ] {
            assert!(md.contains(row), "{row} missing from {md}");
        }
    }

    #[test]
    fn pdf_with_unicode_file_name_reads() {
        let md = &pdf("Café – résumé.pdf", None).sections[0].markdown;
        assert!(md.contains("Curriculum vitae"), "{md}");
    }

    /// Reads the first `started` pages of those asked for, as a host does that ran out of time.
    struct Started(usize);

    impl PdfPages for Started {
        fn read(
            &self,
            pdf: &OpenPdf,
            _bytes: &[u8],
            pages: Range<usize>,
            _limits: &DocLimits,
        ) -> Vec<Option<PageText>> {
            pages
                .enumerate()
                .map(|(n, index)| (n < self.0).then(|| pdf.read_page(index)))
                .collect()
        }
    }

    #[test]
    fn pages_the_host_did_not_start_are_left_out_with_a_note() {
        let bytes = fixture_bytes("multipage.pdf");
        let limits = DocLimits::default();
        let text = pdf_to_markdown_with(&bytes, None, &limits, &Started(1)).unwrap();
        assert_eq!(text.sections.len(), 1);
        assert_eq!(
            text.notes,
            ["pages 2–3 left out: extraction passed the 30 s time limit"]
        );
        let err = pdf_to_markdown_with(&bytes, None, &limits, &Started(0)).unwrap_err();
        assert!(
            matches!(err, DocumentError::TimedOut { seconds: 30 }),
            "{err}"
        );
    }

    #[test]
    fn truncated_pdf_is_an_error() {
        let err = pdf_to_markdown(&fixture_bytes("truncated.pdf"), None, &DocLimits::default())
            .unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
    }

    #[test]
    fn pdf_cid_font_without_to_unicode_reads() {
        let md = &pdf("cid-cjk.pdf", None).sections[0].markdown;
        assert!(
            md.contains("東京の会議") && md.contains("Tokyo meeting"),
            "{md}"
        );
    }

    #[test]
    fn encrypted_pdf_without_readable_text_is_an_error_not_blank_pages() {
        // pypdf's revision-5 file that the empty user password opens, damaged in one hex digit.
        let revision_5_damaged = |field: &[u8]| {
            let mut bytes = fixture_bytes("encrypted-r5-empty-password.pdf");
            let at = bytes.windows(field.len()).position(|w| w == field).unwrap();
            let digit = &mut bytes[at + field.len()];
            *digit = if *digit == b'0' { b'1' } else { b'0' };
            bytes
        };
        for (case, bytes, why) in [
            // A user password is needed to open it.
            (
                "revisions 2-4",
                fixture_bytes("encrypted-user-password.pdf"),
                "needs a password",
            ),
            // Its /U no longer matches the empty password (nor does its owner hash, which mixes
            // /U in): revision 5 with a password set.
            (
                "revision 5",
                revision_5_damaged(b"/U <"),
                "needs a password",
            ),
            // The empty password opens it, then every page decrypts to nothing: its wrapped
            // file key (/UE) was damaged, so the key unwrapped from it is wrong.
            (
                "wrong key",
                revision_5_damaged(b"/UE <"),
                "decrypted to nothing",
            ),
        ] {
            let err = pdf_to_markdown(&bytes, None, &DocLimits::default()).unwrap_err();
            assert!(
                matches!(err, DocumentError::Encrypted { .. }),
                "{case}: {err:?}"
            );
            assert!(err.to_string().contains(why), "{case}: {err}");
        }
    }

    #[test]
    fn pdf_encrypted_with_revision_5_and_an_empty_password_reads() {
        // Acrobat 9's AES-256 (revision 5), which pdf_oxide alone decrypts to empty pages: the
        // empty password is the user's in one file and the owner's in the other.
        for fixture in [
            "encrypted-r5-empty-password.pdf",
            "encrypted-r5-empty-owner-password.pdf",
        ] {
            let md = &pdf(fixture, None).sections[0].markdown;
            assert!(
                md.contains("pdf encryption test") && md.contains("password: asdfzxcv"),
                "{fixture}: {md}"
            );
        }
        // The same file with /U and /UE written as Acrobat writes them, literal strings with no
        // space around: the values put in their place must fit it exactly.
        let read = pdf_to_markdown(
            &revision_5_with_literal_strings(),
            None,
            &DocLimits::default(),
        )
        .unwrap();
        assert!(
            read.sections[0].markdown.contains("pdf encryption test"),
            "{read:?}"
        );
    }

    /// pypdf's revision-5 file with `/U <hex> /UE <hex>` rewritten as `/U(...)/UE(...)`, special
    /// bytes as octal escapes, the bytes saved put before `/U` so every offset stays true.
    fn revision_5_with_literal_strings() -> Vec<u8> {
        let bytes = fixture_bytes("encrypted-r5-empty-password.pdf");
        let find = |needle: &[u8], from: usize| {
            from + bytes[from..]
                .windows(needle.len())
                .position(|w| w == needle)
                .unwrap()
        };
        let u_at = find(b"/U <", 0);
        let ue_at = find(b"/UE <", u_at);
        let end = find(b">", ue_at) + 1;
        let from_hex = |hex: &[u8]| -> Vec<u8> {
            hex.chunks(2)
                .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
                .collect()
        };
        let literal = |value: &[u8]| -> Vec<u8> {
            let mut out = vec![b'('];
            for &byte in value {
                match byte {
                    b'(' | b')' | b'\\' | b'\r' | b'\n' => {
                        out.extend_from_slice(format!("\\{byte:03o}").as_bytes())
                    }
                    _ => out.push(byte),
                }
            }
            out.push(b')');
            out
        };
        let u = from_hex(&bytes[u_at + 4..ue_at - 2]);
        let ue = from_hex(&bytes[ue_at + 5..end - 1]);
        assert_eq!((u.len(), ue.len()), (48, 32));
        let mut entries = b"/U".to_vec();
        entries.extend(literal(&u));
        entries.extend_from_slice(b"/UE");
        entries.extend(literal(&ue));
        let mut rewritten = bytes[..u_at].to_vec();
        rewritten.resize(rewritten.len() + (end - u_at) - entries.len(), b' ');
        rewritten.extend(entries);
        rewritten.extend_from_slice(&bytes[end..]);
        assert_eq!(rewritten.len(), bytes.len());
        rewritten
    }

    #[test]
    fn pdf_encrypted_with_an_empty_user_password_reads() {
        // What most "protected" PDFs are: an owner password restricting printing or copying
        // and an empty user password, which every viewer opens without asking. Standard
        // Security revisions 2 to 4 derive the key with MD5 (pdf_oxide's `legacy-crypto`).
        let md = &pdf("encrypted-empty-password.pdf", None).sections[0].markdown;
        assert!(md.contains("pdf encryption test"), "{md}");
        assert!(md.contains("asdfzxcv"), "{md}");
    }

    #[test]
    fn word_hyphenated_at_line_end_is_joined() {
        assert_eq!(
            clean("the total amoun-\nting to ten\nmore"),
            "the total amounting to ten\nmore"
        );
    }

    #[test]
    fn hyphen_before_a_capital_or_a_space_is_kept() {
        assert_eq!(clean("self-\nEvident"), "self-\nEvident");
        assert_eq!(clean("one -\ntwo"), "one -\ntwo");
    }

    #[test]
    fn layer_of_unmapped_glyphs_is_unreadable_but_a_stray_symbol_is_text() {
        let mojibake: String = "\u{FFFD}\u{E011}\u{3} ".repeat(20);
        assert!(is_unmapped_glyphs(&mojibake));
        let text = format!("{} \u{F0B7} item", "real words on the page".repeat(3));
        assert!(!is_unmapped_glyphs(&text));
    }

    #[test]
    fn ligature_characters_are_spelled_out() {
        assert_eq!(
            clean("e\u{FB03}cient \u{FB02}ow  \n\n\n\nnext"),
            "efficient flow\n\nnext"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn pdf_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = pdf_to_markdown(&bytes, None, &DocLimits::default());
        }

        #[test]
        fn pdf_never_panics_on_a_damaged_real_pdf(cut in 0usize..2703, flip in 0usize..2703, byte in any::<u8>()) {
            let mut bytes = fixture_bytes("multipage.pdf");
            if let Some(b) = bytes.get_mut(flip) {
                *b = byte;
            }
            bytes.truncate(cut.max(1));
            let _ = pdf_to_markdown(&bytes, None, &DocLimits::default());
        }
    }
}
