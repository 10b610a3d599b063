//! Descriptions, transcripts and documents' text cached by content hash, in the per-user cache
//! folder.
//!
//! The key covers the bytes, the model and the kind of work (and, for images, the prompt), so
//! the same picture embedded in ten notes costs one call, while a new model or prompt is not
//! served stale text. Entries live outside every vault: a vault is the user's data and is
//! often synced, and a cache does not belong there.

use std::path::{Path, PathBuf};

/// How an entry is kept, by what it would cost to make again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Paid work (an image description, a transcript): synced to disk before it counts as
    /// stored, so a power cut never costs a call already paid for.
    Synced,
    /// Free to make again (a document's text): not synced, so storing it costs no disk flush
    /// (about 1 ms per entry on Linux, more where a sync is a full flush, as on macOS). The
    /// entry starts with its text's length and CRC-32, so one a crash left empty or torn reads
    /// as a miss and is made again, never served as the text.
    Checked,
}

/// First line of a [`Keep::Checked`] entry, before its length and checksum.
const CHECKED_HEADER: &str = "vaultsum-checked-entry";

/// `text` as a [`Keep::Checked`] entry: `vaultsum-checked-entry LEN CRC32\n` then the text.
fn checked_entry(text: &str) -> String {
    let header = format!(
        "{CHECKED_HEADER} {} {:08x}\n",
        text.len(),
        crc32fast::hash(text.as_bytes())
    );
    header + text
}

/// The text of a [`Keep::Checked`] entry, if its header is there and its text is whole.
fn checked_text(mut entry: String) -> Option<String> {
    let (header, text) = entry.split_once('\n')?;
    let mut fields = header.split(' ');
    let whole = fields.next() == Some(CHECKED_HEADER)
        && fields.next().and_then(|len| len.parse::<usize>().ok()) == Some(text.len())
        && fields
            .next()
            .and_then(|crc| u32::from_str_radix(crc, 16).ok())
            == Some(crc32fast::hash(text.as_bytes()))
        && fields.next().is_none();
    if !whole {
        return None;
    }
    let text_start = header.len() + 1;
    Some(entry.split_off(text_start))
}

/// A folder of cached texts, one file per key.
#[derive(Debug, Clone)]
pub struct MediaCache {
    root: PathBuf,
}

impl MediaCache {
    /// A cache in `root` (created on first write).
    pub fn new(root: impl Into<PathBuf>) -> MediaCache {
        MediaCache { root: root.into() }
    }

    /// `<XDG cache>/vaultsum/media`.
    pub fn default_root() -> PathBuf {
        crate::config::cache_dir().join("media")
    }

    /// The folder holding the entries.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The hex SHA-256 key of one piece of work: `kind` (`image`, `audio`), the model, any
    /// extra input that shapes the result (a prompt), and the file's bytes.
    pub fn key(kind: &str, model: &str, extra: &str, bytes: &[u8]) -> String {
        vaultsum_engine::media::work_key(kind, model, extra, bytes)
    }

