//! The stub for any tool without its own rules: its main argument, the size of the result and
//! how it began.

use serde_json::Value;

use crate::stub::ToolSummary;
use crate::text::{count_lines, first_line, format_size, plural, shorten};

/// `[✓ some_tool: key: value | 12 lines, 1.1KB | first line…]`.
pub fn generic(tool: &str, args: &Value, text: &str) -> ToolSummary {
    let mut facts = Vec::new();
    let main_arg = args.as_object().and_then(|o| {
        o.iter().find_map(|(k, v)| match v {
            Value::String(s) if !s.trim().is_empty() => Some(format!("{k}: {}", shorten(s, 50))),
            _ => None,
        })
    });
    // The stub's first fact is its context; keep that slot even without arguments.
    facts.push(main_arg.unwrap_or_default());
    facts.push(format!(
        "{}, {}",
        plural(count_lines(text), "line", "lines"),
        format_size(text.len())
    ));
    let start = first_line(text);
    if !start.is_empty() {
        facts.push(shorten(start, 60));
    }
    ToolSummary::success(tool, facts)
}
