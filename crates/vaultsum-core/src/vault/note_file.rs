//! A note opened for a summary write, and the two ways a summary goes into it.
//!
//! The note is found the way reads find files: on Linux its folder is opened by the kernel
//! beneath the vault root with no symlink allowed (`openat2`), and the note is opened in that
//! folder without following a link, so a write can never land outside the vault even if a
//! folder is swapped for a symlink meanwhile. Elsewhere the note is opened by its real path,
//! after the `canonicalize` check of [`super::Vault::resolve_input`].
//!
//! - **Append in place** ([`OpenedNote::append`]): the summary is written after the bytes it
//!   was composed against, in one `write` to a descriptor opened with `O_APPEND`, so the file
//!   keeps its identity (inode, birth time, extended attributes, hard links) and another
//!   program's append is never overwritten: the kernel puts ours after theirs.
//! - **Verified swap** ([`OpenedNote::swap_in`]), for `replace`: the new content is written to
//!   a temporary file in the note's folder (anonymous on Linux until the last moment), then
//!   exchanged with the note in one atomic `renameat2(RENAME_EXCHANGE)`. The file swapped out
//!   is checked to be the very version that was read; if another program saved in between,
//!   the exchange is undone and the note is left as that program wrote it.
//!
//! Every step that finds the note changed reports it, and the caller writes nothing.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::bounded::{
    held_by_another_program, replace_refused_while_open, retry_while, retry_while_held, ReadLimit,
    SpecialFile,
};
use super::error::VaultError;
use super::note_cache::Stamp;
use super::paths::parent_of;
use super::Vault;
use crate::atomic_file;
#[cfg(target_os = "linux")]
use crate::atomic_file::{TEMP_PREFIX, TEMP_SUFFIX};

/// Our temporary files older than this in a note's folder are leftovers of a process killed
/// mid-write (a live one exists for milliseconds), and are removed before the next write there.
const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// What a verification found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verified {
    /// The note is still the version that was read.
    Same,
    /// Another program changed or replaced it.
    Changed,
}

/// A note open for reading and appending, with what names it in its folder.
pub(crate) struct OpenedNote {
    file: File,
    /// The path as the caller named it, for errors.
    relative: String,
    /// The real file, symlinks inside the vault followed.
    absolute: PathBuf,
    /// The file's name in its folder.
    #[cfg(target_os = "linux")]
    name: String,
    /// The note's folder, held open beneath the vault root (Linux with `openat2`).
    #[cfg(target_os = "linux")]
    folder: Option<std::os::fd::OwnedFd>,
}

impl OpenedNote {
    /// Opens the note at `real_relative` (its real vault-relative path, no symlinks) for a
    /// write. Refuses anything but a regular, writable file.
    pub(crate) fn open(
        vault: &Vault,
        relative: &str,
        real_relative: &str,
        absolute: &Path,
    ) -> Result<OpenedNote, VaultError> {
        #[cfg(target_os = "linux")]
        let name = real_relative
            .rsplit('/')
            .next()
            .unwrap_or(real_relative)
            .to_string();
        let open_error = |e: std::io::Error| {
            if held_by_another_program(&e) {
                VaultError::Held(relative.to_string())
            } else if e.kind() == std::io::ErrorKind::PermissionDenied {
                VaultError::ReadOnly(relative.to_string())
            } else {
                super::bounded::read_error(relative, absolute, e)
            }
        };
        #[cfg(target_os = "linux")]
        let (file, folder) = match vault.confined.folder_beneath(parent_of(real_relative)) {
            Some(folder) => {
                let folder = folder.map_err(open_error)?;
                let file = open_in_folder(&folder, &name).map_err(open_error)?;
                (file, Some(folder))
            }
            None => (
                retry_while_held(|| open_by_path(absolute)).map_err(open_error)?,
                None,
            ),
        };
        #[cfg(not(target_os = "linux"))]
        let file = {
            let _ = (vault, parent_of(real_relative));
            retry_while_held(|| open_by_path(absolute)).map_err(open_error)?
        };
        let note = OpenedNote {
            file,
            relative: relative.to_string(),
            absolute: absolute.to_path_buf(),
            #[cfg(target_os = "linux")]
            name,
            #[cfg(target_os = "linux")]
            folder,
        };
        let metadata = note.metadata()?;
        if !metadata.file_type().is_file() {
            return Err(VaultError::NotRegular {
                kind: SpecialFile::of(metadata.file_type()),
                path: note.relative.clone(),
            });
        }
        // As root the open succeeds whatever the mode says; the person's read-only mark is
        // still respected.
        if metadata.permissions().readonly() {
            return Err(VaultError::ReadOnly(note.relative.clone()));
        }
        note.sweep_stale_temps();
        Ok(note)
    }

