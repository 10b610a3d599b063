//! Which notes are new: the saved state, updated as files are created, edited, renamed and
//! deleted.
//!
//! A note is *new* when its path was not known and its content is not that of a note that just
//! disappeared (a rename: Obsidian creates `Untitled.md` and renames it as the title is typed,
//! sync tools delete and re-create). Renames reported by the OS move the record directly; renames
//! seen as a delete plus a create (polling, changes made while the watcher was stopped) are
//! matched by content hash. Empty files are never matched by hash: every new empty note looks
//! the same, so an empty note that appears is new.
//!
//! A vanished note is kept aside for rename matching only for [`RENAME_WINDOW`]: a rename seen
//! as a delete plus a create arrives as one batch of events, one poll, or one walk, well within
//! it. After that its absence is confirmed and the record is dropped
//! ([`Tracker::prune_vanished`], run at every save), so deleted notes are not kept forever.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::state::{NoteRecord, NoteStatus, WatchState};
use crate::tools::vault_view::ContentStamp;

/// A note's content hash, size and modification time, as read from disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// [`super::state::content_hash`] of the bytes.
    pub hash: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch.
    pub mtime_ns: i128,
}

impl From<ContentStamp> for FileStamp {
    fn from(stamp: ContentStamp) -> FileStamp {
        FileStamp {
            hash: stamp.hash,
            size: stamp.size,
            mtime_ns: stamp.modified_ns,
        }
    }
}

/// What an observation of a note's current content means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Same content as last seen (the watcher's own write, a touch, a re-save).
    Unchanged,
    /// A path not seen before with content not seen before.
    Created,
    /// A known note whose content changed.
    Edited,
    /// A path not seen before whose content is that of a note that disappeared.
    RenamedFrom(String),
}

/// The result of [`Tracker::observe`]: what happened and where the note now stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    /// What changed.
    pub change: Change,
    /// The note's status after the observation.
    pub status: NoteStatus,
}

/// How long a vanished note's record is kept for matching a re-appearance as a rename.
pub const RENAME_WINDOW: Duration = Duration::from_secs(60);

/// A note that disappeared, kept aside for rename matching.
#[derive(Debug)]
struct Vanished {
    path: String,
    record: NoteRecord,
    since: Instant,
}

/// The state plus what is needed to follow renames.
#[derive(Debug)]
pub struct Tracker {
    state: WatchState,
    /// Notes that disappeared recently, by content hash, so a re-appearance is taken for a
    /// rename; pruned by [`Tracker::prune_vanished`].
    vanished: HashMap<String, Vec<Vanished>>,
    dirty: bool,
}

impl Tracker {
    /// Starts from a loaded (or empty) state. Waiting entries of notes the state no longer
    /// holds as new are dropped.
    pub fn new(mut state: WatchState) -> Tracker {
        let notes = &state.notes;
        state
            .waiting
            .retain(|rel, _| notes.get(rel).is_some_and(|r| r.status == NoteStatus::New));
        Tracker {
            state,
            vanished: HashMap::new(),
            dirty: false,
        }
    }

    /// The state to save.
    pub fn state(&self) -> &WatchState {
        &self.state
    }

    /// True once since the last call if anything changed that should be saved.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// The record of a note, if known.
    pub fn record(&self, rel: &str) -> Option<&NoteRecord> {
        self.state.notes.get(rel)
    }

    /// Paths of every known note.
    pub fn paths(&self) -> Vec<String> {
        self.state.notes.keys().cloned().collect()
    }

    /// True when `hash` is content the watcher already summarized.
    pub fn was_summarized(&self, hash: &str) -> bool {
        self.state.summarized.contains(hash)
    }

    /// True when size and modification time match the record, so the content need not be read
    /// again (restart catch-up over a large vault).
    pub fn looks_unchanged(&self, rel: &str, size: u64, mtime_ns: i128) -> bool {
        self.state
            .notes
            .get(rel)
            .is_some_and(|r| r.size == size && r.mtime_ns == mtime_ns)
    }