    /// The cached text, if any. An unreadable entry counts as a miss, and so does a
    /// [`Keep::Checked`] entry whose length or checksum does not match its text.
    pub fn get(&self, key: &str, keep: Keep) -> Option<String> {
        match std::fs::read_to_string(self.path(key)) {
            Ok(text) => {
                match keep {
                    Keep::Synced => Some(text),
                    Keep::Checked => {
                        let whole = checked_text(text);
                        if whole.is_none() {
                            tracing::debug!(key, "media cache entry torn or from an older format; treating as a miss");
                        }
                        whole
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                tracing::debug!(key, error = %e, "media cache entry unreadable; treating as a miss");
                None
            }
        }
    }

    /// Stores `text` atomically (temp file, then rename), so a concurrent reader never sees
    /// half an entry; synced or checked as `keep` says.
    pub fn put(&self, key: &str, text: &str, keep: Keep) -> std::io::Result<()> {
        let path = self.path(key);
        match keep {
            Keep::Synced => crate::atomic_file::write_atomically(&path, text.as_bytes()),
            Keep::Checked => {
                crate::atomic_file::write_atomically_unsynced(&path, checked_entry(text).as_bytes())
            }
        }
    }

    /// Where a process making the call for `key` says so to the others (`flight/lock_file.rs`).
    pub fn lock_path(&self, key: &str) -> PathBuf {
        self.path(key).with_extension("lock")
    }

    /// Two-character fan-out keeps folders small for large vaults.
    fn path(&self, key: &str) -> PathBuf {
        let prefix = key.get(..2).unwrap_or("xx");
        self.root.join(prefix).join(format!("{key}.txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_depends_on_kind_model_extra_and_bytes() {
        let base = MediaCache::key("image", "m", "p", b"abc");
        assert_eq!(base, MediaCache::key("image", "m", "p", b"abc"));
        assert_ne!(base, MediaCache::key("audio", "m", "p", b"abc"));
        assert_ne!(base, MediaCache::key("image", "m2", "p", b"abc"));
        assert_ne!(base, MediaCache::key("image", "m", "p2", b"abc"));
        assert_ne!(base, MediaCache::key("image", "m", "p", b"abd"));
        // Field boundaries matter: ("ab","c") is not ("a","bc").
        assert_ne!(
            MediaCache::key("image", "ab", "c", b""),
            MediaCache::key("image", "a", "bc", b"")
        );
    }

    #[test]
    fn put_then_get_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let cache = MediaCache::new(dir.path().join("media"));
        let key = MediaCache::key("audio", "whisper", "", b"x");
        for keep in [Keep::Synced, Keep::Checked] {
            let key = format!("{key}{keep:?}");
            assert_eq!(cache.get(&key, keep), None);
            cache.put(&key, "hello\nworld", keep).unwrap();
            assert_eq!(cache.get(&key, keep).as_deref(), Some("hello\nworld"));
            cache.put(&key, "", keep).unwrap();
            assert_eq!(
                cache.get(&key, keep).as_deref(),
                Some(""),
                "{keep:?}: empty text"
            );
        }
    }

    #[test]
    fn a_checked_entry_left_torn_or_empty_by_a_crash_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let cache = MediaCache::new(dir.path().join("media"));
        let key = MediaCache::key("document", "vaultsum", "", b"x");
        let text = "**Page 1**\n\nThe whole text of the page, ünïcödé included.";
        cache.put(&key, text, Keep::Checked).unwrap();
        let stored = std::fs::read(cache.path(&key)).unwrap();
        assert!(stored.starts_with(CHECKED_HEADER.as_bytes()));
        let torn = [
            Vec::new(),                              // the rename survived, the data did not
            stored[..stored.len() - 5].to_vec(),     // cut short
            stored[..CHECKED_HEADER.len()].to_vec(), // header only
            {
                // a block of the text never written: zeros of the same length
                let mut zeroed = stored.clone();
                let end = zeroed.len();
                zeroed[end - 8..].fill(0);
                zeroed
            },
            {
                let mut flipped = stored.clone();
                let last = flipped.len() - 1;
                flipped[last] ^= 0x01;
                flipped
            },
            text.as_bytes().to_vec(), // an entry of an older format, without the header
        ];
        for (case, bytes) in torn.iter().enumerate() {
            std::fs::write(cache.path(&key), bytes).unwrap();
            assert_eq!(cache.get(&key, Keep::Checked), None, "case {case}");
        }
        std::fs::write(cache.path(&key), &stored).unwrap();
        assert_eq!(cache.get(&key, Keep::Checked).as_deref(), Some(text));
    }

    #[test]
    fn default_root_is_the_user_cache_folder() {
        assert!(MediaCache::default_root().starts_with(crate::config::cache_dir()));
    }
}
