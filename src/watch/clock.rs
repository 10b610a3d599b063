//! The watcher's clock: when a walk of the vault is known complete, allowing for the coarse
//! clock file systems stamp files with.

use std::time::UNIX_EPOCH;

/// How far file timestamps may lag the system clock. Linux stamps files from a coarse kernel
/// clock that runs up to one tick (4–10 ms) behind `SystemTime::now()`, so a note created just
/// after a walk can carry a birth time from just *before* it and pass for an old note. Moving the
/// "complete as of" mark back by this slack closes that gap. The cost: a note born within the
/// slack before a stop, then both renamed and edited while stopped, counts as new. Filesystems
/// that round times to seconds (FAT, some network shares) are not covered.
pub const CLOCK_SLACK_NS: i128 = 50_000_000;

/// The instant up to which a walk starting now is known complete, allowing for the slack of
/// file timestamps.
pub fn complete_mark_ns() -> i128 {
    now_ns() - CLOCK_SLACK_NS
}

/// Nanoseconds since the Unix epoch, from the system clock.
pub fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}

/// A wait as people read it in the log: `40 s`, `12 min`, `2 h 5 min`. Rounded up, so a wait
/// is never announced shorter than it is.
pub fn describe_wait(wait: std::time::Duration) -> String {
    let secs = wait
        .as_secs()
        .saturating_add(u64::from(wait.subsec_nanos() > 0));
    if secs < 60 {
        return format!("{secs} s");
    }
    let minutes = secs.div_ceil(60);
    if minutes < 60 {
        return format!("{minutes} min");
    }
    match (minutes / 60, minutes % 60) {
        (hours, 0) => format!("{hours} h"),
        (hours, rest) => format!("{hours} h {rest} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::describe_wait;
    use std::time::Duration;

    #[test]
    fn waits_read_in_seconds_minutes_or_hours_rounded_up() {
        assert_eq!(describe_wait(Duration::from_millis(200)), "1 s");
        assert_eq!(describe_wait(Duration::from_secs(40)), "40 s");
        assert_eq!(describe_wait(Duration::from_secs(61)), "2 min");
        assert_eq!(describe_wait(Duration::from_secs(720)), "12 min");
        assert_eq!(describe_wait(Duration::from_secs(3600)), "1 h");
        assert_eq!(describe_wait(Duration::from_secs(7500)), "2 h 5 min");
        assert!(describe_wait(Duration::MAX).ends_with(" min"));
    }
}
