//! The vault-change service: one follower of file events per vault, shared by every long-running
//! front end (the MCP server and the watcher).
//!
//! It keeps the vault's note index in step with the disk, so a server that runs for days never
//! resolves a link against the vault as it was at start, and tells its subscribers what changed
//! as vault-relative paths. Events arrive late, out of order, merged or split differently on
//! each platform (a rename is one event, two, or a create and a remove), so the service looks
//! at the disk *now* at each reported path rather than trusting the event's kind. A folder that
//! appears (created, or moved in with notes already inside) is walked, and each file in it is
//! reported: the OS only reports the folder. Hidden paths (see [`super::policy::is_hidden`]) are
//! neither indexed nor reported, except that a change to Obsidian's own settings files is
//! reported as [`VaultChange::SettingsChanged`].

mod source;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

pub use source::{limit_message, ChangeBackend};
use source::{EventSource, FsEvent};

use super::error::VaultError;
use super::obsidian_settings::{is_settings_file, SETTINGS_FILES};
use super::paths::relative_below;
use super::policy::is_hidden;
use super::walk::{scan_files, Listing};
use super::Vault;

/// What changed in the vault, as its subscribers see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VaultChange {
    /// Something happened at this vault-relative path (created, written, removed, one side of
    /// a rename, or a file inside a folder that appeared): look at it again.
    Touched(String),
    /// The OS reported both sides of a rename (file or folder). Both sides are also reported
    /// as [`VaultChange::Touched`] in the same batch.
    Renamed {
        /// The old vault-relative path.
        from: String,
        /// The new vault-relative path.
        to: String,
    },
    /// Events may have been lost (the OS queue overflowed, or the service switched to
    /// polling): the index was rebuilt; subscribers should walk the vault again.
    Rescan,
    /// One of Obsidian's settings files changed (templates folder, excluded files).
    SettingsChanged,
    /// The periodic check: the index was rebuilt from a walk because events may have been lost
    /// without a word (Windows' change notifications overflow silently on bulk changes, macOS
    /// coalesces them, network drives drop them); subscribers should walk the vault again.
    Reconcile,
}

enum Message {
    Events(Vec<FsEvent>),
    Stop,
}

/// A running vault-change service. Dropping it stops watching; the worker applies what was
/// already reported, then ends.
pub struct VaultChanges {
    subscribers: Arc<Mutex<Vec<UnboundedSender<Vec<VaultChange>>>>>,
    backend: Arc<Mutex<ChangeBackend>>,
    stop: Sender<Message>,
    worker: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for VaultChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VaultChanges")
            .field("backend", &self.backend())
            .finish()
    }
}

impl VaultChanges {
    /// Starts following `vault` with `backend` (falling back from the OS watcher to polling
    /// every `poll_interval` when its limits are exhausted).
    ///
    /// The watch is in place and the index (re)built once when this returns, so a file created
    /// before the watch is not missed; events are applied from then on. Both take time in
    /// proportion to the vault's size, so a server starts this beside serving, not before
    /// (`src/cli/mcp.rs`). Fails when no watcher can be set up at all; the vault still works,
    /// with an index built from the disk when first needed.
    ///
    /// Every `reconcile_every` the index is rebuilt from a walk and [`VaultChange::Reconcile`]
    /// sent, whatever the watcher reported, so a lost event costs at most that long.
    pub fn start(
        vault: Arc<Vault>,
        backend: ChangeBackend,
        poll_interval: Duration,
        reconcile_every: Duration,
    ) -> Result<VaultChanges, VaultError> {
        let (sender, messages) = channel();
        let deliver = deliver_to(sender.clone());
        let root = vault.root().to_path_buf();
        let source = source::start(&root, backend, poll_interval, deliver.clone())?;
        // Once the watch is in place, so a file created before it is in the index and one
        // created after it is in an event. Done before returning, so that events (which the
        // debouncer may coalesce: a note created and renamed at once is one creation) never
        // race with a rebuild that saw the intermediate name. (The same holds for the first
        // build of an index nobody has asked for yet: it is made here, not by whichever call
        // comes first while files may be changing.)
        vault.refresh_index();
        let backend = Arc::new(Mutex::new(source.backend()));
        let subscribers = Arc::new(Mutex::new(Vec::new()));
        let mut worker = Worker {
            vault,
            source,
            deliver,
            poll_interval,
            reconcile_every,
            backend: backend.clone(),
            subscribers: subscribers.clone(),
        };
        let handle = std::thread::Builder::new()
            .name("vault-changes".into())
            .spawn(move || worker.run(&messages))
            .map_err(|source| VaultError::Io {
                action: "start the change follower for",
                path: root.display().to_string(),
                source,
            })?;
        tracing::debug!(root = %root.display(), "following vault changes");
        Ok(VaultChanges {
            subscribers,
            backend,
            stop: sender,
            worker: Some(handle),
        })
    }

