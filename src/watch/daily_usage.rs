//! Watch's daily total: how many notes were summarized on a day (UTC) and what the paid calls of
//! the process cost that day, logged once the day is over and at stop.
//!
//! The costs are the LLM client's running count (every summary, part, merge, image and
//! recording of the process), read at the start of the day and subtracted at its end; the day
//! is passed in, never read here, so a change of day is tested without waiting for midnight.

use crate::tools::rollup_selection::Day;
use crate::tools::Usage;

/// The day being counted and where the process's count stood when it began.
#[derive(Debug, Clone)]
pub struct DailyUsage {
    day: Day,
    at_start: Usage,
    summarized: usize,
}

impl DailyUsage {
    /// Counting starts on `today`, with the process's count at `now`.
    pub fn new(today: Day, now: Usage) -> DailyUsage {
        DailyUsage {
            day: today,
            at_start: now,
            summarized: 0,
        }
    }

    /// One more note summarized today.
    pub fn count_summary(&mut self) {
        self.summarized += 1;
    }

    /// When `today` is a later day than the one counted: the line for the day that ended, and
    /// counting starts again. Everything counted since the last call is put on the day that
    /// ended (the log line comes at the first result after midnight).
    pub fn roll_over(&mut self, today: Day, now: Usage) -> Option<String> {
        if today <= self.day {
            return None;
        }
        let line = self.line(now, "used on");
        *self = DailyUsage::new(today, now);
        Some(line)
    }

    /// `watch: used on 2026-11-25 (UTC): 12 notes summarized; 14 requests, …`.
    pub fn line(&self, now: Usage, label: &str) -> String {
        let notes = self.summarized;
        format!(
            "watch: {label} {} (UTC): {notes} note{} summarized; {}",
            self.day,
            if notes == 1 { "" } else { "s" },
            now.since(&self.at_start).describe()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(requests: u64, prompt_tokens: u64) -> Usage {
        Usage {
            requests,
            prompt_tokens,
            ..Usage::default()
        }
    }

    #[test]
    fn a_day_is_reported_once_it_is_over_with_only_its_own_costs() {
        let mut daily = DailyUsage::new(Day(20_000), used(5, 500));
        daily.count_summary();
        assert_eq!(daily.roll_over(Day(20_000), used(6, 620)), None);
        let ended = daily.roll_over(Day(20_001), used(7, 700)).unwrap();
        assert!(
            ended.contains("used on 2024-10-04 (UTC): 1 note summarized"),
            "{ended}"
        );
        assert!(ended.contains("2 requests, 200 prompt"), "{ended}");
        let next = daily.line(used(7, 700), "used today");
        assert!(
            next.contains("2024-10-05 (UTC): 0 notes summarized; 0 requests"),
            "{next}"
        );
    }
}
