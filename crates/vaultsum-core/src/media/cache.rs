//! Descriptions and transcripts cached by content hash, in the per-user cache folder.
//!
//! The key covers the bytes, the model and the kind of work (and, for images, the prompt), so
//! the same picture embedded in ten notes costs one call, while a new model or prompt is not
//! served stale text. Entries live outside every vault: a vault is the user's data and is
//! often synced, and a cache does not belong there.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

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
        let mut hasher = Sha256::new();
        for field in [kind, model, extra] {
            hasher.update((field.len() as u64).to_le_bytes());
            hasher.update(field.as_bytes());
        }
        hasher.update(bytes);
        hex::encode(hasher.finalize())
    }

    /// The cached text, if any. An unreadable entry counts as a miss.
    pub fn get(&self, key: &str) -> Option<String> {
        match std::fs::read_to_string(self.path(key)) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                tracing::debug!(key, error = %e, "media cache entry unreadable; treating as a miss");
                None
            }
        }
    }

    /// Stores `text` atomically (temp file, then rename), so a concurrent reader never sees
    /// half an entry.
    pub fn put(&self, key: &str, text: &str) -> std::io::Result<()> {
        crate::atomic_file::write_atomically(&self.path(key), text.as_bytes())
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
        assert_eq!(cache.get(&key), None);
        cache.put(&key, "hello").unwrap();
        assert_eq!(cache.get(&key).as_deref(), Some("hello"));
    }

    #[test]
    fn default_root_is_the_user_cache_folder() {
        assert!(MediaCache::default_root().starts_with(crate::config::cache_dir()));
    }
}
