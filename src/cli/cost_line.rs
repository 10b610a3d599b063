//! The cost part of a batch's closing line (`summarize-file`, `rollup`), read from
//! `Registry::usage`: what the paid calls used when there were any, and nothing about calls
//! that were never made, so the offline engine's first run does not talk of requests.

use crate::tools::summarizer::Summarizer;
use crate::tools::{Registry, Usage};

/// What follows the counts of a closing line: `; 4 requests, 480 prompt + 120 completion
/// tokens, 1 media call` when anything was used (every count, zeros included, as before);
/// `, offline` when the offline engine ran and nothing was used; `; no requests` when the LLM
/// engine had nothing to ask (every summary current).
pub fn cost_clause(registry: &Registry) -> String {
    let offline = matches!(
        registry.context().engine_choice().summarizer,
        Summarizer::Local
    );
    clause(registry.usage(), offline)
}

fn clause(usage: Usage, offline: bool) -> String {
    match (usage.is_zero(), offline) {
        (false, _) => format!("; {}", usage.describe()),
        (true, true) => ", offline".to_string(),
        (true, false) => "; no requests".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeros_are_left_out_and_any_use_is_said_in_full() {
        assert_eq!(clause(Usage::default(), true), ", offline");
        assert_eq!(clause(Usage::default(), false), "; no requests");
        let used = Usage {
            requests: 2,
            prompt_tokens: 240,
            completion_tokens: 60,
            media_calls: 0,
        };
        assert_eq!(
            clause(used, false),
            "; 2 requests, 240 prompt + 60 completion tokens, 0 media calls"
        );
        // The offline engine with a key may still describe an image: that is said.
        assert_eq!(
            clause(used, true),
            "; 2 requests, 240 prompt + 60 completion tokens, 0 media calls"
        );
    }
}
