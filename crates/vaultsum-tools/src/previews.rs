//! Previews kept for their write. A `summarize_file` dry run keeps the summary it made, under
//! an id it answers with; a later call with `preview: <id>` writes exactly that summary, with
//! no second paid call (the Obsidian plugin's Insert and Replace after "Summarize this note
//! (preview)"). What is written is still the binary's own: made by the summarizer, through the
//! output policy, written by `vault/write.rs` with its verifier. No caller hands in the text,
//! so this is no way to write arbitrary text into a note.
//!
//! Kept in the process that made them (the MCP server the plugin talks to), at most
//! [`MAX_PREVIEWS`], each for [`PREVIEW_LIFETIME`], and taken out when used: a preview is
//! written at most once.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How many previews are kept; the oldest goes first.
pub const MAX_PREVIEWS: usize = 16;
/// How long a preview is kept.
pub const PREVIEW_LIFETIME: Duration = Duration::from_secs(60 * 60);

/// The previews of one process, each under its id.
#[derive(Debug)]
pub struct Previews<T> {
    kept: Mutex<VecDeque<(String, Instant, T)>>,
    next: AtomicU64,
    /// Part of every id, so an id of an earlier process is not taken for one of this.
    epoch: u64,
}

impl<T> Default for Previews<T> {
    fn default() -> Previews<T> {
        let epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Previews {
            kept: Mutex::new(VecDeque::new()),
            next: AtomicU64::new(1),
            epoch: epoch ^ u64::from(std::process::id()).rotate_left(32),
        }
    }
}

impl<T> Previews<T> {
    /// Keeps `value` and returns its id (`p<hex>-<n>`), letting the oldest go beyond
    /// [`MAX_PREVIEWS`].
    pub fn keep(&self, value: T) -> String {
        let id = format!(
            "p{:x}-{}",
            self.epoch,
            self.next.fetch_add(1, Ordering::Relaxed)
        );
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(_, made, _)| made.elapsed() < PREVIEW_LIFETIME);
        while kept.len() >= MAX_PREVIEWS {
            kept.pop_front();
        }
        kept.push_back((id.clone(), Instant::now(), value));
        id
    }

    /// Takes out the preview `id` when it is `for_this` (a preview of another note is left for
    /// its own call), unless it is unknown, used already or expired.
    pub fn take(&self, id: &str, for_this: impl Fn(&T) -> bool) -> Option<T> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let at = kept
            .iter()
            .position(|(kept_id, _, value)| kept_id == id && for_this(value))?;
        let (_, made, value) = kept.remove(at)?;
        (made.elapsed() < PREVIEW_LIFETIME).then_some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_is_taken_once() {
        let previews = Previews::default();
        let id = previews.keep("summary");
        assert_eq!(previews.take("p0-1", |_| true), None);
        assert_eq!(
            previews.take(&id, |s| *s == "another"),
            None,
            "not for this call"
        );
        assert_eq!(previews.take(&id, |_| true), Some("summary"));
        assert_eq!(previews.take(&id, |_| true), None);
    }

    #[test]
    fn the_oldest_goes_beyond_the_limit() {
        let previews = Previews::default();
        let first = previews.keep(0);
        let ids: Vec<String> = (1..=MAX_PREVIEWS).map(|n| previews.keep(n)).collect();
        let any = |_: &usize| true;
        assert_eq!(previews.take(&first, any), None);
        assert_eq!(previews.take(&ids[0], any), Some(1));
        assert_eq!(previews.take(ids.last().unwrap(), any), Some(MAX_PREVIEWS));
    }
}
