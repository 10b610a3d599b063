//! Stubs for the note tools, `summarize_file` and `read_file` (also an agent's generic
//! `read_file` of source code).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{arg_str, count_lines, first_line, plural, ToolSummary};
use crate::truncate::format_size;

const PATH_KEYS: &[&str] = &["path", "file_path", "filePath", "file", "filename"];

/// `[✓ summarize_file: Notes/a.md | summary 812 chars]` from `{"success":true,"path","summary_length"}`.
pub fn summarize_file(args: &Value, text: &str) -> ToolSummary {
    let parsed: Option<Value> = serde_json::from_str(text.trim()).ok();
    let path = parsed
        .as_ref()
        .and_then(|v| v.get("path").and_then(Value::as_str))
        .or_else(|| arg_str(args, PATH_KEYS))
        .unwrap_or("?")
        .to_string();
    let summary = ToolSummary::success("summarize_file", vec![path]);
    let Some(result) = parsed else {
        let mut summary = summary;
        summary.facts.push(first_line(text).to_string());
        return summary;
    };
    if result.get("success").and_then(Value::as_bool) == Some(false) {
        let error = result
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("failed");
        return summary.into_error(error);
    }
    let mut summary = summary;
    if let Some(n) = result.get("summary_length").and_then(Value::as_u64) {
        summary.facts.push(format!("summary {n} chars"));
    }
    if result.get("stale").and_then(Value::as_bool) == Some(true) {
        summary.facts.push("note had changed meanwhile".to_string());
    }
    summary
}

static PAGE_CUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[\.\.\. truncated at char (\d+) of (\d+)\.").expect("valid paging pattern")
});

/// `[✓ read_file: Notes/a.md | 42 lines | 3.1KB]`; for source code also the language and
/// whether it imports or exports (seed 004); for a paged read, which part was shown.
pub fn read_file(args: &Value, text: &str) -> ToolSummary {
    let path = arg_str(args, PATH_KEYS).unwrap_or("?");
    let mut facts = vec![
        path.to_string(),
        plural(count_lines(text), "line", "lines"),
        format_size(text.len()),
    ];
    if let Some(cut) = PAGE_CUT.captures(text) {
        facts.push(format!("partial: to char {} of {}", &cut[1], &cut[2]));
    }
    if let Some(language) = code_language(path) {
        facts.push(language.to_string());
        let has = |word: &str| text.lines().any(|l| l.trim_start().starts_with(word));
        if has("export ") || has("pub ") {
            facts.push("has exports".to_string());
        }
        if has("import ") || has("use ") || has("from ") || has("#include") {
            facts.push("has imports".to_string());
        }
    }
    ToolSummary::success("read_file", facts)
}

fn code_language(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "rs" => "Rust",
        "ts" | "tsx" => "TypeScript",
        "js" | "jsx" | "mjs" | "cjs" => "JavaScript",
        "py" => "Python",
        "go" => "Go",
        "java" => "Java",
        "kt" => "Kotlin",
        "rb" => "Ruby",
        "c" | "h" => "C",
        "cc" | "cpp" | "hpp" => "C++",
        "cs" => "C#",
        "swift" => "Swift",
        "sh" | "bash" => "Shell",
        "json" => "JSON",
        "toml" => "TOML",
        "yaml" | "yml" => "YAML",
        _ => return None,
    })
}
