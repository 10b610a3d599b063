//! What a prompt value means and what a language value may be: the one reading of
//! `summarize.prompt`, a rule's `prompt`, a note's `summary_prompt` property, `--prompt` and the
//! MCP `prompt` argument, and of their `language` counterparts.
//!
//! A prompt is a built-in preset (`default`, `meeting`, `paper`, `journal`, `brief`), a note of
//! the vault (`[[Prompts/Weekly review]]`, or its vault path), or, in the config file only, a
//! file (a path relative to the config file). Where it is chosen, and the texts, are
//! `vaultsum-tools`' (`instructions.rs`, `prompts/presets/`).

pub use vaultsum_engine::summary::prompt_spec::{
    parse_language, PromptSpec, PromptSpecError, PRESETS,
};

/// The language value that means "the note's own language".
pub const AUTO_LANGUAGE: &str = vaultsum_engine::summary::defaults::LANGUAGE;

/// One `[[summarize.rules]]` entry: the notes it applies to (a folder or a glob) and what it
/// chooses for them. The first rule that matches a note is the one that applies.
#[derive(Debug, Clone)]
pub struct SummaryRule {
    /// The notes the rule applies to.
    pub notes: RuleNotes,
    /// The prompt for those notes.
    pub prompt: Option<PromptSpec>,
    /// Where their summary goes.
    pub into: Option<crate::config::SummaryInto>,
    /// The language of their summary (checked by [`parse_language`]).
    pub language: Option<String>,
    /// Whether their summary's points link the sections they come from.
    pub cite_sections: Option<bool>,
}

/// Which notes a rule applies to.
#[derive(Debug, Clone)]
pub enum RuleNotes {
    /// Every note at any depth below this vault-relative folder (`/`-separated, no leading or
    /// trailing `/`; compared without regard to ASCII case, as macOS and Windows file systems do).
    Folder(String),
    /// The vault-relative paths this glob matches (`*` stays within a folder, `**` crosses).
    Glob {
        pattern: String,
        matcher: globset::GlobMatcher,
    },
}

impl RuleNotes {
    /// `folder`, normalised: `\` as `/`, no leading or trailing `/`.
    pub fn folder(folder: &str) -> RuleNotes {
        RuleNotes::Folder(folder.replace('\\', "/").trim_matches('/').to_string())
    }

    /// `pattern` compiled, or why it is not a glob.
    pub fn glob(pattern: &str) -> Result<RuleNotes, String> {
        let matcher = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| e.to_string())?
            .compile_matcher();
        Ok(RuleNotes::Glob {
            pattern: pattern.to_string(),
            matcher,
        })
    }

    /// Whether the note at vault-relative `relative` is one of these notes.
    pub fn matches(&self, relative: &str) -> bool {
        let relative = relative.replace('\\', "/");
        match self {
            RuleNotes::Folder(folder) if folder.is_empty() => true,
            RuleNotes::Folder(folder) => relative.get(..folder.len() + 1).is_some_and(|head| {
                head.ends_with('/') && head[..folder.len()].eq_ignore_ascii_case(folder)
            }),
            RuleNotes::Glob { matcher, .. } => matcher.is_match(&relative),
        }
    }

    /// `folder Meetings`, `glob Papers/**`.
    pub fn label(&self) -> String {
        match self {
            RuleNotes::Folder(folder) => format!("folder {folder}"),
            RuleNotes::Glob { pattern, .. } => format!("glob {pattern}"),
        }
    }
}

/// The first of `rules` that applies to the note at `relative`.
pub fn first_rule<'a>(rules: &'a [SummaryRule], relative: &str) -> Option<&'a SummaryRule> {
    rules.iter().find(|rule| rule.notes.matches(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_match_folders_at_any_depth_and_globs() {
        let meetings = RuleNotes::folder("/Meetings/");
        assert!(meetings.matches("Meetings/2024/Standup.md"));
        assert!(meetings.matches("meetings/Standup.md"));
        assert!(!meetings.matches("Meetings notes.md"));
        assert!(!meetings.matches("Work/Meetings/Standup.md"));
        let papers = RuleNotes::glob("Papers/**/*.md").unwrap();
        assert!(papers.matches("Papers/2024/attention.md"));
        assert!(!papers.matches("Papers/attention.pdf"));
        let top = RuleNotes::glob("*.md").unwrap();
        assert!(top.matches("Inbox.md"));
        assert!(
            !top.matches("Daily/2024-03-04.md"),
            "* stays within a folder"
        );
        assert!(RuleNotes::glob("[").is_err());
    }
}
