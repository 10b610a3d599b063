//! One async lock per note, so calls that write the same note inside one process take turns:
//! the second reads the note as the first left it (with its summary) instead of both
//! summarizing the same bytes.
//!
//! Locks are keyed by the resolved vault-relative path and kept as `Weak` references: a lock
//! lives only while some call holds or waits for it, and dead entries are swept as new ones are
//! made, so the map never grows with the number of notes ever written. The std mutex guarding
//! the map is held only to look up or insert, never across an await.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};

/// The per-note locks of one process (one [`crate::context::ToolContext`]).
#[derive(Debug, Default)]
pub struct NoteLocks {
    locks: Mutex<HashMap<String, Weak<AsyncMutex<()>>>>,
}

/// Held while a note is read, summarized and written; dropping it lets the next call in.
#[derive(Debug)]
pub struct NoteGuard {
    _guard: OwnedMutexGuard<()>,
}

impl NoteLocks {
    /// Waits until no other call holds the note `relative`, then holds it.
    pub async fn lock(&self, relative: &str) -> NoteGuard {
        let lock = self.lock_for(relative);
        NoteGuard {
            _guard: lock.lock_owned().await,
        }
    }

    /// How many notes have a live lock (held or waited for); for tests.
    pub fn live(&self) -> usize {
        let map = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        map.values().filter(|w| w.strong_count() > 0).count()
    }

    fn lock_for(&self, relative: &str) -> Arc<AsyncMutex<()>> {
        let mut map = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(lock) = map.get(relative).and_then(Weak::upgrade) {
            return lock;
        }
        map.retain(|_, weak| weak.strong_count() > 0);
        let lock = Arc::new(AsyncMutex::new(()));
        map.insert(relative.to_string(), Arc::downgrade(&lock));
        lock
    }
}

#[cfg(test)]
mod tests {
    use super::NoteLocks;
    use std::time::Duration;

    #[tokio::test]
    async fn same_note_waits_other_notes_do_not() {
        let locks = NoteLocks::default();
        let held = locks.lock("A.md").await;
        // Another note is free.
        let other = tokio::time::timeout(Duration::from_millis(50), locks.lock("B.md")).await;
        assert!(other.is_ok());
        drop(other);
        // The same note waits until the first guard is dropped.
        let same = tokio::time::timeout(Duration::from_millis(50), locks.lock("A.md")).await;
        assert!(same.is_err());
        drop(held);
        let again = tokio::time::timeout(Duration::from_millis(50), locks.lock("A.md")).await;
        assert!(again.is_ok());
        drop(again);
        assert_eq!(locks.live(), 0);
    }
}
