//! The one place a vault file is opened for reading and read.
//!
//! A read never blocks on something that is not a file and never takes more memory than its
//! cap: the file is opened without blocking (`O_NONBLOCK` on Unix, so opening a FIFO with no
//! writer returns at once), the open file is looked at (`fstat`), anything but a regular file
//! (a FIFO, a socket, a device) is refused, and the size is checked against the cap for its
//! kind (`read.max_note_bytes` for notes, the media caps for images and audio) before a byte
//! is read. The read itself stops one byte past the cap, so a file that grows meanwhile is
//! refused too.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::error::VaultError;
use super::note_cache::Stamp;
use super::paths::VaultPath;

/// The default of `read.max_note_bytes`: 10 MiB, far beyond any note a person writes.
pub const DEFAULT_MAX_NOTE_BYTES: u64 = vaultsum_engine::summary::defaults::MAX_NOTE_BYTES;

/// How much one read may take, and the words that name the limit in an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimit {
    /// The largest file read, in bytes.
    pub max_bytes: u64,
    /// What the limit is for, as the error names it (`note`, `image`, `audio file`).
    pub kind: &'static str,
    /// The setting that changes it, when there is one (`read.max_note_bytes`).
    pub setting: Option<&'static str>,
}

impl ReadLimit {
    /// The limit for notes (and any text read as one), set by `read.max_note_bytes`.
    pub fn note(max_bytes: u64) -> ReadLimit {
        ReadLimit {
            max_bytes,
            kind: "note",
            setting: Some("read.max_note_bytes"),
        }
    }

    /// A fixed limit for a kind of media (no setting changes it).
    pub fn media(max_bytes: u64, kind: &'static str) -> ReadLimit {
        ReadLimit {
            max_bytes,
            kind,
            setting: None,
        }
    }

    /// How the limit reads in an error: `the 10.0 MB limit for a note (read.max_note_bytes)`.
    pub(crate) fn describe(&self) -> String {
        let setting = self.setting.map(|s| format!(" ({s})")).unwrap_or_default();
        format!(
            "the {} limit for {} {}{setting}",
            human_bytes(self.max_bytes),
            article(self.kind),
            self.kind
        )
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// What a path that is not a regular file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialFile {
    /// A named pipe: opening or reading it could wait forever for a writer.
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// Anything else that is neither a file nor a folder.
    Unknown,
}

impl SpecialFile {
    /// The kind with its article, as errors name it: `a FIFO`.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Fifo => "a FIFO",
            Self::Socket => "a socket",
            Self::CharDevice => "a character device",
            Self::BlockDevice => "a block device",
            Self::Unknown => "not a file",
        }
    }

    /// The reason shown in an embed marker: `not a regular file (a FIFO)`.
    pub fn embed_reason(self) -> &'static str {
        match self {
            Self::Fifo => "not a regular file (a FIFO)",
            Self::Socket => "not a regular file (a socket)",
            Self::CharDevice => "not a regular file (a character device)",
            Self::BlockDevice => "not a regular file (a block device)",
            Self::Unknown => "not a regular file",
        }
    }

    pub(crate) fn of(file_type: std::fs::FileType) -> SpecialFile {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return Self::Fifo;
            }
            if file_type.is_socket() {
                return Self::Socket;
            }
            if file_type.is_char_device() {
                return Self::CharDevice;
            }
            if file_type.is_block_device() {
                return Self::BlockDevice;
            }
        }
        let _ = file_type;
        Self::Unknown
    }
}

/// Opens `absolute` for reading without blocking: on Unix with `O_NONBLOCK` (a FIFO without a
/// writer opens at once instead of waiting) and `O_NOCTTY`. Nothing is read.
pub(crate) fn open_nonblocking(absolute: &Path) -> std::io::Result<File> {
    retry_while_held(|| open_nonblocking_once(absolute))
}

fn open_nonblocking_once(absolute: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits() as i32);
    }
    options.open(absolute)
}

/// The waits before each new attempt on a note another program holds open: about 1.5 s in
/// all, long enough for an editor's save or a virus scan, short enough to report it busy.
const HELD_WAITS_MS: [u64; 5] = [50, 100, 200, 400, 800];

/// True when the error says another program holds the file in a way that bars ours (Windows'
/// sharing and lock violations). Unix never refuses an open or a rename for that.
pub(crate) fn held_by_another_program(error: &std::io::Error) -> bool {
    const ERROR_SHARING_VIOLATION: i32 = 32;
    const ERROR_LOCK_VIOLATION: i32 = 33;
    cfg!(windows)
        && matches!(
            error.raw_os_error(),
            Some(ERROR_SHARING_VIOLATION | ERROR_LOCK_VIOLATION)
        )
}

/// True when renaming a file over a note failed because another program has the note open:
/// a sharing violation, or "access denied", which Windows answers when the other program's
/// handle does not allow deletion (an antivirus, a sync client, a reader opening it without
/// `FILE_SHARE_DELETE`) or when the rename cannot use POSIX semantics (Wine, some file
/// systems). "Access denied" also means a read-only note: the caller tells the two apart.
pub(crate) fn replace_refused_while_open(error: &std::io::Error) -> bool {
    const ERROR_ACCESS_DENIED: i32 = 5;
    held_by_another_program(error)
        || (cfg!(windows) && error.raw_os_error() == Some(ERROR_ACCESS_DENIED))
}

/// Runs `attempt` again while the file is held by another program, up to [`HELD_WAITS_MS`].
pub(crate) fn retry_while_held<T>(
    attempt: impl FnMut() -> std::io::Result<T>,
) -> std::io::Result<T> {
    retry_while(held_by_another_program, attempt)
}

