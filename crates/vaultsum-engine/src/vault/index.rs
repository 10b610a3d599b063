//! The note index: every file of the vault by lookup key, so links resolve without touching disk.
//! Filled by the host (vaultsum-core's `vault::index::build` walks the disk; the plugin lists
//! Obsidian's vault), so the resolution rules are the same everywhere.

use std::collections::BTreeSet;

// The vault's own file names as keys, looked up for every link: a fast hasher.
use foldhash::HashMap;
use std::sync::Mutex;

use unicode_normalization::UnicodeNormalization;

use super::policy::is_hidden;
use super::relative::parent_of;
use super::resolve::{resolve_link, Resolution, ResolveError};

/// Beyond this many remembered link resolutions the memo starts over (bounds memory).
const MAX_REMEMBERED_LINKS: usize = 100_000;

/// The form two names are compared in: Unicode NFC, then lower case (Obsidian links are
/// case-insensitive, and macOS stores names decomposed while people type them composed).
pub fn lookup_key(name: &str) -> String {
    if name.is_ascii() {
        return name.to_ascii_lowercase();
    }
    name.nfc().collect::<String>().to_lowercase()
}

/// Every file in the vault (notes and attachments), outside dot-folders.
#[derive(Debug, Default)]
pub struct NoteIndex {
    files: BTreeSet<String>,
    /// Lookup key of the full path → paths with that key (several only if case differs).
    by_path: HashMap<String, Vec<String>>,
    /// Lookup key of the file name → every path with that name.
    by_name: HashMap<String, Vec<String>>,
    /// Links already resolved against exactly these files; emptied by every change to them.
    resolved: Mutex<ResolvedLinks>,
}

/// Resolutions by the linking note's folder, then the link target: what `resolve_link`
/// depends on, so a remembered answer is the answer it would give again.
#[derive(Debug, Default)]
struct ResolvedLinks {
    by_folder: HashMap<String, HashMap<String, Result<Resolution, ResolveError>>>,
    len: usize,
}

impl Clone for NoteIndex {
    fn clone(&self) -> Self {
        NoteIndex {
            files: self.files.clone(),
            by_path: self.by_path.clone(),
            by_name: self.by_name.clone(),
            resolved: Mutex::default(),
        }
    }
}

impl NoteIndex {
    /// Adds one file (vault-relative, forward slashes).
    pub fn insert(&mut self, relative: &str) {
        if relative.is_empty() || is_hidden(relative) || !self.files.insert(relative.to_string()) {
            return;
        }
        self.forget_resolutions();
        self.by_path
            .entry(lookup_key(relative))
            .or_default()
            .push(relative.to_string());
        self.by_name
            .entry(lookup_key(file_name(relative)))
            .or_default()
            .push(relative.to_string());
    }

    /// Forgets one file.
    pub fn remove(&mut self, relative: &str) {
        if !self.files.remove(relative) {
            return;
        }
        self.forget_resolutions();
        for (map, key) in [
            (&mut self.by_path, lookup_key(relative)),
            (&mut self.by_name, lookup_key(file_name(relative))),
        ] {
            if let Some(paths) = map.get_mut(&key) {
                paths.retain(|p| p != relative);
                if paths.is_empty() {
                    map.remove(&key);
                }
            }
        }
    }

    /// [`resolve_link`] against this index, remembered until a file is added or removed, so
    /// a long-lived vault resolves the same link from the same folder once.
    pub fn resolve(&self, from_note: &str, target: &str) -> Result<Resolution, ResolveError> {
        let folder = parent_of(from_note);
        let mut memo = self.resolved.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(known) = memo
            .by_folder
            .get(folder)
            .and_then(|links| links.get(target))
        {
            return known.clone();
        }
        let result = resolve_link(self, from_note, target);
        if memo.len >= MAX_REMEMBERED_LINKS {
            *memo = ResolvedLinks::default();
        }
        memo.len += 1;
        memo.by_folder
            .entry(folder.to_string())
            .or_default()
            .insert(target.to_string(), result.clone());
        result
    }

    fn forget_resolutions(&mut self) {
        *self.resolved.get_mut().unwrap_or_else(|p| p.into_inner()) = ResolvedLinks::default();
    }

    /// True when the exact path is indexed.
    pub fn contains(&self, relative: &str) -> bool {
        self.files.contains(relative)
    }

    /// Number of indexed files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when the vault has no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// All indexed paths, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(String::as_str)
    }

    /// The path equal to `relative`: exactly if present, else case- and normalisation-insensitively.
    pub fn find_path(&self, relative: &str) -> Option<&str> {
        // Every file is under its own key, so one hash lookup finds the exact path too.
        let paths = self.by_path.get(&lookup_key(relative))?;
        paths
            .iter()
            .find(|p| *p == relative)
            .or_else(|| paths.iter().min())
            .map(String::as_str)
    }

    /// Every path whose name is `name` (compared as lookup keys).
    pub fn with_name(&self, name: &str) -> &[String] {
        self.by_name
            .get(&lookup_key(name))
            .map_or(&[], Vec::as_slice)
    }
}

fn file_name(relative: &str) -> &str {
    relative.rsplit('/').next().unwrap_or(relative)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_link_resolutions_follow_files_added_and_removed() {
        let mut index = NoteIndex::default();
        index.insert("A/Plan.md");
        let path = |index: &NoteIndex, from: &str| index.resolve(from, "Plan").map(|r| r.path);
        assert_eq!(path(&index, "B/x.md").as_deref(), Ok("A/Plan.md"));

        index.insert("B/Plan.md");
        let from_b = index.resolve("B/x.md", "Plan").unwrap();
        assert_eq!(
            from_b.path, "B/Plan.md",
            "a file in the linking folder now wins"
        );
        assert_eq!(from_b.alternatives, ["A/Plan.md"]);
        // The same link from another folder is resolved for that folder, not reused.
        assert_eq!(path(&index, "A/y.md").as_deref(), Ok("A/Plan.md"));

        index.remove("B/Plan.md");
        assert_eq!(path(&index, "B/x.md").as_deref(), Ok("A/Plan.md"));
        index.remove("A/Plan.md");
        assert_eq!(path(&index, "B/x.md"), Err(ResolveError::NotFound));
    }

    #[test]
    fn a_cloned_index_resolves_against_its_own_files() {
        let mut index = NoteIndex::default();
        index.insert("Plan.md");
        assert!(index.resolve("x.md", "Plan").is_ok());
        let mut copy = index.clone();
        copy.remove("Plan.md");
        assert_eq!(copy.resolve("x.md", "Plan"), Err(ResolveError::NotFound));
        assert!(index.resolve("x.md", "Plan").is_ok());
    }
}
