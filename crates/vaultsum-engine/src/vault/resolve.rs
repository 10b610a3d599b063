//! Obsidian link resolution: which file `[[Target]]` means, seen from the note that links it.

use super::index::{lookup_key, NoteIndex};
use super::relative::{normalize_relative, parent_of};

/// The file a link resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The chosen vault-relative path.
    pub path: String,
    /// Other files the link could also mean (non-empty = ambiguous), in preference order.
    pub alternatives: Vec<String>,
}

/// Why a link did not resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolveError {
    /// No file in the vault matches.
    NotFound,
    /// The link climbs out of the vault with `..`; nothing outside is looked at.
    Outside,
}

/// Resolves a link target (the part before `#` and `|`) as Obsidian does:
///
/// 1. the exact vault path, with `.md` added first and then as written;
/// 2. the same, relative to the folder of `from_note` (a leading `/` means the vault root and
///    skips this step);
/// 3. by file name or path suffix (for a path with `..`, what follows the last `..`),
///    case-insensitive and Unicode-normalised, preferring a file in
///    `from_note`'s folder, then the shortest path (fewest folders, then fewest bytes), then
///    alphabetical order. Every other match is reported in [`Resolution::alternatives`].
///
/// Steps 1 and 2 also ignore case when no file matches exactly.
pub fn resolve_link(
    index: &NoteIndex,
    from_note: &str,
    target: &str,
) -> Result<Resolution, ResolveError> {
    match only_file_named(index, target) {
        Some(path) => Ok(Resolution {
            path: path.to_string(),
            alternatives: Vec::new(),
        }),
        None => resolve_by_rules(index, from_note, target),
    }
}

/// The one file a bare name (`Meeting notes`, `chart.png`: no folder, no `..`) can mean when
/// the vault has exactly one file of that name, with `.md` or as written: every step of
/// [`resolve_link`] then finds that file and no other, so the steps are skipped (a batch
/// read resolves thousands of links; the steps cost a dozen lookups each).
fn only_file_named<'a>(index: &'a NoteIndex, target: &str) -> Option<&'a str> {
    let name = target.trim();
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.');
    if name.is_empty() || name.starts_with(['.', ' ']) || !name.chars().all(plain) {
        return None;
    }
    let mut candidates = if name.to_ascii_lowercase().ends_with(".md") {
        index.with_name(name).iter().chain(&[])
    } else {
        index
            .with_name(&format!("{name}.md"))
            .iter()
            .chain(index.with_name(name))
    };
    let only = candidates.next()?;
    candidates.next().is_none().then_some(only.as_str())
}