    /// Records a note that existed when the vault was first seen: it is old, never summarized.
    pub fn record_old(&mut self, rel: &str, stamp: FileStamp) {
        self.insert(rel, stamp, NoteStatus::Old);
    }

    /// When the state was last known complete (see [`WatchState::complete_as_of_ns`]).
    pub fn complete_as_of_ns(&self) -> i128 {
        self.state.complete_as_of_ns
    }

    /// Marks the state complete for every note born before `ns`.
    pub fn set_complete_as_of_ns(&mut self, ns: i128) {
        self.state.complete_as_of_ns = ns;
        self.dirty = true;
    }

    /// Records the note's current content and says what that means.
    pub fn observe(&mut self, rel: &str, stamp: FileStamp) -> Observation {
        self.observe_as(rel, stamp, NoteStatus::New)
    }

    /// Like [`Tracker::observe`], for a note known to have existed before the state was last
    /// complete (born earlier): a path not seen before is an old note moved or renamed while
    /// the watcher was stopped, even when its content changed too.
    pub fn observe_existing(&mut self, rel: &str, stamp: FileStamp) -> Observation {
        self.observe_as(rel, stamp, NoteStatus::Old)
    }

    fn observe_as(&mut self, rel: &str, stamp: FileStamp, unknown: NoteStatus) -> Observation {
        if let Some(record) = self.state.notes.get_mut(rel) {
            let status = record.status;
            if record.hash == stamp.hash {
                if record.size != stamp.size || record.mtime_ns != stamp.mtime_ns {
                    record.size = stamp.size;
                    record.mtime_ns = stamp.mtime_ns;
                    self.dirty = true;
                }
                return Observation {
                    change: Change::Unchanged,
                    status,
                };
            }
            self.insert(rel, stamp, status);
            return Observation {
                change: Change::Edited,
                status,
            };
        }
        if stamp.size > 0 {
            if let Some((from, record)) = self.take_vanished(&stamp.hash) {
                self.insert(rel, stamp, record.status);
                return Observation {
                    change: Change::RenamedFrom(from),
                    status: record.status,
                };
            }
        }
        self.insert(rel, stamp, unknown);
        Observation {
            change: Change::Created,
            status: unknown,
        }
    }

    /// The note at `rel` (or every note under the folder `rel`) is gone. Its record is kept
    /// aside for rename matching; returns the paths forgotten.
    pub fn forget(&mut self, rel: &str) -> Vec<String> {
        let gone: Vec<String> = self
            .state
            .notes
            .keys()
            .filter(|path| is_at_or_under(path, rel))
            .cloned()
            .collect();
        let since = Instant::now();
        for path in &gone {
            self.state.waiting.remove(path);
            if let Some(record) = self.state.notes.remove(path) {
                self.vanished
                    .entry(record.hash.clone())
                    .or_default()
                    .push(Vanished {
                        path: path.clone(),
                        record,
                        since,
                    });
            }
        }
        if !gone.is_empty() {
            self.dirty = true;
        }
        gone
    }

    /// The OS reported a rename of a note or folder: records move with their status. Returns
    /// the `(from, to)` pairs of notes moved.
    pub fn rename(&mut self, from: &str, to: &str) -> Vec<(String, String)> {
        let moving: Vec<String> = self
            .state
            .notes
            .keys()
            .filter(|path| is_at_or_under(path, from))
            .cloned()
            .collect();
        let mut moved = Vec::new();
        for old in moving {
            let new = format!("{to}{}", &old[from.len()..]);
            if let Some(since) = self.state.waiting.remove(&old) {
                self.state.waiting.insert(new.clone(), since);
            }
            if let Some(record) = self.state.notes.remove(&old) {
                self.state.notes.insert(new.clone(), record);
                moved.push((old, new));
            }
        }
        if !moved.is_empty() {
            self.dirty = true;
        }
        moved
    }