    fn metadata(&self) -> Result<std::fs::Metadata, VaultError> {
        self.file
            .metadata()
            .map_err(|e| VaultError::io("read", &self.relative, e))
    }

    /// The stamp of the open file (what identifies this version of it).
    pub(crate) fn stamp(&self) -> Result<Stamp, VaultError> {
        Ok(Stamp::of(&self.metadata()?))
    }

    /// The whole content and the stamp of that version, read from the open file within
    /// `limit`. A file that changes during the read is reported as such.
    pub(crate) fn read(&self, limit: ReadLimit) -> Result<Option<(Vec<u8>, Stamp)>, VaultError> {
        let before = self.stamp()?;
        let bytes = self.read_range(0, limit.max_bytes.saturating_add(1))?;
        if bytes.len() as u64 > limit.max_bytes {
            return Err(VaultError::TooLarge {
                path: self.relative.clone(),
                size: bytes.len() as u64,
                limit: limit.describe(),
            });
        }
        let after = self.stamp()?;
        Ok((before == after && after.len() == bytes.len() as u64).then_some((bytes, after)))
    }

    /// Up to `len` bytes from `offset`.
    fn read_range(&self, offset: u64, len: u64) -> Result<Vec<u8>, VaultError> {
        let mut file = &self.file;
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.take(len).read_to_end(&mut bytes))
            .map_err(|e| VaultError::io("read", &self.relative, e))?;
        Ok(bytes)
    }

    /// Whether the note is still exactly `content` as stamped by `stamp`, and still the file
    /// its name points to (not replaced by a rename, as editors that save atomically do).
    pub(crate) fn verify(&self, content: &[u8], stamp: &Stamp) -> Result<Verified, VaultError> {
        if self.stamp()? != *stamp || !self.still_named()? {
            return Ok(Verified::Changed);
        }
        // The stamp's clock may be coarse (one or two seconds on some file systems): compare
        // the bytes too.
        let now = self.read_range(0, content.len() as u64 + 1)?;
        Ok(if now == content && self.stamp()? == *stamp {
            Verified::Same
        } else {
            Verified::Changed
        })
    }

    /// True when the note's name in its folder still leads to the open file.
    fn still_named(&self) -> Result<bool, VaultError> {
        let ours = self.metadata()?;
        #[cfg(target_os = "linux")]
        if let Some(folder) = &self.folder {
            use rustix::fs::AtFlags;
            return Ok(
                match rustix::fs::statat(folder, self.name.as_str(), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => same_file_as_stat(&ours, &stat),
                    Err(_) => false,
                },
            );
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Ok(match std::fs::symlink_metadata(&self.absolute) {
                Ok(named) => same_file(&ours, named.dev(), named.ino()),
                Err(_) => false,
            })
        }
        #[cfg(not(unix))]
        {
            // No file identity in stable std here; the stamp and the bytes still guard.
            let _ = ours;
            Ok(self.absolute.is_file())
        }
    }

    /// Appends `suffix` in one write and syncs it. Returns the offset it landed at: the end
    /// of the content read, unless another program appended meanwhile (then after theirs).
    pub(crate) fn append(&self, suffix: &[u8]) -> Result<u64, VaultError> {
        let write_error = |e| VaultError::io("write", &self.relative, e);
        let mut file = &self.file;
        // One `write` call: a process killed now leaves the note without the summary or with
        // all of it, never part of it (a regular file's write is not cut short by a signal).
        file.write_all(suffix).map_err(write_error)?;
        file.sync_data().map_err(write_error)?;
        let end = file.stream_position().map_err(write_error)?;
        Ok(end.saturating_sub(suffix.len() as u64))
    }

    /// Whether `bytes` are at `offset` in the file still named by the note.
    pub(crate) fn holds_at(&self, offset: u64, bytes: &[u8]) -> Result<bool, VaultError> {
        Ok(self.still_named()? && self.read_range(offset, bytes.len() as u64)? == bytes)
    }

    /// Replaces the note with `content`, provided it is still `read` as stamped by `stamp`.
    /// On `Changed`, nothing was replaced. Consumes the open note: off Linux its handle is
    /// closed before the rename (see below); a caller that goes on opens the note again.
    pub(crate) fn swap_in(
        self,
        content: &[u8],
        read: &[u8],
        stamp: &Stamp,
    ) -> Result<Verified, VaultError> {
        let permissions = self.metadata()?.permissions();
        let read_only = permissions.readonly();
        #[cfg(target_os = "linux")]
        if let Some(folder) = &self.folder {
            return super::note_swap::swap_in_folder(
                &self,
                folder,
                content,
                read,
                stamp,
                permissions,
            );
        }
        // By path: stage beside the note, verify, rename over it. The window between the
        // last check and the rename is not closed here (no exchange by path on every system).
        let staged = atomic_file::stage(&self.absolute, content, Some(permissions))
            .map_err(|e| VaultError::io("write", &self.relative, e))?;
        if self.verify(read, stamp)? == Verified::Changed {
            return Ok(Verified::Changed);
        }
        // Our own handle is closed before the rename: replacing a file the process itself
        // holds open needs a POSIX-semantics rename, which Windows 10+ has and Wine does not.
        // The verification just made is what protects the note, not the handle; the window
        // between it and the rename is the same either way.
        let relative = self.relative.clone();
        drop(self);
        // Windows refuses to replace a file another program holds open (Obsidian, an
        // antivirus, a sync client): wait a little, then report the note busy, unchanged, which
        // callers may try again later (the watcher does), unlike a failed write.
        let mut staged = Some(staged);
        retry_while(replace_refused_while_open, || match staged.take() {
            Some(file) => file.try_commit().map_err(|(file, e)| {
                staged = Some(file);
                e
            }),
            None => Ok(()),
        })
        .map_err(|e| {
            if replace_refused_while_open(&e) && !read_only {
                VaultError::Held(relative.clone())
            } else {
                VaultError::io("replace", &relative, e)
            }
        })?;
        Ok(Verified::Same)
    }

    #[cfg(target_os = "linux")]
    pub(crate) fn relative(&self) -> &str {
        &self.relative
    }

    #[cfg(target_os = "linux")]
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    #[cfg(target_os = "linux")]
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Removes our temporary files left in the note's folder by a process killed mid-write.
    fn sweep_stale_temps(&self) {
        if let Some(folder) = self.absolute.parent() {
            atomic_file::sweep_stale(folder, STALE_TEMP_AGE);
        }
    }
}