    /// A stream of change batches from now on. Each subscriber gets every batch.
    pub fn subscribe(&self) -> UnboundedReceiver<Vec<VaultChange>> {
        let (sender, receiver) = unbounded_channel();
        lock(&self.subscribers).push(sender);
        receiver
    }

    /// The watcher in use now (the OS's, or polling after a fallback).
    pub fn backend(&self) -> ChangeBackend {
        *lock(&self.backend)
    }
}

impl Drop for VaultChanges {
    fn drop(&mut self) {
        let _ = self.stop.send(Message::Stop);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The instant `wait` from now (a year at most: far enough to mean never).
fn after(wait: Duration) -> Instant {
    Instant::now() + wait.min(Duration::from_secs(365 * 24 * 3600))
}

fn deliver_to(sender: Sender<Message>) -> source::Deliver {
    let sender = Mutex::new(sender);
    Arc::new(move |batch| {
        // The receiver is gone only when the service is shutting down.
        let _ = lock(&sender).send(Message::Events(batch));
    })
}

struct Worker {
    vault: Arc<Vault>,
    source: EventSource,
    deliver: source::Deliver,
    poll_interval: Duration,
    reconcile_every: Duration,
    backend: Arc<Mutex<ChangeBackend>>,
    subscribers: Arc<Mutex<Vec<UnboundedSender<Vec<VaultChange>>>>>,
}

impl Worker {
    fn run(&mut self, messages: &Receiver<Message>) {
        let mut next_reconcile = after(self.reconcile_every);
        loop {
            let wait = next_reconcile.saturating_duration_since(Instant::now());
            let first = match messages.recv_timeout(wait) {
                Ok(Message::Events(first)) => first,
                Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    next_reconcile = after(self.reconcile_every);
                    tracing::debug!("reconciling the vault index with a walk");
                    self.vault.refresh_index();
                    self.send(vec![VaultChange::Reconcile]);
                    continue;
                }
            };
            let mut events = first;
            // Editors and sync tools touch many files at once: take everything already queued,
            // so a path reported ten times is looked at once.
            let mut stop = false;
            while let Ok(more) = messages.try_recv() {
                match more {
                    Message::Events(more) => events.extend(more),
                    Message::Stop => stop = true,
                }
            }
            let batch = self.apply(events);
            self.send(batch);
            if stop {
                break;
            }
        }
    }

    fn send(&self, batch: Vec<VaultChange>) {
        if !batch.is_empty() {
            lock(&self.subscribers).retain(|s| s.send(batch.clone()).is_ok());
        }
    }

    /// Brings the index in line with the disk at every reported path and says what changed.
    fn apply(&mut self, events: Vec<FsEvent>) -> Vec<VaultChange> {
        let root = self.vault.root().to_path_buf();
        let mut renames = Vec::new();
        let mut touched = BTreeSet::new();
        let mut rescan = false;
        let mut settings = false;
        let visible = |path: &Path, settings: &mut bool| -> Option<String> {
            let relative = relative_below(&root, path)?;
            // A settings file, or a folder that holds one (created or moved in whole: the OS
            // reports only the folder).
            let holds_settings = is_settings_file(&relative)
                || SETTINGS_FILES
                    .iter()
                    .any(|file| file.starts_with(&format!("{relative}/")));
            if holds_settings {
                *settings = true;
            }
            (!relative.is_empty() && !is_hidden(&relative)).then_some(relative)
        };
        for event in events {
            match event {
                FsEvent::Touched(path) => {
                    if let Some(relative) = visible(&path, &mut settings) {
                        touched.insert(relative);
                    }
                }
                FsEvent::Renamed { from, to } => {
                    let from = visible(&from, &mut settings);
                    let to = visible(&to, &mut settings);
                    if let (Some(from), Some(to)) = (&from, &to) {
                        renames.push(VaultChange::Renamed {
                            from: from.clone(),
                            to: to.clone(),
                        });
                    }
                    touched.extend(from);
                    touched.extend(to);
                }
                FsEvent::Rescan => rescan = true,
                FsEvent::LimitReached => {
                    self.switch_to_polling();
                    rescan = true;
                }
            }
        }
        let mut batch = renames;
        if rescan {
            tracing::warn!("file events were lost; rebuilding the vault index");
            self.vault.refresh_index();
            batch.push(VaultChange::Rescan);
        }
        if settings {
            batch.push(VaultChange::SettingsChanged);
        }
        let mut reported = BTreeSet::new();
        for relative in touched {
            self.reconcile(&relative, &mut reported);
        }
        batch.extend(reported.into_iter().map(VaultChange::Touched));
        batch
    }

    /// Makes the index agree with the disk at `relative`: a file there is indexed, a folder has
    /// its files indexed (and each reported), and nothing there means neither it nor anything
    /// below it stays indexed.
    fn reconcile(&self, relative: &str, reported: &mut BTreeSet<String>) {
        let absolute = self.vault.root().join(relative);
        // Not followed: a symlink is indexed by its own name, as the index's own walk does.
        match std::fs::symlink_metadata(&absolute) {
            Ok(meta) if meta.is_dir() => {
                let scan = scan_files(self.vault.root(), &absolute, Listing::Names, |_| true);
                for file in scan.files {
                    self.vault.note_created(&file.relative);
                    reported.insert(file.relative);
                }
            }
            Ok(_) => {
                self.vault.note_created(relative);
                reported.insert(relative.to_string());
            }
            Err(_) => {
                let prefix = format!("{relative}/");
                let gone: Vec<String> = self
                    .vault
                    .index()
                    .iter()
                    .filter(|path| *path == relative || path.starts_with(&prefix))
                    .map(str::to_string)
                    .collect();
                for path in gone {
                    self.vault.note_removed(&path);
                }
                reported.insert(relative.to_string());
            }
        }
    }

    /// The OS watch limit was reached while watching (a new folder could not be watched):
    /// poll instead, so nothing goes unseen.
    fn switch_to_polling(&mut self) {
        if matches!(self.source.backend(), ChangeBackend::Polling(_)) {
            return;
        }
        let backend = ChangeBackend::Polling(self.poll_interval);
        match source::start(
            self.vault.root(),
            backend,
            self.poll_interval,
            self.deliver.clone(),
        ) {
            Ok(source) => {
                tracing::warn!(
                    "the OS watch limit was reached; switching to polling every {:?}",
                    self.poll_interval
                );
                *lock(&self.backend) = source.backend();
                self.source = source;
            }
            Err(error) => tracing::warn!("cannot switch to polling: {error}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

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

    fn setup() -> (tempfile::TempDir, Arc<Vault>, VaultChanges) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("A.md"), "![[B]]").unwrap();
        let vault = Arc::new(Vault::open(dir.path()).unwrap());
        let changes = VaultChanges::start(
            vault.clone(),
            ChangeBackend::Native,
            Duration::from_millis(100),
            Duration::from_secs(3600),
        )
        .unwrap();
        (dir, vault, changes)
    }

    /// Receives batches until one of them contains `wanted` (up to a generous deadline).
    fn receive_until(
        changes: &mut UnboundedReceiver<Vec<VaultChange>>,
        wanted: &VaultChange,
    ) -> Vec<VaultChange> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut seen = Vec::new();
        while !seen.contains(wanted) {
            assert!(
                Instant::now() < deadline,
                "never reported {wanted:?}; saw {seen:?}"
            );
            match changes.try_recv() {
                Ok(batch) => seen.extend(batch),
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        seen
    }

    #[test]
    fn subscribers_hear_of_each_file_in_a_folder_moved_in() {
        let (dir, _vault, changes) = setup();
        let mut events = changes.subscribe();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(outside.path().join("Import/Deep")).unwrap();
        std::fs::write(outside.path().join("Import/Deep/N.md"), "n").unwrap();
        if std::fs::rename(outside.path().join("Import"), dir.path().join("Import")).is_err() {
            std::fs::create_dir_all(dir.path().join("Import/Deep")).unwrap();
            std::fs::write(dir.path().join("Import/Deep/N.md"), "n").unwrap();
        }
        let seen = receive_until(
            &mut events,
            &VaultChange::Touched("Import/Deep/N.md".into()),
        );
        assert!(
            !seen
                .iter()
                .any(|c| matches!(c, VaultChange::Touched(p) if p == "Import")),
            "the folder itself is not reported as a file: {seen:?}"
        );
    }

    #[test]
    fn hidden_files_are_not_reported_but_obsidian_settings_are() {
        let (dir, _vault, changes) = setup();
        let mut events = changes.subscribe();
        std::fs::create_dir_all(dir.path().join(".obsidian")).unwrap();
        std::fs::write(dir.path().join(".obsidian/app.json"), "{}").unwrap();
        std::fs::write(dir.path().join(".vaultsum-x.tmp"), "x").unwrap();
        std::fs::write(dir.path().join("Later.md"), "x").unwrap();
        let mut seen = receive_until(&mut events, &VaultChange::Touched("Later.md".into()));
        if !seen.contains(&VaultChange::SettingsChanged) {
            seen = receive_until(&mut events, &VaultChange::SettingsChanged);
        }
        assert!(
            !seen
                .iter()
                .any(|c| matches!(c, VaultChange::Touched(p) if p.starts_with('.'))),
            "{seen:?}"
        );
    }

    #[test]
    fn created_renamed_and_deleted_notes_reach_the_index() {
        let (dir, vault, _changes) = setup();
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
        let (dir, vault, _changes) = setup();
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
        let (dir, vault, _changes) = setup();
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
    fn dropping_the_service_stops_following() {
        let (dir, vault, changes) = setup();
        std::fs::write(dir.path().join("Seen.md"), "x").unwrap();
        eventually(&vault, "Seen.md created", |v| indexed(v, "Seen.md"));
        drop(changes);
        std::fs::write(dir.path().join("Unseen.md"), "x").unwrap();
        // The worker has ended (drop joins it), so nothing can index the new file any more.
        std::thread::sleep(Duration::from_millis(200));
        assert!(!indexed(&vault, "Unseen.md"));
    }
}
