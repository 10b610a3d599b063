//! Notes a person excluded from being looked at in bulk: Obsidian's "Excluded files"
//! (`userIgnoreFilters`: a path prefix, or a `/regex/`) and the `watch.exclude` globs (globset
//! syntax, vault-relative, `*` also crosses `/`). The watcher never summarizes them and a rollup
//! never selects them; the one reading of both lists for both.

use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;

use super::obsidian_settings::ObsidianSettings;

/// One entry of Obsidian's excluded files.
#[derive(Debug, Clone)]
enum Filter {
    Prefix(String),
    Regex(Regex),
}

/// Obsidian's excluded files and the configured globs, compiled.
#[derive(Debug, Clone)]
pub struct Exclusions {
    obsidian: Vec<Filter>,
    globs: GlobSet,
}

/// Which list excludes a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExcludedBy {
    /// Obsidian's "Excluded files".
    Obsidian,
    /// A `watch.exclude` glob.
    Config,
}

/// A `watch.exclude` glob that does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid watch.exclude pattern {pattern:?}: {message}")]
pub struct BadGlob {
    pub pattern: String,
    pub message: String,
}

impl Exclusions {
    /// The vault's excluded files (a `/regex/` that does not compile is ignored, as Obsidian
    /// ignores it) and `globs`; a glob that does not compile is an error (a typo must not
    /// silently include what the person meant to exclude).
    pub fn new(settings: &ObsidianSettings, globs: &[String]) -> Result<Exclusions, BadGlob> {
        let mut builder = GlobSetBuilder::new();
        for pattern in globs {
            let glob = Glob::new(pattern).map_err(|e| BadGlob {
                pattern: pattern.clone(),
                message: e.kind().to_string(),
            })?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| BadGlob {
            pattern: globs.join(", "),
            message: e.to_string(),
        })?;
        Ok(Exclusions {
            obsidian: settings
                .excluded_files
                .iter()
                .filter_map(|entry| parse_filter(entry))
                .collect(),
            globs,
        })
    }

    /// Which list excludes the note at vault-relative `rel` (`/`-separated), if one does.
    pub fn check(&self, rel: &str) -> Option<ExcludedBy> {
        let obsidian = self.obsidian.iter().any(|filter| match filter {
            Filter::Prefix(prefix) => rel.starts_with(prefix.as_str()),
            Filter::Regex(regex) => regex.is_match(rel),
        });
        if obsidian {
            Some(ExcludedBy::Obsidian)
        } else if self.globs.is_match(rel) {
            Some(ExcludedBy::Config)
        } else {
            None
        }
    }
}

fn parse_filter(entry: &str) -> Option<Filter> {
    let entry = entry.trim();
    if entry.len() > 2 && entry.starts_with('/') && entry.ends_with('/') {
        return Regex::new(&entry[1..entry.len() - 1])
            .ok()
            .map(Filter::Regex);
    }
    let prefix = entry.trim_start_matches('/');
    (!prefix.is_empty()).then(|| Filter::Prefix(prefix.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_regexes_and_globs_exclude() {
        let settings = ObsidianSettings {
            template_folders: vec![],
            excluded_files: vec!["Archive/".into(), "/^Inbox/.*draft/".into(), "/(/".into()],
        };
        let exclusions = Exclusions::new(&settings, &["**/private/**".into()]).unwrap();
        assert_eq!(exclusions.check("Archive/a.md"), Some(ExcludedBy::Obsidian));
        assert_eq!(
            exclusions.check("Inbox/x/draft.md"),
            Some(ExcludedBy::Obsidian)
        );
        assert_eq!(
            exclusions.check("Work/private/a.md"),
            Some(ExcludedBy::Config)
        );
        assert_eq!(exclusions.check("Work/a.md"), None);
        assert!(Exclusions::new(&settings, &["[".into()]).is_err());
    }
}