    /// The watcher summarized the note: `summarized_hash` is the content it summarized, `stamp`
    /// the note as it is now (with the summary).
    pub fn mark_summarized(&mut self, rel: &str, summarized_hash: &str, stamp: FileStamp) {
        self.state.waiting.remove(rel);
        self.state.summarized.insert(summarized_hash.to_string());
        self.insert(rel, stamp, NoteStatus::Summarized);
    }

    /// The note is due but held back by the hourly limit: it waits, keeping its place when it
    /// already waited. `now_ns` is nudged past every other entry so notes held back in the
    /// same instant keep the order they were held back in.
    pub fn wait(&mut self, rel: &str, now_ns: i128) {
        if self.state.waiting.contains_key(rel) {
            return;
        }
        let last = self.state.waiting.values().max().copied();
        let since = last.map_or(now_ns, |last| now_ns.max(last + 1));
        self.state.waiting.insert(rel.to_string(), since);
        self.dirty = true;
    }

    /// The note no longer waits (it is being summarized, or no longer a candidate).
    pub fn unwait(&mut self, rel: &str) {
        if self.state.waiting.remove(rel).is_some() {
            self.dirty = true;
        }
    }

    /// The waiting notes, the one that has waited longest first.
    pub fn waiting_oldest_first(&self) -> Vec<String> {
        let mut waiting: Vec<(&i128, &String)> = self
            .state
            .waiting
            .iter()
            .map(|(rel, since)| (since, rel))
            .collect();
        waiting.sort();
        waiting.into_iter().map(|(_, rel)| rel.clone()).collect()
    }

    /// How many notes wait for the hourly limit.
    pub fn waiting_count(&self) -> usize {
        self.state.waiting.len()
    }

    /// Keeps the start times of the summaries counted by the hourly limit.
    pub fn set_started(&mut self, started_ns: Vec<i128>) {
        if self.state.started_ns != started_ns {
            self.state.started_ns = started_ns;
            self.dirty = true;
        }
    }

    fn insert(&mut self, rel: &str, stamp: FileStamp, status: NoteStatus) {
        self.state.notes.insert(
            rel.to_string(),
            NoteRecord {
                hash: stamp.hash,
                size: stamp.size,
                mtime_ns: stamp.mtime_ns,
                status,
            },
        );
        self.dirty = true;
    }

    fn take_vanished(&mut self, hash: &str) -> Option<(String, NoteRecord)> {
        let list = self.vanished.get_mut(hash)?;
        let found = list.pop();
        if list.is_empty() {
            self.vanished.remove(hash);
        }
        found.map(|v| (v.path, v.record))
    }

    /// Drops the records of notes that vanished more than `window` before `now`: their absence
    /// is confirmed, and a later note with the same content is new, not a rename. Returns how
    /// many were dropped.
    pub fn prune_vanished(&mut self, now: Instant, window: Duration) -> usize {
        let mut dropped = 0;
        self.vanished.retain(|_, list| {
            let before = list.len();
            list.retain(|v| now.saturating_duration_since(v.since) <= window);
            dropped += before - list.len();
            !list.is_empty()
        });
        dropped
    }

    /// How many vanished notes are kept for rename matching.
    #[cfg(test)]
    pub fn vanished_count(&self) -> usize {
        self.vanished.values().map(Vec::len).sum()
    }
}

