//! The watch loop: catch up on the vault, follow file-system events, and summarize new notes
//! once they settle, by calling the registry's `summarize_file` tool.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::sync::mpsc::unbounded_channel;
use tokio::task::{Id, JoinSet};
use tokio::time::{sleep_until, Instant};

use crate::tools::{Registry, ToolOutput};
use vaultsum_core::vault::Vault;

use super::content::{body_chars, has_embeds, has_summary, opted_out};
use super::events::{self, Backend, EventSource, FsEvent};
use super::retry::{backoff, is_transient};
use super::scan::{
    absolute, complete_mark_ns, now_ns, read_stamped, relative, walk_notes, FoundNote,
};
use super::scheduler::Scheduler;
use super::skip::{is_note_path, SkipRules, IGNORED_DIRS};
use super::state::{self, NoteStatus, WatchState};
use super::tracker::{Change, Tracker};
use super::{WatchError, WatchOptions, WatchReport};

const SUMMARIZE_TOOL: &str = "summarize_file";
const READ_TOOL: &str = "read_file";
/// How long state changes may wait before they are written (they are always written at exit).
const SAVE_DELAY: Duration = Duration::from_secs(1);

/// A note that passed every rule and is about to be summarized.
struct Job {
    rel: String,
    /// The content hash the decision was made on.
    hash: String,
    /// The note's own body is short but it embeds things: measure the expanded text first.
    check_expanded: bool,
}

/// How a job ended.
enum Outcome {
    /// The expanded note is still shorter than `min_chars`.
    TooShort,
    /// The tool ran; its output says whether it succeeded.
    Called(ToolOutput),
}

/// The watcher's state while it runs.
pub(super) struct Driver {
    registry: Arc<Registry>,
    /// The tools' vault, whose file index the watcher keeps in step with the disk so links
    /// and embeds in new notes resolve.
    vault: Arc<Vault>,
    opts: WatchOptions,
    root: PathBuf,
    state_path: PathBuf,
    rules: SkipRules,
    tracker: Tracker,
    scheduler: Scheduler,
    first_run: bool,
    /// Watcher-level retries so far, by note.
    retries: HashMap<String, u32>,
    /// Content that already failed for good, by note: not tried again until edited.
    failed: HashMap<String, String>,
    /// The path and content hash of each job in flight, by task.
    jobs: HashMap<Id, (String, String)>,
    save_at: Option<Instant>,
    switch_to_polling: bool,
    report: WatchReport,
}

impl Driver {
    /// Opens the vault's state and rules; nothing is read or watched yet.
    pub(super) fn start(registry: Arc<Registry>, opts: WatchOptions) -> Result<Driver, WatchError> {
        let vault = vault_of(&registry)?;
        let root = vault.root().to_path_buf();
        if registry.get(SUMMARIZE_TOOL).is_none() {
            return Err(WatchError::NoSummarizeTool);
        }
        let state_path = state::state_file(&opts.state_dir, &root);
        let loaded = state::load(&state_path)?;
        let first_run = loaded.is_none();
        let rules = SkipRules::load(&root, &opts.exclude)?;
        let scheduler = Scheduler::new(opts.settle, opts.concurrency);
        Ok(Driver {
            tracker: Tracker::new(loaded.unwrap_or_else(|| WatchState::empty(&root))),
            registry,
            vault,
            root,
            state_path,
            rules,
            scheduler,
            first_run,
            retries: HashMap::new(),
            failed: HashMap::new(),
            jobs: HashMap::new(),
            save_at: None,
            switch_to_polling: false,
            report: WatchReport {
                first_run,
                ..WatchReport::default()
            },
            opts,
        })
    }

