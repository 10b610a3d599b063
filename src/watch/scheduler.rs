//! When a new note may be summarized: once it has been quiet for the settle time, and only while
//! fewer than `concurrency` summaries are in flight.
//!
//! Time is passed in, never read here, so the rules are tested without sleeping.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use tokio::time::Instant;

/// Settle deadlines and in-flight work, by vault-relative path.
#[derive(Debug)]
pub struct Scheduler {
    settle: Duration,
    limit: usize,
    deadlines: HashMap<String, Instant>,
    queue: BTreeSet<(Instant, String)>,
    in_flight: HashSet<String>,
    changed_in_flight: HashSet<String>,
}

/// `at + wait`, saturating far in the future instead of panicking when the sum does not fit
/// an `Instant` (a settle time or retry delay of absurd size).
pub fn later(at: Instant, wait: Duration) -> Instant {
    const FAR: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    at.checked_add(wait)
        .or_else(|| at.checked_add(FAR))
        .unwrap_or(at)
}

impl Scheduler {
    /// A scheduler with the given settle time and at most `limit` (at least 1) notes in flight.
    pub fn new(settle: Duration, limit: usize) -> Scheduler {
        Scheduler {
            settle,
            limit: limit.max(1),
            deadlines: HashMap::new(),
            queue: BTreeSet::new(),
            in_flight: HashSet::new(),
            changed_in_flight: HashSet::new(),
        }
    }

    /// The note changed at `at`: it becomes due once quiet for the settle time. A note in
    /// flight is not queued again; [`Scheduler::finish`] reports that it changed meanwhile.
    pub fn touch(&mut self, path: &str, at: Instant) {
        self.schedule_at(path, later(at, self.settle));
    }

    /// Queues the note to become due at `deadline` (replacing an earlier deadline).
    pub fn schedule_at(&mut self, path: &str, deadline: Instant) {
        if self.in_flight.contains(path) {
            self.changed_in_flight.insert(path.to_string());
            return;
        }
        self.cancel(path);
        self.deadlines.insert(path.to_string(), deadline);
        self.queue.insert((deadline, path.to_string()));
    }

    /// Forgets a queued note (deleted, or no longer a candidate).
    pub fn cancel(&mut self, path: &str) {
        if let Some(deadline) = self.deadlines.remove(path) {
            self.queue.remove(&(deadline, path.to_string()));
        }
    }

    /// A queued or in-flight note was renamed.
    pub fn rename(&mut self, from: &str, to: &str) {
        if let Some(deadline) = self.deadlines.get(from).copied() {
            self.cancel(from);
            self.schedule_at(to, deadline);
        }
        if self.in_flight.contains(from) {
            // The call under way targets the old path; reporting a change at finish makes the
            // driver look at the outcome again instead of trusting it.
            self.changed_in_flight.insert(from.to_string());
        }
    }

    /// The earliest note that is due at `now`, if one is and there is room in flight. It is
    /// then in flight until [`Scheduler::finish`].
    pub fn take_due(&mut self, now: Instant) -> Option<String> {
        if self.in_flight.len() >= self.limit {
            return None;
        }
        let (deadline, path) = self.queue.first().cloned()?;
        if deadline > now {
            return None;
        }
        self.queue.remove(&(deadline, path.clone()));
        self.deadlines.remove(&path);
        self.in_flight.insert(path.clone());
        Some(path)
    }

    /// The earliest note that is due at `now`, whatever is in flight; it is taken out of the
    /// queue without being put in flight (the driver holds it back for the hourly limit).
    pub fn pop_due(&mut self, now: Instant) -> Option<String> {
        let (deadline, path) = self.queue.first().cloned()?;
        if deadline > now {
            return None;
        }
        self.queue.remove(&(deadline, path.clone()));
        self.deadlines.remove(&path);
        Some(path)
    }

    /// Puts a note taken from elsewhere (the notes waiting for the hourly limit) in flight,
    /// dropping any deadline it had queued.
    pub fn start(&mut self, path: &str) {
        self.cancel(path);
        self.in_flight.insert(path.to_string());
    }

    /// True while fewer than the limit are in flight.
    pub fn has_room(&self) -> bool {
        self.in_flight.len() < self.limit
    }

    /// True when the note is queued and not settled yet at `now` (it was edited recently).
    pub fn is_settling(&self, path: &str, now: Instant) -> bool {
        self.deadlines.get(path).is_some_and(|due| *due > now)
    }

    /// The note is no longer in flight. True when it changed while it was.
    pub fn finish(&mut self, path: &str) -> bool {
        self.in_flight.remove(path);
        self.changed_in_flight.remove(path)
    }