/// [`resolve_link`] step by step.
fn resolve_by_rules(
    index: &NoteIndex,
    from_note: &str,
    target: &str,
) -> Result<Resolution, ResolveError> {
    let trimmed = target.trim();
    let rooted = trimmed.starts_with('/');
    let target = trimmed.trim_start_matches('/');
    if target.is_empty() {
        return Err(ResolveError::NotFound);
    }
    let variants: Vec<String> = if target.to_ascii_lowercase().ends_with(".md") {
        vec![target.to_string()]
    } else {
        vec![format!("{target}.md"), target.to_string()]
    };
    let from_dir = parent_of(from_note);
    // A bare name found by path still names every same-named file: report them as alternatives.
    let found = |path: &str| Resolution {
        path: path.to_string(),
        alternatives: if target.contains('/') {
            Vec::new()
        } else {
            by_suffix(index, file_name(path), from_dir)
                .map(|r| {
                    std::iter::once(r.path)
                        .chain(r.alternatives)
                        .filter(|p| p != path)
                        .collect()
                })
                .unwrap_or_default()
        },
    };
    let mut escaped = false;

    for variant in &variants {
        match normalize_relative(variant) {
            Some(path) => {
                if let Some(hit) = index.find_path(&path) {
                    return Ok(found(hit));
                }
            }
            None => escaped |= rooted,
        }
    }
    if !rooted {
        for variant in &variants {
            match normalize_relative(&format!("{from_dir}/{variant}")) {
                Some(path) => {
                    if let Some(hit) = index.find_path(&path) {
                        return Ok(found(hit));
                    }
                }
                None => escaped = true,
            }
        }
    }
    for variant in &variants {
        // A relative path that climbs too far (common in vaults exported from elsewhere) is
        // matched by what follows its last `..`; only files inside the vault are candidates.
        let tail = variant
            .rsplit_once("../")
            .map_or(variant.as_str(), |(_, tail)| tail);
        let Some(path) = normalize_relative(tail) else {
            continue;
        };
        if path.is_empty() {
            continue;
        }
        if let Some(resolution) = by_suffix(index, &path, from_dir) {
            return Ok(resolution);
        }
    }
    Err(if escaped {
        ResolveError::Outside
    } else {
        ResolveError::NotFound
    })
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn by_suffix(index: &NoteIndex, path: &str, from_dir: &str) -> Option<Resolution> {
    let key = lookup_key(path);
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut candidates: Vec<&String> = index
        .with_name(name)
        .iter()
        .filter(|candidate| key_ends_with(candidate, &key))
        .collect();
    if candidates.len() > 1 {
        let from_dir_key = lookup_key(from_dir);
        candidates.sort_by_cached_key(|candidate| {
            (
                lookup_key(parent_of(candidate)) != from_dir_key,
                candidate.matches('/').count(),
                candidate.len(),
                candidate.as_str(),
            )
        });
    }
    let (first, rest) = candidates.split_first()?;
    Some(Resolution {
        path: (*first).clone(),
        alternatives: rest.iter().map(|c| (*c).clone()).collect(),
    })
}

/// True when the lookup key of `candidate` is `key` or ends with `/` + `key` (whole segments).
fn key_ends_with(candidate: &str, key: &str) -> bool {
    if !candidate.is_ascii() {
        let candidate_key = lookup_key(candidate);
        return candidate_key == key || candidate_key.ends_with(&format!("/{key}"));
    }
    // An ASCII key is the lower-cased name, so comparing in place needs no copy.
    let Some(start) = candidate.len().checked_sub(key.len()) else {
        return false;
    };
    candidate.is_char_boundary(start)
        && candidate[start..].eq_ignore_ascii_case(key)
        && (start == 0 || candidate.as_bytes()[start - 1] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The shortcut for a name only one file has gives what the steps give, on vaults
        /// of a few files with clashing names, cases, extensions and folders.
        #[test]
        fn a_unique_name_resolves_as_the_steps_resolve_it(
            paths in proptest::collection::vec(
                ("(|A/|a/|A/B/|b/)", "(Note|note|NOTE|Plan|x|Note.md)", "(\\.md|\\.png|\\.MD|)"),
                0..6,
            ),
            from in "(|A/|b/|A/B/)",
            target in "(Note|note|Plan|x|Note.md|note.MD|x.png|Plan.png| Note|A/Note|\\.md)",
        ) {
            let paths: Vec<String> = paths.into_iter().map(|(d, n, e)| format!("{d}{n}{e}")).collect();
            let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
            let index = index(&refs);
            let from = format!("{from}From.md");
            prop_assert_eq!(
                resolve_link(&index, &from, &target),
                resolve_by_rules(&index, &from, &target)
            );
        }
    }

    fn index(paths: &[&str]) -> NoteIndex {
        let mut index = NoteIndex::default();
        for path in paths {
            index.insert(path);
        }
        index
    }

    fn resolve(index: &NoteIndex, from: &str, target: &str) -> Result<String, ResolveError> {
        resolve_link(index, from, target).map(|r| r.path)
    }

    #[test]
    fn exact_vault_path_with_or_without_md() {
        let idx = index(&["Projects/Plan.md", "Plan.md"]);
        assert_eq!(
            resolve(&idx, "x.md", "Projects/Plan").unwrap(),
            "Projects/Plan.md"
        );
        assert_eq!(
            resolve(&idx, "x.md", "Projects/Plan.md").unwrap(),
            "Projects/Plan.md"
        );
    }

    #[test]
    fn exact_path_wins_over_a_same_named_note_in_the_linking_folder() {
        let idx = index(&["Plan.md", "Projects/Plan.md"]);
        assert_eq!(resolve(&idx, "Projects/x.md", "Plan").unwrap(), "Plan.md");
    }

    #[test]
    fn relative_to_the_linking_notes_folder() {
        let idx = index(&["A/B/Sub/Note.md", "Other/Sub/Note.md", "images/pic.png"]);
        assert_eq!(
            resolve(&idx, "A/B/x.md", "Sub/Note").unwrap(),
            "A/B/Sub/Note.md"
        );
        assert_eq!(
            resolve(&idx, "A/x.md", "../images/pic.png").unwrap(),
            "images/pic.png"
        );
    }

    #[test]
    fn basename_prefers_the_linking_notes_folder() {
        let idx = index(&["Archive/Plan.md", "Projects/Alpha/Plan.md"]);
        let r = resolve_link(&idx, "Projects/Alpha/Meeting.md", "Plan").unwrap();
        assert_eq!(r.path, "Projects/Alpha/Plan.md");
        assert_eq!(r.alternatives, vec!["Archive/Plan.md".to_string()]);
    }

    #[test]
    fn basename_prefers_the_shortest_path_then_alphabetical() {
        let idx = index(&["z/y/Plan.md", "b/Plan.md", "a/Plan.md"]);
        let r = resolve_link(&idx, "elsewhere/n.md", "Plan").unwrap();
        assert_eq!(r.path, "a/Plan.md");
        assert_eq!(r.alternatives, vec!["b/Plan.md", "z/y/Plan.md"]);
    }

    #[test]
    fn path_suffix_matches_only_whole_segments() {
        let idx = index(&["Projects/Alpha/Plan.md", "Projects/XAlpha/Plan.md"]);
        assert_eq!(
            resolve(&idx, "n.md", "Alpha/Plan").unwrap(),
            "Projects/Alpha/Plan.md"
        );
    }

    #[test]
    fn case_and_unicode_normalisation_are_ignored() {
        // The file is stored decomposed (e + combining acute), the link is typed composed.
        let idx = index(&["Notes/Cafe\u{301} re\u{301}sume\u{301}.md"]);
        assert_eq!(
            resolve(&idx, "x.md", "CAF\u{c9} R\u{c9}SUM\u{c9}").unwrap(),
            "Notes/Cafe\u{301} re\u{301}sume\u{301}.md"
        );
    }

    #[test]
    fn attachments_resolve_by_name_with_their_extension() {
        let idx = index(&["images/pic.png", "pic.md"]);
        assert_eq!(resolve(&idx, "x.md", "pic.png").unwrap(), "images/pic.png");
        assert_eq!(resolve(&idx, "x.md", "pic").unwrap(), "pic.md");
    }

    #[test]
    fn climbing_out_of_the_vault_is_outside_not_missing() {
        let idx = index(&["a.md"]);
        assert_eq!(
            resolve(&idx, "A/n.md", "../../etc/passwd"),
            Err(ResolveError::Outside)
        );
        assert_eq!(resolve(&idx, "A/n.md", "../../a"), Ok("a.md".to_string()));
        assert_eq!(
            resolve(&idx, "n.md", "missing"),
            Err(ResolveError::NotFound)
        );
        assert_eq!(resolve(&idx, "n.md", "  "), Err(ResolveError::NotFound));
    }
}
