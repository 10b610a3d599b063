//! Walking the vault's files, the one way every layer does it (the index, rollup selection,
//! `status`, folder runs, watch's catch-up): hidden files and folders are skipped (see
//! [`super::policy::is_hidden`]) and symlinked folders are not followed, so a walk never
//! leaves the vault.
//!
//! A vault-wide scan never fails as a whole because of one entry: what it may not read (a
//! symlink out of the vault, a symlink loop, a broken symlink, a FIFO, a name that is not
//! UTF-8, a folder it may not open) is left out with a reason ([`LeftOut`]), and the scans
//! above report the count by reason and name each entry on request. What only a read can tell
//! (an unreadable file, a note deleted meanwhile) is left out the same way by the scan that
//! reads it, with the reason [`LeftOutReason::of_read_error`] gives.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::UNIX_EPOCH;

use super::error::VaultError;
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
    /// Size and times of the file (one `stat`; a symlink's target's), or `None` when it
    /// vanished meanwhile.
    pub fn times(&self) -> Option<FileTimes> {
        let metadata = if self.entry.path_is_symlink() {
            std::fs::metadata(self.entry.path()).ok()?
        } else {
            self.entry.metadata().ok()?
        };
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

/// Why a scan left an entry out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LeftOutReason {
    /// A symlink whose target is outside the vault.
    OutsideVault,
    /// A symlink that leads back to itself.
    SymlinkLoop,
    /// A symlink whose target does not exist.
    BrokenSymlink,
    /// A FIFO, a socket or a device: never opened, a read could block.
    NotRegular,
    /// A name that is not UTF-8, which no note path can spell.
    NameNotUtf8,
    /// A file or folder the permissions (or the file system) do not let vaultsum read.
    Unreadable,
    /// Gone between the walk and its read.
    Deleted,
    /// Over the read limit for a note.
    TooLarge,
    /// Held open by another program that bars others from it (Windows).
    Held,
}

impl LeftOutReason {
    /// The reason as details and messages give it (`"outside the vault"`).
    pub fn describe(self) -> &'static str {
        match self {
            Self::OutsideVault => "outside the vault",
            Self::SymlinkLoop => "symlink loop",
            Self::BrokenSymlink => "broken symlink",
            Self::NotRegular => "not a regular file",
            Self::NameNotUtf8 => "name not UTF-8",
            Self::Unreadable => "unreadable",
            Self::Deleted => "deleted during the scan",
            Self::TooLarge => "too large",
            Self::Held => "held by another program",
        }
    }

    /// Why the read of one entry of a scan failed, as the scan reports it: every read error
    /// of one entry leaves that entry out, none ends the scan.
    pub fn of_read_error(error: &VaultError) -> LeftOutReason {
        match error {
            VaultError::NotFound(_) => Self::Deleted,
            VaultError::Escapes(_) => Self::OutsideVault,
            VaultError::NotRegular { .. } | VaultError::IsFolder(_) => Self::NotRegular,
            VaultError::TooLarge { .. } => Self::TooLarge,
            VaultError::Held(_) => Self::Held,
            VaultError::Io { source, .. } => Self::of_io_error(source),
            _ => Self::Unreadable,
        }
    }

    fn of_io_error(error: &std::io::Error) -> LeftOutReason {
        if error.kind() == std::io::ErrorKind::NotFound {
            return Self::Deleted;
        }
        #[cfg(unix)]
        if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
            return Self::SymlinkLoop;
        }
        Self::Unreadable
    }
}

/// An entry a scan left out: its vault-relative path (`/` separators; a name that is not
/// UTF-8 shown with U+FFFD; a folder ends with `/`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub path: String,
    pub reason: LeftOutReason,
}

impl LeftOut {
    /// `Projects/link-out.md (outside the vault)`.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.path, self.reason.describe())
    }
}

/// How many entries were left out for each reason, as `details.left_out` gives them:
/// `{"outside the vault": 1, "symlink loop": 1}`.
pub fn count_by_reason(left_out: &[LeftOut]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for entry in left_out {
        *counts.entry(entry.reason.describe()).or_insert(0) += 1;
    }
    counts
}

/// What a walk found: the files, and what it left out.
#[derive(Debug, Default)]
pub struct Scan {
    pub files: Vec<FoundFile>,
    pub left_out: Vec<LeftOut>,
}

/// What a walk lists of an entry that is not a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Only files a read may open: a regular file, or a symlink to one inside the vault (the
    /// scans that read what they find).
    Readable,
    /// Every name, whatever it is (the note index: a link to a FIFO or to a symlink out of the
    /// vault resolves, and the read that follows says precisely why it is refused).
    Names,
}