/// Runs `attempt` again while its error is one `held` says another program causes, up to
/// [`HELD_WAITS_MS`].
pub(crate) fn retry_while<T>(
    held: fn(&std::io::Error) -> bool,
    mut attempt: impl FnMut() -> std::io::Result<T>,
) -> std::io::Result<T> {
    for wait in HELD_WAITS_MS {
        match attempt() {
            Err(error) if held(&error) => {
                std::thread::sleep(std::time::Duration::from_millis(wait));
            }
            other => return other,
        }
    }
    attempt()
}

/// The error for a failed open or read of `relative`: a folder is named as such.
pub(crate) fn read_error(relative: &str, absolute: &Path, e: std::io::Error) -> VaultError {
    if e.kind() == std::io::ErrorKind::IsADirectory || absolute.is_dir() {
        VaultError::IsFolder(relative.to_string())
    } else if held_by_another_program(&e) {
        VaultError::Held(relative.to_string())
    } else {
        VaultError::io("read", relative, e)
    }
}

/// Reads an open file to its end within `limit`, with the stamp of the version read (taken from
/// the open file: one `fstat` that also checks the kind and the size before any read).
pub(crate) fn read_open_file(
    file: File,
    relative: &str,
    absolute: &Path,
    limit: ReadLimit,
) -> Result<(Vec<u8>, Option<Stamp>), VaultError> {
    let metadata = file
        .metadata()
        .map_err(|e| read_error(relative, absolute, e))?;
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return Err(VaultError::IsFolder(relative.to_string()));
    }
    if !file_type.is_file() {
        return Err(VaultError::NotRegular {
            kind: SpecialFile::of(file_type),
            path: relative.to_string(),
        });
    }
    let too_large = |size: u64| VaultError::TooLarge {
        path: relative.to_string(),
        size,
        limit: limit.describe(),
    };
    if metadata.len() > limit.max_bytes {
        return Err(too_large(metadata.len()));
    }
    let stamp = Stamp::of(&metadata);
    let size = usize::try_from(metadata.len()).unwrap_or(0);
    // One byte more than the size, so a file read whole is seen to end without a resize; and
    // never more than one byte past the cap, so a file growing meanwhile is refused.
    let mut bytes = Vec::with_capacity(size.saturating_add(1).max(64));
    file.take(limit.max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(relative, absolute, e))?;
    if bytes.len() as u64 > limit.max_bytes {
        return Err(too_large(bytes.len() as u64));
    }
    Ok((bytes, Some(stamp)))
}

/// Reads the file at `path` within `limit` (a regular file only, sized before it is read).
/// For attachments, which are read by path; notes are read through the [`super::Vault`].
pub fn read_capped(path: &VaultPath, limit: ReadLimit) -> Result<Vec<u8>, VaultError> {
    let file = open_nonblocking(path.absolute())
        .map_err(|e| read_error(path.relative(), path.absolute(), e))?;
    read_open_file(file, path.relative(), path.absolute(), limit).map(|(bytes, _)| bytes)
}

/// The size of the regular file at `path` from its metadata (nothing opened, nothing read).
pub fn regular_file_size(path: &VaultPath) -> Result<u64, VaultError> {
    let metadata = std::fs::metadata(path.absolute())
        .map_err(|e| read_error(path.relative(), path.absolute(), e))?;
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return Err(VaultError::IsFolder(path.relative().to_string()));
    }
    if !file_type.is_file() {
        return Err(VaultError::NotRegular {
            kind: SpecialFile::of(file_type),
            path: path.relative().to_string(),
        });
    }
    Ok(metadata.len())
}

pub use vaultsum_engine::media::refusal::human_bytes;

#[cfg(test)]
mod tests {
    use super::*;

    fn path_in(dir: &Path, name: &str) -> VaultPath {
        VaultPath {
            relative: name.to_string(),
            absolute: dir.join(name),
        }
    }

    #[test]
    fn sizes_read_for_people() {
        assert_eq!(human_bytes(0), "0 bytes");
        assert_eq!(human_bytes(1536), "1.5 KB");
        assert_eq!(human_bytes(10 * 1024 * 1024), "10.0 MB");
        assert_eq!(human_bytes(3 << 30), "3.0 GB");
        assert_eq!(human_bytes(u64::MAX), "16777216.0 TB");
    }

    #[test]
    fn a_file_over_the_cap_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("big.md")).unwrap();
        file.set_len(3 << 30).unwrap(); // sparse: no disk used
        let error = read_capped(&path_in(dir.path(), "big.md"), ReadLimit::note(1 << 20))
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "too large to read: big.md is 3.0 GB, over the 1.0 MB limit for a note \
             (read.max_note_bytes)"
        );
    }

    #[test]
    fn a_file_at_the_cap_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), b"12345").unwrap();
        let bytes = read_capped(&path_in(dir.path(), "a.md"), ReadLimit::note(5)).unwrap();
        assert_eq!(bytes, b"12345");
        let error = read_capped(&path_in(dir.path(), "a.md"), ReadLimit::note(4)).unwrap_err();
        assert!(
            matches!(error, VaultError::TooLarge { size: 5, .. }),
            "{error}"
        );
    }

    #[test]
    fn media_limits_name_their_kind() {
        let limit = ReadLimit::media(20 << 20, "image");
        assert_eq!(limit.describe(), "the 20.0 MB limit for an image");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.md");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error =
            read_capped(&path_in(dir.path(), "pipe.md"), ReadLimit::note(1 << 20)).unwrap_err();
        assert_eq!(error.to_string(), "not a regular file (a FIFO): pipe.md");
        assert!(matches!(
            regular_file_size(&path_in(dir.path(), "pipe.md")),
            Err(VaultError::NotRegular {
                kind: SpecialFile::Fifo,
                ..
            })
        ));
    }
}
