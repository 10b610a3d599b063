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
    // Rendered as a diagram: kept only when `mermaid_is_inert` says so.
    "mermaid",
];

/// Words of a Mermaid diagram that act, load or hide: `click` callbacks and `link`s, `href`,
/// directives and config blocks (`%%{init}%%`, `---` with `config:`: fonts and styles reach the
/// diagram's CSS, `image-set()` loads), image shapes (`@{ img: … }`), styles (`style`,
/// `classDef`: `display:none`, `color:transparent`), HTML labels and entities, accessibility
/// text no one sees, any URL.
const MERMAID_ACTS: &[&str] = &[
    "click",
    "href",
    "call",
    "link",
    "%%",
    "<",
    "&",
    "#",
    "url",
    "image",
    "img",
    "@{",
    "@import",
    "javascript",
    "http",
    "//",
    "data:",
    "---",
    "config",
    "init",
    "style",
    "classdef",
    "class ",
    "acc",
    "font",
    "ticket",
    "securitylevel",
    "htmllabels",
];

/// Whether a Mermaid diagram (its fenced block, fences included) only draws: none of the words
/// above, and no `name:value` written together (a scheme without `//`, `https:host`, or CSS);
/// a label's `: ` with a space stays (`A->>B: hello`).
pub fn mermaid_is_inert(block: &str) -> bool {
    let lower = block.to_ascii_lowercase();
    let glued_colon = lower
        .match_indices(':')
        .any(|(at, _)| lower[at + 1..].starts_with(|c: char| !c.is_whitespace()));
    !glued_colon && !MERMAID_ACTS.iter().any(|word| lower.contains(word))
}

/// Whether a fenced block with info string `info` only displays (the whole info string, one of
/// the languages above, or none).
pub fn is_display_language(info: &str) -> bool {
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
        ] {
            assert!(!is_display_language(info), "{info}");
        }
    }

    #[test]
    fn a_mermaid_diagram_draws_unless_it_clicks_links_or_sets_directives() {
        use super::mermaid_is_inert;
        assert!(mermaid_is_inert(
            "```mermaid\ngraph TD\n  A[Plan] --> B{Ship?}\n```"
        ));
        assert!(!mermaid_is_inert(
            "```mermaid\ngraph TD\n  A --> B\n  click A callback\n```"
        ));
        assert!(!mermaid_is_inert(
            "```mermaid\n%%{init: {'securityLevel': 'loose'}}%%\ngraph TD\n```"
        ));
        assert!(!mermaid_is_inert(
            "```mermaid\ngraph TD\n  A[\"<img src=x>\"]\n```"
        ));
    }
}