fn is_at_or_under(path: &str, rel: &str) -> bool {
    path == rel || (path.starts_with(rel) && path[rel.len()..].starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::super::state::content_hash;
    use super::*;
    use std::path::Path;

    fn stamp(text: &str) -> FileStamp {
        FileStamp {
            hash: content_hash(text.as_bytes()),
            size: text.len() as u64,
            mtime_ns: 1,
        }
    }

    fn tracker() -> Tracker {
        let mut tracker = Tracker::new(WatchState::empty(Path::new("/v")));
        tracker.record_old("Old.md", stamp("old note"));
        tracker
    }

    #[test]
    fn unknown_path_with_unknown_content_is_new() {
        let mut t = tracker();
        let seen = t.observe("Fresh.md", stamp("fresh"));
        assert_eq!(seen.change, Change::Created);
        assert_eq!(seen.status, NoteStatus::New);
    }

    #[test]
    fn editing_an_old_note_does_not_make_it_new() {
        let mut t = tracker();
        let seen = t.observe("Old.md", stamp("old note, edited"));
        assert_eq!(seen.change, Change::Edited);
        assert_eq!(seen.status, NoteStatus::Old);
    }

    #[test]
    fn same_content_again_is_unchanged() {
        let mut t = tracker();
        t.take_dirty();
        let seen = t.observe("Old.md", stamp("old note"));
        assert_eq!(seen.change, Change::Unchanged);
        assert!(!t.take_dirty());
    }

    #[test]
    fn old_note_deleted_and_recreated_elsewhere_is_a_rename_not_new() {
        let mut t = tracker();
        t.forget("Old.md");
        let seen = t.observe("Folder/Renamed.md", stamp("old note"));
        assert_eq!(seen.change, Change::RenamedFrom("Old.md".into()));
        assert_eq!(seen.status, NoteStatus::Old);
        assert!(t.record("Old.md").is_none());
    }

    #[test]
    fn empty_notes_are_never_matched_as_renames() {
        let mut t = tracker();
        t.record_old("Empty.md", stamp(""));
        t.forget("Empty.md");
        let seen = t.observe("Untitled.md", stamp(""));
        assert_eq!(seen.change, Change::Created);
        assert_eq!(seen.status, NoteStatus::New);
    }

    #[test]
    fn note_born_before_the_state_was_complete_is_not_new_even_if_edited() {
        let mut t = tracker();
        t.forget("Old.md");
        let seen = t.observe_existing("Moved and edited.md", stamp("old note, edited"));
        assert_eq!(seen.status, NoteStatus::Old);
        // A genuine rename is still followed with its status.
        t.observe("Fresh.md", stamp("fresh text"));
        t.forget("Fresh.md");
        let seen = t.observe_existing("Fresh renamed.md", stamp("fresh text"));
        assert_eq!(seen.change, Change::RenamedFrom("Fresh.md".into()));
        assert_eq!(seen.status, NoteStatus::New);
    }

    #[test]
    fn reported_rename_keeps_status_even_for_empty_notes() {
        let mut t = tracker();
        t.observe("Untitled.md", stamp(""));
        let moved = t.rename("Untitled.md", "Standup.md");
        assert_eq!(moved, vec![("Untitled.md".into(), "Standup.md".into())]);
        assert_eq!(t.record("Standup.md").unwrap().status, NoteStatus::New);
    }

    #[test]
    fn folder_rename_moves_every_note_under_it_and_nothing_else() {
        let mut t = tracker();
        t.record_old("A/One.md", stamp("1"));
        t.record_old("A/B/Two.md", stamp("2"));
        t.record_old("AB/Three.md", stamp("3"));
        let mut moved = t.rename("A", "Z");
        moved.sort();
        assert_eq!(
            moved,
            vec![
                ("A/B/Two.md".into(), "Z/B/Two.md".into()),
                ("A/One.md".into(), "Z/One.md".into())
            ]
        );
        assert!(t.record("AB/Three.md").is_some());
    }

    #[test]
    fn deleted_note_is_dropped_once_its_absence_is_confirmed() {
        let mut t = tracker();
        t.forget("Old.md");
        assert!(t.record("Old.md").is_none());
        assert_eq!(t.vanished_count(), 1);
        // The next save within the window keeps it for rename matching…
        assert_eq!(t.prune_vanished(Instant::now(), RENAME_WINDOW), 0);
        assert_eq!(t.vanished_count(), 1);
        // …the first save after the window drops it for good.
        let later = Instant::now() + RENAME_WINDOW + Duration::from_secs(1);
        assert_eq!(t.prune_vanished(later, RENAME_WINDOW), 1);
        assert_eq!(t.vanished_count(), 0);
        assert!(!t.state().notes.contains_key("Old.md"));
        // The same content appearing afterwards is a new note, not a rename.
        let seen = t.observe("Copy.md", stamp("old note"));
        assert_eq!(seen.change, Change::Created);
        assert_eq!(seen.status, NoteStatus::New);
    }

    #[test]
    fn rename_is_still_followed_across_a_save_within_the_window() {
        let mut t = tracker();
        t.forget("Old.md");
        t.prune_vanished(Instant::now(), RENAME_WINDOW);
        let seen = t.observe("Moved/Old.md", stamp("old note"));
        assert_eq!(seen.change, Change::RenamedFrom("Old.md".into()));
        assert_eq!(seen.status, NoteStatus::Old);
        assert_eq!(t.vanished_count(), 0);
    }

    #[test]
    fn pruning_keeps_recent_and_drops_old_records_of_the_same_content() {
        let mut t = tracker();
        t.record_old("Twin.md", stamp("old note"));
        t.forget("Old.md");
        let later = Instant::now() + RENAME_WINDOW + Duration::from_secs(1);
        t.forget("Twin.md");
        // Two notes with the same content: kept together within the window, dropped together after.
        assert_eq!(t.prune_vanished(Instant::now(), RENAME_WINDOW), 0);
        assert_eq!(t.vanished_count(), 2);
        assert_eq!(t.prune_vanished(later, RENAME_WINDOW), 2);
        assert_eq!(t.vanished_count(), 0);
    }

    #[test]
    fn summarized_content_is_remembered() {
        let mut t = tracker();
        t.observe("New.md", stamp("text"));
        t.mark_summarized(
            "New.md",
            &stamp("text").hash,
            stamp("text\n\n## Summary\n\nS\n"),
        );
        assert!(t.was_summarized(&stamp("text").hash));
        assert_eq!(t.record("New.md").unwrap().status, NoteStatus::Summarized);
        // The watcher's own write then shows up as an event: nothing changed.
        let seen = t.observe("New.md", stamp("text\n\n## Summary\n\nS\n"));
        assert_eq!(seen.change, Change::Unchanged);
    }

    #[test]
    fn waiting_notes_keep_their_order_even_when_held_back_in_the_same_instant() {
        let mut t = tracker();
        for name in ["c.md", "a.md", "b.md"] {
            t.observe(name, stamp(name));
            t.wait(name, 100);
        }
        assert_eq!(t.waiting_oldest_first(), ["c.md", "a.md", "b.md"]);
        // Waiting again keeps the place in line.
        t.wait("c.md", 500);
        assert_eq!(t.waiting_oldest_first()[0], "c.md");
        t.unwait("c.md");
        assert_eq!(t.waiting_oldest_first(), ["a.md", "b.md"]);
    }

    #[test]
    fn waiting_notes_follow_renames_and_leave_with_deletes_and_summaries() {
        let mut t = tracker();
        for name in ["Inbox/a.md", "b.md", "c.md"] {
            t.observe(name, stamp(name));
            t.wait(name, 1);
        }
        t.rename("Inbox", "Archive");
        t.forget("b.md");
        t.mark_summarized("c.md", &stamp("c.md").hash, stamp("c.md + summary"));
        assert_eq!(t.waiting_oldest_first(), ["Archive/a.md"]);
    }

    #[test]
    fn a_loaded_state_keeps_only_waiting_entries_of_new_notes() {
        let mut t = tracker();
        t.observe("New.md", stamp("new"));
        t.wait("New.md", 1);
        t.wait("Old.md", 2);
        t.wait("Gone.md", 3);
        let reloaded = Tracker::new(t.state().clone());
        assert_eq!(reloaded.waiting_oldest_first(), ["New.md"]);
    }
}
