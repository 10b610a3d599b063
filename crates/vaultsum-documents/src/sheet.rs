//! Spreadsheets (XLSX, ODS) as Markdown: one section per sheet, each a table with capped rows.
//! calamine reads both formats.

use std::io::Cursor;

use calamine::{Data, Ods, Reader, Xlsx};

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
        DocumentKind::Xlsx => read_sheets(format, Xlsx::new(cursor), limits),
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
