//! Parsed notes kept between expansions, so a long-lived vault (MCP, watch, a folder of notes)
//! parses each note once until it changes on disk.

use foldhash::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

pub use vaultsum_engine::vault::parsed_note::ParsedNote;

/// Beyond this much cached source text the cache starts over (bounds memory on huge vaults).
const MAX_CACHED_BYTES: usize = 64 * 1024 * 1024;

/// What identifies one version of a file without reading it: a changed file, or a different
/// file at the same path (a folder swapped for a symlink), gets a different stamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Which file: (device, inode) on Unix. On Windows, whose stable std has no file index in
    /// `Metadata`, the creation time, which a file saved over this one by a rename does not
    /// share.
    identity: (u64, u64),
    len: u64,
    modified: (i64, i64),
}

/// A file modified this recently may be modified again within the same clock tick of the file
/// system, keeping its stamp: its cached copy is not trusted on the stamp alone.
const SETTLE_TIME: Duration = Duration::from_secs(2);

impl Stamp {
    /// The stamp of a file's metadata (symlinks followed).
    #[cfg(unix)]
    pub fn of(metadata: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            identity: (metadata.dev(), metadata.ino()),
            len: metadata.len(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
        }
    }

    /// The stamp of a file's metadata (symlinks followed).
    #[cfg(not(unix))]
    pub fn of(metadata: &std::fs::Metadata) -> Stamp {
        let since_epoch = |time: std::io::Result<std::time::SystemTime>| {
            time.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or((0, 0), |d| {
                    (d.as_secs() as i64, i64::from(d.subsec_nanos()))
                })
        };
        let (created_secs, created_nanos) = since_epoch(metadata.created());
        Stamp {
            identity: (created_secs as u64, created_nanos as u64),
            len: metadata.len(),
            modified: since_epoch(metadata.modified()),
        }
    }

    /// The stamp of a `stat` result.
    #[cfg(target_os = "linux")]
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)] // field types vary by target
    pub(crate) fn of_stat(stat: &rustix::fs::Stat) -> Stamp {
        Stamp {
            identity: (stat.st_dev as u64, stat.st_ino as u64),
            len: stat.st_size as u64,
            modified: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        }
    }

    /// The file's size in bytes.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The modification time in nanoseconds since the Unix epoch.
    pub(crate) fn modified_ns(&self) -> i128 {
        let (secs, nanos) = self.modified;
        i128::from(secs) * 1_000_000_000 + i128::from(nanos)
    }

    /// True when the file was last modified long enough ago that a change would move its
    /// modification time (see [`SETTLE_TIME`]).
    fn settled(&self) -> bool {
        let (secs, nanos) = self.modified;
        let Ok(secs) = u64::try_from(secs) else {
            return true;
        };
        let modified =
            SystemTime::UNIX_EPOCH + Duration::new(secs, u32::try_from(nanos).unwrap_or_default());
        SystemTime::now()
            .duration_since(modified)
            .is_ok_and(|age| age >= SETTLE_TIME)
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// Path → (stamp, whether the stamp alone vouches for the copy, the parsed note).
    notes: HashMap<String, (Stamp, bool, Arc<ParsedNote>)>,
    bytes: usize,
}

/// Parsed notes by vault-relative path, valid while their stamp is unchanged.
#[derive(Debug, Default)]
pub struct NoteCache {
    inner: Mutex<Inner>,
}

impl NoteCache {
    /// The cached note for `relative` when `stamp_now` (called only if there is one) gives
    /// the stamp it was read with, and that stamp was settled.
    pub fn get_fresh(
        &self,
        relative: &str,
        stamp_now: impl FnOnce() -> Option<Stamp>,
    ) -> Option<Arc<ParsedNote>> {
        let (stamp, note) = {
            let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            match inner.notes.get(relative)? {
                (stamp, true, note) => (*stamp, note.clone()),
                _ => return None,
            }
        };
        (stamp_now()? == stamp).then_some(note)
    }

    /// The cached note for `relative` as it was read, whatever its file is now.
    pub fn get_as_read(&self, relative: &str) -> Option<Arc<ParsedNote>> {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.notes.get(relative).map(|(_, _, note)| note.clone())
    }

    /// The cached note for `relative` if it has exactly this text (whatever its stamp).
    pub fn get_same_text(&self, relative: &str, source: &str) -> Option<Arc<ParsedNote>> {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (_, _, note) = inner.notes.get(relative)?;
        (note.source == source).then(|| note.clone())
    }

    /// Remembers a parsed note read from a file with this stamp.
    pub fn insert(&self, relative: &str, stamp: Stamp, note: Arc<ParsedNote>) {
        let settled = stamp.settled();
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if inner.bytes + note.source.len() > MAX_CACHED_BYTES {
            inner.notes.clear();
            inner.bytes = 0;
        }
        inner.bytes += note.source.len();
        let entry = (stamp, settled, note);
        if let Some((_, _, old)) = inner.notes.insert(relative.to_string(), entry) {
            inner.bytes = inner.bytes.saturating_sub(old.source.len());
        }
    }

    /// Forgets one note.
    pub fn remove(&self, relative: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, old)) = inner.notes.remove(relative) {
            inner.bytes = inner.bytes.saturating_sub(old.source.len());
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.notes.clear();
        inner.bytes = 0;
    }
}
