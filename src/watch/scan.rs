//! Reading the vault from disk: walking a folder for notes and stamping a note's content.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use walkdir::WalkDir;

use super::skip::{is_note_path, IGNORED_DIRS};
use super::state::content_hash;
use super::tracker::FileStamp;

/// A note found on disk, with the metadata needed to decide whether to read it again.
#[derive(Debug, Clone)]
pub struct FoundNote {
    /// Vault-relative path with `/` separators.
    pub rel: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch.
    pub mtime_ns: i128,
    /// Birth time in nanoseconds since the Unix epoch, where the file system records it.
    pub created_ns: Option<i128>,
}

/// Every note under `dir` (a folder inside the vault at `root`), not descending into
/// `.obsidian/`, `.trash/` or `.git/`. Unreadable entries are skipped: the watcher must keep
/// going over a vault with a few odd files.
pub fn walk_notes(root: &Path, dir: &Path) -> Vec<FoundNote> {
    WalkDir::new(dir)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0
                || !entry.file_type().is_dir()
                || !IGNORED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref())
        })
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let rel = relative(root, entry.path())?;
            if !is_note_path(&rel) {
                return None;
            }
            let metadata = entry.metadata().ok()?;
            Some(FoundNote {
                rel,
                size: metadata.len(),
                mtime_ns: mtime_ns(&metadata),
                created_ns: metadata
                    .created()
                    .ok()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos() as i128),
            })
        })
        .collect()
}

/// The vault-relative path (with `/` separators) of `path`, if it is inside `root`.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The absolute path of a vault-relative path.
pub fn absolute(root: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .fold(root.to_path_buf(), |path, part| path.join(part))
}

/// Reads a note and stamps it; also returns its text (lossy UTF-8) for the content rules.
pub fn read_stamped(path: &Path) -> std::io::Result<(FileStamp, String)> {
    let bytes = std::fs::read(path)?;
    let metadata = std::fs::metadata(path)?;
    let stamp = FileStamp {
        hash: content_hash(&bytes),
        size: bytes.len() as u64,
        mtime_ns: mtime_ns(&metadata),
    };
    Ok((stamp, String::from_utf8_lossy(&bytes).into_owned()))
}

/// How far file timestamps may lag the system clock. Linux stamps files from a coarse kernel
/// clock that runs up to one tick (4–10 ms) behind `SystemTime::now()`, so a note created just
/// after a walk can carry a birth time from just *before* it and pass for an old note. Moving the
/// "complete as of" mark back by this slack closes that gap. The cost: a note born within the
/// slack before a stop, then both renamed and edited while stopped, counts as new. Filesystems
/// that round times to seconds (FAT, some network shares) are not covered.
pub const CLOCK_SLACK_NS: i128 = 50_000_000;

/// The instant up to which a walk starting now is known complete, allowing for the slack of
/// file timestamps.
pub fn complete_mark_ns() -> i128 {
    now_ns() - CLOCK_SLACK_NS
}

/// Nanoseconds since the Unix epoch, from the system clock.
pub fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

/// Modification time in nanoseconds since the Unix epoch (0 when the platform has none).
pub fn mtime_ns(metadata: &std::fs::Metadata) -> i128 {
    metadata
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_finds_notes_and_skips_ignored_folders() {
        let dir = tempfile::tempdir().unwrap();
        for path in [
            "A.md",
            "Sub/B.markdown",
            "Sub/Deep/C.md",
            ".obsidian/D.md",
            ".trash/E.md",
            "image.png",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let mut found: Vec<String> = walk_notes(dir.path(), dir.path())
            .into_iter()
            .map(|n| n.rel)
            .collect();
        found.sort();
        assert_eq!(found, ["A.md", "Sub/B.markdown", "Sub/Deep/C.md"]);
        let under: Vec<String> = walk_notes(dir.path(), &dir.path().join("Sub/Deep"))
            .into_iter()
            .map(|n| n.rel)
            .collect();
        assert_eq!(under, ["Sub/Deep/C.md"]);
    }

    #[test]
    fn relative_and_absolute_round_trip() {
        let root = Path::new("/vault");
        let rel = relative(root, Path::new("/vault/Sub/Note.md")).unwrap();
        assert_eq!(rel, "Sub/Note.md");
        assert_eq!(absolute(root, &rel), Path::new("/vault/Sub/Note.md"));
        assert_eq!(relative(root, Path::new("/elsewhere/x.md")), None);
        assert_eq!(relative(root, root), None);
    }
}
