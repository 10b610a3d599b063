//! The verified atomic swap of a note's content on Linux (`replace`), all inside the note's
//! folder held open beneath the vault root.
//!
//! 1. The new content goes to an anonymous file in the folder (`O_TMPFILE`), synced: a process
//!    killed now leaves nothing behind. Only then is it given a hidden name (`linkat`); where
//!    the file system has no `O_TMPFILE`, a named temporary file is used from the start, and
//!    the next write in that folder removes it if a kill left it (see `note_file.rs`).
//! 2. The note is checked to be the version that was read, then exchanged with the new file
//!    in one `renameat2(RENAME_EXCHANGE)`: the note's name now holds the new content, the
//!    temporary name the old file.
//! 3. The file swapped out is checked to be the one that was read, unchanged. If another
//!    program saved in between (by rename or in place), the exchange is undone, so the note is
//!    what that program wrote, and the caller reports the note busy.
//! 4. The temporary name (now the old version) is removed and the folder synced.
//!
//! Where the file system cannot exchange (`EINVAL`), step 2 becomes a plain rename after the
//! check, as on other systems.

use std::fs::{File, Permissions};
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags, CWD};
use rustix::io::Errno;

use super::error::VaultError;
use super::note_cache::Stamp;
use super::note_file::{same_file_as_stat, temp_name, OpenedNote, Verified};

/// Swaps `content` in for the note `note` (in `folder`), provided the note is still `read` as
/// stamped by `stamp`. `Changed` means nothing was replaced.
pub(crate) fn swap_in_folder(
    note: &OpenedNote,
    folder: &OwnedFd,
    content: &[u8],
    read: &[u8],
    stamp: &Stamp,
    permissions: Permissions,
) -> Result<Verified, VaultError> {
    let write_error = |e: std::io::Error| VaultError::io("write", note.relative(), e);
    let temp = stage_in_folder(folder, content, permissions).map_err(write_error)?;
    let discard = || {
        let _ = rustix::fs::unlinkat(folder, temp.as_str(), AtFlags::empty());
    };
    match note.verify(read, stamp) {
        Ok(Verified::Same) => {}
        Ok(Verified::Changed) => {
            discard();
            return Ok(Verified::Changed);
        }
        Err(e) => {
            discard();
            return Err(e);
        }
    }
    let name = note.name();
    match rustix::fs::renameat_with(folder, temp.as_str(), folder, name, RenameFlags::EXCHANGE) {
        Ok(()) => {}
        Err(Errno::INVAL) | Err(Errno::NOSYS) | Err(Errno::OPNOTSUPP) => {
            // No exchange on this file system: a plain rename, checked just before.
            return match rustix::fs::renameat(folder, temp.as_str(), folder, name) {
                Ok(()) => {
                    sync_folder(folder);
                    Ok(Verified::Same)
                }
                Err(e) => {
                    discard();
                    Err(VaultError::io("replace", note.relative(), e.into()))
                }
            };
        }
        Err(e) => {
            discard();
            return Err(VaultError::io("replace", note.relative(), e.into()));
        }
    }
    // The temporary name now holds what was the note: it must be the file we read, unchanged.
    let swapped_out_is_ours = rustix::fs::statat(folder, temp.as_str(), AtFlags::SYMLINK_NOFOLLOW)
        .ok()
        .zip(note.file().metadata().ok())
        .is_some_and(|(stat, ours)| same_file_as_stat(&ours, &stat) && Stamp::of(&ours) == *stamp);
    if !swapped_out_is_ours {
        // Put back what another program saved, then drop our version.
        let undone =
            rustix::fs::renameat_with(folder, temp.as_str(), folder, name, RenameFlags::EXCHANGE);
        if let Err(e) = undone {
            // The new content stays (the old file is kept under the temporary name rather
            // than removed, so nothing is lost); say where.
            return Err(VaultError::io(
                "restore",
                note.relative(),
                std::io::Error::new(
                    e.kind(),
                    format!("another program saved the note during the replace; its version is kept as {temp}"),
                ),
            ));
        }
        discard();
        return Ok(Verified::Changed);
    }
    discard();
    sync_folder(folder);
    Ok(Verified::Same)
}

/// Creates `name` in `folder` with `content`, only if nothing has that name yet: the content
/// is staged and synced under a temporary name, then linked to `name` (a link never replaces
/// an existing file) and the temporary name removed. `AlreadyExists` when `name` exists.
pub(crate) fn create_in_folder(
    folder: &OwnedFd,
    name: &str,
    content: &[u8],
    permissions: Permissions,
) -> std::io::Result<()> {
    let temp = stage_in_folder(folder, content, permissions)?;
    let linked = rustix::fs::linkat(folder, temp.as_str(), folder, name, AtFlags::empty());
    let _ = rustix::fs::unlinkat(folder, temp.as_str(), AtFlags::empty());
    linked?;
    sync_folder(folder);
    Ok(())
}

/// Writes `content` to a new file in `folder` and gives it a hidden temporary name, returned.
fn stage_in_folder(
    folder: &OwnedFd,
    content: &[u8],
    permissions: Permissions,
) -> std::io::Result<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = Mode::from_bits_truncate(permissions.mode());
    let name = temp_name();
    let anonymous = rustix::fs::openat(
        folder,
        ".",
        OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC,
        mode,
    );
    if let Ok(fd) = anonymous {
        let file = write_synced(fd, content, &permissions)?;
        // Give the anonymous file a name through its `/proc` link (linkat with
        // `AT_EMPTY_PATH` would need a capability).
        let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
        if rustix::fs::linkat(
            CWD,
            proc_path.as_str(),
            folder,
            name.as_str(),
            AtFlags::SYMLINK_FOLLOW,
        )
        .is_ok()
        {
            return Ok(name);
        }
    }
    let fd = rustix::fs::openat(
        folder,
        name.as_str(),
        OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        mode,
    )?;
    if let Err(e) = write_synced(fd, content, &permissions) {
        let _ = rustix::fs::unlinkat(folder, name.as_str(), AtFlags::empty());
        return Err(e);
    }
    Ok(name)
}

fn write_synced(fd: OwnedFd, content: &[u8], permissions: &Permissions) -> std::io::Result<File> {
    let mut file = File::from(fd);
    file.write_all(content)?;
    // The mode given at creation is reduced by the umask; the note's own mode is wanted.
    file.set_permissions(permissions.clone())?;
    file.sync_all()?;
    Ok(file)
}

fn sync_folder(folder: &OwnedFd) {
    let _ = rustix::fs::fsync(folder.as_fd());
}
