//! One paid call per key across the processes of one machine: watch, an MCP server and a CLI
//! run reading the same new image, or summarizing the same note, pay for it once.
//! `single_flight.rs` does this inside a process; this does it between processes that share
//! the cache folder.
//!
//! The process that will make the call first creates `<key>.lock` (`create_new`, which one
//! process wins) holding an id of its call (a flight), keeps its modification time fresh while
//! the call runs (a heartbeat every [`HEARTBEAT`]), and removes it once the result is stored or
//! the call failed. Another process that finds the lock notes the flight's id and waits,
//! polling, until the caller's `done` finds a result (the media entry; the stored answer of a
//! flight it saw) or the lock is gone without one (the call failed there: it makes its own).
//! A lock not refreshed for [`STALE_AFTER`] belongs to a process that died, and is taken over.
//!
//! Two processes that both find the same stale lock may both take it over and both pay: the
//! price of a rare race is one extra call, never a wrong or half-written result (results are
//! written atomically).

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// How often the process making the call shows it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// A lock untouched this long is a dead process's.
pub const STALE_AFTER: Duration = Duration::from_secs(30);

/// How often a waiting process looks for the result.
const POLL: Duration = Duration::from_millis(100);

/// What a process may do about one key.
pub enum Claim<T> {
    /// It makes the call; the lock goes when this is dropped.
    Held(LockGuard),
    /// Another process made the call meanwhile: its result.
    Done(T),
    /// The lock cannot be created (a read-only cache folder): the call is made without one.
    Unlocked,
}

/// The lock file of a call in progress, refreshed by a heartbeat task and removed on drop.
pub struct LockGuard {
    path: PathBuf,
    flight: String,
    heartbeat: tokio::task::JoinHandle<()>,
}

impl LockGuard {
    /// The id of this call, written in the lock for the processes waiting on it.
    pub fn flight(&self) -> &str {
        &self.flight
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        self.heartbeat.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Claims the call whose lock is `lock` for this process, waiting while another live process
/// holds it. `done(flights)` is the result another process stored meanwhile, if any; `flights`
/// are the ids of the calls this process saw holding the lock while it waited. Each step is a
/// few small file operations, done in place; `label` names the work in the log.
pub async fn claim<T>(
    lock: &Path,
    label: &str,
    mut done: impl FnMut(&[String]) -> Option<T>,
) -> Claim<T> {
    let mut seen: Vec<String> = Vec::new();
    let mut announced = false;
    loop {
        let flight = new_flight_id();
        match create_lock(lock, &flight) {
            Ok(()) => {
                // It may have been stored between the caller's own check and this lock.
                if let Some(result) = done(&seen) {
                    let _ = std::fs::remove_file(lock);
                    return Claim::Done(result);
                }
                return Claim::Held(LockGuard {
                    heartbeat: tokio::spawn(heartbeat(lock.to_path_buf())),
                    path: lock.to_path_buf(),
                    flight,
                });
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => {
                tracing::debug!(lock = %lock.display(), error = %e, "no cache lock; calling without one");
                return Claim::Unlocked;
            }
        }
        if let Some(holder) = flight_in(lock) {
            if !seen.contains(&holder) {
                seen.push(holder);
            }
        }
        if let Some(result) = done(&seen) {
            return Claim::Done(result);
        }
        if is_stale(lock) {
            tracing::debug!(lock = %lock.display(), "taking over a stale cache lock");
            let _ = std::fs::remove_file(lock);
            continue;
        }
        if !announced {
            tracing::debug!(
                work = label,
                "another vaultsum process is making this call; waiting for its result"
            );
            announced = true;
        }
        tokio::time::sleep(POLL).await;
    }
}

/// An id no other call on this machine has: the process, a counter and the time.
fn new_flight_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

fn create_lock(path: &Path, flight: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    // A waiter that reads the lock before the id is in it just looks again next round.
    file.write_all(flight.as_bytes())
}

/// The id written in the lock, once it is there.
fn flight_in(lock: &Path) -> Option<String> {
    let id = std::fs::read_to_string(lock).ok()?;
    let id = id.trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// True when the lock was not refreshed for [`STALE_AFTER`]; a lock that vanished is not
/// stale (the next round takes it).
fn is_stale(path: &Path) -> bool {
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

    /// A stand-in for a cache: the result is a file beside the lock.
    struct Store {
        _dir: tempfile::TempDir,
        lock: PathBuf,
        entry: PathBuf,
    }

    fn store() -> Store {
        let dir = tempfile::tempdir().unwrap();
        Store {
            lock: dir.path().join("k.lock"),
            entry: dir.path().join("k.txt"),
            _dir: dir,
        }
    }

    fn entry_of(entry: &Path) -> impl FnMut(&[String]) -> Option<String> + '_ {
        move |_| std::fs::read_to_string(entry).ok()
    }

    #[tokio::test]
    async fn the_first_claim_holds_and_the_lock_goes_with_it() {
        let s = store();
        let Claim::Held(guard) = claim(&s.lock, "x.png", entry_of(&s.entry)).await else {
            panic!("the first claim holds the lock");
        };
        assert_eq!(std::fs::read_to_string(&s.lock).unwrap(), guard.flight());
        drop(guard);
        assert!(!s.lock.exists());
    }

    #[tokio::test]
    async fn a_second_claim_waits_for_the_entry_of_the_first() {
        let s = store();
        let Claim::Held(guard) = claim(&s.lock, "x.png", entry_of(&s.entry)).await else {
            panic!("held");
        };
        let waiter = {
            let (lock, entry) = (s.lock.clone(), s.entry.clone());
            tokio::spawn(async move { claim(&lock, "x.png", entry_of(&entry)).await })
        };
        std::fs::write(&s.entry, "described").unwrap();
        drop(guard);
        match waiter.await.unwrap() {
            Claim::Done(text) => assert_eq!(text, "described"),
            _ => panic!("the waiter takes the stored entry"),
        }
    }

    #[tokio::test]
    async fn a_waiter_knows_the_flight_it_waited_on() {
        let s = store();
        let Claim::Held(guard) = claim(&s.lock, "x", |_: &[String]| None::<()>).await else {
            panic!("held");
        };
        let flight = guard.flight().to_string();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let waiter = {
            let lock = s.lock.clone();
            tokio::spawn(async move {
                let mut tx = Some(tx);
                claim(&lock, "x", move |seen: &[String]| {
                    if !seen.is_empty() {
                        if let Some(tx) = tx.take() {
                            let _ = tx.send(seen.to_vec());
                        }
                    }
                    None::<()>
                })
                .await
            })
        };
        assert_eq!(rx.await.unwrap(), vec![flight.clone()]);
        drop(guard);
        // Nothing stored: the waiter makes its own call, under a flight of its own.
        let Claim::Held(own) = waiter.await.unwrap() else {
            panic!("the waiter leads once the lock is gone without a result");
        };
        assert_ne!(own.flight(), flight);
    }

    #[tokio::test]
    async fn a_dead_process_lock_is_taken_over() {
        let s = store();
        create_lock(&s.lock, "dead").unwrap();
        let old = SystemTime::now() - STALE_AFTER - Duration::from_secs(1);
        File::options()
            .write(true)
            .open(&s.lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(matches!(
            claim(&s.lock, "x.png", entry_of(&s.entry)).await,
            Claim::Held(_)
        ));
    }
}