/// Creates the note at `real_relative` (real path `absolute`) with `content`, whole or not at
/// all, and only if nothing is at that name yet (`VaultError::Busy` when something is: another
/// writer got there first). Confined like the other writes.
pub(crate) fn create_note(
    vault: &Vault,
    relative: &str,
    real_relative: &str,
    absolute: &Path,
    content: &[u8],
) -> Result<(), VaultError> {
    let name = real_relative.rsplit('/').next().unwrap_or(real_relative);
    let write_error = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            VaultError::Busy(relative.to_string())
        } else {
            VaultError::io("write", relative, e)
        }
    };
    #[cfg(target_os = "linux")]
    if let Some(folder) = vault.confined.folder_beneath(parent_of(real_relative)) {
        use std::os::unix::fs::PermissionsExt;
        let folder = folder.map_err(write_error)?;
        let permissions = std::fs::Permissions::from_mode(0o644);
        return super::note_swap::create_in_folder(&folder, name, content, permissions)
            .map_err(write_error);
    }
    let _ = (vault, name, parent_of(real_relative));
    atomic_file::stage(absolute, content, None)
        .and_then(|staged| staged.link_new())
        .map_err(write_error)
}

/// True when `ours` is the file with device `dev` and inode `ino`.
#[cfg(unix)]
pub(crate) fn same_file(ours: &std::fs::Metadata, dev: u64, ino: u64) -> bool {
    use std::os::unix::fs::MetadataExt;
    ours.dev() == dev && ours.ino() == ino
}

