//! Reads below the vault root that the kernel keeps inside it, without a `canonicalize` per file.
//!
//! On Linux the root is held open and files are opened with `openat2(RESOLVE_BENEATH)`: the
//! kernel refuses any resolution that leaves the root (`..`, a symlink pointing out, an
//! absolute symlink) in the same call that opens the file, so there is no window between a
//! check and the read. A refusal is not final: an absolute symlink that points back into the
//! vault is allowed by vaultsum, so the caller then makes the slow `canonicalize` check. Where
//! `openat2` is missing (old kernels, other systems, seccomp filters) every read takes the slow
//! path.

use std::fs::File;
#[cfg(target_os = "linux")]
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, Ordering};

use super::note_cache::Stamp;

/// The open vault root.
#[derive(Debug)]
pub(crate) struct ConfinedRoot {
    root: PathBuf,
    #[cfg(target_os = "linux")]
    dir: Option<OwnedFd>,
    /// Cleared the first time the kernel says it has no `openat2`.
    #[cfg(target_os = "linux")]
    beneath_works: AtomicBool,
}

/// What opening a file below the root gave.
// Off Linux every read takes the slow path, so only `CheckSlowly` is ever made there.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) enum Beneath {
    /// The file, opened without leaving the root.
    Opened(File),
    /// The kernel could not decide (the path leaves the root through a symlink or `..`, or
    /// `openat2` is unavailable): make the `canonicalize` check instead.
    CheckSlowly,
    /// The file could not be opened (missing, a loop, permissions, ...).
    Failed(std::io::Error),
}

impl ConfinedRoot {
    /// Holds `root` (an existing folder) open for the life of the vault.
    #[cfg(target_os = "linux")]
    pub(crate) fn open(root: &Path) -> ConfinedRoot {
        use rustix::fs::{Mode, OFlags};
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let dir = rustix::fs::open(root, flags, Mode::empty()).ok();
        ConfinedRoot {
            root: root.to_path_buf(),
            beneath_works: AtomicBool::new(dir.is_some()),
            dir,
        }
    }

    /// Remembers `root`: without `openat2` there is nothing to hold open.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn open(root: &Path) -> ConfinedRoot {
        ConfinedRoot {
            root: root.to_path_buf(),
        }
    }

    /// Opens the vault-relative `relative` (already normalised: no `..`, no leading `/`) for
    /// reading, letting the kernel refuse anything outside the root.
    pub(crate) fn open_beneath(&self, relative: &str) -> Beneath {
        #[cfg(target_os = "linux")]
        if let (Some(dir), true) = (&self.dir, self.beneath_works.load(Ordering::Relaxed)) {
            use rustix::fs::{Mode, OFlags, ResolveFlags};
            use rustix::io::Errno;
            // Without blocking: a FIFO opens at once and is refused by the caller's `fstat`.
            let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
            let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
            return match rustix::fs::openat2(dir, relative, flags, Mode::empty(), resolve) {
                Ok(fd) => Beneath::Opened(File::from(fd)),
                // Leaves the root, or an absolute symlink: the slow check decides.
                Err(Errno::XDEV) | Err(Errno::AGAIN) => Beneath::CheckSlowly,
                Err(Errno::NOSYS) | Err(Errno::PERM) | Err(Errno::INVAL) => {
                    self.beneath_works.store(false, Ordering::Relaxed);
                    Beneath::CheckSlowly
                }
                Err(errno) => Beneath::Failed(std::io::Error::from(errno)),
            };
        }
        let _ = relative;
        Beneath::CheckSlowly
    }

    /// Whether the vault-relative `relative` (normalised, not empty) names an existing file or
    /// folder reached without any symlink and without leaving the root, asked of the kernel in
    /// one call: then `root/relative` is already its real path and needs no `canonicalize` (a
    /// `readlink` per path component). `false` whenever the kernel cannot tell (a symlink on
    /// the way, a missing file, no `openat2`, another system): the caller checks slowly.
    pub(crate) fn is_real_path_beneath(&self, relative: &str) -> bool {
        #[cfg(target_os = "linux")]
        if let (Some(dir), true) = (&self.dir, self.beneath_works.load(Ordering::Relaxed)) {
            use rustix::fs::{Mode, OFlags, ResolveFlags};
            // `O_PATH`: nothing is opened for reading, so no FIFO blocks and no access is needed.
            let flags = OFlags::PATH | OFlags::CLOEXEC;
            let resolve =
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            return rustix::fs::openat2(dir, relative, flags, Mode::empty(), resolve).is_ok();
        }
        let _ = relative;
        false
    }

    /// Opens the vault-relative folder `relative_dir` (`""` for the root; a real path, with no
    /// symlinks in it) for the `*at` calls of a write, letting the kernel refuse any step out of
    /// the root and any symlink. `None` when the kernel cannot do this (no `openat2`, another
    /// system): the caller then works by path, after its `canonicalize` check.
    #[cfg(target_os = "linux")]
    pub(crate) fn folder_beneath(&self, relative_dir: &str) -> Option<std::io::Result<OwnedFd>> {
        use rustix::fs::{Mode, OFlags, ResolveFlags};
        use rustix::io::Errno;
        let dir = self.dir.as_ref()?;
        if !self.beneath_works.load(Ordering::Relaxed) {
            return None;
        }
        let path = if relative_dir.is_empty() {
            "."
        } else {
            relative_dir
        };
        // Not `O_PATH`: the folder is synced after a rename, which needs a real descriptor.
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(dir, path, flags, Mode::empty(), resolve) {
            Ok(fd) => Some(Ok(fd)),
            Err(Errno::NOSYS) | Err(Errno::PERM) | Err(Errno::INVAL) => {
                self.beneath_works.store(false, Ordering::Relaxed);
                None
            }
            Err(errno) => Some(Err(std::io::Error::from(errno))),
        }
    }

    /// The stamp of `relative` (symlinks followed), or `None` when the file cannot be looked at;
    /// a `None` makes the caller read the file again.
    pub(crate) fn stamp(&self, relative: &str) -> Option<Stamp> {
        #[cfg(target_os = "linux")]
        {
            let stat = match &self.dir {
                Some(dir) => rustix::fs::statat(dir, relative, rustix::fs::AtFlags::empty()),
                None => rustix::fs::stat(self.root.join(relative)),
            };
            stat.ok().map(|stat| Stamp::of_stat(&stat))
        }
        #[cfg(not(target_os = "linux"))]
        {
            let metadata = std::fs::metadata(self.root.join(relative)).ok()?;
            Some(Stamp::of(&metadata))
        }
    }
}
