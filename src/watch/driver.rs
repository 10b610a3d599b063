//! The watch loop: catch up on the vault, follow file-system events, and summarize new notes
//! once they settle, by calling the registry's `summarize_file` tool.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::task::{Id, JoinSet};
use tokio::time::{sleep_until, Instant};

use crate::tools::rollup_selection::today;
use crate::tools::vault_view::{
    is_visible_note, text_facts, ChangeBackend, LeftOut, LeftOutReason, NoteEntry, NoteFacts,
    VaultChange, VaultChanges,
};
use crate::tools::{with_progress, ProgressSink, Registry, ToolContext, ToolOutput};

use super::budget::Budget;
use super::clock::{complete_mark_ns, describe_wait, now_ns};
use super::daily_usage::DailyUsage;
use super::retry::{RetryDecision, RetryPolicy};
use super::scheduler::{later, Scheduler};
use super::skip::SkipRules;
use super::state::{self, NoteStatus, WatchState};
use super::tracker::{Change, Tracker, RENAME_WINDOW};
use super::{WatchError, WatchOptions, WatchReport};

const SUMMARIZE_TOOL: &str = "summarize_file";
const READ_TOOL: &str = "read_file";
/// How long state changes may wait before they are written (they are always written at exit).
const SAVE_DELAY: Duration = Duration::from_secs(1);
/// `1 note waits`, `240 notes wait`.
fn notes_wait(count: usize) -> String {
    if count == 1 {
        "1 note waits".to_string()
    } else {
        format!("{count} notes wait")
    }
}

/// How often, at most, the log repeats how many notes wait for the hourly limit.
const ANNOUNCE_EVERY: Duration = Duration::from_secs(60);

/// A note that passed every rule and is about to be summarized.
struct Job {
    rel: String,
    /// The content hash the decision was made on.
    hash: String,
    /// The note's own body is short but it embeds things: measure the expanded text first.
    check_expanded: bool,
    /// A stale summary to refresh (`watch.refresh`), not a new note.
    refresh: bool,
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
    /// The hourly limit on summaries started.
    budget: Budget,
    /// How many notes waited when the log last said so, and when.
    announced: Option<(usize, Instant)>,
    save_at: Option<Instant>,
    report: WatchReport,
    /// Today's summaries and paid calls, logged when the day is over and at stop.
    daily: DailyUsage,
}

/// The log target of the lines naming each entry a scan left out: shown with `-v`, not by
/// watch's default level (which shows `vaultsum::watch` at info).
const SCAN_LOG: &str = "vaultsum::scan";

/// `1 entry`, `3 entries`.
fn plural_entries(count: usize) -> String {
    if count == 1 {
        "1 entry".to_string()
    } else {
        format!("{count} entries")
    }
}

