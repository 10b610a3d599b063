//! Compaction stubs: the one line `[✓ tool: fact | fact]` that replaces a tool result in an
//! agent's transcript once it is old (rule-based, no LLM). This module is the vocabulary both
//! sides share: each tool states its own facts (`Tool::stub`, next to the tool), `compaction`
//! states them for other agents' tools and rewrites transcripts, and both write them the same way.

use serde::Serialize;
use serde_json::Value;

use crate::text::{count_lines, first_line, format_size, plural, shorten};

/// Whether the result was a success or an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Success,
    Error,
}

/// What a stub says about one tool result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolSummary {
    pub tool: String,
    pub status: Status,
    /// Short facts, most important first; later ones are the first to be cut.
    pub facts: Vec<String>,
}

impl ToolSummary {
    /// A successful result with these facts.
    pub fn success(tool: &str, facts: Vec<String>) -> ToolSummary {
        ToolSummary {
            tool: tool.to_string(),
            status: Status::Success,
            facts,
        }
    }

    /// A failed result with these facts (the first says what was attempted).
    pub fn error(tool: &str, facts: Vec<String>) -> ToolSummary {
        ToolSummary {
            tool: tool.to_string(),
            status: Status::Error,
            facts,
        }
    }

    /// Turns this into an error stub: the context facts are kept (what was attempted),
    /// followed by the error's first line.
    pub fn into_error(mut self, error_text: &str) -> ToolSummary {
        self.status = Status::Error;
        self.facts.truncate(1);
        let line = first_line(error_text);
        if !line.is_empty() {
            self.facts.push(line.to_string());
        }
        self
    }

    /// `[✓ tool: fact | fact]`, or `[❌ tool: …]` for errors, at most `max_chars` characters;
    /// the facts are shortened (ending in `…`) to fit, the brackets always stay.
    pub fn render(&self, max_chars: usize) -> String {
        let mark = match self.status {
            Status::Success => "✓",
            Status::Error => "❌",
        };
        let facts: Vec<String> = self
            .facts
            .iter()
            .map(|f| shorten(f, usize::MAX))
            .filter(|f| !f.is_empty())
            .collect();
        let bare = format!("[{mark} {}]", self.tool);
        if facts.is_empty() {
            return shorten_bracketed(&bare, max_chars);
        }
        let head = format!("[{mark} {}: ", self.tool);
        let body = facts.join(" | ");
        let room = max_chars.saturating_sub(head.chars().count() + 1);
        if room < 2 {
            return shorten_bracketed(&bare, max_chars);
        }
        format!("{head}{}]", shorten(&body, room))
    }
}

/// Even a tool name longer than the limit gives a closed bracket.
fn shorten_bracketed(stub: &str, max_chars: usize) -> String {
    if stub.chars().count() <= max_chars || max_chars < 3 {
        return stub.to_string();
    }
    let inner = stub.trim_end_matches(']');
    format!("{}]", shorten(inner, max_chars - 1))
}

/// The value of the first of `keys` that is a non-empty string in `args`. Agents name the same
/// argument differently (`path`, `file_path`, …), and a transcript may hold any of them.
pub fn arg_str<'a>(args: &'a Value, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .filter_map(|k| args.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .find(|s| !s.is_empty())
}

/// The argument names agents use for a file path.
pub const PATH_KEYS: &[&str] = &["path", "file_path", "filePath", "file", "filename"];

/// What any file read is summed up by: the path, its length in lines and its size.
pub fn file_read_facts(path: &str, text: &str) -> Vec<String> {
    vec![
        path.to_string(),
        plural(count_lines(text), "line", "lines"),
        format_size(text.len()),
    ]
}

/// For a read of source code, its language and whether it imports or exports anything (seed
/// 004); nothing for other files. Vault notes are usually Markdown, but a transcript's
/// `read_file` may be another agent's reading code, and the name alone cannot tell them apart.
pub fn source_code_facts(path: &str, text: &str) -> Vec<String> {
    let Some(language) = code_language(path) else {
        return Vec::new();
    };
    let mut facts = vec![language.to_string()];
    let has = |word: &str| text.lines().any(|l| l.trim_start().starts_with(word));
    if has("export ") || has("pub ") {
        facts.push("has exports".to_string());
    }
    if has("import ") || has("use ") || has("from ") || has("#include") {
        facts.push("has imports".to_string());
    }
    facts
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_joined_with_bars_inside_brackets() {
        let s = ToolSummary::success("bash", vec!["npm test".into(), "exit 0".into()]);
        assert_eq!(s.render(200), "[✓ bash: npm test | exit 0]");
    }

    #[test]
    fn error_stub_keeps_context_and_first_error_line() {
        let s = ToolSummary::success("read_file", vec!["a.md".into(), "3 lines".into()])
            .into_error("\nnote not found: a.md\nmore detail");
        assert_eq!(s.render(200), "[❌ read_file: a.md | note not found: a.md]");
    }

    #[test]
    fn long_stubs_are_cut_to_the_limit_and_stay_closed() {
        let s = ToolSummary::success("web_search", vec!["x".repeat(500)]);
        let out = s.render(200);
        assert_eq!(out.chars().count(), 200);
        assert!(out.ends_with("…]"), "{out}");
    }

    #[test]
    fn no_facts_gives_the_bare_tool_name() {
        assert_eq!(ToolSummary::success("t", vec![]).render(200), "[✓ t]");
    }
}
