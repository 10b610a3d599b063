//! The counts part of a batch's closing line (`12 notes: 3 summarized, 8 skipped, 1 failed, 2
//! left out`), worded once for the binary's front ends and the app's engine; what it cost is
//! vaultsum-tools' `batch_line.rs: cost_clause` (`, offline` when nothing was used offline).

/// What a batch did with its notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BatchCounts {
    /// The notes the batch was over.
    pub notes: usize,
    /// Summaries written (or previewed, with `previewed`).
    pub summarized: usize,
    /// Notes left as they were (their summary current, stale without a refresh, edited by hand).
    pub skipped: usize,
    pub failed: usize,
    /// Entries of the folders the scan left out (a symlink out of the vault, a FIFO, …).
    pub left_out: usize,
}

/// `12 notes: 3 summarized, 8 skipped, 1 failed, 2 left out` (`skipped`, `failed` and `left
/// out` only when there are any), `previewed` for a dry run; then `cost` as
/// `cost_clause` words it.
pub fn closing_line(counts: &BatchCounts, previewed: bool, cost: &str) -> String {
    let verb = if previewed { "previewed" } else { "summarized" };
    let mut line = format!(
        "{}: {} {verb}",
        plural(counts.notes, "note"),
        counts.summarized
    );
    for (count, what) in [
        (counts.skipped, "skipped"),
        (counts.failed, "failed"),
        (counts.left_out, "left out"),
    ] {
        if count > 0 {
            line.push_str(&format!(", {count} {what}"));
        }
    }
    format!("{line}{cost}")
}

/// `1 note`, `2 notes`.
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// The cost part of a closing line when the offline engine ran and nothing was used.
pub const OFFLINE: &str = ", offline";

/// Why a folder run is refused when it would summarize `now` notes and the person agreed to
/// `max` (notes were added, or went stale, since the count): nothing is summarized.
pub fn more_than_agreed(now: usize, max: usize) -> String {
    format!(
        "{now} notes to summarize now, more than the {max} counted and agreed to (notes were \
         added or went stale since the count); nothing was summarized: count again"
    )
}
