//! One paid call per cache key across the processes of one machine: watch, an MCP server and
//! a CLI run reading the same new image pay for it once. `single_flight.rs` does this inside a
//! process; this does it between processes that share the cache folder.
//!
//! The process that will make the call first creates `<key>.lock` beside the cache entry
//! (`create_new`, which one process wins), keeps its modification time fresh while the call
//! runs (a heartbeat every [`HEARTBEAT`]), and removes it once the entry is stored or the call
//! failed. Another process that finds the lock waits, polling, until the entry appears (its
//! text is the answer, no call) or the lock is gone (the call failed there: it makes its own).
//! A lock not refreshed for [`STALE_AFTER`] belongs to a process that died, and is taken over.
//!
//! Two processes that both find the same stale lock may both take it over and both pay: the
//! price of a rare race is one extra call, never a wrong or half-written entry (entries are
//! written atomically).

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::cache::MediaCache;

/// How often the process making the call shows it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// A lock untouched this long is a dead process's.
pub const STALE_AFTER: Duration = Duration::from_secs(30);

/// How often a waiting process looks for the entry.
const POLL: Duration = Duration::from_millis(100);

/// What a process may do about one key.
pub enum Claim {
    /// It makes the call; the lock goes when this is dropped.
    Held(LockGuard),
    /// Another process made the call meanwhile: its stored text.
    Done(String),
    /// The lock cannot be created (a read-only cache folder): the call is made without one.
    Unlocked,
}

/// The lock file of a call in progress, refreshed by a heartbeat task and removed on drop.
pub struct LockGuard {
    path: PathBuf,
    heartbeat: tokio::task::JoinHandle<()>,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        self.heartbeat.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Claims the call for `key` in `cache` for this process, waiting while another live process
/// holds it. Each step is a few small file operations, done in place.
pub async fn claim(cache: &MediaCache, key: &str, file_name: &str) -> Claim {
    let path = cache.lock_path(key);
    let mut announced = false;
    loop {
        match create_lock(&path) {
            Ok(()) => {
                // It may have been stored between the caller's cache check and this lock.
                if let Some(text) = cache.get(key) {
                    let _ = std::fs::remove_file(&path);
                    return Claim::Done(text);
                }
                return Claim::Held(LockGuard {
                    heartbeat: tokio::spawn(heartbeat(path.clone())),
                    path,
                });
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => {
                tracing::debug!(lock = %path.display(), error = %e, "no cache lock; calling without one");
                return Claim::Unlocked;
            }
        }
        if let Some(text) = cache.get(key) {
            return Claim::Done(text);
        }
        if is_stale(&path) {
            tracing::debug!(lock = %path.display(), "taking over a stale cache lock");
            let _ = std::fs::remove_file(&path);
            continue;
        }
        if !announced {
            tracing::debug!(
                file = file_name,
                "another vaultsum process is making this call; waiting for its result"
            );
            announced = true;
        }
        tokio::time::sleep(POLL).await;
    }
}

fn create_lock(path: &std::path::Path) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map(drop)
}

/// True when the lock was not refreshed for [`STALE_AFTER`]; a lock that vanished is not
/// stale (the next round takes it).
fn is_stale(path: &std::path::Path) -> bool {
    let Ok(modified) = std::fs::metadata(path).and_then(|m| m.modified()) else {
        return false;
    };
    SystemTime::now()
        .duration_since(modified)
        .is_ok_and(|age| age > STALE_AFTER)
}

async fn heartbeat(path: PathBuf) {
    loop {
        tokio::time::sleep(HEARTBEAT).await;
        let touched = File::options()
            .write(true)
            .open(&path)
            .and_then(|file| file.set_modified(SystemTime::now()));
        if touched.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> (tempfile::TempDir, MediaCache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = MediaCache::new(dir.path().join("media"));
        (dir, cache)
    }

    #[tokio::test]
    async fn the_first_claim_holds_and_the_lock_goes_with_it() {
        let (_dir, cache) = cache();
        let key = MediaCache::key("image", "m", "", b"x");
        let Claim::Held(guard) = claim(&cache, &key, "x.png").await else {
            panic!("the first claim holds the lock");
        };
        assert!(cache.lock_path(&key).exists());
        drop(guard);
        assert!(!cache.lock_path(&key).exists());
    }

    #[tokio::test]
    async fn a_second_claim_waits_for_the_entry_of_the_first() {
        let (_dir, cache) = cache();
        let key = MediaCache::key("image", "m", "", b"x");
        let Claim::Held(guard) = claim(&cache, &key, "x.png").await else {
            panic!("held");
        };
        let waiter = {
            let (cache, key) = (cache.clone(), key.clone());
            tokio::spawn(async move { claim(&cache, &key, "x.png").await })
        };
        cache.put(&key, "described").unwrap();
        drop(guard);
        match waiter.await.unwrap() {
            Claim::Done(text) => assert_eq!(text, "described"),
            _ => panic!("the waiter takes the stored entry"),
        }
    }

    #[tokio::test]
    async fn a_failed_call_lets_the_waiter_make_its_own() {
        let (_dir, cache) = cache();
        let key = MediaCache::key("image", "m", "", b"x");
        let Claim::Held(guard) = claim(&cache, &key, "x.png").await else {
            panic!("held");
        };
        let waiter = {
            let (cache, key) = (cache.clone(), key.clone());
            tokio::spawn(async move { claim(&cache, &key, "x.png").await })
        };
        drop(guard);
        assert!(matches!(waiter.await.unwrap(), Claim::Held(_)));
    }

    #[tokio::test]
    async fn a_dead_process_lock_is_taken_over() {
        let (_dir, cache) = cache();
        let key = MediaCache::key("image", "m", "", b"x");
        let lock = cache.lock_path(&key);
        create_lock(&lock).unwrap();
        let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(1);
        File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(matches!(claim(&cache, &key, "x.png").await, Claim::Held(_)));
    }
}
