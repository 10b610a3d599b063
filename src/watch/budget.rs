//! The hourly limit (`watch.max_per_hour`): at most that many summaries started in any rolling
//! window of an hour, so a bulk import (a `git pull` bringing 300 notes) cannot start 300 paid
//! calls at once. Every call counts, retries included.
//!
//! Start times are wall-clock nanoseconds ([`super::clock::now_ns`]) kept in the watch state,
//! so a restart (or a crash loop under a service manager) does not reset the count. Time is
//! passed in, never read here, so the rules are tested without waiting an hour.

use std::collections::VecDeque;
use std::time::Duration;

/// The window of the limit.
pub const HOUR: Duration = Duration::from_secs(3600);

/// Start times within the window, oldest first, and the limit.
#[derive(Debug, Clone)]
pub struct Budget {
    /// `None`: no limit.
    limit: Option<u32>,
    window_ns: i128,
    starts: VecDeque<i128>,
}

impl Budget {
    /// A budget of `limit` starts (`None` or 0: no limit) per `window`, counting the `starts`
    /// remembered from earlier runs.
    pub fn new(
        limit: Option<u32>,
        window: Duration,
        starts: impl IntoIterator<Item = i128>,
        now_ns: i128,
    ) -> Budget {
        let mut starts: Vec<i128> = starts.into_iter().collect();
        starts.sort_unstable();
        let mut budget = Budget {
            limit: limit.filter(|n| *n > 0),
            window_ns: i128::try_from(window.as_nanos()).unwrap_or(i128::MAX),
            starts: starts.into(),
        };
        budget.prune(now_ns);
        budget
    }

    /// The limit, when there is one.
    pub fn limit(&self) -> Option<u32> {
        self.limit
    }

    /// True when a summary may start at `now_ns`.
    pub fn has_room(&mut self, now_ns: i128) -> bool {
        self.prune(now_ns);
        match self.limit {
            None => true,
            Some(limit) => self.starts.len() < limit as usize,
        }
    }

    /// Counts a summary started at `now_ns` (nothing is kept without a limit).
    pub fn record(&mut self, now_ns: i128) {
        if self.limit.is_some() {
            let at = self.starts.back().map_or(now_ns, |last| now_ns.max(*last));
            self.starts.push_back(at);
        }
    }

    /// How long from `now_ns` until a summary may start: zero when one may start now, `None`
    /// without a limit.
    pub fn next_room_in(&mut self, now_ns: i128) -> Option<Duration> {
        let limit = self.limit? as usize;
        self.prune(now_ns);
        if self.starts.len() < limit {
            return Some(Duration::ZERO);
        }
        // Room comes back when enough of the oldest starts have left the window.
        let frees = self.starts[self.starts.len() - limit];
        let wait = frees.saturating_add(self.window_ns).saturating_sub(now_ns);
        Some(Duration::from_nanos(wait.clamp(0, u64::MAX as i128) as u64))
    }

    /// The start times to remember in the state.
    pub fn starts(&self) -> Vec<i128> {
        self.starts.iter().copied().collect()
    }

    /// Forgets starts that have left the window. A start in the future (the clock was set
    /// back) counts as starting now, so a clock change cannot hold the watcher back for long.
    fn prune(&mut self, now_ns: i128) {
        for start in self.starts.iter_mut() {
            *start = (*start).min(now_ns);
        }
        while self
            .starts
            .front()
            .is_some_and(|start| now_ns.saturating_sub(*start) >= self.window_ns)
        {
            self.starts.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SEC: i128 = 1_000_000_000;
    const T0: i128 = 1_700_000_000 * SEC;

    #[test]
    fn at_most_the_limit_start_within_an_hour() {
        let mut b = Budget::new(Some(2), HOUR, [], T0);
        assert!(b.has_room(T0));
        b.record(T0);
        b.record(T0 + SEC);
        assert!(!b.has_room(T0 + 2 * SEC));
        assert!(!b.has_room(T0 + 3599 * SEC));
        // The first start leaves the window an hour after it was made.
        assert!(b.has_room(T0 + 3600 * SEC));
    }

    #[test]
    fn says_when_the_next_summary_may_start() {
        let mut b = Budget::new(Some(2), HOUR, [T0, T0 + 60 * SEC], T0 + 120 * SEC);
        assert_eq!(
            b.next_room_in(T0 + 120 * SEC),
            Some(Duration::from_secs(3480))
        );
        assert_eq!(b.next_room_in(T0 + 3600 * SEC), Some(Duration::ZERO));
    }

    #[test]
    fn zero_or_none_is_no_limit() {
        for limit in [None, Some(0)] {
            let mut b = Budget::new(limit, HOUR, [], T0);
            for i in 0..1000 {
                assert!(b.has_room(T0 + i));
                b.record(T0 + i);
            }
            assert_eq!(b.next_room_in(T0), None);
            assert!(b.starts().is_empty());
        }
    }

    #[test]
    fn starts_from_an_earlier_run_count() {
        let mut b = Budget::new(Some(2), HOUR, [T0 + SEC, T0], T0 + 10 * SEC);
        assert!(!b.has_room(T0 + 10 * SEC));
        assert_eq!(b.starts(), [T0, T0 + SEC]);
        // Starts older than the window are forgotten.
        let b = Budget::new(Some(2), HOUR, [T0 - 3600 * SEC, T0], T0);
        assert_eq!(b.starts(), [T0]);
    }

    #[test]
    fn a_clock_set_back_does_not_hold_the_watcher_for_long() {
        let mut b = Budget::new(Some(1), HOUR, [T0 + 86_400 * SEC], T0);
        assert!(!b.has_room(T0));
        assert!(b.has_room(T0 + 3600 * SEC));
    }

    proptest! {
        /// Any limit, window and start times: never a panic, never more than the limit
        /// remembered within the window, and a wait no longer than the window.
        #[test]
        fn budget_arithmetic_is_bounded(
            limit in 0u32..100,
            window_secs in any::<u64>(),
            starts in proptest::collection::vec(any::<i64>(), 0..50),
            now in any::<i64>(),
        ) {
            let window = Duration::from_secs(window_secs);
            let now = i128::from(now);
            let mut b = Budget::new(Some(limit), window, starts.iter().map(|s| i128::from(*s)), now);
            if let Some(wait) = b.next_room_in(now) {
                prop_assert!(wait <= window);
                prop_assert_eq!(wait.is_zero(), b.has_room(now));
            }
            if b.has_room(now) {
                b.record(now);
            }
        }
    }
}
