//! Where file events come from: notify's debouncer over the OS watcher (inotify, FSEvents,
//! ReadDirectoryChangesW), or over notify's polling watcher when the OS watcher cannot be used
//! (watch limits exhausted, network drives, or `--poll`). Each debounced batch is handed to a
//! callback as [`FsEvent`]s with absolute paths.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{EventKind, PollWatcher, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer_opt, DebounceEventResult, NoCache, RecommendedCache};

use crate::vault::VaultError;

/// How long the debouncer waits for a burst of events on one path to end before reporting it.
/// Short on purpose: the settle time does the real waiting.
pub const DEBOUNCE: Duration = Duration::from_millis(400);
/// How often the debouncer thread wakes up to flush events: the idle cost of watching.
const TICK: Duration = Duration::from_millis(200);

/// What happened on disk, reduced to what the watcher acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsEvent {
    /// Something happened at this path (created, written, removed, one side of a rename):
    /// look at it again.
    Touched(PathBuf),
    /// The OS reported both sides of a rename (file or folder).
    Renamed {
        /// The old path.
        from: PathBuf,
        /// The new path.
        to: PathBuf,
    },
    /// Events were lost (the OS queue overflowed): walk the whole vault again.
    Rescan,
    /// The OS watch limit was reached while watching (a new folder could not be watched):
    /// switch to polling and walk the vault again.
    LimitReached,
}

/// Which watcher delivers the events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeBackend {
    /// The OS notification API (inotify, FSEvents, ReadDirectoryChangesW).
    Native,
    /// notify's polling watcher, scanning the vault at this interval.
    Polling(Duration),
}

/// Receives each batch of events; called on the debouncer's thread.
pub type Deliver = std::sync::Arc<dyn Fn(Vec<FsEvent>) + Send + Sync>;

/// The debouncer, kept only so that dropping the source stops it.
type Guard = Box<dyn Send>;

/// A running watcher; events stop when it is dropped.
pub struct EventSource {
    _guard: Guard,
    backend: ChangeBackend,
}

impl EventSource {
    /// The watcher actually in use.
    pub fn backend(&self) -> ChangeBackend {
        self.backend
    }
}

/// Watches `root` recursively, handing each batch of events to `deliver`. With [`ChangeBackend::Native`], falls
/// back to polling at `poll_interval` (with a warning that says how to raise the limit) when
/// the OS watcher cannot be set up.
pub fn start(
    root: &Path,
    backend: ChangeBackend,
    poll_interval: Duration,
    deliver: Deliver,
) -> Result<EventSource, VaultError> {
    if backend == ChangeBackend::Native {
        match start_native(root, deliver.clone()) {
            Ok(guard) => {
                return Ok(EventSource {
                    _guard: guard,
                    backend,
                })
            }
            Err(error) => match limit_message(&error) {
                Some(message) => tracing::warn!(
                    "{message}; falling back to polling the vault every {:?}",
                    poll_interval
                ),
                None => return Err(watch_error(root, error)),
            },
        }
    }
    let interval = match backend {
        ChangeBackend::Polling(interval) => interval,
        ChangeBackend::Native => poll_interval,
    };
    let guard = start_polling(root, interval, deliver)?;
    Ok(EventSource {
        _guard: guard,
        backend: ChangeBackend::Polling(interval),
    })
}

fn start_native(root: &Path, deliver: Deliver) -> Result<Guard, notify::Error> {
    let mut debouncer = new_debouncer_opt::<_, RecommendedWatcher, RecommendedCache>(
        DEBOUNCE,
        Some(TICK),
        handler(deliver),
        RecommendedCache::new(),
        notify::Config::default(),
    )?;
    debouncer.watch(root, RecursiveMode::Recursive)?;
    Ok(Box::new(debouncer))
}

fn start_polling(root: &Path, interval: Duration, deliver: Deliver) -> Result<Guard, VaultError> {
    let config = notify::Config::default().with_poll_interval(interval);
    let mut debouncer = new_debouncer_opt::<_, PollWatcher, NoCache>(
        DEBOUNCE,
        Some(TICK),
        handler(deliver),
        NoCache,
        config,
    )
    .map_err(|e| watch_error(root, e))?;
    debouncer
        .watch(root, RecursiveMode::Recursive)
        .map_err(|e| watch_error(root, e))?;
    Ok(Box::new(debouncer))
}

