//! Which notes the watcher leaves alone because of where they are or what they are called.
//!
//! Rules by path (content rules are in `content.rs`):
//! - anything under `.obsidian/`, `.trash/` or `.git/` (at any depth) and files that are not
//!   Markdown notes (`.md`, `.markdown`);
//! - the templates folder: `folder` of `.obsidian/templates.json` and `templates_folder` of the
//!   Templater plugin (`.obsidian/plugins/templater-obsidian/data.json`);
//! - Obsidian's "Excluded files" (`userIgnoreFilters` in `.obsidian/app.json`): a `/regex/`
//!   entry is matched against the vault-relative path, any other entry is a path prefix, as in
//!   Obsidian;
//! - globs from `watch.exclude` (globset syntax, vault-relative, `*` also crosses `/`);
//! - sync-conflict copies (`conflict.rs`).

use std::fmt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;
use serde_json::Value;

use super::conflict::is_conflict_copy;
use super::WatchError;

/// Folders whose content is never a note to summarize, wherever they appear.
pub const IGNORED_DIRS: [&str; 3] = [".obsidian", ".trash", ".git"];

/// Why a note is left alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Not a Markdown note, or inside `.obsidian/`, `.trash/` or `.git/`.
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

/// An entry of Obsidian's excluded files.
#[derive(Debug, Clone)]
enum ObsidianFilter {
    Prefix(String),
    Regex(Regex),
}

/// The path rules of one vault, read from its `.obsidian/` settings and the configuration.
#[derive(Debug, Clone)]
pub struct SkipRules {
    root: PathBuf,
    template_folders: Vec<String>,
    obsidian_filters: Vec<ObsidianFilter>,
    globs: GlobSet,
}

impl SkipRules {
    /// Reads the vault's Obsidian settings and compiles the configured globs. A bad glob is an
    /// error (a typo must not silently summarize what the person meant to exclude); unreadable
    /// or malformed Obsidian settings are ignored, as Obsidian itself would fall back.
    pub fn load(root: &Path, exclude: &[String]) -> Result<SkipRules, WatchError> {
        let mut builder = GlobSetBuilder::new();
        for pattern in exclude {
            let glob = Glob::new(pattern).map_err(|e| WatchError::BadExclude {
                pattern: pattern.clone(),
                message: e.kind().to_string(),
            })?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| WatchError::BadExclude {
            pattern: exclude.join(", "),
            message: e.to_string(),
        })?;
        let obsidian = root.join(".obsidian");
        let mut template_folders = Vec::new();
        for (file, key) in [
            ("templates.json", "folder"),
            ("plugins/templater-obsidian/data.json", "templates_folder"),
        ] {
            if let Some(folder) = read_json(&obsidian.join(file))
                .as_ref()
                .and_then(|v| v.get(key))
                .and_then(Value::as_str)
            {
                let folder = folder.trim().trim_matches('/');
                if !folder.is_empty() {
                    template_folders.push(folder.to_string());
                }
            }
        }
        let obsidian_filters = read_json(&obsidian.join("app.json"))
            .as_ref()
            .and_then(|v| v.get("userIgnoreFilters"))
            .and_then(Value::as_array)
            .map(|filters| {
                filters
                    .iter()
                    .filter_map(Value::as_str)
                    .filter_map(parse_obsidian_filter)
                    .collect()
            })
            .unwrap_or_default();
        Ok(SkipRules {
            root: root.to_path_buf(),
            template_folders,
            obsidian_filters,
            globs,
        })
    }

    /// True for the Obsidian settings files these rules are read from (reload when they change).
    pub fn is_settings_file(rel: &str) -> bool {
        matches!(
            rel,
            ".obsidian/app.json"
                | ".obsidian/templates.json"
                | ".obsidian/plugins/templater-obsidian/data.json"
        )
    }

    /// Why the note at vault-relative `rel` (with `/` separators) is skipped, if it is.
    pub fn check(&self, rel: &str) -> Option<SkipReason> {
        if !is_note_path(rel) {
            return Some(SkipReason::NotANote);
        }
        if self
            .template_folders
            .iter()
            .any(|folder| rel.starts_with(folder.as_str()) && rel[folder.len()..].starts_with('/'))
        {
            return Some(SkipReason::Template);
        }
        if self.obsidian_filters.iter().any(|filter| match filter {
            ObsidianFilter::Prefix(prefix) => rel.starts_with(prefix.as_str()),
            ObsidianFilter::Regex(regex) => regex.is_match(rel),
        }) {
            return Some(SkipReason::ObsidianExcluded);
        }
        if self.globs.is_match(rel) {
            return Some(SkipReason::ConfigExcluded);
        }
        let (folder, name) = match rel.rfind('/') {
            Some(slash) => (&rel[..slash], &rel[slash + 1..]),
            None => ("", rel),
        };
        let folder = self.root.join(folder);
        if is_conflict_copy(name, |sibling| folder.join(sibling).is_file()) {
            return Some(SkipReason::ConflictCopy);
        }
        None
    }
}