    /// Catches up, then follows events until `shutdown` (or, with `--once`, until the notes
    /// due now are done).
    pub(super) async fn run(
        mut self,
        shutdown: impl Future<Output = ()>,
    ) -> Result<WatchReport, WatchError> {
        let (tx, mut rx) = unbounded_channel();
        // The watcher starts before the catch-up walk so a note created during the walk is
        // seen by one or the other.
        let mut source: Option<EventSource> = if self.opts.once {
            None
        } else {
            Some(events::start(
                &self.root,
                self.opts.backend,
                self.opts.poll_interval,
                tx.clone(),
            )?)
        };
        if let Some(source) = &source {
            tracing::info!(
                "watching {} ({})",
                self.root.display(),
                describe_backend(source.backend())
            );
        }
        self.catch_up();
        // A state folder that cannot be written is a setup error, better said at once.
        self.save_now()?;
        let mut tasks: JoinSet<Outcome> = JoinSet::new();
        tokio::pin!(shutdown);
        loop {
            self.start_due_jobs(&mut tasks);
            if self.opts.once && tasks.is_empty() && self.scheduler.queued() == 0 {
                break;
            }
            let next_due = self.scheduler.next_deadline();
            let save_at = self.save_at;
            tokio::select! {
                biased;
                _ = &mut shutdown => {
                    tracing::info!("stopping: no new summaries are started");
                    break;
                }
                Some(done) = tasks.join_next_with_id(), if !tasks.is_empty() => self.on_done(done, true),
                Some(batch) = rx.recv(), if source.is_some() => self.on_events(batch),
                _ = sleep_until(next_due.unwrap_or_else(Instant::now)), if next_due.is_some() => {}
                _ = sleep_until(save_at.unwrap_or_else(Instant::now)), if save_at.is_some() => self.save(),
            }
            if self.switch_to_polling {
                self.switch_to_polling = false;
                drop(source.take());
                source = Some(events::start(
                    &self.root,
                    Backend::Polling(self.opts.poll_interval),
                    self.opts.poll_interval,
                    tx.clone(),
                )?);
                self.rescan();
            }
            if self.tracker.take_dirty() && self.save_at.is_none() {
                self.save_at = Some(Instant::now() + SAVE_DELAY);
            }
        }
        drop(source);
        self.drain(&mut tasks).await;
        if !self.opts.once {
            // Events not delivered yet are picked up by one last walk, so the state is
            // complete as of its start.
            let walked_at = complete_mark_ns();
            self.rescan();
            self.tracker.set_complete_as_of_ns(walked_at);
        }
        self.save();
        self.report.notes = self.tracker.state().notes.len();
        self.report.pending = self
            .tracker
            .state()
            .notes
            .values()
            .filter(|r| r.status == NoteStatus::New)
            .count();
        Ok(self.report)
    }

    /// Lets summaries in flight finish within the grace period, then abandons the rest. A
    /// call is abandoned at an await point; the tool writes its note in one atomic step after
    /// its last await, so no note is ever left half-written.
    async fn drain(&mut self, tasks: &mut JoinSet<Outcome>) {
        if tasks.is_empty() {
            return;
        }
        let grace = tokio::time::sleep(self.opts.shutdown_grace);
        tokio::pin!(grace);
        loop {
            tokio::select! {
                done = tasks.join_next_with_id() => match done {
                    Some(done) => self.on_done(done, false),
                    None => return,
                },
                _ = &mut grace => {
                    tracing::warn!(
                        "abandoning {} summaries in flight; their notes are unchanged and stay pending",
                        tasks.len()
                    );
                    tasks.abort_all();
                    while tasks.join_next().await.is_some() {}
                    return;
                }
            }
        }
    }

    /// First run: record every note as old. Later runs: follow what changed while stopped and
    /// queue the new notes, settled by their modification time.
    fn catch_up(&mut self) {
        let walked_at = complete_mark_ns();
        let found = walk_notes(&self.root, &self.root);
        let complete_before = self.tracker.complete_as_of_ns();
        self.tracker.set_complete_as_of_ns(walked_at);
        if self.first_run {
            for note in &found {
                if let Ok((stamp, _)) = read_stamped(&absolute(&self.root, &note.rel)) {
                    self.tracker.record_old(&note.rel, stamp);
                }
            }
            tracing::info!(
                "first run on this vault: {} existing notes recorded, none summarized",
                found.len()
            );
            return;
        }
        self.reconcile_found(&found, Some(complete_before));
    }

