//! Spreadsheets (XLSX, ODS) as Markdown: one section per sheet, each a table with capped rows.
//! calamine reads both formats.

use std::collections::BTreeMap;
use std::io::Cursor;

use calamine::{Data, DataRef, Ods, Reader, Xlsx, XlsxError};

use super::archive::check_archive;
use super::error::DocumentError;
use super::limits::{check_bytes, DocLimits};
use super::table::markdown_table;
use super::{DocumentKind, DocumentText, Section};

/// The sheets of an XLSX or ODS workbook (`kind` says which), one `Sheet: name` section each in
/// workbook order. The first row is the table header; at most `limits.max_rows` rows follow, then
/// a marker saying how many were left out. An empty sheet says so. Other kinds are an error.
pub fn sheet_to_markdown(
    kind: DocumentKind,
    bytes: &[u8],
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    let format = kind.name();
    check_bytes(format, bytes, limits)?;
    // calamine inflates the zip itself: check the directory against the bomb limits first.
    check_archive(format, bytes, limits)?;
    let cursor = Cursor::new(bytes);
    match kind {
        DocumentKind::Xlsx => read_xlsx(format, Xlsx::new(cursor), limits),
        DocumentKind::Ods => read_sheets(format, Ods::new(cursor), limits),
        _ => Err(DocumentError::Corrupt {
            format,
            reason: "not a spreadsheet format (XLSX or ODS)".to_string(),
        }),
    }
}

fn read_sheets<'a, R>(
    format: &'static str,
    workbook: Result<R, R::Error>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError>
where
    R: Reader<Cursor<&'a [u8]>>,
    R::Error: std::fmt::Display,
{
    let corrupt = |e: &dyn std::fmt::Display| DocumentError::Corrupt {
        format,
        reason: e.to_string(),
    };
    let mut workbook = workbook.map_err(|e| corrupt(&e))?;
    let mut sections = Vec::new();
    for name in workbook.sheet_names() {
        let range = workbook.worksheet_range(&name).map_err(|e| corrupt(&e))?;
        let rows = range
            .rows()
            .map(|row| row.iter().map(cell_text).collect::<Vec<String>>());
        let table = markdown_table(rows, limits.max_rows);
        let markdown = if table.is_empty() {
            "_(empty sheet)_".to_string()
        } else {
            table.trim_end().to_string()
        };
        sections.push(Section::new(format!("Sheet: {name}"), markdown));
    }
    Ok(DocumentText {
        sections,
        notes: Vec::new(),
    })
}

/// An XLSX workbook's sheets, as [`read_sheets`] gives them, without building each sheet's
/// whole grid: calamine's `worksheet_range` allocates every cell between the first and the last
/// (a 1.5 KB file with one cell at A1 and one at row 30,000, column 2,000 took 1.5 GB, and more
/// overflowed). The cells are streamed instead, and only the rows the table shows are kept.
fn read_xlsx(
    format: &'static str,
    workbook: Result<Xlsx<Cursor<&[u8]>>, XlsxError>,
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    let corrupt = |e: &dyn std::fmt::Display| DocumentError::Corrupt {
        format,
        reason: e.to_string(),
    };
    let mut workbook = workbook.map_err(|e| corrupt(&e))?;
    let mut sections = Vec::new();
    for name in workbook.sheet_names() {
        let rows = match workbook.worksheet_cells_reader(&name) {
            Ok(mut cells) => shown_rows(
                std::iter::from_fn(|| cells.next_cell().transpose()),
                limits.max_rows,
            )
            .map_err(|e| corrupt(&e))?,
            // A chart sheet, as calamine's own range reads it: no cells.
            Err(XlsxError::NotAWorksheet(_)) => ShownRows::default(),
            Err(e) => return Err(corrupt(&e)),
        };
        let table = markdown_table(rows.into_rows(), limits.max_rows);
        let markdown = if table.is_empty() {
            "_(empty sheet)_".to_string()
        } else {
            table.trim_end().to_string()
        };
        sections.push(Section::new(format!("Sheet: {name}"), markdown));
    }
    Ok(DocumentText {
        sections,
        notes: Vec::new(),
    })
}

/// The rows of a sheet's grid a table shows (the header and `max_rows` more), each as wide as
/// the grid, and how many rows the grid has: what calamine's range of the same cells gives
/// (its bounds are those of the non-empty cells), with the other rows never built.
#[derive(Debug, Default)]
struct ShownRows {
    /// The kept rows by their row number, each cell by its column.
    rows: BTreeMap<u32, Vec<(u32, String)>>,
    /// The grid's bounds: first and last row, first and last column.
    bounds: Option<(u32, u32, u32, u32)>,
    /// The rows a table shows under its header.
    max_rows: usize,
}

impl ShownRows {
    /// The rows as [`markdown_table`] takes them: the shown ones whole, the rest as empty rows
    /// (only counted).
    fn into_rows(self) -> impl Iterator<Item = Vec<String>> {
        let (shown, left_out) = match self.bounds {
            None => (Vec::new(), 0),
            Some((first_row, last_row, first_col, last_col)) => {
                let width = (last_col - first_col + 1) as usize;
                let height = (last_row - first_row) as usize + 1;
                let shown: Vec<Vec<String>> = (first_row..=last_row)
                    .take(height.min(self.max_rows.saturating_add(1)))
                    .map(|row| {
                        let mut cells = vec![String::new(); width];
                        for (col, text) in self.rows.get(&row).into_iter().flatten() {
                            cells[(col - first_col) as usize] = text.clone();
                        }
                        cells
                    })
                    .collect();
                let left_out = height - shown.len();
                (shown, left_out)
            }
        };
        shown
            .into_iter()
            .chain(std::iter::repeat_with(Vec::new).take(left_out))
    }
}

