//! Which notes the watcher leaves alone because of where they are or what they are called.
//!
//! Rules by path (what a note *says* comes from the vault layer's note facts):
//! - hidden files and folders (`.obsidian/`, `.trash/`, `.git/`, `.stversions/`, …) and files
//!   that are not notes, by the vault's one policy (`vault/policy.rs`);
//! - the templates folder: `folder` of `.obsidian/templates.json` and `templates_folder` of the
//!   Templater plugin (`.obsidian/plugins/templater-obsidian/data.json`);
//! - Obsidian's "Excluded files" (`userIgnoreFilters` in `.obsidian/app.json`): a `/regex/`
//!   entry is matched against the vault-relative path, any other entry is a path prefix, as in
//!   Obsidian;
//! - globs from `watch.exclude` (globset syntax, vault-relative, `*` also crosses `/`);
//! - sync-conflict copies (`conflict.rs`).

use std::fmt;

use super::conflict::is_conflict_copy;
use super::WatchError;
use crate::tools::vault_view::{
    is_visible_note, BadGlob, ExcludedBy, Exclusions, ObsidianSettings,
};

/// Why a note is left alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Not a note, or hidden (inside `.obsidian/`, `.trash/`, `.git/`, …).
    NotANote,
    /// Inside the templates folder.
    Template,
    /// Matched by Obsidian's excluded files (`userIgnoreFilters`).
    ObsidianExcluded,
    /// Matched by a `watch.exclude` glob.
    ConfigExcluded,
    /// A sync-conflict copy.
    ConflictCopy,
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SkipReason::NotANote => "not a note",
            SkipReason::Template => "in the templates folder",
            SkipReason::ObsidianExcluded => "excluded in Obsidian's settings",
            SkipReason::ConfigExcluded => "matched by watch.exclude",
            SkipReason::ConflictCopy => "a sync-conflict copy",
        })
    }
}

/// The path rules of one vault, read from its `.obsidian/` settings and the configuration.
#[derive(Debug, Clone)]
pub struct SkipRules {
    template_folders: Vec<String>,
    exclusions: Exclusions,
}

impl SkipRules {
    /// Compiles the rules from the vault's Obsidian settings and the configured globs. A bad
    /// glob is an error (a typo must not silently summarize what the person meant to exclude).
    pub fn new(settings: &ObsidianSettings, exclude: &[String]) -> Result<SkipRules, WatchError> {
        let exclusions = Exclusions::new(settings, exclude)
            .map_err(|BadGlob { pattern, message }| WatchError::BadExclude { pattern, message })?;
        Ok(SkipRules {
            template_folders: settings.template_folders.clone(),
            exclusions,
        })
    }

