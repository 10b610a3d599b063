//! Keeps a long-lived [`Vault`]'s index in step with the disk, so a server that runs for days
//! never resolves a link against the vault as it was at start.
//!
//! A file-system watcher (notify) reports paths; one worker thread brings the index in line
//! with what is on disk *now* at each reported path, rather than trusting the event's kind.
//! Events arrive late, out of order, merged or split differently on each platform (a rename is
//! one event, two, or a create and a remove); the state of the disk when the worker looks is
//! the only thing that is always right. Dot-folders (`.obsidian/`, `.git/`, `.trash/`) and
//! vaultsum's own `.vaultsum-*.tmp` files are ignored, as the index ignores them.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::error::VaultError;
use super::paths::relative_below;
use super::Vault;

/// A running follower. Dropping it stops watching; the worker applies what was already
/// reported, then ends.
pub struct IndexFollower {
    watcher: Option<RecommendedWatcher>,
    worker: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for IndexFollower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexFollower")
            .field("running", &self.watcher.is_some())
            .finish()
    }
}

impl Drop for IndexFollower {
    fn drop(&mut self) {
        // The watcher owns the channel's sender: dropping it closes the channel, which ends
        // the worker once it has drained what was queued.
        drop(self.watcher.take());
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// Starts following `vault`: created, renamed and deleted files and folders update its index.
///
/// The watch is in place when this returns. The worker then rebuilds the index once, so a file
/// created between [`Vault::open`] and the watch is not missed, and applies events from then on.
/// Fails when the platform watcher cannot be set up (on Linux, typically the inotify watch
/// limit `fs.inotify.max_user_watches`); the vault still works, with the index of its opening.
pub fn follow_index(vault: Arc<Vault>) -> Result<IndexFollower, VaultError> {
    let (sender, events) = channel();
    let root = vault.root().to_path_buf();
    let watch_error = |error: notify::Error| VaultError::Io {
        action: "watch",
        path: root.display().to_string(),
        source: std::io::Error::other(error.to_string()),
    };
    let mut watcher = notify::recommended_watcher(sender).map_err(watch_error)?;
    watcher
        .watch(&root, RecursiveMode::Recursive)
        .map_err(watch_error)?;
    let worker = std::thread::Builder::new()
        .name("vault-follow".into())
        .spawn(move || follow(&vault, &events))
        .map_err(|source| VaultError::Io {
            action: "start the index follower for",
            path: root.display().to_string(),
            source,
        })?;
    tracing::debug!(root = %root.display(), "following vault changes");
    Ok(IndexFollower {
        watcher: Some(watcher),
        worker: Some(worker),
    })
}

/// The worker: catch up once, then apply each batch of reported paths until the channel closes.
fn follow(vault: &Vault, events: &Receiver<notify::Result<Event>>) {
    vault.refresh_index();
    while let Ok(first) = events.recv() {
        let mut batch = Batch::default();
        batch.add(vault.root(), first);
        // Editors and sync tools touch many files at once: take everything already queued, so
        // a path reported ten times is looked at once.
        while let Ok(more) = events.try_recv() {
            batch.add(vault.root(), more);
        }
        if batch.rescan {
            tracing::debug!("watcher asked for a rescan; rebuilding the vault index");
            vault.refresh_index();
            continue;
        }
        for relative in &batch.paths {
            reconcile(vault, relative);
        }
    }
}

/// The distinct vault-relative paths of a burst of events, or a request to rescan everything.
#[derive(Default)]
struct Batch {
    paths: BTreeSet<String>,
    rescan: bool,
}

impl Batch {
    fn add(&mut self, root: &Path, event: notify::Result<Event>) {
        let event = match event {
            Ok(event) => event,
            Err(error) => {
                // A watcher error may mean lost events; only a full rebuild is safe then.
                tracing::warn!(%error, "vault watcher error; rebuilding the index");
                self.rescan = true;
                return;
            }
        };
        if event.need_rescan() {
            self.rescan = true;
            return;
        }
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in &event.paths {
            if let Some(relative) = followed_path(root, path) {
                self.paths.insert(relative);
            }
        }
    }
}

/// The vault-relative path of `path` if the index cares about it: inside the vault and not in
/// (or being) a dot-folder or dot-file, which covers `.obsidian/`, `.git/`, `.trash/` and
/// vaultsum's `.vaultsum-*.tmp` files.
fn followed_path(root: &Path, path: &Path) -> Option<String> {
    let relative = relative_below(root, path)?;
    if relative.is_empty() || relative.split('/').any(|part| part.starts_with('.')) {
        return None;
    }
    Some(relative)
}

/// Makes the index agree with the disk at `relative`: a file there is indexed, a folder has
/// its files indexed, and nothing there means neither it nor anything below it stays indexed.
fn reconcile(vault: &Vault, relative: &str) {
    let absolute = vault.root().join(relative);
    // Not followed: a symlink is indexed by its own name, as `NoteIndex::build` does.
    match std::fs::symlink_metadata(&absolute) {
        Ok(meta) if meta.is_dir() => {
            for file in files_below(vault.root(), &absolute) {
                vault.note_created(&file);
            }
        }
        Ok(_) => vault.note_created(relative),
        Err(_) => {
            let prefix = format!("{relative}/");
            let gone: Vec<String> = vault
                .index()
                .iter()
                .filter(|path| *path == relative || path.starts_with(&prefix))
                .map(str::to_string)
                .collect();
            for path in gone {
                vault.note_removed(&path);
            }
        }
    }
}

/// Every file below `folder` (vault-relative), skipping dot-folders and not following
/// symlinked folders, like the index's own walk.
fn files_below(root: &Path, folder: &Path) -> Vec<String> {
    walkdir::WalkDir::new(folder)
        .follow_links(false)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.')
        })
        .filter_map(Result::ok)
        .filter(|entry| !entry.file_type().is_dir())
        .filter_map(|entry| relative_below(root, entry.path()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Waits (up to a generous deadline) for the index to satisfy `done`.
    fn eventually(vault: &Vault, what: &str, done: impl Fn(&Vault) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(vault) {
            assert!(Instant::now() < deadline, "index never caught up: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn indexed(vault: &Vault, relative: &str) -> bool {
        vault.index().contains(relative)
    }

    fn setup() -> (tempfile::TempDir, Arc<Vault>, IndexFollower) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("A.md"), "![[B]]").unwrap();
        let vault = Arc::new(Vault::open(dir.path()).unwrap());
        let follower = follow_index(vault.clone()).unwrap();
        (dir, vault, follower)
    }

    #[test]
    fn created_renamed_and_deleted_notes_reach_the_index() {
        let (dir, vault, _follower) = setup();
        std::fs::write(dir.path().join("B.md"), "b").unwrap();
        eventually(&vault, "B.md created", |v| indexed(v, "B.md"));
        std::fs::rename(dir.path().join("B.md"), dir.path().join("C.md")).unwrap();
        eventually(&vault, "B.md renamed to C.md", |v| {
            !indexed(v, "B.md") && indexed(v, "C.md")
        });
        std::fs::remove_file(dir.path().join("C.md")).unwrap();
        eventually(&vault, "C.md deleted", |v| !indexed(v, "C.md"));
        assert!(indexed(&vault, "A.md"), "an untouched note stays indexed");
    }

    #[test]
    fn folders_moved_in_and_out_carry_their_files() {
        let (dir, vault, _follower) = setup();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("Moved/Deep")).unwrap();
        std::fs::write(outside.path().join("Moved/Deep/N.md"), "n").unwrap();
        std::fs::write(outside.path().join("Moved/M.md"), "m").unwrap();
        let inside = dir.path().join("Moved");
        // A rename from outside the watched tree arrives as a single event for the folder.
        if std::fs::rename(outside.path().join("Moved"), &inside).is_err() {
            // Different file systems: fall back to a copy, which the watcher sees piecemeal.
            std::fs::create_dir_all(inside.join("Deep")).unwrap();
            std::fs::write(inside.join("Deep/N.md"), "n").unwrap();
            std::fs::write(inside.join("M.md"), "m").unwrap();
        }
        eventually(&vault, "folder moved in", |v| {
            indexed(v, "Moved/M.md") && indexed(v, "Moved/Deep/N.md")
        });
        std::fs::rename(&inside, dir.path().join("Renamed")).unwrap();
        eventually(&vault, "folder renamed", |v| {
            indexed(v, "Renamed/Deep/N.md") && !indexed(v, "Moved/Deep/N.md")
        });
        std::fs::remove_dir_all(dir.path().join("Renamed")).unwrap();
        eventually(&vault, "folder deleted", |v| {
            !indexed(v, "Renamed/M.md") && !indexed(v, "Renamed/Deep/N.md")
        });
    }

    #[test]
    fn dot_folders_and_temp_files_are_never_indexed() {
        let (dir, vault, _follower) = setup();
        std::fs::create_dir_all(dir.path().join(".obsidian")).unwrap();
        std::fs::write(dir.path().join(".obsidian/workspace.md"), "x").unwrap();
        std::fs::write(dir.path().join(".vaultsum-A.md.tmp"), "x").unwrap();
        // A note written after them: once it is indexed, the earlier events were handled too.
        std::fs::write(dir.path().join("Later.md"), "x").unwrap();
        eventually(&vault, "Later.md created", |v| indexed(v, "Later.md"));
        let files: Vec<String> = vault.index().iter().map(str::to_string).collect();
        assert_eq!(files, ["A.md", "Later.md"]);
    }

    #[test]
    fn dropping_the_follower_stops_following() {
        let (dir, vault, follower) = setup();
        std::fs::write(dir.path().join("Seen.md"), "x").unwrap();
        eventually(&vault, "Seen.md created", |v| indexed(v, "Seen.md"));
        drop(follower);
        std::fs::write(dir.path().join("Unseen.md"), "x").unwrap();
        // The worker has ended (drop joins it), so nothing can index the new file any more.
        std::thread::sleep(Duration::from_millis(200));
        assert!(!indexed(&vault, "Unseen.md"));
    }
}
