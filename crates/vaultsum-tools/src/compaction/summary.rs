//! The facts a stub is made of, and how they are written: `[✓ tool: fact | fact]`.

use serde::Serialize;

use super::{first_line, shorten};

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
