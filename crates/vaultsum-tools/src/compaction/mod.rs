//! Rule-based compaction (no LLM): a tool result becomes one line such as
//! `[✓ web_search: queries: "rust" | 10 results | top: https://…]`, so an agent's transcript
//! keeps what was done and found without the bulk.
//!
//! [`stub_for`] is the entry point for tools (`Tool::stub` delegates to it); [`compact_result`]
//! adds the error policy; [`compact_transcript`] rewrites a whole OpenAI-format transcript.

mod agent;
mod fallback;
mod notes;
mod summary;
mod transcript;
mod web;

use serde_json::Value;

use crate::config::CompactionConfig;

pub use summary::{Status, ToolSummary};
pub use transcript::{compact_transcript, compact_value, CompactStats, TranscriptError};

/// The one-line stub for a tool result, at most `config.max_summary_length` characters.
///
/// `args` are the call's arguments; `text` is what the model saw. Unknown tools get a generic
/// stub, so any transcript can be compacted.
pub fn stub_for(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    config: &CompactionConfig,
) -> String {
    stub_with_details(tool, args, text, is_error, None, config)
}

/// Like [`stub_for`], also using the result's `details` when the caller has them (a live tool
/// call does; a transcript does not), e.g. the token count of a Kagi summary.
pub fn stub_with_details(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    details: Option<&Value>,
    config: &CompactionConfig,
) -> String {
    summarize_result(tool, args, text, is_error, details).render(config.max_summary_length)
}

/// What replaces a result when compacting: the whole text for an error when
/// `config.preserve_errors` is on (errors are what an agent most needs to read again),
/// otherwise the stub.
pub fn compact_result(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    config: &CompactionConfig,
) -> String {
    let summary = summarize_result(tool, args, text, is_error, None);
    if summary.status == Status::Error && config.preserve_errors {
        text.to_string()
    } else {
        summary.render(config.max_summary_length)
    }
}

/// The structured facts behind a stub, chosen by tool name.
pub fn summarize_result(
    tool: &str,
    args: &Value,
    text: &str,
    is_error: bool,
    details: Option<&Value>,
) -> ToolSummary {
    let summary = match tool {
        "summarize_file" => notes::summarize_file(args, text),
        "read_file" | "read" => notes::read_file(args, text),
        "web_search" => web::web_search(args, text, details),
        "summarize" => web::summarize(args, text, details),
        "execute_bash" | "bash" => agent::bash(tool, args, text),
        "search_files" | "grep" => agent::search_files(tool, args, text),
        _ => fallback::generic(tool, args, text),
    };
    if is_error && summary.status != Status::Error {
        return summary.into_error(text);
    }
    summary
}

/// The value of the first of `keys` that is a non-empty string in `args`.
fn arg_str<'a>(args: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .filter_map(|k| args.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .find(|s| !s.is_empty())
}

/// `text` cut to `max` characters with an ellipsis, on one line.
fn shorten(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Lines as people count them (a final newline does not start another line).
fn count_lines(text: &str) -> usize {
    text.lines().count()
}

/// `1 line`, `3 lines`.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The first non-blank line.
fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}