/// `1 outside the vault, 2 symlink loop`.
fn by_reason(left_out: &[LeftOut]) -> String {
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for entry in left_out {
        *counts.entry(entry.reason.describe()).or_insert(0) += 1;
    }
    counts
        .iter()
        .map(|(reason, count)| format!("{count} {reason}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Driver {
    /// Opens the vault's state and rules; nothing is read or watched yet.
    pub(super) fn start(registry: Arc<Registry>, opts: WatchOptions) -> Result<Driver, WatchError> {
        let context = registry.context();
        let root = context
            .vault_root()
            .map_err(|_| WatchError::NoVault)?
            .to_path_buf();
        if registry.get(SUMMARIZE_TOOL).is_none() {
            return Err(WatchError::NoSummarizeTool);
        }
        let settings = context
            .obsidian_settings()
            .map_err(|_| WatchError::NoVault)?;
        let state_path = state::state_file(&opts.state_dir, &root);
        let loaded = state::load(&state_path)?;
        let first_run = loaded.is_none();
        let rules = SkipRules::new(&settings, &opts.exclude)?;
        let scheduler = Scheduler::new(opts.settle, opts.concurrency);
        let state = loaded.unwrap_or_else(|| WatchState::empty(&root));
        let budget = Budget::new(
            opts.max_per_hour,
            opts.budget_window,
            state.started_ns.iter().copied(),
            now_ns(),
        );
        let daily = DailyUsage::new(today(), registry.usage());
        Ok(Driver {
            tracker: Tracker::new(state),
            budget,
            announced: None,
            registry,
            root,
            state_path,
            rules,
            scheduler,
            first_run,
            retries: HashMap::new(),
            failed: HashMap::new(),
            jobs: HashMap::new(),
            save_at: None,
            daily,
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
        // The watcher starts before the catch-up walk so a note created during the walk is
        // seen by one or the other.
        let changes: Option<VaultChanges> = if self.opts.once {
            None
        } else {
            Some(
                self.context()
                    .watch_vault(
                        self.opts.backend,
                        self.opts.poll_interval,
                        self.opts.reconcile_every.unwrap_or(Duration::MAX),
                    )
                    .map_err(|e| WatchError::Watch(e.to_string()))?,
            )
        };
        let mut events = changes.as_ref().map(VaultChanges::subscribe);
        if let Some(changes) = &changes {
            tracing::info!(
                "watch: watching {} ({})",
                self.root.display(),
                describe_backend(changes.backend())
            );
        }
        self.catch_up();
        let waiting = self.tracker.waiting_count();
        if waiting > 0 {
            tracing::info!(
                "watch: {} from the last run (hourly limit); they go first",
                notes_wait(waiting)
            );
        }
        // A state folder that cannot be written is a setup error, better said at once.
        self.save_now()?;
        let mut tasks: JoinSet<Outcome> = JoinSet::new();
        let mut stopped = false;
        tokio::pin!(shutdown);
        loop {
            self.start_due_jobs(&mut tasks);
            if self.opts.once && tasks.is_empty() && self.scheduler.queued() == 0 {
                break;
            }
            // Checked here, after the jobs were started and before waiting, so what starting
            // them changed (notes now waiting for the hourly limit) is saved too.
            if self.tracker.take_dirty() && self.save_at.is_none() {
                self.save_at = Some(Instant::now() + SAVE_DELAY);
            }
            let next_due = self.scheduler.next_deadline();
            let budget_room = self.budget_room_at();
            let save_at = self.save_at;
            tokio::select! {
                biased;
                _ = &mut shutdown => {
                    tracing::info!("watch: stopping; no new summaries start");
                    stopped = true;
                    break;
                }
                Some(done) = tasks.join_next_with_id(), if !tasks.is_empty() => self.on_done(done, true),
                Some(batch) = next_batch(&mut events), if events.is_some() => self.on_events(batch),
                _ = sleep_until(next_due.unwrap_or_else(Instant::now)), if next_due.is_some() => {}
                _ = sleep_until(budget_room.unwrap_or_else(Instant::now)), if budget_room.is_some() => {}
                _ = sleep_until(save_at.unwrap_or_else(Instant::now)), if save_at.is_some() => { self.save(); }
            }
        }
        drop(events);
        drop(changes);
        self.drain(&mut tasks).await;
        if !self.opts.once {
            // Events not delivered yet are picked up by one last walk, so the state is
            // complete as of its start.
            let walked_at = complete_mark_ns();
            self.rescan();
            self.tracker.set_complete_as_of_ns(walked_at);
        }
        let saved = self.save();
        self.report.notes = self.tracker.state().notes.len();
        self.report.pending = self
            .tracker
            .state()
            .notes
            .values()
            .filter(|r| r.status == NoteStatus::New)
            .count();
        self.report.waiting = self.tracker.waiting_count();
        // What today cost so far, at every end (a stop, or the end of `--once`).
        self.log_daily_usage();
        tracing::info!("{}", self.daily.line(self.registry.usage(), "used today"));
        if stopped {
            let r = &self.report;
            tracing::info!(
                "watch: stopped; {} notes summarized in this run, {} failed, {} wait for the hourly limit, {} new notes pending; {}",
                r.summarized,
                r.failed,
                r.waiting,
                r.pending,
                if saved { "state saved" } else { "the state could not be saved" }
            );
        }
        Ok(self.report)
    }

    /// Logs the day that ended, once a result comes in on a later day.
    fn log_daily_usage(&mut self) {
        if let Some(line) = self.daily.roll_over(today(), self.registry.usage()) {
            tracing::info!("{line}");
        }
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
                        "watch: abandoning {} summaries in flight; their notes are unchanged and stay pending",
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
        let found = self.walk(true);
        let complete_before = self.tracker.complete_as_of_ns();
        self.tracker.set_complete_as_of_ns(walked_at);
        if self.first_run {
            for note in &found {
                if let Some(facts) = self.inspect(&note.path) {
                    self.tracker.record_old(&note.path, facts.stamp.into());
                }
            }
            tracing::info!(
                "watch: first run on this vault: {} existing notes recorded, none summarized",
                found.len()
            );
            return;
        }
        self.reconcile_found(&found, Some(complete_before));
    }

    /// Walks the whole vault again (events were lost, or the watcher changed).
    fn rescan(&mut self) {
        let found = self.walk(false);
        self.reconcile_found(&found, None);
    }

    fn context(&self) -> &ToolContext {
        self.registry.context()
    }

    /// Every note of the vault now; an unreadable vault root reads as empty for this round.
    /// What the walk left out is said: at the catch-up (`at_start`) counted at the default
    /// level, each entry named with `-v`; at later walks only with `-vv`.
    fn walk(&self, at_start: bool) -> Vec<NoteEntry> {
        let list = self.context().list_notes().unwrap_or_else(|error| {
            tracing::warn!("watch: cannot walk the vault: {error}");
            Default::default()
        });
        if at_start && !list.left_out.is_empty() {
            tracing::info!(
                "watch: {} left out of the scan ({}); -v names each",
                plural_entries(list.left_out.len()),
                by_reason(&list.left_out)
            );
        }
        for entry in &list.left_out {
            if at_start {
                tracing::info!(target: SCAN_LOG, "left out of the scan: {}", entry.describe());
            } else {
                tracing::debug!("left out of the scan: {}", entry.describe());
            }
        }
        list.notes
    }

    /// The note's facts now, or `None` when it is gone or unreadable.
    fn inspect(&self, rel: &str) -> Option<NoteFacts> {
        self.context().inspect_note(rel).ok()
    }

    /// The facts of a note a walk found, or `None` when it cannot be read now (deleted since
    /// the walk, unreadable), which is said with `-v` like what the walk left out.
    fn inspect_found(&self, rel: &str) -> Option<NoteFacts> {
        match self.context().inspect_note(rel) {
            Ok(facts) => Some(facts),
            Err(error) => {
                if let Some(error) = error.vault_error() {
                    let entry = LeftOut {
                        path: rel.to_string(),
                        reason: LeftOutReason::of_read_error(error),
                    };
                    tracing::info!(target: SCAN_LOG, "left out of the scan: {}", entry.describe());
                }
                None
            }
        }
    }

    /// Brings the state in line with a full walk. `catch_up` holds, at start, when the state
    /// was last complete: unknown notes born before that are old notes moved while stopped.
    fn reconcile_found(&mut self, found: &[NoteEntry], catch_up: Option<i128>) {
        let catching_up = catch_up.is_some();
        let present: std::collections::HashSet<&str> =
            found.iter().map(|n| n.path.as_str()).collect();
        // Disappeared notes first, so a note that moved is matched as a rename.
        for rel in self.tracker.paths() {
            if !present.contains(rel.as_str()) {
                for gone in self.tracker.forget(&rel) {
                    self.scheduler.cancel(&gone);
                }
            }
        }
        for note in found {
            let (rel, times) = (&note.path, note.times);
            let unchanged = self
                .tracker
                .looks_unchanged(rel, times.size, times.modified_ns);
            if unchanged && !catching_up {
                continue;
            }
            if unchanged {
                if self.tracker.record(rel).map(|r| r.status) == Some(NoteStatus::New) {
                    self.schedule_by_mtime(rel, times.modified_ns);
                }
                continue;
            }
            let Some(facts) = self.inspect_found(rel) else {
                continue;
            };
            let stamp = facts.stamp.into();
            let born_before = match (catch_up, times.created_ns) {
                (Some(complete), Some(created)) => created < complete,
                _ => false,
            };
            let seen = if born_before {
                self.tracker.observe_existing(rel, stamp)
            } else {
                self.tracker.observe(rel, stamp)
            };
            if let Change::RenamedFrom(from) = &seen.change {
                self.scheduler.cancel(from);
            }
            if seen.status == NoteStatus::New {
                if catching_up {
                    self.schedule_by_mtime(rel, times.modified_ns);
                } else if seen.change != Change::Unchanged {
                    self.scheduler.touch(rel, Instant::now());
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
            tracing::info!(
                "watch: {rel} changed too recently to be settled; left for the next run"
            );
            return;
        }
        self.scheduler.schedule_at(rel, later(Instant::now(), wait));
    }

    fn on_events(&mut self, batch: Vec<VaultChange>) {
        let mut touched: Vec<String> = Vec::new();
        for change in batch {
            match change {
                VaultChange::Touched(rel) => touched.push(rel),
                VaultChange::Renamed { from, to } => {
                    for (old, new) in self.tracker.rename(&from, &to) {
                        tracing::debug!("renamed: {old} -> {new}");
                        self.scheduler.rename(&old, &new);
                    }
                }
                VaultChange::Rescan => {
                    tracing::warn!("watch: file events were lost; walking the vault again");
                    self.rescan();
                }
                VaultChange::Reconcile => {
                    tracing::debug!("watch: walking the vault in case events were lost");
                    self.rescan();
                }
                VaultChange::SettingsChanged => self.reload_rules(),
            }
        }
        // What is gone first, so a note that moved is matched as a rename.
        let mut present = Vec::new();
        for rel in touched {
            match self.inspect(&rel).filter(|_| is_visible_note(&rel)) {
                Some(facts) => present.push((rel, facts)),
                None => {
                    for gone in self.tracker.forget(&rel) {
                        self.scheduler.cancel(&gone);
                    }
                }
            }
        }
        for (rel, facts) in present {
            self.observe(&rel, facts);
        }
    }

    /// Reads Obsidian's settings again after one of its settings files changed.
    fn reload_rules(&mut self) {
        let rules = self
            .context()
            .obsidian_settings()
            .map_err(|e| e.to_string())
            .and_then(|settings| {
                SkipRules::new(&settings, &self.opts.exclude).map_err(|e| e.to_string())
            });
        match rules {
            Ok(rules) => self.rules = rules,
            Err(error) => tracing::warn!("watch: keeping the previous skip rules: {error}"),
        }
    }

    /// Looks at a note's current content after an event.
    fn reconcile_file(&mut self, rel: &str) {
        let Some(facts) = self.inspect(rel) else {
            for gone in self.tracker.forget(rel) {
                self.scheduler.cancel(&gone);
            }
            return;
        };
        self.observe(rel, facts);
    }

    /// Records what a note is now and, when it is new and changed, (re)starts its settle time.
    fn observe(&mut self, rel: &str, facts: NoteFacts) {
        let seen = self.tracker.observe(rel, facts.stamp.into());
        if let Change::RenamedFrom(from) = &seen.change {
            tracing::debug!("renamed: {from} -> {rel}");
            self.scheduler.cancel(from);
        }
        // A new note settles before its first summary; with `refresh`, an edited note with a
        // summary settles before the summary is refreshed.
        let refreshable = self.opts.refresh && seen.change == Change::Edited;
        if (seen.status == NoteStatus::New && seen.change != Change::Unchanged) || refreshable {
            self.scheduler.touch(rel, Instant::now());
        }
    }

    /// Starts jobs while there is room in flight and in the hourly limit: the notes waiting
    /// for the limit first, longest waiting first, then notes as they become due. Once the
    /// limit is reached, notes that become due join the wait (in the state, so a restart
    /// keeps them).
    fn start_due_jobs(&mut self, tasks: &mut JoinSet<Outcome>) {
        let now = Instant::now();
        let now_ns = now_ns();
        loop {
            if !self.budget.has_room(now_ns) {
                self.hold_due_notes(now, now_ns);
                break;
            }
            if !self.scheduler.has_room() {
                break;
            }
            let rel = match self.next_waiting(now) {
                Some(rel) => {
                    self.scheduler.start(&rel);
                    rel
                }
                None => match self.scheduler.take_due(now) {
                    Some(rel) => rel,
                    None => break,
                },
            };
            self.tracker.unwait(&rel);
            let Some(job) = self.decide(&rel) else {
                self.scheduler.finish(&rel);
                continue;
            };
            self.budget.record(now_ns);
            let registry = self.registry.clone();
            let min_chars = self.opts.min_chars;
            let hash = job.hash.clone();
            let handle = tasks.spawn(run_job(registry, job, min_chars));
            self.jobs.insert(handle.id(), (rel, hash));
        }
        self.tracker.set_started(self.budget.starts());
        self.announce_waiting(now, now_ns);
    }

    /// The note that has waited longest for the hourly limit, unless it is being edited again
    /// (it then waits out its settle time first, keeping its place).
    fn next_waiting(&self, now: Instant) -> Option<String> {
        self.tracker
            .waiting_oldest_first()
            .into_iter()
            .find(|rel| !self.scheduler.is_settling(rel, now))
    }

    /// The hourly limit is reached: every note due now that would be summarized waits (a
    /// waiting note that no longer would, say one given a `## Summary` by hand, leaves).
    fn hold_due_notes(&mut self, now: Instant, now_ns: i128) {
        while let Some(rel) = self.scheduler.pop_due(now) {
            if self.decide(&rel).is_some() {
                self.tracker.wait(&rel, now_ns);
            } else {
                self.tracker.unwait(&rel);
            }
        }
    }

    /// Says how many notes wait for the hourly limit when that changes, at most once a
    /// [`ANNOUNCE_EVERY`]: `watch: hourly limit of 60 reached; 240 notes wait (next in 12 min)`.
    fn announce_waiting(&mut self, now: Instant, now_ns: i128) {
        let waiting = self.tracker.waiting_count();
        let (Some(limit), Some(next)) = (self.budget.limit(), self.budget.next_room_in(now_ns))
        else {
            return;
        };
        if waiting == 0 {
            // The backlog is cleared: the next time the limit is reached is news again.
            self.announced = None;
            return;
        }
        if next.is_zero() {
            return;
        }
        let due = match self.announced {
            None => true,
            Some((count, at)) => {
                count != waiting && now.saturating_duration_since(at) >= ANNOUNCE_EVERY
            }
        };
        if due {
            tracing::info!(
                "watch: hourly limit of {limit} reached; {} (next in {})",
                notes_wait(waiting),
                describe_wait(next)
            );
            self.announced = Some((waiting, now));
        }
    }

    /// When the hourly limit next lets a waiting note start, while notes wait for it.
    fn budget_room_at(&mut self) -> Option<Instant> {
        if self.tracker.waiting_count() == 0 {
            return None;
        }
        let wait = self.budget.next_room_in(now_ns())?;
        Some(later(Instant::now(), wait))
    }

    /// Every rule, on the note as it is now: `None` when it is not to be summarized.
    fn decide(&mut self, rel: &str) -> Option<Job> {
        let NoteFacts { stamp, text } = self.inspect(rel)?;
        let hash = stamp.hash.clone();
        let seen = self.tracker.observe(rel, stamp.into());
        let skip = |why: &str| {
            tracing::debug!("{rel}: not summarized ({why})");
            None
        };
        let context = self.registry.context();
        let exists = |path: &str| context.file_exists(path).unwrap_or(false);
        if let Some(reason) = self.rules.check(rel, exists) {
            return skip(&reason.to_string());
        }
        if seen.status != NoteStatus::New {
            if !self.opts.refresh {
                return skip("not a new note");
            }
            if text.opted_out {
                return skip("its frontmatter says summarize: false");
            }
            if self.failed.get(rel) == Some(&hash) {
                return skip("it failed before and has not been edited since");
            }
            // Only a summary the fingerprints say is stale; the summary's own write leaves it
            // current, so writing it never starts another refresh.
            return match context.refresh_existing(rel) {
                Ok(Some(reason)) => skip(reason),
                Ok(None) => Some(Job {
                    rel: rel.to_string(),
                    hash,
                    check_expanded: false,
                    refresh: true,
                }),
                Err(error) => skip(&error.to_string()),
            };
        }
        if text.has_summary {
            return skip("it already has a ## Summary");
        }
        if text.opted_out {
            return skip("its frontmatter says summarize: false");
        }
        if self.tracker.was_summarized(&hash) {
            return skip("this content was summarized before");
        }
        if self.failed.get(rel) == Some(&hash) {
            return skip("it failed before and has not been edited since");
        }
        let body = text.body_chars;
        if body < self.opts.min_chars && !text.has_embeds {
            return skip(&format!(
                "{body} characters of body, fewer than {}",
                self.opts.min_chars
            ));
        }
        Some(Job {
            rel: rel.to_string(),
            hash,
            check_expanded: body < self.opts.min_chars,
            refresh: false,
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
        self.log_daily_usage();
        match outcome {
            Some(Outcome::TooShort) => {}
            Some(Outcome::Called(output))
                if !output.is_error && output.details["skipped"].is_string() =>
            {
                // A refresh the tool found unneeded under the note's lock (the summary was
                // made current or edited by hand meanwhile): nothing was written.
                self.retries.remove(&rel);
                tracing::info!(
                    "watch: left {rel} as it is ({})",
                    output.details["skipped"].as_str().unwrap_or_default()
                );
            }
            Some(Outcome::Called(output)) if !output.is_error => {
                self.retries.remove(&rel);
                self.failed.remove(&rel);
                self.report.summarized += 1;
                self.daily.count_summary();
                tracing::info!(
                    "watch: summarized {rel}{}",
                    describe_summary(&output.details)
                );
                match self.inspect(&rel) {
                    Some(facts) => self
                        .tracker
                        .mark_summarized(&rel, &hash, facts.stamp.into()),
                    None => {
                        self.tracker.forget(&rel);
                    }
                }
                // Saved with the usual delay: should the process die before that, the note
                // already has its `## Summary`, so it is not summarized again anyway.
                // An edit made since the tool read the note may be recorded above as the
                // summarized version (its event not handled yet, or handled while in flight).
                // With `refresh` the note is looked at once more after it settles: the
                // fingerprints, not the events, say whether its summary is stale, so the
                // summary's own write costs a read and never a call.
                if self.opts.refresh {
                    self.scheduler.touch(&rel, Instant::now());
                }
            }
            Some(Outcome::Called(output)) => {
                let error = failure_message(&output);
                let retries = self.retries.get(&rel).copied().unwrap_or(0);
                let policy = self.retry_policy();
                match policy.decide(output.retry, retries, fastrand::f64()) {
                    _ if !may_retry && output.retry.is_some() => {
                        // Stopping: the note stays new and pending, tried again at the next start.
                        tracing::warn!(
                            "watch: could not summarize {rel}: {error}; not retried now (stopping), tried again at the next start"
                        );
                    }
                    RetryDecision::RetryIn { delay, retry } => {
                        tracing::warn!(
                            "watch: could not summarize {rel}: {error}; retry {retry} of {} in {}",
                            policy.max_retries,
                            describe_wait(delay)
                        );
                        self.retries.insert(rel.clone(), retry);
                        self.scheduler
                            .schedule_at(&rel, later(Instant::now(), delay));
                    }
                    decision => {
                        let why = if decision == RetryDecision::OutOfRetries {
                            format!("gave up after {} retries", policy.max_retries)
                        } else {
                            "not retried: trying again would fail the same way".to_string()
                        };
                        tracing::warn!(
                            "watch: could not summarize {rel}: {error}; {why}; left as it is until edited or the watcher restarts"
                        );
                        self.retries.remove(&rel);
                        self.failed.insert(rel.clone(), hash);
                        self.report.failed += 1;
                    }
                }
                if changed_meanwhile && may_retry {
                    self.reconcile_file(&rel);
                }
            }
            None => tracing::warn!("watch: the summary of {rel} stopped unexpectedly"),
        }
    }

    fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy {
            max_retries: self.opts.max_retries,
            base: self.opts.retry_backoff,
        }
    }

    /// Saves the state; a failure is logged (the watcher goes on). True when saved.
    fn save(&mut self) -> bool {
        match self.save_now() {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!("watch: {error}");
                false
            }
        }
    }

    fn save_now(&mut self) -> Result<(), WatchError> {
        self.save_at = None;
        // Notes gone for longer than a rename takes to show up are gone for good.
        let window = RENAME_WINDOW.max(self.opts.poll_interval.saturating_mul(2));
        let dropped = self
            .tracker
            .prune_vanished(std::time::Instant::now(), window);
        if dropped > 0 {
            tracing::debug!("{dropped} deleted notes forgotten");
        }
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
        if read.is_error || text_facts(&read.text).body_chars < min_chars {
            tracing::debug!(
                "{}: not summarized (its expanded text is shorter than {min_chars} characters)",
                job.rel
            );
            return Outcome::TooShort;
        }
    }
    // A refresh asks the tool to write only a stale summary: it checks again under the note's
    // lock, so an edit of the summary made meanwhile is still never replaced.
    let args = if job.refresh {
        json!({ "path": job.rel, "refresh": true })
    } else {
        json!({ "path": job.rel })
    };
    let call_line = registry
        .get(SUMMARIZE_TOOL)
        .map(|tool| tool.render_call(&args))
        .unwrap_or_else(|| format!("{SUMMARIZE_TOOL} {:?}", job.rel));
    tracing::debug!("→ {call_line}");
    // Each step the tool reports ("reading", "part 2/5", "writing"), for following a slow
    // summary at debug level.
    let note = job.rel.clone();
    let steps = ProgressSink::new(move |update| {
        let total = update
            .total
            .map_or_else(|| "?".to_string(), |t| t.to_string());
        tracing::debug!(
            "{note}: {} (step {} of {total})",
            update.message,
            update.done
        );
    });
    let output = with_progress(steps, registry.call(SUMMARIZE_TOOL, args)).await;
    // The one line per result at the default level is the driver's (`watch: summarized …`);
    // the tool's own rendering is for debugging.
    if let Some(tool) = registry.get(SUMMARIZE_TOOL) {
        tracing::debug!("{}", tool.render_result(&output, false));
    }
    Outcome::Called(output)
}

/// ` (812 chars)`, and whether the note changed while its summary was being written.
fn describe_summary(details: &Value) -> String {
    let mut text = match details.get("summary_length").and_then(Value::as_u64) {
        Some(chars) => format!(" ({chars} chars)"),
        None => String::new(),
    };
    if details.get("stale").and_then(Value::as_bool) == Some(true) {
        text.push_str(" (the note changed meanwhile; its edits are kept)");
    }
    text
}

/// What failed, in one line: the tool's `details.error` when it gives one, else its text.
fn failure_message(output: &ToolOutput) -> String {
    let message = output
        .details
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or(&output.text);
    message.lines().next().unwrap_or_default().to_string()
}

/// The next batch of changes, or never when not following changes (`--once`).
async fn next_batch(
    events: &mut Option<tokio::sync::mpsc::UnboundedReceiver<Vec<VaultChange>>>,
) -> Option<Vec<VaultChange>> {
    match events {
        Some(events) => events.recv().await,
        None => std::future::pending().await,
    }
}

fn describe_backend(backend: ChangeBackend) -> String {
    match backend {
        ChangeBackend::Native => "OS file notifications".to_string(),
        ChangeBackend::Polling(interval) => format!("polling every {interval:?}"),
    }
}
