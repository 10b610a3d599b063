//! Parsed notes kept between expansions, so a long-lived vault (MCP, watch, a folder of notes)
//! parses each note once until it changes on disk.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::markdown::{map_note, NoteMap};

/// Beyond this much cached source text the cache starts over (bounds memory on huge vaults).
const MAX_CACHED_BYTES: usize = 64 * 1024 * 1024;

/// A note's text and its spans.
#[derive(Debug)]
pub struct ParsedNote {
    /// The text (invalid UTF-8 replaced).
    pub source: String,
    /// Its spans.
    pub map: NoteMap,
}

impl ParsedNote {
    /// Parses a note's text.
    pub fn new(source: String) -> ParsedNote {
        ParsedNote {
            map: map_note(&source),
            source,
        }
    }
}

/// What identifies one version of a file without reading it: a changed file, or a different
/// file at the same path (a folder swapped for a symlink), gets a different stamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of a file's metadata (symlinks followed).
    pub fn of(metadata: &std::fs::Metadata) -> Stamp {
        Stamp {
            dev: metadata.dev(),
            ino: metadata.ino(),
            len: metadata.len(),
            modified: metadata.modified().ok(),
        }
    }
}

#[derive(Debug, Default)]
struct Inner {
    notes: HashMap<String, (Stamp, Arc<ParsedNote>)>,
    bytes: usize,
}

/// Parsed notes by vault-relative path, valid while their stamp is unchanged.
#[derive(Debug, Default)]
pub struct NoteCache {
    inner: Mutex<Inner>,
}

impl NoteCache {
    /// The cached note, if its stamp still matches.
    pub fn get(&self, relative: &str, stamp: Stamp) -> Option<Arc<ParsedNote>> {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        match inner.notes.get(relative) {
            Some((cached, note)) if *cached == stamp => Some(note.clone()),
            _ => None,
        }
    }

    /// The cached note for `relative` if it has exactly this text (whatever its stamp).
    pub fn get_same_text(&self, relative: &str, source: &str) -> Option<Arc<ParsedNote>> {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (_, note) = inner.notes.get(relative)?;
        (note.source == source).then(|| note.clone())
    }

    /// Remembers a parsed note.
    pub fn insert(&self, relative: &str, stamp: Stamp, note: Arc<ParsedNote>) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if inner.bytes + note.source.len() > MAX_CACHED_BYTES {
            inner.notes.clear();
            inner.bytes = 0;
        }
        inner.bytes += note.source.len();
        if let Some((_, old)) = inner.notes.insert(relative.to_string(), (stamp, note)) {
            inner.bytes = inner.bytes.saturating_sub(old.source.len());
        }
    }

    /// Forgets one note.
    pub fn remove(&self, relative: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, old)) = inner.notes.remove(relative) {
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