/// True when `ours` is the file a `stat` describes.
#[cfg(target_os = "linux")]
#[allow(clippy::unnecessary_cast)] // field types vary by target
pub(crate) fn same_file_as_stat(ours: &std::fs::Metadata, stat: &rustix::fs::Stat) -> bool {
    same_file(ours, stat.st_dev as u64, stat.st_ino as u64)
}

/// Opens `name` in `folder` for reading and appending, never following a symlink and never
/// blocking on something that is not a file.
#[cfg(target_os = "linux")]
fn open_in_folder(folder: &std::os::fd::OwnedFd, name: &str) -> std::io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDWR
        | OFlags::APPEND
        | OFlags::NONBLOCK
        | OFlags::NOCTTY
        | OFlags::NOFOLLOW
        | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(folder, name, flags, Mode::empty())?;
    Ok(File::from(fd))
}

/// Opens the note by its (already confined) real path for reading and appending.
fn open_by_path(absolute: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK
            | rustix::fs::OFlags::NOCTTY
            | rustix::fs::OFlags::NOFOLLOW;
        options.custom_flags(flags.bits() as i32);
    }
    options.open(absolute)
}

/// A name for a temporary file of ours: hidden, so nothing indexes it while it exists.
#[cfg(target_os = "linux")]
pub(crate) fn temp_name() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        "{TEMP_PREFIX}{}-{nanos:08x}-{n}{TEMP_SUFFIX}",
        std::process::id()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::bounded::DEFAULT_MAX_NOTE_BYTES;

    const BODY: &[u8] = b"Body.\n";

    fn opened(dir: &Path) -> OpenedNote {
        let vault = Vault::open(dir).unwrap();
        let note = vault.resolve_input("Note.md").unwrap();
        OpenedNote::open(&vault, "Note.md", "Note.md", note.absolute()).unwrap()
    }

    fn read(note: &OpenedNote) -> (Vec<u8>, Stamp) {
        note.read(ReadLimit::note(DEFAULT_MAX_NOTE_BYTES))
            .unwrap()
            .unwrap()
    }

    /// A folder with `Note.md` holding [`BODY`], the note opened and read.
    fn fresh_note() -> (
        tempfile::TempDir,
        std::path::PathBuf,
        OpenedNote,
        Vec<u8>,
        Stamp,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("Note.md");
        std::fs::write(&path, BODY).unwrap();
        let note = opened(dir.path());
        let (bytes, stamp) = read(&note);
        (dir, path, note, bytes, stamp)
    }

    fn files(dir: &Path) -> usize {
        std::fs::read_dir(dir).unwrap().count()
    }

    #[test]
    fn an_edit_in_place_after_the_read_is_detected_and_blocks_the_swap() {
        let (dir, path, note, bytes, stamp) = fresh_note();
        // Same length, so only the bytes (or the clock) tell.
        std::fs::write(&path, b"Edit.\n").unwrap();
        assert_eq!(note.verify(&bytes, &stamp).unwrap(), Verified::Changed);
        let swapped = note.swap_in(b"New.\n", &bytes, &stamp).unwrap();
        assert_eq!(swapped, Verified::Changed);
        assert_eq!(std::fs::read(&path).unwrap(), b"Edit.\n");
        assert_eq!(files(dir.path()), 1, "no temporary file left");
    }

    #[test]
    fn a_note_replaced_by_a_rename_is_detected_and_an_append_to_the_old_file_is_not_trusted() {
        let (dir, path, note, bytes, stamp) = fresh_note();
        // An editor that saves atomically: new file, renamed over the note.
        std::fs::write(dir.path().join("saved.tmp"), BODY).unwrap();
        std::fs::rename(dir.path().join("saved.tmp"), &path).unwrap();
        assert_eq!(note.verify(&bytes, &stamp).unwrap(), Verified::Changed);
        let at = note.append(b"late").unwrap();
        assert!(!note.holds_at(at, b"late").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), BODY);
    }

    #[test]
    fn an_unchanged_note_verifies_and_swaps() {
        let (dir, path, note, bytes, stamp) = fresh_note();
        assert_eq!(note.verify(&bytes, &stamp).unwrap(), Verified::Same);
        let swapped = note.swap_in(b"New.\n", &bytes, &stamp).unwrap();
        assert_eq!(swapped, Verified::Same);
        assert_eq!(std::fs::read(&path).unwrap(), b"New.\n");
        assert_eq!(files(dir.path()), 1, "no temporary file left");
    }

    /// Another program reading the note without letting it be renamed over (no
    /// `FILE_SHARE_DELETE`: an antivirus, a sync client; under Wine any open handle): Windows
    /// answers "access denied" to the rename, which once read as a lasting write failure and
    /// made the watcher give the note up for good. It is the note held open, unchanged, which
    /// the watcher tries again later.
    #[cfg(windows)]
    #[test]
    fn a_note_held_open_without_delete_sharing_is_held_not_a_write_error() {
        use std::os::windows::fs::OpenOptionsExt;
        const FILE_SHARE_READ_WRITE: u32 = 0x1 | 0x2;
        let (_dir, path, note, bytes, stamp) = fresh_note();
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ_WRITE)
            .open(&path)
            .unwrap();
        match note.swap_in(b"New.\n", &bytes, &stamp) {
            Err(VaultError::Held(name)) => assert_eq!(name, "Note.md"),
            other => panic!("expected the note held open, got {other:?}"),
        }
        drop(reader);
        assert_eq!(std::fs::read(&path).unwrap(), BODY);
    }

    /// Windows refuses to rename over a read-only file with the same "access denied": that one
    /// lasts, and is a write error, not a note held open.
    #[cfg(windows)]
    #[test]
    fn a_read_only_note_that_cannot_be_replaced_is_a_write_error_not_held() {
        let (_dir, path, note, bytes, stamp) = fresh_note();
        let mut permissions = std::fs::metadata(&path).unwrap().permissions();
        permissions.set_readonly(true);
        std::fs::set_permissions(&path, permissions).unwrap();
        match note.swap_in(b"New.\n", &bytes, &stamp) {
            Err(VaultError::Io { .. }) => {}
            other => panic!("expected a write error, got {other:?}"),
        }
        assert_eq!(std::fs::read(&path).unwrap(), BODY);
    }

    #[test]
    fn another_append_between_check_and_write_comes_first_and_ours_follows_whole() {
        let (_dir, path, note, bytes, stamp) = fresh_note();
        assert_eq!(note.verify(&bytes, &stamp).unwrap(), Verified::Same);
        let mut other = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        other.write_all(b"theirs\n").unwrap();
        let at = note.append(b"ours\n").unwrap();
        assert_eq!(at, (BODY.len() + b"theirs\n".len()) as u64);
        assert!(note.holds_at(at, b"ours\n").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"Body.\ntheirs\nours\n");
    }
}