fn watch_error(root: &Path, error: notify::Error) -> VaultError {
    VaultError::Io {
        action: "watch",
        path: root.display().to_string(),
        source: std::io::Error::other(error.to_string()),
    }
}

/// A clear message when `error` is an exhausted OS watch limit, `None` for other errors.
pub fn limit_message(error: &notify::Error) -> Option<String> {
    match &error.kind {
        notify::ErrorKind::MaxFilesWatch => Some(
            "the inotify watch limit is exhausted (fs.inotify.max_user_watches); raise it with \
             `sudo sysctl fs.inotify.max_user_watches=524288`"
                .to_string(),
        ),
        notify::ErrorKind::Io(io) if io.raw_os_error() == Some(24) => Some(
            "too many inotify instances or open files (fs.inotify.max_user_instances, EMFILE); \
             raise it with `sudo sysctl fs.inotify.max_user_instances=512`"
                .to_string(),
        ),
        _ => None,
    }
}

fn handler(deliver: Deliver) -> impl FnMut(DebounceEventResult) + Send + 'static {
    move |result: DebounceEventResult| {
        let batch = match result {
            Ok(events) => events
                .iter()
                .flat_map(|event| translate(event))
                .collect::<Vec<_>>(),
            Err(errors) => errors
                .iter()
                .filter_map(|error| match limit_message(error) {
                    Some(_) => Some(FsEvent::LimitReached),
                    None => {
                        tracing::warn!("file watcher error: {error}");
                        None
                    }
                })
                .collect(),
        };
        if !batch.is_empty() {
            deliver(batch);
        }
    }
}

/// The watcher's view of one notify event.
pub fn translate(event: &notify::Event) -> Vec<FsEvent> {
    if event.need_rescan() {
        return vec![FsEvent::Rescan];
    }
    match event.kind {
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) if event.paths.len() == 2 => {
            vec![FsEvent::Renamed {
                from: event.paths[0].clone(),
                to: event.paths[1].clone(),
            }]
        }
        // Reads (Obsidian indexing, our own reads) are not changes; a write closing is.
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => touched(event),
        EventKind::Access(_) => Vec::new(),
        _ => touched(event),
    }
}

fn touched(event: &notify::Event) -> Vec<FsEvent> {
    event.paths.iter().cloned().map(FsEvent::Touched).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, Flag};

    #[test]
    fn rename_with_both_sides_is_one_rename() {
        let event = notify::Event::new(EventKind::Modify(ModifyKind::Name(RenameMode::Both)))
            .add_path("/v/Untitled.md".into())
            .add_path("/v/Standup.md".into());
        assert_eq!(
            translate(&event),
            vec![FsEvent::Renamed {
                from: "/v/Untitled.md".into(),
                to: "/v/Standup.md".into()
            }]
        );
    }

    #[test]
    fn reads_are_ignored_but_creations_and_closed_writes_count() {
        let read =
            notify::Event::new(EventKind::Access(AccessKind::Read)).add_path("/v/a.md".into());
        assert!(translate(&read).is_empty());
        let create =
            notify::Event::new(EventKind::Create(CreateKind::File)).add_path("/v/a.md".into());
        assert_eq!(translate(&create), vec![FsEvent::Touched("/v/a.md".into())]);
        let closed = notify::Event::new(EventKind::Access(AccessKind::Close(AccessMode::Write)))
            .add_path("/v/a.md".into());
        assert_eq!(translate(&closed), vec![FsEvent::Touched("/v/a.md".into())]);
    }

    #[test]
    fn queue_overflow_asks_for_a_rescan() {
        let event = notify::Event::new(EventKind::Other).set_flag(Flag::Rescan);
        assert_eq!(translate(&event), vec![FsEvent::Rescan]);
    }

    #[test]
    fn exhausted_watch_limit_has_a_clear_message() {
        let error = notify::Error::new(notify::ErrorKind::MaxFilesWatch);
        let message = limit_message(&error).unwrap();
        assert!(message.contains("max_user_watches"), "{message}");
        assert!(limit_message(&notify::Error::generic("other")).is_none());
    }
}
