//! Stubs for the generic agent tools of seed 004: shell commands, file searches and file reads.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use crate::stub::{arg_str, file_read_facts, source_code_facts, Status, ToolSummary, PATH_KEYS};
use crate::text::{count_lines, plural, shorten};

/// `[✓ read: src/app.ts | 3 lines | 51B | TypeScript | has imports]`: another agent's file read.
pub fn read(tool: &str, args: &Value, text: &str) -> ToolSummary {
    let path = arg_str(args, PATH_KEYS).unwrap_or("?");
    let mut facts = file_read_facts(path, text);
    facts.extend(source_code_facts(path, text));
    ToolSummary::success(tool, facts)
}

static EXIT_CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?im)\b(?:exit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?|return\s?code|returncode)\s*[:=]?\s*(-?\d+)\b",
    )
    .expect("valid exit-code pattern")
});

/// `[✓ bash: npm test | exit 0 | 42 lines output]`; a non-zero exit makes it an error.
pub fn bash(tool: &str, args: &Value, text: &str) -> ToolSummary {
    let command = arg_str(args, &["command", "cmd", "script"]).unwrap_or("?");
    let exit = EXIT_CODE
        .captures_iter(text)
        .last()
        .and_then(|c| c[1].parse::<i64>().ok());
    let mut facts = vec![shorten(command, 50)];
    if let Some(code) = exit {
        facts.push(format!("exit {code}"));
    }
    facts.push(format!(
        "{} output",
        plural(count_lines(text), "line", "lines")
    ));
    if text.to_lowercase().contains("error") {
        facts.push("contains errors".to_string());
    }
    let mut summary = ToolSummary::success(tool, facts);
    if exit.is_some_and(|code| code != 0) {
        summary.status = Status::Error;
    }
    summary
}

/// `[✓ grep: "useState" | 15 matches in 4 files: App.tsx, Hook.ts, …]`, reading
/// `path:line:text` or `path:text` lines as ripgrep and grep print them.
pub fn search_files(tool: &str, args: &Value, text: &str) -> ToolSummary {
    let pattern = arg_str(args, &["pattern", "query", "regex", "search"]).unwrap_or("?");
    let mut matches = 0;
    let mut files: Vec<&str> = Vec::new();
    for line in text.lines() {
        let Some((file, _)) = line.split_once(':') else {
            continue;
        };
        if file.is_empty()
            || file.contains(char::is_whitespace)
            || !(file.contains('.') || file.contains('/'))
        {
            continue;
        }
        matches += 1;
        if !files.contains(&file) {
            files.push(file);
        }
    }
    let mut facts = vec![format!("{pattern:?}")];
    if matches == 0 {
        let lines = count_lines(text);
        facts.push(if lines == 0 {
            "no matches".to_string()
        } else {
            format!("{} output", plural(lines, "line", "lines"))
        });
    } else {
        let names: Vec<&str> = files
            .iter()
            .take(3)
            .map(|f| f.rsplit('/').next().unwrap_or(f))
            .collect();
        let more = if files.len() > 3 { ", …" } else { "" };
        facts.push(format!(
            "{} in {}: {}{more}",
            plural(matches, "match", "matches"),
            plural(files.len(), "file", "files"),
            names.join(", ")
        ));
    }
    ToolSummary::success(tool, facts)
}
