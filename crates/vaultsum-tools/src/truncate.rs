//! Head truncation for tool output that can grow large: the model sees whole lines from the top,
//! and the full text is kept in a temp file whose path the notice names, so nothing is lost.
//!
//! Lines are the pieces between `\n`; a final newline ends the last line rather than starting
//! an empty one. Byte counts are UTF-8 bytes; kept lines are joined with `\n`.

use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use crate::text::format_size;

/// Most lines a tool result shows before it is cut.
pub const DEFAULT_MAX_LINES: usize = 2000;
/// Most bytes (50 KiB) a tool result shows before it is cut.
pub const DEFAULT_MAX_BYTES: usize = 51_200;

/// The two limits; whichever is reached first cuts the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum number of whole lines kept.
    pub max_lines: usize,
    /// Maximum number of bytes kept (separating newlines included).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_lines: DEFAULT_MAX_LINES,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// Which limit cut the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TruncatedBy {
    Lines,
    Bytes,
}

/// The outcome of [`truncate_head`]: the kept text and the counts the notice reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Truncation {
    /// The kept lines, joined with `\n` (the whole text when nothing was cut).
    pub content: String,
    /// Whether anything was left out.
    pub truncated: bool,
    /// The limit that was reached, when `truncated`.
    pub truncated_by: Option<TruncatedBy>,
    pub total_lines: usize,
    pub total_bytes: usize,
    pub output_lines: usize,
    pub output_bytes: usize,
    /// The first line alone is over the byte limit, so nothing could be shown.
    pub first_line_exceeds_limit: bool,
}

/// Keeps whole lines from the top of `text` while both limits hold.
///
/// A first line longer than `max_bytes` gives empty content rather than half a line, because a
/// line cut mid-way (or mid-character) misleads more than it helps.
pub fn truncate_head(text: &str, limits: Limits) -> Truncation {
    let total_bytes = text.len();
    let lines = split_lines(text);
    let total_lines = lines.len();
    if total_lines <= limits.max_lines && total_bytes <= limits.max_bytes {
        return Truncation {
            content: text.to_string(),
            truncated: false,
            truncated_by: None,
            total_lines,
            total_bytes,
            output_lines: total_lines,
            output_bytes: total_bytes,
            first_line_exceeds_limit: false,
        };
    }
    let cut = |content: String, lines: usize, by: TruncatedBy, first_line: bool| Truncation {
        output_bytes: content.len(),
        content,
        truncated: true,
        truncated_by: Some(by),
        total_lines,
        total_bytes,
        output_lines: lines,
        first_line_exceeds_limit: first_line,
    };
    if lines.first().is_some_and(|l| l.len() > limits.max_bytes) {
        return cut(String::new(), 0, TruncatedBy::Bytes, true);
    }
    let mut bytes = 0;
    let mut kept = 0;
    let mut by = TruncatedBy::Lines;
    for (i, line) in lines.iter().take(limits.max_lines).enumerate() {
        let cost = line.len() + usize::from(i > 0);
        if bytes + cost > limits.max_bytes {
            by = TruncatedBy::Bytes;
            break;
        }
        bytes += cost;
        kept += 1;
    }
    cut(lines[..kept].join("\n"), kept, by, false)
}

fn split_lines(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').collect()
}

/// A tool's text after truncation, with what `details` should record about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TruncatedText {
    /// What the model sees: the whole text, or the kept lines plus the notice.
    pub text: String,
    /// Set when the text was cut.
    pub info: Option<TruncationInfo>,
}

/// What was cut and where the full text went; serialized into a tool's `details.truncation`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TruncationInfo {
    pub truncated_by: TruncatedBy,
    pub total_lines: usize,
    pub total_bytes: usize,
    pub output_lines: usize,
    pub output_bytes: usize,
    /// The kept temp file holding the full text; `None` if it could not be written.
    pub full_output_path: Option<PathBuf>,
}

/// Truncates with the default limits (2000 lines, 50 KiB); see [`truncate_with_limits`].
pub fn truncate_for_model(text: String) -> TruncatedText {
    truncate_with_limits(text, Limits::default())
}