/// Every file (not folder) at or below `below`, a folder inside the vault at `root`
/// (canonical), whose vault-relative path `wanted` accepts; entries `wanted` accepts that
/// cannot be read (with [`Listing::Readable`]) or named are left out with a reason, and so are
/// symlinked folders that lead out of the vault and folders that cannot be opened or named,
/// whatever they hold.
pub fn scan_files(
    root: &Path,
    below: &Path,
    listing: Listing,
    wanted: impl Fn(&str) -> bool,
) -> Scan {
    let mut scan = Scan::default();
    let mut walker = walkdir::WalkDir::new(below).follow_links(false).into_iter();
    while let Some(next) = walker.next() {
        let entry = match next {
            Ok(entry) => entry,
            Err(error) => {
                // A folder that could not be opened, or vanished while being walked.
                if let Some(path) = error.path() {
                    let reason = error
                        .io_error()
                        .map_or(LeftOutReason::Unreadable, LeftOutReason::of_io_error);
                    scan.left_out.push(LeftOut {
                        path: shown_path(root, path, true),
                        reason,
                    });
                }
                continue;
            }
        };
        let file_type = entry.file_type();
        if entry.depth() > 0 && entry.file_name().as_encoded_bytes().starts_with(b".") {
            if file_type.is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        let relative = relative_below(root, entry.path());
        if file_type.is_dir() {
            if relative.is_none() {
                walker.skip_current_dir();
                scan.left_out.push(LeftOut {
                    path: shown_path(root, entry.path(), true),
                    reason: LeftOutReason::NameNotUtf8,
                });
            }
            continue;
        }
        let shown = || shown_path(root, entry.path(), false);
        let Some(relative) = relative.filter(|r| !r.is_empty()) else {
            if wanted(&shown()) {
                scan.left_out.push(LeftOut {
                    path: shown(),
                    reason: LeftOutReason::NameNotUtf8,
                });
            }
            continue;
        };
        let verdict = if listing == Listing::Names {
            Verdict::File
        } else if file_type.is_symlink() {
            symlink_verdict(root, entry.path())
        } else if file_type.is_file() {
            Verdict::File
        } else {
            Verdict::LeftOut(LeftOutReason::NotRegular)
        };
        match verdict {
            Verdict::File if wanted(&relative) => scan.files.push(FoundFile { relative, entry }),
            Verdict::File | Verdict::FolderInside => {}
            Verdict::FolderOutside => scan.left_out.push(LeftOut {
                path: format!("{relative}/"),
                reason: LeftOutReason::OutsideVault,
            }),
            Verdict::LeftOut(reason) if wanted(&relative) => {
                scan.left_out.push(LeftOut {
                    path: relative,
                    reason,
                });
            }
            Verdict::LeftOut(_) => {}
        }
    }
    scan
}

/// What a walk does with one entry that is not a folder.
enum Verdict {
    /// A file to list (a regular file, or a symlink to one inside the vault).
    File,
    /// A symlink to a folder inside the vault: not followed, its files are walked where they
    /// are.
    FolderInside,
    /// A symlink to a folder outside the vault: not followed, and said.
    FolderOutside,
    LeftOut(LeftOutReason),
}

/// Where a symlink leads, resolved (only symlinks pay for this; a walk sees every other
/// entry's type from the folder listing).
fn symlink_verdict(root: &Path, link: &Path) -> Verdict {
    let target = match dunce::canonicalize(link) {
        Ok(target) => target,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Verdict::LeftOut(LeftOutReason::BrokenSymlink)
        }
        Err(error) => return Verdict::LeftOut(LeftOutReason::of_io_error(&error)),
    };
    let inside = target.starts_with(root) && relative_below(root, &target).is_some();
    match std::fs::metadata(&target) {
        Ok(metadata) if metadata.is_dir() && inside => Verdict::FolderInside,
        Ok(metadata) if metadata.is_dir() => Verdict::FolderOutside,
        Ok(_) if !inside => Verdict::LeftOut(LeftOutReason::OutsideVault),
        Ok(metadata) if metadata.is_file() => Verdict::File,
        Ok(_) => Verdict::LeftOut(LeftOutReason::NotRegular),
        Err(error) => Verdict::LeftOut(LeftOutReason::of_io_error(&error)),
    }
}

/// The vault-relative path of `path` for a person to read, whatever its bytes.
fn shown_path(root: &Path, path: &Path, folder: bool) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    let mut shown = relative.to_string_lossy().replace('\\', "/");
    if folder && !shown.is_empty() {
        shown.push('/');
    }
    shown
}

/// Every note (see [`super::policy::is_note_name`]) at or below `below`, in path order, and
/// the note-named entries left out.
pub fn scan_notes(root: &Path, below: &Path) -> Scan {
    let mut scan = scan_files(root, below, Listing::Readable, is_note_name);
    scan.files.sort_by(|a, b| a.relative.cmp(&b.relative));
    scan
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
        let found: Vec<String> = scan_notes(dir.path(), dir.path())
            .files
            .into_iter()
            .map(|n| n.relative)
            .collect();
        assert_eq!(found, ["A.md", "Sub/B.markdown", "Sub/Deep/C.md"]);
        let under: Vec<String> = scan_notes(dir.path(), &dir.path().join("Sub/Deep"))
            .files
            .into_iter()
            .map(|n| n.relative)
            .collect();
        assert_eq!(under, ["Sub/Deep/C.md"]);
        let first = &scan_notes(dir.path(), dir.path()).files[0];
        assert_eq!(first.times().unwrap().size, 1);
    }
}
