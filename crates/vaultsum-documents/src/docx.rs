//! DOCX (Word) as Markdown: paragraphs, headings as `#`, lists as `-`, tables as Markdown tables.
//!
//! Read straight from `word/document.xml` with quick-xml: the dedicated DOCX crates are young or
//! write-oriented, and paragraphs, runs and tables are a small part of the format.

use std::collections::HashMap;

use super::archive::Archive;
use super::error::DocumentError;
use super::limits::{check_bytes, DocLimits};
use super::table::markdown_table;
use super::xml::{attr, walk, XmlStep};
use super::{DocumentText, Section};

const FORMAT: &str = "DOCX";

/// The text of a DOCX document as one `Document` section: headings (`Heading 1`…, `Title`, or an
/// outline level) as `#` lines, list paragraphs as `- ` items, tables as Markdown tables capped
/// at `limits.max_rows`. Deleted tracked changes and field codes are left out.
pub fn docx_to_markdown(bytes: &[u8], limits: &DocLimits) -> Result<DocumentText, DocumentError> {
    check_bytes(FORMAT, bytes, limits)?;
    let mut archive = Archive::open(FORMAT, bytes, limits)?;
    let styles = match archive.read_text("word/styles.xml")? {
        Some(xml) => heading_styles(&xml)?,
        None => HashMap::new(),
    };
    let document =
        archive
            .read_text("word/document.xml")?
            .ok_or_else(|| DocumentError::Corrupt {
                format: FORMAT,
                reason: "word/document.xml is missing".to_string(),
            })?;
    let blocks = document_blocks(&document, &styles, limits.max_rows)?;
    Ok(DocumentText {
        sections: vec![Section::new("Document", blocks.join("\n\n"))],
        notes: Vec::new(),
    })
}

/// What a paragraph style makes of its paragraphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StyleRole {
    /// A heading of this level.
    Heading(usize),
    /// A list item (`List Bullet`, `List Number`, `List Paragraph`): the numbering is in the
    /// style, not on the paragraph.
    List,
}

/// Paragraph roles by style id, from `word/styles.xml`: style *names* are stable (`heading 1`,
/// `Title`, `List Bullet`) where ids are localised (`berschrift1` in German Word).
fn heading_styles(xml: &str) -> Result<HashMap<String, StyleRole>, DocumentError> {
    let mut levels = HashMap::new();
    let mut current: Option<String> = None;
    walk(FORMAT, "word/styles.xml", xml, |step| match step {
        XmlStep::Start("style", tag) => current = attr(tag, "w:styleId"),
        XmlStep::Start("name", tag) => {
            let (Some(id), Some(name)) = (&current, attr(tag, "w:val")) else {
                return;
            };
            if let Some(level) = heading_level(&name) {
                levels.insert(id.clone(), StyleRole::Heading(level));
            } else if name.to_ascii_lowercase().starts_with("list") {
                levels.insert(id.clone(), StyleRole::List);
            }
        }
        XmlStep::End("style") => current = None,
        _ => {}
    })?;
    Ok(levels)
}

/// `heading 2` → 2, `Title` → 1, anything else → `None`.
fn heading_level(style_name: &str) -> Option<usize> {
    let name = style_name.trim().to_ascii_lowercase();
    if name == "title" {
        return Some(1);
    }
    let level: usize = name.strip_prefix("heading")?.trim().parse().ok()?;
    (1..=6).contains(&level).then_some(level)
}

/// A paragraph being read.
#[derive(Default)]
struct Paragraph {
    text: String,
    heading: Option<usize>,
    list: bool,
}

impl Paragraph {
    fn into_markdown(self) -> Option<String> {
        let text = self.text.trim();
        if text.is_empty() {
            return None;
        }
        Some(match (self.heading, self.list) {
            (Some(level), _) => format!("{} {text}", "#".repeat(level)),
            (None, true) => format!("- {text}"),
            (None, false) => text.to_string(),
        })
    }
}

/// Tables being read, innermost last; each is rows of cells, the open row and cell last.
type OpenTable = Vec<Vec<String>>;