/// Reads `cells` (streamed, in any order), keeping the cells of the first `max_rows + 1` rows of
/// the grid (the header and the rows shown) and the grid's bounds; empty cells count for
/// neither, as in calamine's range.
fn shown_rows<'a, E>(
    cells: impl Iterator<Item = Result<calamine::Cell<DataRef<'a>>, E>>,
    max_rows: usize,
) -> Result<ShownRows, E> {
    let mut shown = ShownRows {
        max_rows,
        ..ShownRows::default()
    };
    for cell in cells {
        let cell = cell?;
        if matches!(cell.get_value(), DataRef::Empty) {
            continue;
        }
        let (row, col) = cell.get_position();
        shown.bounds = Some(match shown.bounds {
            None => (row, row, col, col),
            Some((r0, r1, c0, c1)) => (r0.min(row), r1.max(row), c0.min(col), c1.max(col)),
        });
        let first = shown.bounds.map_or(row, |(r0, ..)| r0);
        // Rows past the header and `max_rows` more (counted from the first row so far) are never
        // shown: not kept.
        if (row - first) as usize > max_rows {
            continue;
        }
        let text = cell_text(&Data::from(cell.get_value().clone()));
        shown.rows.entry(row).or_default().push((col, text));
        // A row found above the first moves the window up: what fell out of it goes.
        while let Some((&last, _)) = shown.rows.last_key_value() {
            if (last - first) as usize > max_rows {
                shown.rows.remove(&last);
            } else {
                break;
            }
        }
    }
    Ok(shown)
}

/// A cell as the spreadsheet shows it; errors as their code (`#DIV/0!`).
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Empty => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn xlsx_each_sheet_becomes_a_table() {
        let text = sheet_to_markdown(
            DocumentKind::Xlsx,
            &fixture_bytes("budget.xlsx"),
            &DocLimits::default(),
        )
        .unwrap();
        let labels: Vec<&str> = text.sections.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["Sheet: Summary", "Sheet: Ledger"]);
        let summary = &text.sections[0].markdown;
        assert!(
            summary.starts_with(
                "| Item | Cost | Paid |\n| --- | --- | --- |\n| Laptop | 1200.5 | true |"
            ),
            "{summary}"
        );
    }

    #[test]
    fn xlsx_sheet_past_the_row_cap_says_how_many_rows_were_left_out() {
        let text = sheet_to_markdown(
            DocumentKind::Xlsx,
            &fixture_bytes("budget.xlsx"),
            &DocLimits::default(),
        )
        .unwrap();
        let ledger = &text.sections[1].markdown;
        assert!(
            ledger.contains("| 200 | 2000 |") && !ledger.contains("| 201 | 2010 |"),
            "{ledger}"
        );
        assert!(
            ledger.ends_with(
                "_[50 more rows not shown: 250 rows under the header, the first 200 shown]_"
            ),
            "{ledger}"
        );
    }

    #[test]
    fn a_sheet_with_two_far_cells_shows_its_rows_without_building_the_grid() {
        // A1 and BXX20000 only: the grid is 20,000 rows of 2,000 columns (calamine's range
        // allocated all 40 million cells); the table shows the header and 200 rows of it.
        let bytes = fixture_bytes("far-corners.xlsx");
        let text = sheet_to_markdown(DocumentKind::Xlsx, &bytes, &DocLimits::default())
            .unwrap()
            .to_markdown();
        assert!(
            text.starts_with("**Sheet: S**\n\n| top |  |"),
            "{}",
            &text[..80]
        );
        assert!(!text.contains("bottom"), "row 20,000 is not shown");
        assert!(
            text.ends_with(
                "_[19799 more rows not shown: 19999 rows under the header, the first 200 shown]_"
            ),
            "{}",
            &text[text.len() - 120..]
        );
    }

    #[test]
    fn a_sheet_with_a_cell_in_its_last_row_and_column_is_read() {
        // A1 and XFD1048576: calamine's grid of it overflowed ("capacity overflow"); the rows
        // shown are built, each 16,384 columns wide, and the text capped as any document's.
        let bytes = fixture_bytes("last-cell.xlsx");
        let text = sheet_to_markdown(DocumentKind::Xlsx, &bytes, &DocLimits::default())
            .unwrap()
            .to_markdown();
        assert!(
            text.starts_with("**Sheet: S**\n\n| top |  |"),
            "{}",
            &text[..80]
        );
    }

    #[test]
    fn ods_each_sheet_becomes_a_table() {
        let text = sheet_to_markdown(
            DocumentKind::Ods,
            &fixture_bytes("planets.ods"),
            &DocLimits::default(),
        )
        .unwrap();
        assert_eq!(text.sections[0].label, "Sheet: Planets");
        assert!(
            text.sections[0].markdown.contains("| Mars | 2 |"),
            "{:?}",
            text.sections[0]
        );
        assert_eq!(text.sections[1].label, "Sheet: Notes");
        assert!(text.sections[1].markdown.contains("Jupiter is largest"));
    }

    #[test]
    fn truncated_spreadsheets_are_errors() {
        for (kind, name) in [
            (DocumentKind::Xlsx, "truncated.xlsx"),
            (DocumentKind::Ods, "truncated.ods"),
        ] {
            let err =
                sheet_to_markdown(kind, &fixture_bytes(name), &DocLimits::default()).unwrap_err();
            assert!(
                err.to_string().starts_with("not a readable"),
                "{name}: {err}"
            );
        }
    }

    proptest! {
        #[test]
        fn spreadsheets_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = sheet_to_markdown(DocumentKind::Xlsx, &bytes, &DocLimits::default());
            let _ = sheet_to_markdown(DocumentKind::Ods, &bytes, &DocLimits::default());
        }
    }
}
