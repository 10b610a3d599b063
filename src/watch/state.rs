//! What the watcher remembers between runs, one JSON file per vault, kept outside the vault.
//!
//! The file lives in `<state dir>/watch/<hash of the canonical vault root>.json` and is written
//! atomically (temporary file in the same folder, fsync, rename), so a crash or a kill never
//! leaves a half-written state behind.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::WatchError;
pub use crate::tools::vault_view::content_hash;
use crate::tools::vault_view::write_atomically;

/// Version of the state file format; a file of another version is refused with a clear error.
pub const STATE_VERSION: u32 = 1;

/// What the watcher knows about one note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteRecord {
    /// Content hash (see [`content_hash`]) of the note as last seen.
    pub hash: String,
    /// Size in bytes as last seen; with `mtime_ns`, lets a restart skip re-reading unchanged notes.
    pub size: u64,
    /// Modification time (nanoseconds since the Unix epoch) as last seen.
    pub mtime_ns: i128,
    /// Where the note stands.
    pub status: NoteStatus,
}

/// Where a note stands for the watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteStatus {
    /// Existed when the vault was first recorded (or is an old note renamed): never summarized.
    Old,
    /// Created while watching or since the last run, not summarized yet.
    New,
    /// Summarized by the watcher; later edits are the person's and are left alone.
    Summarized,
}

/// The whole state of one vault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchState {
    /// Format version ([`STATE_VERSION`]).
    pub version: u32,
    /// The canonical vault root, for people reading the file.
    pub vault: PathBuf,
    /// Every note seen, by vault-relative path with `/` separators.
    pub notes: BTreeMap<String, NoteRecord>,
    /// Hashes of note contents the watcher has summarized, so the same text (a copy of a note,
    /// a note deleted and re-created) is never summarized twice.
    pub summarized: BTreeSet<String>,
    /// Every note created (file birth time) before this instant, in nanoseconds since the Unix
    /// epoch, was in `notes` when the state was saved: a note found later with an older birth
    /// time is an old note renamed or moved while the watcher was stopped, not a new one.
    /// 0 when unknown.
    #[serde(default)]
    pub complete_as_of_ns: i128,
    /// New notes held back by the hourly limit (`watch.max_per_hour`), by path, with when each
    /// started waiting (nanoseconds since the Unix epoch, unique, so the order is kept). They
    /// are summarized first, oldest first, when the limit allows, in this run or the next.
    #[serde(default)]
    pub waiting: BTreeMap<String, i128>,
    /// When each summary of the last hour was started (nanoseconds since the Unix epoch), so
    /// the hourly limit holds across restarts.
    #[serde(default)]
    pub started_ns: Vec<i128>,
}

impl WatchState {
    /// An empty state for a vault seen for the first time.
    pub fn empty(vault: &Path) -> WatchState {
        WatchState {
            version: STATE_VERSION,
            vault: vault.to_path_buf(),
            notes: BTreeMap::new(),
            summarized: BTreeSet::new(),
            complete_as_of_ns: 0,
            waiting: BTreeMap::new(),
            started_ns: Vec::new(),
        }
    }
}

/// The state file of the vault at `canonical_root` inside `state_dir`.
pub fn state_file(state_dir: &Path, canonical_root: &Path) -> PathBuf {
    let digest = content_hash(canonical_root.to_string_lossy().as_bytes());
    state_files_folder(state_dir).join(format!("{}.json", &digest[..16]))
}

/// The folder inside `state_dir` that holds every vault's state file.
pub fn state_files_folder(state_dir: &Path) -> PathBuf {
    state_dir.join("watch")
}

/// Where the per-vault state lives: `VAULTSUM_STATE_DIR` when set (tests and unusual setups),
/// else the per-user state folder.
pub fn state_dir_from_env() -> PathBuf {
    match std::env::var_os("VAULTSUM_STATE_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => crate::config::state_dir(),
    }
}

/// Loads the state file; `Ok(None)` when there is none yet (the first run on this vault).
pub fn load(path: &Path) -> Result<Option<WatchState>, WatchError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(WatchError::StateRead {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let state: WatchState = serde_json::from_str(&text).map_err(|e| WatchError::StateCorrupt {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    if state.version != STATE_VERSION {
        return Err(WatchError::StateCorrupt {
            path: path.to_path_buf(),
            message: format!(
                "format version {} (this vaultsum reads version {STATE_VERSION})",
                state.version
            ),
        });
    }
    Ok(Some(state))
}

/// Writes the state atomically: a temporary file in the same folder, fsync, then rename.
pub fn save(path: &Path, state: &WatchState) -> Result<(), WatchError> {
    let write_error = |source: std::io::Error| WatchError::StateWrite {
        path: path.to_path_buf(),
        source,
    };
    let json = serde_json::to_vec(state).map_err(|e| write_error(std::io::Error::other(e)))?;
    write_atomically(path, &json).map_err(write_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WatchState {
        let mut state = WatchState::empty(Path::new("/vault"));
        state.notes.insert(
            "Meetings/Standup.md".into(),
            NoteRecord {
                hash: content_hash(b"hello"),
                size: 5,
                mtime_ns: 1_700_000_000_000_000_000,
                status: NoteStatus::New,
            },
        );
        state.summarized.insert(content_hash(b"old text"));
        state.complete_as_of_ns = 1_700_000_000_000_000_001;
        state
            .waiting
            .insert("Meetings/Standup.md".into(), 1_700_000_000_000_000_002);
        state.started_ns.push(1_700_000_000_000_000_003);
        state
    }

    #[test]
    fn state_round_trips_through_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = state_file(dir.path(), Path::new("/vault"));
        save(&path, &sample()).unwrap();
        assert_eq!(load(&path).unwrap(), Some(sample()));
    }

    #[test]
    fn state_files_written_before_the_hourly_limit_still_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(
            &path,
            r#"{"version":1,"vault":"/vault","notes":{},"summarized":[],"complete_as_of_ns":5}"#,
        )
        .unwrap();
        let state = load(&path).unwrap().unwrap();
        assert!(state.waiting.is_empty());
        assert!(state.started_ns.is_empty());
        assert_eq!(state.complete_as_of_ns, 5);
    }

    #[test]
    fn missing_state_file_means_first_run() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(&dir.path().join("none.json")).unwrap(), None);
    }

    #[test]
    fn corrupt_state_file_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, "{not json").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
    }

    #[test]
    fn each_vault_gets_its_own_state_file() {
        let dir = Path::new("/state");
        let a = state_file(dir, Path::new("/home/me/Notes"));
        let b = state_file(dir, Path::new("/home/me/Work"));
        assert_ne!(a, b);
        assert!(a.starts_with("/state/watch"));
        assert_eq!(a, state_file(dir, Path::new("/home/me/Notes")));
    }

    #[test]
    fn saving_replaces_the_previous_state_without_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let path = state_file(dir.path(), Path::new("/vault"));
        save(&path, &WatchState::empty(Path::new("/vault"))).unwrap();
        save(&path, &sample()).unwrap();
        assert_eq!(load(&path).unwrap(), Some(sample()));
        let files: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(files.len(), 1, "temporary files left behind: {files:?}");
    }
}