    /// Walks the whole vault again (events were lost, or the watcher changed).
    fn rescan(&mut self) {
        self.vault.refresh_index();
        let found = walk_notes(&self.root, &self.root);
        self.reconcile_found(&found, None);
    }

    /// Brings the state in line with a full walk. `catch_up` holds, at start, when the state
    /// was last complete: unknown notes born before that are old notes moved while stopped.
    fn reconcile_found(&mut self, found: &[FoundNote], catch_up: Option<i128>) {
        let catching_up = catch_up.is_some();
        let present: std::collections::HashSet<&str> =
            found.iter().map(|n| n.rel.as_str()).collect();
        // Disappeared notes first, so a note that moved is matched as a rename.
        for rel in self.tracker.paths() {
            if !present.contains(rel.as_str()) {
                for gone in self.tracker.forget(&rel) {
                    self.scheduler.cancel(&gone);
                }
            }
        }
        for note in found {
            let unchanged = self
                .tracker
                .looks_unchanged(&note.rel, note.size, note.mtime_ns);
            if unchanged && !catching_up {
                continue;
            }
            if unchanged {
                if self.tracker.record(&note.rel).map(|r| r.status) == Some(NoteStatus::New) {
                    self.schedule_by_mtime(&note.rel, note.mtime_ns);
                }
                continue;
            }
            let Ok((stamp, _)) = read_stamped(&absolute(&self.root, &note.rel)) else {
                continue;
            };
            let born_before = match (catch_up, note.created_ns) {
                (Some(complete), Some(created)) => created < complete,
                _ => false,
            };
            let seen = if born_before {
                self.tracker.observe_existing(&note.rel, stamp)
            } else {
                self.tracker.observe(&note.rel, stamp)
            };
            if let Change::RenamedFrom(from) = &seen.change {
                self.scheduler.cancel(from);
            }
            if seen.status == NoteStatus::New {
                if catching_up {
                    self.schedule_by_mtime(&note.rel, note.mtime_ns);
                } else if seen.change != Change::Unchanged {
                    self.scheduler.touch(&note.rel, Instant::now());
                }
            }
        }
    }

    /// Queues a note found at start so it is due once quiet for the settle time, counted from
    /// its modification time. With `--once`, a note not settled yet is left for the next run.
    fn schedule_by_mtime(&mut self, rel: &str, mtime_ns: i128) {
        let age = Duration::from_nanos((now_ns() - mtime_ns).clamp(0, u64::MAX as i128) as u64);
        let wait = self.opts.settle.saturating_sub(age);
        if self.opts.once && !wait.is_zero() {
            tracing::info!("{rel}: changed too recently to be settled; left for the next run");
            return;
        }
        self.scheduler.schedule_at(rel, Instant::now() + wait);
    }