/// Truncates `text`; when it is cut, saves the full text to a kept temp file and appends
/// `[Output truncated: showing X of Y lines (A of B). Z lines (C) omitted. Full output saved to: PATH]`.
///
/// Failing to write the temp file does not fail the tool: the notice says so instead of naming
/// a path, so the model still knows the output is partial.
pub fn truncate_with_limits(text: String, limits: Limits) -> TruncatedText {
    let t = truncate_head(&text, limits);
    if !t.truncated {
        return TruncatedText { text, info: None };
    }
    let saved = save_full_output(&text);
    let omitted_lines = t.total_lines - t.output_lines;
    let omitted_bytes = t.total_bytes.saturating_sub(t.output_bytes);
    let destination = match &saved {
        Ok(path) => format!("Full output saved to: {}", path.display()),
        Err(e) => {
            tracing::warn!("could not save the full tool output: {e}");
            format!("Full output could not be saved: {e}")
        }
    };
    let notice = format!(
        "[Output truncated: showing {} of {} lines ({} of {}). {} lines ({}) omitted. {}]",
        t.output_lines,
        t.total_lines,
        format_size(t.output_bytes),
        format_size(t.total_bytes),
        omitted_lines,
        format_size(omitted_bytes),
        destination,
    );
    let shown = if t.content.is_empty() {
        notice
    } else {
        format!("{}\n\n{notice}", t.content)
    };
    TruncatedText {
        text: shown,
        info: Some(TruncationInfo {
            truncated_by: t.truncated_by.unwrap_or(TruncatedBy::Bytes),
            total_lines: t.total_lines,
            total_bytes: t.total_bytes,
            output_lines: t.output_lines,
            output_bytes: t.output_bytes,
            full_output_path: saved.ok(),
        }),
    }
}

fn save_full_output(text: &str) -> std::io::Result<PathBuf> {
    let mut file = tempfile::Builder::new()
        .prefix("vaultsum-output-")
        .suffix(".txt")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    let (_, path) = file.keep().map_err(|e| e.error)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_lines: usize, max_bytes: usize) -> Limits {
        Limits {
            max_lines,
            max_bytes,
        }
    }

    #[test]
    fn text_within_limits_is_returned_unchanged() {
        let t = truncate_head("a\nb\nc\n", limits(3, 100));
        assert!(!t.truncated);
        assert_eq!(t.content, "a\nb\nc\n");
        assert_eq!((t.total_lines, t.output_lines), (3, 3));
    }

    #[test]
    fn line_limit_keeps_first_whole_lines() {
        let t = truncate_head("1\n2\n3\n4\n5", limits(2, 100));
        assert_eq!(t.content, "1\n2");
        assert_eq!(t.truncated_by, Some(TruncatedBy::Lines));
        assert_eq!((t.output_lines, t.total_lines), (2, 5));
        assert_eq!(t.output_bytes, 3);
    }

    #[test]
    fn byte_limit_counts_separating_newlines_and_never_splits_a_line() {
        // "aaaa\nbbbb" is 9 bytes; the third line would need 5 more.
        let t = truncate_head("aaaa\nbbbb\ncccc", limits(100, 12));
        assert_eq!(t.content, "aaaa\nbbbb");
        assert_eq!(t.truncated_by, Some(TruncatedBy::Bytes));
        assert_eq!(t.output_bytes, 9);
    }

    #[test]
    fn first_line_over_byte_limit_gives_empty_content() {
        let t = truncate_head(&format!("{}\nshort", "x".repeat(50)), limits(100, 20));
        assert!(t.truncated);
        assert!(t.first_line_exceeds_limit);
        assert_eq!(t.content, "");
        assert_eq!(t.output_lines, 0);
    }

    #[test]
    fn multibyte_text_is_cut_at_line_boundaries_only() {
        let text = "é".repeat(10) + "\n" + &"ü".repeat(10);
        let t = truncate_head(&text, limits(100, 25));
        assert_eq!(t.content, "é".repeat(10));
    }

    #[test]
    fn cut_output_names_counts_and_keeps_full_text_in_a_temp_file() {
        let text: String = (1..=10).map(|i| format!("line {i}\n")).collect();
        let out = truncate_with_limits(text.clone(), limits(4, 1000));
        let info = out.info.expect("was truncated");
        let path = info.full_output_path.expect("saved");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let expected = format!(
            "line 1\nline 2\nline 3\nline 4\n\n[Output truncated: showing 4 of 10 lines (27B of 71B). \
             6 lines (44B) omitted. Full output saved to: {}]",
            path.display()
        );
        assert_eq!(out.text, expected);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn uncut_output_writes_no_file_and_has_no_notice() {
        let out = truncate_for_model("short".to_string());
        assert_eq!(out.text, "short");
        assert!(out.info.is_none());
    }
}