/// A Markdown note outside the ignored folders.
pub fn is_note_path(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    (lower.ends_with(".md") || lower.ends_with(".markdown"))
        && !rel.split('/').any(|part| IGNORED_DIRS.contains(&part))
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn parse_obsidian_filter(entry: &str) -> Option<ObsidianFilter> {
    let entry = entry.trim();
    if entry.len() > 2 && entry.starts_with('/') && entry.ends_with('/') {
        return Regex::new(&entry[1..entry.len() - 1])
            .ok()
            .map(ObsidianFilter::Regex);
    }
    let prefix = entry.trim_start_matches('/');
    (!prefix.is_empty()).then(|| ObsidianFilter::Prefix(prefix.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vault_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn obsidian_trash_and_git_folders_and_non_notes_are_skipped() {
        let vault = vault_with(&[]);
        let rules = SkipRules::load(vault.path(), &[]).unwrap();
        for rel in [
            ".obsidian/workspace.md",
            ".trash/Old.md",
            "Sub/.git/notes.md",
            "image.png",
            "data.txt",
        ] {
            assert_eq!(rules.check(rel), Some(SkipReason::NotANote), "{rel}");
        }
        assert_eq!(rules.check("Notes/Idea.md"), None);
        assert_eq!(rules.check("Notes/Idea.markdown"), None);
        assert_eq!(rules.check("Notes/.obsidian-ideas.md"), None);
    }

    #[test]
    fn templates_folders_of_core_plugin_and_templater_are_skipped() {
        let vault = vault_with(&[
            (".obsidian/templates.json", r#"{"folder":"/Templates/"}"#),
            (
                ".obsidian/plugins/templater-obsidian/data.json",
                r#"{"templates_folder":"Meta/Templater"}"#,
            ),
        ]);
        let rules = SkipRules::load(vault.path(), &[]).unwrap();
        assert_eq!(
            rules.check("Templates/Meeting.md"),
            Some(SkipReason::Template)
        );
        assert_eq!(
            rules.check("Meta/Templater/Daily.md"),
            Some(SkipReason::Template)
        );
        assert_eq!(rules.check("Templates of life.md"), None);
        assert_eq!(rules.check("Meta/Other.md"), None);
    }

    #[test]
    fn obsidian_excluded_files_are_skipped_by_prefix_or_regex() {
        let vault = vault_with(&[(
            ".obsidian/app.json",
            r#"{"userIgnoreFilters":["Archive/","/^Inbox/.*draft/"]}"#,
        )]);
        let rules = SkipRules::load(vault.path(), &[]).unwrap();
        assert_eq!(
            rules.check("Archive/2020/Old.md"),
            Some(SkipReason::ObsidianExcluded)
        );
        assert_eq!(
            rules.check("Inbox/my draft.md"),
            Some(SkipReason::ObsidianExcluded)
        );
        assert_eq!(rules.check("Inbox/final.md"), None);
        assert_eq!(rules.check("Archived thoughts.md"), None);
    }

    #[test]
    fn configured_globs_are_skipped() {
        let vault = vault_with(&[]);
        let rules =
            SkipRules::load(vault.path(), &["Daily/**".into(), "*.excalidraw.md".into()]).unwrap();
        assert_eq!(
            rules.check("Daily/2024/01.md"),
            Some(SkipReason::ConfigExcluded)
        );
        assert_eq!(
            rules.check("Drawings/plan.excalidraw.md"),
            Some(SkipReason::ConfigExcluded)
        );
        assert_eq!(rules.check("Weekly/01.md"), None);
    }

    #[test]
    fn bad_glob_is_an_error_naming_the_pattern() {
        let vault = vault_with(&[]);
        let err = SkipRules::load(vault.path(), &["Daily/[".into()]).unwrap_err();
        assert!(err.to_string().contains("Daily/["), "{err}");
    }

    #[test]
    fn conflict_copies_are_skipped_using_the_real_folder() {
        let vault = vault_with(&[("Notes/Standup.md", "x")]);
        let rules = SkipRules::load(vault.path(), &[]).unwrap();
        assert_eq!(
            rules.check("Notes/Standup 2.md"),
            Some(SkipReason::ConflictCopy)
        );
        assert_eq!(rules.check("Notes/Chapter 2.md"), None);
        assert_eq!(
            rules.check("Notes/Standup.sync-conflict-20240101-101010-ABCDEFG.md"),
            Some(SkipReason::ConflictCopy)
        );
    }

    #[test]
    fn malformed_obsidian_settings_are_ignored() {
        let vault = vault_with(&[
            (".obsidian/app.json", "{broken"),
            (".obsidian/templates.json", r#"{"folder": 3}"#),
        ]);
        let rules = SkipRules::load(vault.path(), &[]).unwrap();
        assert_eq!(rules.check("Templates/x.md"), None);
    }
}