    /// When the next note becomes due, if there is room in flight for it.
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.in_flight.len() >= self.limit {
            return None;
        }
        self.queue.first().map(|(deadline, _)| *deadline)
    }

    /// Notes waiting to settle or for room in flight.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTLE: Duration = Duration::from_secs(30);

    proptest::proptest! {
        /// A settle time or retry delay of any size gives a deadline, never a panic, and never
        /// one earlier than `at`; touching a note with such a settle time does not panic either.
        #[test]
        fn deadlines_never_overflow(secs in proptest::prelude::any::<u64>(), nanos in 0u32..1_000_000_000) {
            let wait = Duration::new(secs, nanos);
            let at = Instant::now();
            let due = later(at, wait);
            proptest::prop_assert!(due >= at);
            if let Some(exact) = at.checked_add(wait) {
                proptest::prop_assert_eq!(due, exact);
            }
            let mut s = Scheduler::new(wait, 1);
            s.touch("a.md", at);
            proptest::prop_assert!(s.next_deadline().is_some());
        }

    }

    #[test]
    fn due_notes_can_be_taken_out_without_room_in_flight_and_started_later() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(Duration::ZERO, 1);
        s.touch("a.md", t0);
        s.touch("b.md", t0 + Duration::from_secs(1));
        s.touch("later.md", t0 + Duration::from_secs(60));
        assert!(s.take_due(t0).is_some());
        assert!(!s.has_room());
        let now = t0 + Duration::from_secs(2);
        assert_eq!(s.pop_due(now).as_deref(), Some("b.md"));
        assert_eq!(s.pop_due(now), None, "later.md is not due");
        assert!(s.is_settling("later.md", now));
        s.finish("a.md");
        s.start("later.md");
        assert!(!s.has_room());
        assert_eq!(s.queued(), 0, "a note started is no longer queued");
    }

    #[test]
    fn note_is_due_only_after_settle_time_of_quiet() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(SETTLE, 2);
        s.touch("a.md", t0);
        assert_eq!(s.take_due(t0 + Duration::from_secs(29)), None);
        assert_eq!(s.take_due(t0 + SETTLE).as_deref(), Some("a.md"));
    }

    #[test]
    fn each_save_restarts_the_settle_clock() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(SETTLE, 2);
        s.touch("a.md", t0);
        s.touch("a.md", t0 + Duration::from_secs(20));
        assert_eq!(s.take_due(t0 + Duration::from_secs(40)), None);
        assert_eq!(s.next_deadline(), Some(t0 + Duration::from_secs(50)));
        assert_eq!(
            s.take_due(t0 + Duration::from_secs(50)).as_deref(),
            Some("a.md")
        );
        assert_eq!(
            s.take_due(t0 + Duration::from_secs(99)),
            None,
            "due once only"
        );
    }

    #[test]
    fn never_more_than_the_limit_in_flight() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(Duration::ZERO, 2);
        for name in ["a.md", "b.md", "c.md"] {
            s.touch(name, t0);
        }
        assert!(s.take_due(t0).is_some());
        assert!(s.take_due(t0).is_some());
        assert_eq!(s.take_due(t0), None);
        assert_eq!(s.next_deadline(), None, "no wake-up while full");
        assert!(!s.finish("a.md"));
        assert_eq!(s.take_due(t0).as_deref(), Some("c.md"));
    }

    #[test]
    fn earliest_settled_note_goes_first() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(SETTLE, 1);
        s.touch("late.md", t0 + Duration::from_secs(5));
        s.touch("early.md", t0);
        let now = t0 + Duration::from_secs(60);
        assert_eq!(s.take_due(now).as_deref(), Some("early.md"));
    }

    #[test]
    fn change_during_flight_is_reported_at_finish_not_queued() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(Duration::ZERO, 1);
        s.touch("a.md", t0);
        assert!(s.take_due(t0).is_some());
        s.touch("a.md", t0);
        assert_eq!(s.queued(), 0);
        assert!(s.finish("a.md"));
        assert!(!s.finish("a.md"));
    }

    #[test]
    fn renamed_note_keeps_its_deadline_under_the_new_name() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(SETTLE, 1);
        s.touch("Untitled.md", t0);
        s.rename("Untitled.md", "Standup.md");
        assert_eq!(s.take_due(t0 + SETTLE).as_deref(), Some("Standup.md"));
        assert_eq!(s.queued(), 0);
    }

    #[test]
    fn cancelled_note_never_becomes_due() {
        let t0 = Instant::now();
        let mut s = Scheduler::new(Duration::ZERO, 1);
        s.touch("gone.md", t0);
        s.cancel("gone.md");
        assert_eq!(s.take_due(t0 + SETTLE), None);
    }
}
