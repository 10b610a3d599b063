//! Progress of a tool call, reported from inside the tools to whoever called them.
//!
//! A tool says what it is doing with [`step`] ("reading", "part 2/5", "writing") and how many
//! steps it expects with [`expect_steps`]; the front end that made the call decides what to do
//! with it (MCP: `notifications/progress` when the call carried a `progressToken`; the CLI: its
//! progress bar; watch: debug log lines). The reporter travels with the call as a task-local
//! value set by [`with_progress`], so tools need no extra parameter, and a call made without
//! one (tests, embedding) reports into nothing.

use std::sync::{Arc, Mutex};

/// One report: `done` steps of `total` (when known), and what is being done now.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    /// Steps done so far; increases with every report.
    pub done: u32,
    /// Steps expected in all, once known.
    pub total: Option<u32>,
    /// What the call is doing now, for people: `part 2/5`.
    pub message: String,
    /// Set by [`advance`]: `done` counts items finished (notes of a batch), not steps begun,
    /// so a front end shows it as it is rather than as the step under way.
    pub items: bool,
    /// Structured facts of this update for programs (a batch's note and its result), sent in
    /// the notification's `_meta` by MCP; `Null` when there are none.
    pub detail: serde_json::Value,
}

/// Receives the updates of one call. Cheap to clone.
#[derive(Clone)]
pub struct ProgressSink {
    send: Arc<dyn Fn(ProgressUpdate) + Send + Sync>,
    state: Arc<Mutex<(u32, Option<u32>)>>,
}

impl ProgressSink {
    /// A sink calling `send` with every update.
    pub fn new(send: impl Fn(ProgressUpdate) + Send + Sync + 'static) -> ProgressSink {
        ProgressSink {
            send: Arc::new(send),
            state: Arc::new(Mutex::new((0, None))),
        }
    }

    fn step(&self, message: String) {
        let update = {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            state.0 += 1;
            // A total is a promise about the end: never report less than what is done.
            let done = state.0;
            if let Some(total) = state.1.as_mut() {
                *total = (*total).max(done);
            }
            ProgressUpdate {
                done: state.0,
                total: state.1,
                message,
                items: false,
                detail: serde_json::Value::Null,
            }
        };
        (self.send)(update);
    }

    fn advance(&self, done: u32, total: u32, message: String, detail: serde_json::Value) {
        {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            *state = (done, Some(total));
        }
        (self.send)(ProgressUpdate {
            done,
            total: Some(total),
            message,
            items: true,
            detail,
        });
    }

    fn expect(&self, steps: u32) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let total = state.1.unwrap_or(state.0).saturating_add(steps);
        state.1 = Some(total);
    }
}

tokio::task_local! {
    static SINK: ProgressSink;
}

/// Runs `call` with `sink` receiving the progress its tools report.
pub async fn with_progress<F: std::future::Future>(sink: ProgressSink, call: F) -> F::Output {
    SINK.scope(sink, call).await
}

/// Reports that the current call finished a step and is now doing `message`.
pub fn step(message: impl Into<String>) {
    let _ = SINK.try_with(|sink| sink.step(message.into()));
}

/// Reports that `done` of `total` items (the notes of a batch) are finished, with what just
/// happened for people (`message`) and for programs (`detail`).
pub fn advance(done: u32, total: u32, message: impl Into<String>, detail: serde_json::Value) {
    let _ = SINK.try_with(|sink| sink.advance(done, total, message.into(), detail));
}

/// Tells the current call's reporter that `steps` more steps are to come.
pub fn expect_steps(steps: u32) {
    let _ = SINK.try_with(|sink| sink.expect(steps));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn steps_count_up_and_the_total_never_falls_below_them() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let seen = seen.clone();
            ProgressSink::new(move |u| seen.lock().unwrap().push(u))
        };
        with_progress(sink, async {
            step("reading");
            expect_steps(2);
            step("part 1/2");
            step("part 2/2");
            step("writing");
        })
        .await;
        let seen = seen.lock().unwrap();
        let done: Vec<u32> = seen.iter().map(|u| u.done).collect();
        assert_eq!(done, [1, 2, 3, 4]);
        assert_eq!(seen[0].total, None);
        assert_eq!(seen[1].total, Some(3));
        assert_eq!(seen[3].total, Some(4));
        assert_eq!(seen[3].message, "writing");
    }

    #[test]
    fn without_a_sink_reports_go_nowhere() {
        step("reading");
        expect_steps(3);
    }
}
