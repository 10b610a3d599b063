//! The closing line of a batch (`vaultsum summarize-file FOLDER`, the `summarize_folder` tool):
//! what was done and what it cost, worded once for every front end, `12 notes: 3 summarized,
//! 8 skipped, 1 failed, 2 left out; 3 requests, 1,240 prompt + 300 completion tokens, 0 media
//! calls`. The cost part says nothing about calls that were never made, so the offline
//! engine's first run does not talk of requests.

pub use crate::summary::batch_line::{closing_line, plural, BatchCounts, OFFLINE};
use crate::Usage;

/// What follows the counts of a closing line: `; 4 requests, 480 prompt + 120 completion
/// tokens, 1 media call` when anything was used (every count, zeros included); `, offline`
/// when the offline engine ran and nothing was used; `; no requests` when the LLM engine had
/// nothing to ask (every summary current).
pub fn cost_clause(usage: Usage, offline: bool) -> String {
    match (usage.is_zero(), offline) {
        (false, _) => format!("; {}", usage.describe()),
        (true, true) => OFFLINE.to_string(),
        (true, false) => "; no requests".to_string(),
    }
}

/// The two usages added.
pub fn add_usage(a: Usage, b: Usage) -> Usage {
    Usage {
        requests: a.requests + b.requests,
        prompt_tokens: a.prompt_tokens + b.prompt_tokens,
        completion_tokens: a.completion_tokens + b.completion_tokens,
        media_calls: a.media_calls + b.media_calls,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_are_left_out_and_any_use_is_said_in_full() {
        assert_eq!(cost_clause(Usage::default(), true), ", offline");
        assert_eq!(cost_clause(Usage::default(), false), "; no requests");
        let used = Usage {
            requests: 2,
            prompt_tokens: 240,
            completion_tokens: 60,
            media_calls: 0,
        };
        assert_eq!(
            cost_clause(used, false),
            "; 2 requests, 240 prompt + 60 completion tokens, 0 media calls"
        );
        // The offline engine with a key may still describe an image: that is said.
        assert_eq!(
            cost_clause(used, true),
            "; 2 requests, 240 prompt + 60 completion tokens, 0 media calls"
        );
    }

    #[test]
    fn the_counts_name_only_what_happened() {
        let counts = BatchCounts {
            notes: 12,
            summarized: 3,
            skipped: 8,
            failed: 1,
            left_out: 0,
        };
        assert_eq!(
            closing_line(&counts, false, ", offline"),
            "12 notes: 3 summarized, 8 skipped, 1 failed, offline"
        );
        let one = BatchCounts {
            notes: 1,
            summarized: 1,
            ..BatchCounts::default()
        };
        assert_eq!(closing_line(&one, true, ""), "1 note: 1 previewed");
    }
}