fn document_blocks(
    xml: &str,
    styles: &HashMap<String, StyleRole>,
    max_rows: usize,
) -> Result<Vec<String>, DocumentError> {
    let mut blocks = Vec::new();
    let mut tables: Vec<OpenTable> = Vec::new();
    let mut paragraph: Option<Paragraph> = None;
    let mut in_text = false;
    let mut in_properties = false;
    walk(FORMAT, "word/document.xml", xml, |step| match step {
        XmlStep::Start("p", _) => paragraph = Some(Paragraph::default()),
        XmlStep::Start("pPr", _) => in_properties = true,
        XmlStep::End("pPr") => in_properties = false,
        XmlStep::Start("pStyle", tag) => {
            if let (Some(p), Some(id)) = (paragraph.as_mut(), attr(tag, "w:val")) {
                match styles.get(&id) {
                    Some(StyleRole::Heading(level)) => p.heading = Some(*level),
                    Some(StyleRole::List) => p.list = true,
                    None => p.heading = heading_level(&id),
                }
            }
        }
        XmlStep::Start("outlineLvl", tag) => {
            let level = attr(tag, "w:val").and_then(|v| v.parse::<usize>().ok());
            if let (Some(p), Some(level)) = (paragraph.as_mut(), level) {
                // Level 9 means "body text" in Word.
                if level < 6 && p.heading.is_none() {
                    p.heading = Some(level + 1);
                }
            }
        }
        XmlStep::Start("numPr", _) => {
            if let Some(p) = paragraph.as_mut() {
                p.list = true;
            }
        }
        // `w:t` only: `w:delText` is deleted text and `w:instrText` a field code.
        XmlStep::Start("t", _) => in_text = true,
        XmlStep::End("t") => in_text = false,
        XmlStep::Text(text) if in_text => {
            if let Some(p) = paragraph.as_mut() {
                p.text.push_str(text);
            }
        }
        // Inside `w:pPr`, `w:tab` is a tab stop definition, not a tab character.
        XmlStep::Start("tab", _) if !in_properties => push_char(&mut paragraph, '\t'),
        XmlStep::Start("br" | "cr", _) => push_char(&mut paragraph, '\n'),
        XmlStep::End("p") => {
            let Some(markdown) = paragraph.take().and_then(Paragraph::into_markdown) else {
                return;
            };
            match tables
                .last_mut()
                .and_then(|t| t.last_mut())
                .and_then(|r| r.last_mut())
            {
                Some(cell) => {
                    if !cell.is_empty() {
                        cell.push('\n');
                    }
                    cell.push_str(&markdown);
                }
                None => blocks.push(markdown),
            }
        }
        XmlStep::Start("tbl", _) => tables.push(Vec::new()),
        XmlStep::Start("tr", _) => {
            if let Some(table) = tables.last_mut() {
                table.push(Vec::new());
            }
        }
        XmlStep::Start("tc", _) => {
            if let Some(row) = tables.last_mut().and_then(|t| t.last_mut()) {
                row.push(String::new());
            }
        }
        XmlStep::End("tbl") => {
            let Some(table) = tables.pop() else { return };
            match tables
                .last_mut()
                .and_then(|t| t.last_mut())
                .and_then(|r| r.last_mut())
            {
                // A table inside a cell cannot be a Markdown table: flatten it into the cell.
                Some(cell) => {
                    let text: Vec<String> = table.into_iter().map(|row| row.join(" ")).collect();
                    cell.push_str(&text.join("\n"));
                }
                None => blocks.push(markdown_table(table, max_rows).trim_end().to_string()),
            }
        }
        _ => {}
    })?;
    Ok(blocks)
}

fn push_char(paragraph: &mut Option<Paragraph>, c: char) {
    if let Some(p) = paragraph.as_mut() {
        p.text.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    fn report() -> String {
        let text = docx_to_markdown(&fixture_bytes("report.docx"), &DocLimits::default()).unwrap();
        assert_eq!(text.sections.len(), 1);
        text.sections[0].markdown.clone()
    }

    #[test]
    fn docx_headings_become_markdown_headings() {
        let md = report();
        assert!(md.starts_with("# Quarterly report\n\n"), "{md}");
        assert!(md.contains("\n## Regional figures\n"), "{md}");
    }

    #[test]
    fn docx_paragraphs_and_list_items_keep_their_order() {
        let md = report();
        let revenue = md.find("Revenue grew in every region").unwrap();
        let distributor = md
            .find("The south region needs a new distributor.")
            .unwrap();
        assert!(revenue < distributor, "{md}");
        assert!(md.contains("- Hire a distributor"), "{md}");
    }

    #[test]
    fn docx_table_becomes_a_markdown_table() {
        let md = report();
        assert!(
            md.contains("| Region | Revenue | Growth |\n| --- | --- | --- |\n| North | 120 | 4% |\n| South \\| East | 95 | 2% |"),
            "{md}"
        );
    }

    #[test]
    fn truncated_docx_is_an_error() {
        let err =
            docx_to_markdown(&fixture_bytes("truncated.docx"), &DocLimits::default()).unwrap_err();
        assert!(
            err.to_string().starts_with("not a readable DOCX file"),
            "{err}"
        );
    }

    #[test]
    fn docx_zip_bomb_is_refused() {
        let err = docx_to_markdown(&fixture_bytes("bomb.docx"), &DocLimits::default()).unwrap_err();
        assert!(matches!(err, DocumentError::ArchiveLimit { .. }), "{err}");
    }

    proptest! {
        #[test]
        fn docx_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = docx_to_markdown(&bytes, &DocLimits::default());
        }

        #[test]
        fn docx_never_panics_on_arbitrary_document_xml(xml in "(<w:p>|</w:p>|<w:t>|</w:t>|<w:tbl>|</w:tbl>|<w:tr>|<w:tc>|</w:tc>|&amp;|&#x41;|text| ){0,40}") {
            let _ = document_blocks(&xml, &HashMap::new(), 5);
        }
    }
}
