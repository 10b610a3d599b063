//! Walking the vault's files, the one way every layer does it: hidden files and folders are
//! skipped (see [`super::policy::is_hidden`]) and symlinked folders are not followed, so a walk
//! never leaves the vault. Unreadable entries are passed over: one odd file must not stop the
//! index, a batch or the watcher.

use std::path::Path;
use std::time::UNIX_EPOCH;

use super::paths::relative_below;
use super::policy::is_note_name;

/// A file found by a walk.
#[derive(Debug, Clone)]
pub struct FoundFile {
    /// Vault-relative path with `/` separators.
    pub relative: String,
    entry: walkdir::DirEntry,
}

/// What the file system says about a file, read only when asked for (a walk of the index needs
/// names alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileTimes {
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 where unknown).
    pub modified_ns: i128,
    /// Birth time in nanoseconds since the Unix epoch, where the file system records it.
    pub created_ns: Option<i128>,
}

impl FoundFile {
    /// Size and times of the file (one `stat`), or `None` when it vanished meanwhile.
    pub fn times(&self) -> Option<FileTimes> {
        let metadata = self.entry.metadata().ok()?;
        Some(FileTimes::of(&metadata))
    }
}

impl FileTimes {
    /// The times of `metadata`.
    pub fn of(metadata: &std::fs::Metadata) -> FileTimes {
        FileTimes {
            size: metadata.len(),
            modified_ns: metadata.modified().map(nanos_since_epoch).unwrap_or(0),
            created_ns: metadata.created().ok().map(nanos_since_epoch),
        }
    }
}

fn nanos_since_epoch(time: std::time::SystemTime) -> i128 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX))
        .unwrap_or(0)
}

/// Every file (not folder) at or below `below`, a folder inside the vault at `root`.
pub fn walk_files<'a>(root: &'a Path, below: &Path) -> impl Iterator<Item = FoundFile> + 'a {
    walkdir::WalkDir::new(below)
        .follow_links(false)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.')
        })
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_type().is_dir())
        .filter_map(move |entry| {
            let relative = relative_below(root, entry.path())?;
            (!relative.is_empty()).then_some(FoundFile { relative, entry })
        })
}

/// Every note (see [`super::policy::is_note_name`]) at or below `below`, in path order.
pub fn walk_notes(root: &Path, below: &Path) -> Vec<FoundFile> {
    let mut notes: Vec<FoundFile> = walk_files(root, below)
        .filter(|file| is_note_name(&file.relative))
        .collect();
    notes.sort_by(|a, b| a.relative.cmp(&b.relative));
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_finds_notes_and_skips_hidden_folders() {
        let dir = tempfile::tempdir().unwrap();
        for path in [
            "A.md",
            "Sub/B.markdown",
            "Sub/Deep/C.md",
            ".obsidian/D.md",
            ".trash/E.md",
            ".stversions/F.md",
            "image.png",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let found: Vec<String> = walk_notes(dir.path(), dir.path())
            .into_iter()
            .map(|n| n.relative)
            .collect();
        assert_eq!(found, ["A.md", "Sub/B.markdown", "Sub/Deep/C.md"]);
        let under: Vec<String> = walk_notes(dir.path(), &dir.path().join("Sub/Deep"))
            .into_iter()
            .map(|n| n.relative)
            .collect();
        assert_eq!(under, ["Sub/Deep/C.md"]);
        let first = &walk_notes(dir.path(), dir.path())[0];
        assert_eq!(first.times().unwrap().size, 1);
    }
}
