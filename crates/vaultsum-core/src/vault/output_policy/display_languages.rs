//! Which fenced code blocks keep their info string: languages Obsidian only displays
//! (highlighted). Any other info string is re-tagged `text`, because plugins run blocks by
//! their info string (`dataview`, `dataviewjs`, `js-engine`, `run-python`, `pre-*`/`post-*`,
//! `button`, `meta-bind*`, …) and Dataview's keywords can be renamed, so a list of executors
//! could never be complete. A short allow-list can be.

/// Info strings kept as they are (compared case-insensitively, the whole info string).
const DISPLAY_LANGUAGES: &[&str] = &[
    "text",
    "txt",
    "plain",
    "plaintext",
    "markdown",
    "md",
    "python",
    "py",
    "rust",
    "rs",
    "js",
    "javascript",
    "ts",
    "typescript",
    "json",
    "yaml",
    "yml",
    "toml",
    "bash",
    "sh",
    "shell",
    "zsh",
    "console",
    "powershell",
    "ps1",
    "sql",
    "html",
    "css",
    "xml",
    "c",
    "cpp",
    "csharp",
    "cs",
    "go",
    "java",
    "kotlin",
    "swift",
    "ruby",
    "rb",
    "php",
    "diff",
    "ini",
    "csv",
    "r",
    "lua",
];

/// Whether a fenced block with this info string keeps it.
pub(super) fn is_display_language(info: &str) -> bool {
    let info = info.trim();
    info.is_empty()
        || DISPLAY_LANGUAGES
            .iter()
            .any(|language| language.eq_ignore_ascii_case(info))
}

#[cfg(test)]
mod tests {
    use super::is_display_language;

    #[test]
    fn executors_and_anything_after_the_language_are_not_display_languages() {
        for info in ["python", "Rust", "json", "text", ""] {
            assert!(is_display_language(info), "{info}");
        }
        for info in [
            "dataview",
            "dataviewjs",
            "js-engine",
            "run-python",
            "pre-python",
            "post-js",
            "button",
            "meta-bind-button",
            "python {cmd=true}",
            "mermaid",
        ] {
            assert!(!is_display_language(info), "{info}");
        }
    }
}