    fn on_events(&mut self, batch: Vec<FsEvent>) {
        let mut touched: Vec<String> = Vec::new();
        for event in batch {
            match event {
                FsEvent::Touched(path) => {
                    if let Some(rel) = relative(&self.root, &path) {
                        touched.push(rel);
                    }
                }
                FsEvent::Renamed { from, to } => {
                    if let (Some(from), Some(to)) =
                        (relative(&self.root, &from), relative(&self.root, &to))
                    {
                        for (old, new) in self.tracker.rename(&from, &to) {
                            tracing::debug!("renamed: {old} -> {new}");
                            self.scheduler.rename(&old, &new);
                        }
                        touched.push(from);
                        touched.push(to);
                    }
                }
                FsEvent::Rescan => {
                    tracing::warn!("file events were lost; walking the vault again");
                    self.rescan();
                }
                FsEvent::LimitReached => {
                    if let Some(message) =
                        events::limit_message(&notify::Error::new(notify::ErrorKind::MaxFilesWatch))
                    {
                        tracing::warn!(
                            "{message}; switching to polling every {:?}",
                            self.opts.poll_interval
                        );
                    }
                    self.switch_to_polling = true;
                }
            }
        }
        touched.sort();
        touched.dedup();
        if touched.iter().any(|rel| SkipRules::is_settings_file(rel)) {
            match SkipRules::load(&self.root, &self.opts.exclude) {
                Ok(rules) => self.rules = rules,
                Err(error) => tracing::warn!("keeping the previous skip rules: {error}"),
            }
        }
        touched.retain(|rel| !rel.split('/').any(|part| IGNORED_DIRS.contains(&part)));
        // Paths that are gone first, so a note that moved is matched as a rename.
        let (gone, present): (Vec<String>, Vec<String>) = touched
            .into_iter()
            .partition(|rel| std::fs::symlink_metadata(absolute(&self.root, rel)).is_err());
        let mut refresh_index = false;
        for rel in gone {
            for forgotten in self.tracker.forget(&rel) {
                self.scheduler.cancel(&forgotten);
            }
            let folder = format!("{rel}/");
            if self.vault.index().contains(&rel) {
                self.vault.note_removed(&rel);
            } else if self.vault.index().iter().any(|p| p.starts_with(&folder)) {
                refresh_index = true;
            }
        }
        for rel in &present {
            let path = absolute(&self.root, rel);
            if path.is_dir() {
                refresh_index = true;
            } else {
                self.vault.note_created(rel);
            }
        }
        if refresh_index {
            // A folder came or went (with notes and attachments inside): cheaper to rebuild
            // than to walk it twice.
            self.vault.refresh_index();
        }
        for rel in present {
            let path = absolute(&self.root, &rel);
            if path.is_dir() {
                // A folder created (or moved in) with notes already inside: the OS watcher
                // only sees the folder, so walk it.
                for note in walk_notes(&self.root, &path) {
                    self.reconcile_file(&note.rel);
                }
            } else if is_note_path(&rel) {
                self.reconcile_file(&rel);
            }
        }
    }

    /// Looks at a note's current content after an event.
    fn reconcile_file(&mut self, rel: &str) {
        let Ok((stamp, _)) = read_stamped(&absolute(&self.root, rel)) else {
            for gone in self.tracker.forget(rel) {
                self.scheduler.cancel(&gone);
            }
            return;
        };
        let seen = self.tracker.observe(rel, stamp);
        if let Change::RenamedFrom(from) = &seen.change {
            tracing::debug!("renamed: {from} -> {rel}");
            self.scheduler.cancel(from);
        }
        if seen.status == NoteStatus::New && seen.change != Change::Unchanged {
            self.scheduler.touch(rel, Instant::now());
        }
    }

    /// Starts jobs for due notes while there is room in flight.
    fn start_due_jobs(&mut self, tasks: &mut JoinSet<Outcome>) {
        while let Some(rel) = self.scheduler.take_due(Instant::now()) {
            let Some(job) = self.decide(&rel) else {
                self.scheduler.finish(&rel);
                continue;
            };
            let registry = self.registry.clone();
            let min_chars = self.opts.min_chars;
            let hash = job.hash.clone();
            let handle = tasks.spawn(run_job(registry, job, min_chars));
            self.jobs.insert(handle.id(), (rel, hash));
        }
    }

    /// Every rule, on the note as it is now: `None` when it is not to be summarized.
    fn decide(&mut self, rel: &str) -> Option<Job> {
        let (stamp, text) = read_stamped(&absolute(&self.root, rel)).ok()?;
        let hash = stamp.hash.clone();
        let seen = self.tracker.observe(rel, stamp);
        let skip = |why: &str| {
            tracing::debug!("{rel}: not summarized ({why})");
            None
        };
        if seen.status != NoteStatus::New {
            return skip("not a new note");
        }
        if let Some(reason) = self.rules.check(rel) {
            return skip(&reason.to_string());
        }
        if has_summary(&text) {
            return skip("it already has a ## Summary");
        }
        if opted_out(&text) {
            return skip("its frontmatter says summarize: false");
        }
        if self.tracker.was_summarized(&hash) {
            return skip("this content was summarized before");
        }
        if self.failed.get(rel) == Some(&hash) {
            return skip("it failed before and has not been edited since");
        }
        let body = body_chars(&text);
        if body < self.opts.min_chars && !has_embeds(&text) {
            return skip(&format!(
                "{body} characters of body, fewer than {}",
                self.opts.min_chars
            ));
        }
        Some(Job {
            rel: rel.to_string(),
            hash,
            check_expanded: body < self.opts.min_chars,
        })
    }

