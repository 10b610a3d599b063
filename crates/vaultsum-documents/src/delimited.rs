//! CSV and TSV as one Markdown table with capped rows, read with the csv crate (quoting,
//! embedded newlines and ragged rows handled as spreadsheet programs write them).

use super::error::DocumentError;
use super::limits::{check_bytes, DocLimits};
use super::table::markdown_table;
use super::{DocumentText, Section};

/// A delimited text file (`delimiter` `b','` for CSV, `b'\t'` for TSV) as one `Table` section:
/// the first row is the header, at most `limits.max_rows` rows follow, then a marker saying how
/// many were left out. Bytes that are not UTF-8 are replaced (with a note); a file with NUL bytes
/// is binary, not text, and an error.
pub fn delimited_to_markdown(
    delimiter: u8,
    bytes: &[u8],
    limits: &DocLimits,
) -> Result<DocumentText, DocumentError> {
    let format = if delimiter == b'\t' { "TSV" } else { "CSV" };
    check_bytes(format, bytes, limits)?;
    if bytes.contains(&0) {
        return Err(DocumentError::Corrupt {
            format,
            reason: "it contains NUL bytes (a binary file, not text)".to_string(),
        });
    }
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut lossy = false;
    for record in reader.byte_records() {
        let record = record.map_err(|e| DocumentError::Corrupt {
            format,
            reason: e.to_string(),
        })?;
        let row: Vec<String> = record
            .iter()
            .map(|field| match std::str::from_utf8(field) {
                Ok(s) => s.to_string(),
                Err(_) => {
                    lossy = true;
                    String::from_utf8_lossy(field).into_owned()
                }
            })
            .collect();
        rows.push(row);
    }
    let mut notes = Vec::new();
    if lossy {
        notes.push("some bytes were not UTF-8 text and were replaced with �".to_string());
    }
    let table = markdown_table(rows, limits.max_rows);
    let markdown = if table.is_empty() {
        "_(no rows)_".to_string()
    } else {
        table.trim_end().to_string()
    };
    Ok(DocumentText {
        sections: vec![Section::new("Table", markdown)],
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture_bytes;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn csv_becomes_a_table_with_quoted_fields_intact() {
        let text =
            delimited_to_markdown(b',', &fixture_bytes("contacts.csv"), &DocLimits::default())
                .unwrap();
        assert_eq!(
            text.sections[0].markdown,
            "| name | city | note |\n| --- | --- | --- |\n| Ada | London | likes, commas |\n| José | São Paulo | said \"hi\" |\n| Lin | Taipei |  |"
        );
    }

    #[test]
    fn tsv_past_the_row_cap_says_how_many_rows_were_left_out() {
        let text =
            delimited_to_markdown(b'\t', &fixture_bytes("values.tsv"), &DocLimits::default())
                .unwrap();
        let md = &text.sections[0].markdown;
        assert!(md.starts_with("| id | value |"), "{md}");
        assert!(
            md.contains("| 200 | v200 |") && !md.contains("v201"),
            "{md}"
        );
        assert!(
            md.ends_with(
                "_[50 more rows not shown: 250 rows under the header, the first 200 shown]_"
            ),
            "{md}"
        );
    }

    #[test]
    fn csv_with_invalid_utf8_is_read_with_a_note() {
        let text =
            delimited_to_markdown(b',', &fixture_bytes("corrupt.csv"), &DocLimits::default())
                .unwrap();
        assert!(text.sections[0].markdown.contains('�'));
        assert_eq!(text.notes.len(), 1);
    }

    #[test]
    fn binary_file_named_csv_is_an_error() {
        let err = delimited_to_markdown(b',', b"PK\x03\x04\x00\x00binary", &DocLimits::default())
            .unwrap_err();
        assert!(err.to_string().contains("NUL bytes"), "{err}");
    }

    proptest! {
        #[test]
        fn delimited_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = delimited_to_markdown(b',', &bytes, &DocLimits::default());
            let _ = delimited_to_markdown(b'\t', &bytes, &DocLimits::default());
        }
    }
}
