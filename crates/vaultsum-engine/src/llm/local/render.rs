//! Writing the summary in the shape the LLM prompt asks for: `###` subsections only, key points
//! in note order, tables kept where the data is tabular, and a final `### Action Items` of plain
//! `- [ ]` lines (omitted when there are none). No top-level heading.

use super::document::{Document, Table};

/// Tables with more body rows than this are cut, with a line saying how many rows were left out.
const MAX_TABLE_ROWS: usize = 12;
/// Tables with more columns than this are wide layouts, not data worth repeating.
const MAX_TABLE_COLUMNS: usize = 6;
/// What follows the count of a cut table's rows left out (`(13 more rows in the note)`): the
/// engine's own words, which the fact checker knows are no claim about the note.
pub const MORE_ROWS: &str = " more rows in the note)";
/// At most this many tables are carried into a summary.
const MAX_TABLES: usize = 3;
/// Longer cells are shortened, so a summary table stays readable.
const MAX_CELL_CHARS: usize = 80;

/// What [`render`] produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    /// The markdown (empty when there is nothing to say).
    pub markdown: String,
    /// Tables included.
    pub tables: usize,
    /// Open tasks listed under Action Items.
    pub action_items: usize,
}

/// Renders the chosen sentences (indices into `doc.sentences`, in note order), the note's
/// tables and its open tasks.
pub fn render(doc: &Document, chosen: &[usize], cite_sections: bool) -> Rendered {
    let mut parts: Vec<String> = Vec::new();
    if !chosen.is_empty() {
        let bullets: Vec<String> = chosen
            .iter()
            .map(|&i| {
                let sentence = &doc.sentences[i];
                match doc.sections[sentence.section].cite.as_ref() {
                    Some(target) if cite_sections => {
                        format!("- {} ([[{target}]])", sentence.text)
                    }
                    _ => format!("- {}", sentence.text),
                }
            })
            .collect();
        parts.push(format!("### Key Points\n\n{}", bullets.join("\n")));
    }
    let tables: Vec<&Table> = doc
        .tables
        .iter()
        .filter(|t| {
            t.header.len() <= MAX_TABLE_COLUMNS
                && t.rows.iter().flatten().any(|cell| !cell.is_empty())
        })
        .take(MAX_TABLES)
        .collect();
    let mut last_heading: Option<String> = None;
    for table in &tables {
        let heading = table_heading(doc, table);
        let body = render_table(table);
        if last_heading.as_deref() == Some(heading.as_str()) {
            parts.push(body);
        } else {
            parts.push(format!("### {heading}\n\n{body}"));
            last_heading = Some(heading);
        }
    }
    let mut open: Vec<&str> = Vec::new();
    for task in doc.tasks.iter().filter(|t| !t.done) {
        if !open.contains(&task.text.as_str()) {
            open.push(&task.text);
        }
    }
    if !open.is_empty() {
        let items: Vec<String> = open.iter().map(|t| format!("- [ ] {t}")).collect();
        parts.push(format!("### Action Items\n\n{}", items.join("\n")));
    }
    Rendered {
        markdown: parts.join("\n\n"),
        tables: tables.len(),
        action_items: open.len(),
    }
}

/// The section a table sits in names it; a table right under the title is just "Table".
fn table_heading(doc: &Document, table: &Table) -> String {
    let section = &doc.sections[table.section];
    let heading = section.heading.trim();
    if heading.is_empty()
        || doc.title.as_deref() == Some(heading)
        || heading.eq_ignore_ascii_case("action items")
        || heading.eq_ignore_ascii_case("key points")
    {
        "Table".to_string()
    } else {
        heading.to_string()
    }
}

fn render_table(table: &Table) -> String {
    let columns = table.header.len();
    let line = |cells: &[String]| {
        let mut padded: Vec<String> = cells
            .iter()
            .take(columns)
            .map(|c| escape_cell(&shorten(c)))
            .collect();
        padded.resize(columns, String::new());
        format!("| {} |", padded.join(" | "))
    };
    let mut lines = vec![
        line(&table.header),
        format!("|{}", " --- |".repeat(columns)),
    ];
    lines.extend(table.rows.iter().take(MAX_TABLE_ROWS).map(|row| line(row)));
    if table.rows.len() > MAX_TABLE_ROWS {
        lines.push(String::new());
        lines.push(format!("({}{MORE_ROWS}", table.rows.len() - MAX_TABLE_ROWS));
    }
    lines.join("\n")
}

fn shorten(cell: &str) -> String {
    if cell.chars().count() <= MAX_CELL_CHARS {
        return cell.to_string();
    }
    let cut: String = cell.chars().take(MAX_CELL_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// A `|` inside a cell would split it; wikilink aliases in cells are already resolved to text.
fn escape_cell(cell: &str) -> String {
    cell.replace('|', "\\|")
}
