//! Rows of cells as a Markdown table, capped with a marker saying how many rows were left out.

/// Renders `rows` (the first is the header) as a Markdown table with at most `max_rows` rows
/// under the header. Rows past the cap are counted, not rendered, and a marker line says how
/// many were left out. Ragged rows are padded to the widest row. No rows: an empty string.
pub(super) fn markdown_table(
    rows: impl IntoIterator<Item = Vec<String>>,
    max_rows: usize,
) -> String {
    let mut rows = rows.into_iter();
    let Some(header) = rows.next() else {
        return String::new();
    };
    let mut body: Vec<Vec<String>> = Vec::new();
    let mut left_out = 0usize;
    for row in rows {
        if body.len() < max_rows {
            body.push(row);
        } else {
            left_out += 1;
        }
    }
    let width = body
        .iter()
        .map(Vec::len)
        .chain([header.len()])
        .max()
        .unwrap_or(0)
        .max(1);
    let mut out = String::new();
    push_row(&mut out, &header, width);
    out.push('|');
    out.push_str(&" --- |".repeat(width));
    out.push('\n');
    for row in &body {
        push_row(&mut out, row, width);
    }
    if left_out > 0 {
        let total = body.len() + left_out;
        out.push_str(&format!(
            "\n_[{left_out} more rows not shown: {total} rows under the header, the first {} shown]_\n",
            body.len()
        ));
    }
    out
}

fn push_row(out: &mut String, row: &[String], width: usize) {
    out.push('|');
    for i in 0..width {
        let cell = row.get(i).map(String::as_str).unwrap_or("");
        out.push(' ');
        out.push_str(&escape_cell(cell));
        out.push_str(" |");
    }
    out.push('\n');
}

/// A cell's text made safe inside a table row: pipes escaped, line breaks as `<br>`.
fn escape_cell(cell: &str) -> String {
    let cell = cell.trim();
    let mut out = String::with_capacity(cell.len());
    for c in cell.chars() {
        match c {
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("<br>"),
            '\r' => {}
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn table_escapes_pipes_and_pads_ragged_rows() {
        let table = markdown_table([row(&["a", "b"]), row(&["x|y"]), row(&["1", "2", "3"])], 10);
        assert_eq!(
            table,
            "| a | b |  |\n| --- | --- | --- |\n| x\\|y |  |  |\n| 1 | 2 | 3 |\n"
        );
    }

    #[test]
    fn table_past_the_cap_says_how_many_rows_were_left_out() {
        let rows = (0..=5).map(|i| row(&[&i.to_string()]));
        let table = markdown_table(rows, 2);
        assert!(
            table.contains("| 2 |") && !table.contains("| 3 |"),
            "{table}"
        );
        assert!(
            table.contains("_[3 more rows not shown: 5 rows under the header, the first 2 shown]_"),
            "{table}"
        );
    }

    #[test]
    fn no_rows_is_no_table() {
        assert_eq!(markdown_table(Vec::<Vec<String>>::new(), 5), "");
    }
}
