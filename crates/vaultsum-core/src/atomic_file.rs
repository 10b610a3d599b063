//! Writing a file so that it is either wholly the old version or wholly the new one: the bytes
//! go to a temporary file in the same folder, are synced, and the temporary file is renamed
//! over the target. Notes, the media cache and the watch state all write this way; the media
//! cache's entries that are cheap to make again skip the syncs ([`write_atomically_unsynced`]).

use std::fs::Permissions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary files of an atomic write are named `.vaultsum-XXXX.tmp`: hidden, so the note
/// index, the watcher and Obsidian itself pass over them while they exist.
pub const TEMP_PREFIX: &str = ".vaultsum-";
/// See [`TEMP_PREFIX`].
pub const TEMP_SUFFIX: &str = ".tmp";

/// New content written and synced beside its target, not yet in place. Dropping it removes the
/// temporary file and leaves the target as it was.
#[derive(Debug)]
pub struct StagedFile {
    temp: tempfile::NamedTempFile,
    target: PathBuf,
}

/// Writes `bytes` to a temporary file beside `target` (with `permissions` when given) and syncs
/// it. Nothing is visible at `target` until [`StagedFile::commit`].
pub fn stage(
    target: &Path,
    bytes: &[u8],
    permissions: Option<Permissions>,
) -> std::io::Result<StagedFile> {
    let mut temp = temp_file_beside(target)?;
    temp.write_all(bytes)?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    Ok(StagedFile {
        temp,
        target: target.to_path_buf(),
    })
}

/// A new, empty temporary file in `target`'s folder, named so every scan passes over it.
fn temp_file_beside(target: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let folder = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(folder)
}

impl StagedFile {
    /// Renames the staged content over the target and syncs the folder, so the rename itself
    /// survives a power cut where the platform allows syncing a folder.
    pub fn commit(self) -> std::io::Result<()> {
        self.try_commit().map_err(|(_, error)| error)
    }

    /// [`StagedFile::commit`], giving the staged file back when the rename fails, so the caller
    /// may try again (Windows refuses to replace a file another program holds open).
    pub fn try_commit(self) -> Result<(), (StagedFile, std::io::Error)> {
        // std's rename, not tempfile's `persist` (`MoveFileEx`): on Windows 10 and later it
        // renames with POSIX semantics, so it replaces a note that is open elsewhere with
        // delete sharing, as the note being written is open in this process.
        if let Err(error) = std::fs::rename(self.temp.path(), &self.target) {
            return Err((self, error));
        }
        let target = self.target;
        // The temporary name is gone; its file is the target now, which the drop must not
        // delete.
        let _ = self.temp.into_temp_path().keep();
        if let Some(folder) = target.parent() {
            if let Ok(dir) = std::fs::File::open(folder) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

impl StagedFile {
    /// Gives the staged content the target's name only if nothing has that name yet (a hard
    /// link never replaces a file: `AlreadyExists` otherwise); the temporary name goes away.
    pub fn link_new(self) -> std::io::Result<()> {
        std::fs::hard_link(self.temp.path(), &self.target)?;
        if let Some(folder) = self.target.parent() {
            if let Ok(dir) = std::fs::File::open(folder) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

/// Replaces `target` with `bytes` atomically, creating its folder when missing.
pub fn write_atomically(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(folder) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    stage(target, bytes, None)?.commit()
}

/// Replaces `target` with `bytes` atomically, creating its folder when missing, without
/// syncing the file or its folder. A reader never sees half the file while this process runs,
/// but a power cut may leave the target missing, empty or torn: only for files whose content
/// says whether it is whole (the media cache's checked entries, `media/cache.rs`), which are
/// cheap to make again.
pub fn write_atomically_unsynced(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(folder) = target.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    let mut temp = temp_file_beside(target)?;
    temp.write_all(bytes)?;
    // std's rename, as in `try_commit`: it replaces an entry another process has open.
    std::fs::rename(temp.path(), target)?;
    let _ = temp.into_temp_path().keep();
    Ok(())
}

/// Removes our temporary files (`.vaultsum-*.tmp`) directly in `folder` that are older than
/// `min_age`: leftovers of a process killed between staging and renaming. A live write holds
/// its temporary file for milliseconds, so `min_age` leaves other processes' writes alone.
pub fn sweep_stale(folder: &Path, min_age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .is_some_and(|m| {
                m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age >= min_age)
            });
        if stale {
            tracing::debug!(file = %entry.path().display(), "removing a temporary file left by an interrupted write");
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_target_and_leaves_no_temporary_file() {
        let write_synced: fn(&Path, &[u8]) -> std::io::Result<()> = write_atomically;
        for write in [write_synced, write_atomically_unsynced] {
            let dir = tempfile::tempdir().unwrap();
            let target = dir.path().join("sub/state.json");
            write(&target, b"one").unwrap();
            write(&target, b"two").unwrap();
            assert_eq!(std::fs::read(&target).unwrap(), b"two");
            let names: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            assert_eq!(names, ["state.json"]);
        }
    }

    #[test]
    fn only_our_old_temporary_files_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join(".vaultsum-old.tmp");
        let fresh = dir.path().join(".vaultsum-fresh.tmp");
        let note = dir.path().join("note.md");
        let other = dir.path().join(".other.tmp");
        for path in [&old, &fresh, &note, &other] {
            std::fs::write(path, b"x").unwrap();
        }
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for path in [&old, &note, &other] {
            std::fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        sweep_stale(dir.path(), std::time::Duration::from_secs(60));
        assert!(!old.exists());
        assert!(fresh.exists() && note.exists() && other.exists());
    }

    #[test]
    fn a_staged_file_dropped_uncommitted_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("note.md");
        std::fs::write(&target, b"original").unwrap();
        let staged = stage(&target, b"new", None).unwrap();
        drop(staged);
        assert_eq!(std::fs::read(&target).unwrap(), b"original");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
