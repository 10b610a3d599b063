//! The note index: every file of the vault by lookup key, so links resolve without touching disk.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use super::paths::{relative_below, PROTECTED_FOLDERS};

/// The form two names are compared in: Unicode NFC, then lower case (Obsidian links are
/// case-insensitive, and macOS stores names decomposed while people type them composed).
pub fn lookup_key(name: &str) -> String {
    if name.is_ascii() {
        return name.to_ascii_lowercase();
    }
    name.nfc().collect::<String>().to_lowercase()
}

/// Every file in the vault (notes and attachments), outside dot-folders.
#[derive(Debug, Default, Clone)]
pub struct NoteIndex {
    files: BTreeSet<String>,
    /// Lookup key of the full path → paths with that key (several only if case differs).
    by_path: HashMap<String, Vec<String>>,
    /// Lookup key of the file name → every path with that name.
    by_name: HashMap<String, Vec<String>>,
}

impl NoteIndex {
    /// Walks the vault once. Dot-folders (`.obsidian`, `.git`, `.trash`, ...) are skipped as
    /// Obsidian does; symlinked folders are not followed, so the walk cannot leave the vault.
    pub fn build(root: &Path) -> NoteIndex {
        let mut index = NoteIndex::default();
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.')
            });
        for entry in walker.filter_map(Result::ok) {
            if entry.file_type().is_dir() {
                continue;
            }
            if let Some(relative) = relative_below(root, entry.path()) {
                index.insert(&relative);
            }
        }
        index
    }

    /// Adds one file (vault-relative, forward slashes).
    pub fn insert(&mut self, relative: &str) {
        if relative.is_empty()
            || relative.split('/').any(|part| part.starts_with('.'))
            || PROTECTED_FOLDERS.iter().any(|p| relative.starts_with(p))
            || !self.files.insert(relative.to_string())
        {
            return;
        }
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
