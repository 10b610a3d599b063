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
