//! What a model's answer must be before anything reads it as a summary: an answer that went
//! round in a loop is cut before its first repeat ([`crate::llm::repetition`]); one that the
//! output cap or the request timeout stopped is kept up to its last whole item, with a marker
//! saying which ([`crate::llm::cut_answer`]), or is an error when nothing whole is left. A cut
//! answer is never written as if it were whole, whoever sent the request (the native client,
//! or the plugin through Obsidian's `requestUrl`).

use crate::llm::cut_answer;
use crate::llm::repetition;
use crate::llm::stream::STOPPED_AT_TIMEOUT;
use crate::llm::{ChatReply, LlmError};

/// How an answer was finished (for the host's logs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finished {
    /// Kept as it came.
    Whole,
    /// Cut before the first repeat of a loop.
    LoopCut,
    /// Kept up to its last whole item: the output cap stopped it.
    CapCut,
    /// Kept up to its last whole item: it was still coming at the request timeout.
    TimeoutCut,
}

/// `reply` as it may be read: loops and cut ends taken off (see the module). `cap`: the output
/// cap the request carried; `timeout_secs`: the request timeout (both for the errors' words).
pub fn finish_reply(
    mut reply: ChatReply,
    cap: u32,
    timeout_secs: u64,
) -> Result<(ChatReply, Finished), LlmError> {
    // A loop is cut before its first repeat, whether the cap or the model ended it.
    if let Some(cleaned) = repetition::without_loop(&reply.content) {
        reply.content = cleaned;
        reply.repeats_cut = true;
        return Ok((reply, Finished::LoopCut));
    }
    match reply.finish_reason.as_deref() {
        Some("length") => {
            reply.content =
                cut_answer::to_last_whole_item(&reply.content).ok_or(LlmError::CutOff { cap })?;
            reply.cut_at_cap = true;
            Ok((reply, Finished::CapCut))
        }
        Some(STOPPED_AT_TIMEOUT) => {
            reply.content =
                cut_answer::to_last_whole_item_with(&reply.content, cut_answer::TIMEOUT_MARKER)
                    .ok_or(LlmError::Timeout {
                        secs: timeout_secs,
                        attempts: reply.attempts,
                    })?;
            reply.cut_at_cap = true;
            Ok((reply, Finished::TimeoutCut))
        }
        _ => Ok((reply, Finished::Whole)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(content: &str, finish: &str) -> ChatReply {
        ChatReply {
            content: content.to_string(),
            reasoning: None,
            finish_reason: Some(finish.to_string()),
            usage: None,
            attempts: 1,
            repeats_cut: false,
            cut_at_cap: false,
            shared: false,
        }
    }

    #[test]
    fn a_whole_answer_is_kept_as_it_came() {
        let (kept, how) = finish_reply(reply("- One.\n- Two.", "stop"), 100, 60).unwrap();
        assert_eq!(
            (kept.content.as_str(), how),
            ("- One.\n- Two.", Finished::Whole)
        );
    }

    #[test]
    fn an_answer_stopped_at_the_cap_keeps_its_whole_items_and_says_so() {
        let (kept, how) = finish_reply(reply("- One.\n- Two.\n- Thr", "length"), 100, 60).unwrap();
        assert_eq!(how, Finished::CapCut);
        assert!(kept.content.starts_with("- One.\n- Two.") && !kept.content.contains("Thr"));
        assert!(
            kept.content.ends_with(cut_answer::CAP_MARKER),
            "{}",
            kept.content
        );
        let err = finish_reply(reply("Thr", "length"), 100, 60).unwrap_err();
        assert!(matches!(err, LlmError::CutOff { cap: 100 }), "{err:?}");
    }

    #[test]
    fn a_loop_is_cut_before_its_first_repeat() {
        let line = "- The team agreed to ship the release on Friday after review.\n";
        let looped = format!("- Intro point.\n{}", line.repeat(4));
        let (kept, how) = finish_reply(reply(&looped, "length"), 100, 60).unwrap();
        assert_eq!(how, Finished::LoopCut);
        assert_eq!(
            kept.content.matches("ship the release").count(),
            1,
            "{}",
            kept.content
        );
    }
}
