//! `notifications/progress` for a `tools/call` that carried a `progressToken`: every step the
//! tool reports (see `vaultsum_tools::progress`), and a heartbeat while it runs.
//!
//! MCP clients give up on a call that stays silent too long (the TypeScript SDK after 60 s,
//! Claude Code's idle watchdog is reset only by progress), and a summary with a reasoning model
//! takes 30–120 s, mostly waiting on one LLM answer. So besides the tool's own steps, a
//! heartbeat goes out whenever nothing was sent for [`HEARTBEAT_INTERVAL`].
//!
//! Numbering. The spec wants `progress` to increase with every notification, and `total`, when
//! given, to be where it ends. A tool's step N means "N−1 steps are done, now doing the N-th",
//! so the N-th step is sent as `progress = N − 1` (`reading` of 3 steps is 0/3, `writing` 2/3;
//! the answer itself says the call is done). A heartbeat between step N and N+1 is sent as
//! `N − 1 + k/(k+1)` for its k-th heartbeat: ½, ⅔, ¾ … of the way to the next step, creeping
//! toward it without reaching it, so the value still increases at every heartbeat however long
//! the model takes, and the next real step (N) is still larger.

use std::time::Duration;

use rmcp::model::{MetaObject, NotificationMetaObject, ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::tools::{with_progress, ProgressSink, ProgressUpdate};

/// The longest silence while a call with a progress token runs. MCP clients are promised a
/// notification at least every 10 s; half that leaves room for a busy machine and the
/// transport, and costs one small message per 5 s of a call that is waiting anyway.
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(5);

/// Where a call's progress goes: the client that asked, under the token it gave.
pub(crate) struct ProgressReporter {
    pub peer: Peer<RoleServer>,
    pub token: ProgressToken,
    pub heartbeat: Duration,
}

impl ProgressReporter {
    /// Runs `call` to its end, sending each step it reports and a heartbeat whenever nothing
    /// was sent for `heartbeat`. Every step reported before the call ended is sent before this
    /// returns, so a client sees them all before the answer.
    pub async fn run<F: std::future::Future>(self, call: F) -> F::Output {
        let (sender, mut updates) = mpsc::unbounded_channel();
        let sink = ProgressSink::new(move |update| {
            // The receiver lives until the call has ended; nothing is lost before that.
            let _ = sender.send(update);
        });
        let call = with_progress(sink, call);
        tokio::pin!(call);
        let mut numbering = Numbering::default();
        let started = Instant::now();
        let mut next_beat = Instant::now() + self.heartbeat;
        loop {
            tokio::select! {
                // Steps first: a step that is ready is sent before the answer that follows it.
                biased;
                Some(update) = updates.recv() => {
                    self.send(numbering.step(update)).await;
                    next_beat = Instant::now() + self.heartbeat;
                }
                output = &mut call => {
                    while let Ok(update) = updates.try_recv() {
                        self.send(numbering.step(update)).await;
                    }
                    return output;
                }
                () = tokio::time::sleep_until(next_beat) => {
                    self.send(numbering.heartbeat(started.elapsed())).await;
                    next_beat = Instant::now() + self.heartbeat;
                }
            }
        }
    }

    async fn send(&self, note: Note) {
        let mut param = ProgressNotificationParam::new(self.token.clone(), note.progress)
            .with_message(note.message);
        if let Some(total) = note.total {
            param = param.with_total(total);
        }
        if let serde_json::Value::Object(detail) = note.detail {
            // What a batch just did, for programs (the plugin counts and records cost from it).
            let mut meta = serde_json::Map::new();
            meta.insert("details".to_string(), serde_json::Value::Object(detail));
            param.meta = Some(NotificationMetaObject(MetaObject(meta)));
        }
        if let Err(error) = self.peer.notify_progress(param).await {
            // The client went away; the call's own answer (or cancellation) will tell.
            tracing::debug!(%error, "progress notification not sent");
        }
    }
}

/// One `notifications/progress`, before it gets its token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Note {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: String,
    /// Structured facts of the update (`_meta.details`), `Null` for steps and heartbeats.
    pub detail: serde_json::Value,
}

/// Turns a call's step reports and heartbeats into strictly increasing progress values (see
/// the module documentation).
#[derive(Debug, Default)]
pub(crate) struct Numbering {
    /// Steps done: the last step reported is under way, the ones before it are done.
    done: u32,
    total: Option<u32>,
    /// What the call said it is doing, repeated by heartbeats.
    doing: Option<String>,
    /// Heartbeats since the last step.
    beats: u32,
}

impl Numbering {
    /// The notification for a step the tool reported.
    pub fn step(&mut self, update: ProgressUpdate) -> Note {
        // Items (a batch's notes) are counted as finished; a step is the one under way.
        self.done = if update.items {
            update.done
        } else {
            update.done.saturating_sub(1)
        };
        self.total = update.total;
        self.doing = Some(update.message.clone());
        self.beats = 0;
        Note {
            progress: f64::from(self.done),
            total: self.total.map(f64::from),
            message: update.message,
            detail: update.detail,
        }
    }

    /// The notification for a heartbeat `elapsed` into the call.
    pub fn heartbeat(&mut self, elapsed: Duration) -> Note {
        self.beats += 1;
        let beats = f64::from(self.beats);
        let doing = self.doing.as_deref().unwrap_or("working");
        Note {
            progress: f64::from(self.done) + beats / (beats + 1.0),
            total: self.total.map(f64::from),
            message: format!("{doing} ({}s)", elapsed.as_secs()),
            detail: serde_json::Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(done: u32, total: Option<u32>, message: &str) -> ProgressUpdate {
        ProgressUpdate {
            done,
            total,
            message: message.into(),
            items: false,
            detail: serde_json::Value::Null,
        }
    }

    #[test]
    fn steps_and_heartbeats_strictly_increase_and_stay_below_the_next_step() {
        let mut numbering = Numbering::default();
        let mut notes = vec![numbering.step(update(1, Some(3), "reading A.md"))];
        notes.push(numbering.step(update(2, Some(3), "summarizing")));
        for second in 1..=1000 {
            notes.push(numbering.heartbeat(Duration::from_secs(second * 5)));
        }
        notes.push(numbering.step(update(3, Some(3), "writing A.md")));
        for pair in notes.windows(2) {
            assert!(pair[1].progress > pair[0].progress, "{pair:?}");
        }
        assert!(notes.iter().all(|n| n.total == Some(3.0)));
        assert_eq!(notes[0].progress, 0.0);
        assert_eq!(notes[1].progress, 1.0);
        assert_eq!(notes[2].progress, 1.5);
        assert_eq!(notes[2].message, "summarizing (5s)");
        assert!(notes[1001].progress < 2.0);
        assert_eq!(notes.last().unwrap().progress, 2.0);
    }

    #[test]
    fn a_tool_without_steps_still_beats_with_increasing_values() {
        let mut numbering = Numbering::default();
        let first = numbering.heartbeat(Duration::from_secs(5));
        let second = numbering.heartbeat(Duration::from_secs(10));
        assert_eq!(first.message, "working (5s)");
        assert_eq!(first.total, None);
        assert!(0.0 < first.progress && first.progress < second.progress && second.progress < 1.0);
    }
}