    /// Why the note at vault-relative `rel` (with `/` separators) is skipped, if it is.
    /// `exists` tells whether a vault-relative file exists (for sync-conflict copies).
    pub fn check(&self, rel: &str, exists: impl Fn(&str) -> bool) -> Option<SkipReason> {
        if !is_visible_note(rel) {
            return Some(SkipReason::NotANote);
        }
        if self
            .template_folders
            .iter()
            .any(|folder| rel.starts_with(folder.as_str()) && rel[folder.len()..].starts_with('/'))
        {
            return Some(SkipReason::Template);
        }
        match self.exclusions.check(rel) {
            Some(ExcludedBy::Obsidian) => return Some(SkipReason::ObsidianExcluded),
            Some(ExcludedBy::Config) => return Some(SkipReason::ConfigExcluded),
            None => {}
        }
        let (folder, name) = match rel.rfind('/') {
            Some(slash) => (&rel[..slash], &rel[slash + 1..]),
            None => ("", rel),
        };
        let sibling_path = |sibling: &str| match folder {
            "" => sibling.to_string(),
            folder => format!("{folder}/{sibling}"),
        };
        if is_conflict_copy(name, |sibling| exists(&sibling_path(sibling))) {
            return Some(SkipReason::ConflictCopy);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules over Obsidian settings as the vault layer would read them.
    fn rules(settings: ObsidianSettings, exclude: &[&str]) -> SkipRules {
        let exclude: Vec<String> = exclude.iter().map(|s| s.to_string()).collect();
        SkipRules::new(&settings, &exclude).unwrap()
    }

    fn no_file(_: &str) -> bool {
        false
    }

    #[test]
    fn hidden_folders_and_non_notes_are_skipped() {
        let rules = rules(ObsidianSettings::default(), &[]);
        for rel in [
            ".obsidian/workspace.md",
            ".trash/Old.md",
            "Sub/.git/notes.md",
            ".stversions/Idea~20240101.md",
            "Notes/.obsidian-ideas.md",
            "image.png",
        ] {
            assert_eq!(
                rules.check(rel, no_file),
                Some(SkipReason::NotANote),
                "{rel}"
            );
        }
        assert_eq!(rules.check("Notes/Idea.md", no_file), None);
        assert_eq!(rules.check("Notes/Idea.markdown", no_file), None);
        assert_eq!(rules.check("Notes/plain.txt", no_file), None);
    }

    #[test]
    fn templates_folders_of_core_plugin_and_templater_are_skipped() {
        let rules = rules(
            ObsidianSettings {
                template_folders: vec!["Templates".into(), "Meta/Templater".into()],
                excluded_files: vec![],
            },
            &[],
        );
        assert_eq!(
            rules.check("Templates/Meeting.md", no_file),
            Some(SkipReason::Template)
        );
        assert_eq!(
            rules.check("Meta/Templater/Daily.md", no_file),
            Some(SkipReason::Template)
        );
        assert_eq!(rules.check("Templates of life.md", no_file), None);
        assert_eq!(rules.check("Meta/Other.md", no_file), None);
    }

    #[test]
    fn obsidian_excluded_files_are_skipped_by_prefix_or_regex() {
        let rules = rules(
            ObsidianSettings {
                template_folders: vec![],
                excluded_files: vec!["Archive/".into(), "/^Inbox/.*draft/".into()],
            },
            &[],
        );
        assert_eq!(
            rules.check("Archive/2020/Old.md", no_file),
            Some(SkipReason::ObsidianExcluded)
        );
        assert_eq!(
            rules.check("Inbox/my draft.md", no_file),
            Some(SkipReason::ObsidianExcluded)
        );
        assert_eq!(rules.check("Inbox/final.md", no_file), None);
        assert_eq!(rules.check("Archived thoughts.md", no_file), None);
    }

    #[test]
    fn configured_globs_are_skipped() {
        let rules = rules(
            ObsidianSettings::default(),
            &["Daily/**", "*.excalidraw.md"],
        );
        assert_eq!(
            rules.check("Daily/2024/01.md", no_file),
            Some(SkipReason::ConfigExcluded)
        );
        assert_eq!(
            rules.check("Drawings/plan.excalidraw.md", no_file),
            Some(SkipReason::ConfigExcluded)
        );
        assert_eq!(rules.check("Weekly/01.md", no_file), None);
    }

    #[test]
    fn bad_glob_is_an_error_naming_the_pattern() {
        let err = SkipRules::new(&ObsidianSettings::default(), &["Daily/[".into()]).unwrap_err();
        assert!(err.to_string().contains("Daily/["), "{err}");
    }

    #[test]
    fn conflict_copies_are_skipped_using_the_real_folder() {
        let rules = rules(ObsidianSettings::default(), &[]);
        let exists = |rel: &str| rel == "Notes/Standup.md";
        assert_eq!(
            rules.check("Notes/Standup 2.md", exists),
            Some(SkipReason::ConflictCopy)
        );
        assert_eq!(rules.check("Notes/Chapter 2.md", exists), None);
        assert_eq!(
            rules.check(
                "Notes/Standup.sync-conflict-20240101-101010-ABCDEFG.md",
                exists
            ),
            Some(SkipReason::ConflictCopy)
        );
    }
}
