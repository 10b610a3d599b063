//! A chat request asked twice at the same moment is paid once: two notes with the same text in
//! one batch, or the watcher and an agent summarizing the same new note. Identical requests
//! (same server, model, messages, output cap and temperature; the key is their SHA-256) share
//! one call while it is in flight: inside a process through `flight/single_flight.rs`, across
//! the processes of one machine through a lock in `<cache>/answers` (`flight/lock_file.rs`).
//!
//! An answer is not a cache: the same request asked after its call ended is asked again (a
//! re-run asks for a new summary, and a sampled answer may differ). So an answer is handed
//! only to the processes that waited on that very call: a waiting process leaves
//! `<key>.<flight>.wanted` for the call it saw in the lock, and the process making the call
//! writes its answer to `<key>.<flight>.json` only when it finds one. Answers and wants older
//! than [`KEPT_FOR`] are removed whenever an answer is written. An error is not handed over:
//! the waiting process finds the lock gone without an answer and makes its own call.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use crate::flight::lock_file::{self, Claim, LockGuard};
use crate::llm::chat_request::CapField;
use crate::llm::{ChatReply, ChatRequest};

/// How long a handed-over answer (or a want nobody answered) may stay on disk.
const KEPT_FOR: Duration = Duration::from_secs(600);

/// The folder where processes hand answers to each other.
#[derive(Debug, Clone)]
pub struct SharedAnswers {
    dir: PathBuf,
}

/// The key of a request to a server: what makes two requests the same request.
pub fn key(base_url: &str, request: &ChatRequest) -> String {
    let body = request.to_wire(CapField::MaxTokens).to_string();
    let mut hasher = Sha256::new();
    hasher.update((base_url.len() as u64).to_le_bytes());
    hasher.update(base_url.as_bytes());
    hasher.update(body.as_bytes());
    hex::encode(hasher.finalize())
}

impl SharedAnswers {
    /// Answers handed over in `dir` (usually `<cache_dir>/answers`).
    pub fn new(dir: impl Into<PathBuf>) -> SharedAnswers {
        SharedAnswers { dir: dir.into() }
    }

    /// Claims the call for `key`: held (make it), done (another process answered it while
    /// this one waited) or unlocked (no lock can be made here: make it without one).
    pub async fn claim(&self, key: &str, label: &str) -> Claim<ChatReply> {
        let mut wanted: Vec<String> = Vec::new();
        let answer_of = |seen: &[String]| {
            for flight in seen {
                if !wanted.contains(flight) {
                    // Best effort: without it the caller only misses this answer.
                    let _ = std::fs::write(self.file(key, flight, "wanted"), b"");
                    wanted.push(flight.clone());
                }
                if let Some(reply) = self.answer(key, flight) {
                    return Some(reply);
                }
            }
            None
        };
        lock_file::claim(&self.file(key, "", "lock"), label, answer_of).await
    }

    /// Hands `reply` to the processes that waited on the call `lock` holds, if any did.
    pub fn hand_over(&self, key: &str, lock: &LockGuard, reply: &ChatReply) {
        let want = self.file(key, lock.flight(), "wanted");
        if !want.exists() {
            return;
        }
        self.remove_old();
        let stored = serde_json::to_vec(reply)
            .map_err(std::io::Error::other)
            .and_then(|json| {
                crate::atomic_file::write_atomically(&self.file(key, lock.flight(), "json"), &json)
            });
        if let Err(e) = stored {
            tracing::debug!(dir = %self.dir.display(), error = %e, "cannot hand the answer to the waiting process");
        }
        let _ = std::fs::remove_file(want);
    }

    /// The answer of `flight`, once its process wrote it.
    fn answer(&self, key: &str, flight: &str) -> Option<ChatReply> {
        let bytes = std::fs::read(self.file(key, flight, "json")).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// `<dir>/<key>.lock`, or `<dir>/<key>.<flight>.<extension>`.
    fn file(&self, key: &str, flight: &str, extension: &str) -> PathBuf {
        if flight.is_empty() {
            self.dir.join(format!("{key}.{extension}"))
        } else {
            self.dir.join(format!("{key}.{flight}.{extension}"))
        }
    }

    /// Removes answers and wants older than [`KEPT_FOR`] (never a lock: those are the lock's
    /// own business).
    fn remove_old(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if is_lock(&path) {
                continue;
            }
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| SystemTime::now().duration_since(modified).ok())
                .is_some_and(|age| age > KEPT_FOR);
            if old {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

fn is_lock(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lock")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> ChatReply {
        ChatReply {
            content: text.to_string(),
            reasoning: None,
            finish_reason: Some("stop".into()),
            usage: Some(serde_json::json!({"prompt_tokens": 10, "completion_tokens": 2})),
            attempts: 1,
            repeats_cut: false,
            cut_at_cap: false,
            shared: false,
        }
    }

    #[test]
    fn the_key_is_the_request_on_its_server() {
        let a = ChatRequest::text("m", "sys", "note");
        let mut capped = a.clone();
        capped.max_tokens = Some(100);
        let keys = [
            key("http://a/v1", &a),
            key("http://b/v1", &a),
            key("http://a/v1", &ChatRequest::text("m", "sys", "other note")),
            key("http://a/v1", &ChatRequest::text("m2", "sys", "note")),
            key("http://a/v1", &capped),
        ];
        for (i, k) in keys.iter().enumerate() {
            for other in &keys[i + 1..] {
                assert_ne!(k, other);
            }
        }
        assert_eq!(keys[0], key("http://a/v1", &a.clone()));
    }

    #[tokio::test]
    async fn a_waiting_process_gets_the_answer_of_the_call_it_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let answers = SharedAnswers::new(dir.path());
        let Claim::Held(lock) = answers.claim("k", "summary").await else {
            panic!("the first claim makes the call");
        };
        let waiter = {
            let answers = answers.clone();
            tokio::spawn(async move { answers.claim("k", "summary").await })
        };
        // The waiter says it wants this call's answer before the call ends.
        let want = answers.file("k", lock.flight(), "wanted");
        while !want.exists() {
            tokio::task::yield_now().await;
        }
        answers.hand_over("k", &lock, &reply("the summary"));
        drop(lock);
        match waiter.await.unwrap() {
            Claim::Done(got) => assert_eq!(got, reply("the summary")),
            _ => panic!("the waiter takes the answer"),
        }
    }

    #[tokio::test]
    async fn nothing_is_stored_when_nobody_waited_and_a_later_request_asks_again() {
        let dir = tempfile::tempdir().unwrap();
        let answers = SharedAnswers::new(dir.path());
        let Claim::Held(lock) = answers.claim("k", "summary").await else {
            panic!("held");
        };
        answers.hand_over("k", &lock, &reply("the summary"));
        drop(lock);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // The same request after the call ended makes its own call.
        assert!(matches!(
            answers.claim("k", "summary").await,
            Claim::Held(_)
        ));
    }
}