    fn on_done(&mut self, done: Result<(Id, Outcome), tokio::task::JoinError>, may_retry: bool) {
        let (id, outcome) = match done {
            Ok((id, outcome)) => (id, Some(outcome)),
            Err(error) => (error.id(), None),
        };
        let Some((rel, hash)) = self.jobs.remove(&id) else {
            return;
        };
        let changed_meanwhile = self.scheduler.finish(&rel);
        match outcome {
            Some(Outcome::TooShort) => {}
            Some(Outcome::Called(output)) if !output.is_error => {
                self.retries.remove(&rel);
                self.failed.remove(&rel);
                self.report.summarized += 1;
                match read_stamped(&absolute(&self.root, &rel)) {
                    Ok((stamp, _)) => self.tracker.mark_summarized(&rel, &hash, stamp),
                    Err(_) => {
                        self.tracker.forget(&rel);
                    }
                }
                // Saved with the usual delay: should the process die before that, the note
                // already has its `## Summary`, so it is not summarized again anyway.
            }
            Some(Outcome::Called(output)) => {
                let attempts = self.retries.get(&rel).copied().unwrap_or(0);
                if may_retry && is_transient(&output.text) && attempts < self.opts.max_retries {
                    let delay = backoff(self.opts.retry_backoff, attempts + 1);
                    tracing::warn!(
                        "{rel}: will try again in {delay:?} (retry {} of {})",
                        attempts + 1,
                        self.opts.max_retries
                    );
                    self.retries.insert(rel.clone(), attempts + 1);
                    self.scheduler.schedule_at(&rel, Instant::now() + delay);
                } else {
                    self.retries.remove(&rel);
                    self.failed.insert(rel.clone(), hash);
                    self.report.failed += 1;
                }
                if changed_meanwhile && may_retry {
                    self.reconcile_file(&rel);
                }
            }
            None => tracing::warn!("{rel}: the summary task stopped unexpectedly"),
        }
    }

    fn save(&mut self) {
        if let Err(error) = self.save_now() {
            tracing::warn!("{error}");
        }
    }

    fn save_now(&mut self) -> Result<(), WatchError> {
        self.save_at = None;
        state::save(&self.state_path, self.tracker.state())
    }
}

/// Runs one job: measures the expanded text when needed, then calls `summarize_file`, logging
/// the tool's own rendering of the call and its result.
async fn run_job(registry: Arc<Registry>, job: Job, min_chars: usize) -> Outcome {
    if job.check_expanded {
        let read = registry
            .call(
                READ_TOOL,
                json!({ "path": job.rel, "length": min_chars.saturating_mul(2).max(1000) }),
            )
            .await;
        if read.is_error || body_chars(&read.text) < min_chars {
            tracing::debug!(
                "{}: not summarized (its expanded text is shorter than {min_chars} characters)",
                job.rel
            );
            return Outcome::TooShort;
        }
    }
    let args = json!({ "path": job.rel });
    let call_line = registry
        .get(SUMMARIZE_TOOL)
        .map(|tool| tool.render_call(&args))
        .unwrap_or_else(|| format!("{SUMMARIZE_TOOL} {:?}", job.rel));
    tracing::info!("→ {call_line}");
    let output = registry.call(SUMMARIZE_TOOL, args).await;
    let result_line = registry
        .get(SUMMARIZE_TOOL)
        .map(|tool| tool.render_result(&output, false))
        .unwrap_or_else(|| output.text.clone());
    if output.is_error {
        tracing::warn!("{call_line}: {result_line}");
    } else {
        tracing::info!("{result_line}");
    }
    Outcome::Called(output)
}

/// The vault the registry's tools work on.
fn vault_of(registry: &Registry) -> Result<Arc<Vault>, WatchError> {
    registry
        .context()
        .vault()
        .cloned()
        .map_err(|_| WatchError::NoVault)
}

fn describe_backend(backend: Backend) -> String {
    match backend {
        Backend::Native => "OS file notifications".to_string(),
        Backend::Polling(interval) => format!("polling every {interval:?}"),
    }
}
