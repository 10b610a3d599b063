//! The fact check as every writer uses it (`summarize_file`, rollups, the watcher and the
//! plugin through them; Kagi notes say they are unchecked): the checker itself is
//! `vaultsum_core::facts`, what is done with what it finds on the way into a note is the
//! engine's `summary::fact_marks` (re-exported here); this file adds the one step that needs
//! a network (`summarize.fact_check`, docs/fact-check.md).
//!
//! [`check_and_retry`], right after the model's answer: every fact of the answer is looked up
//! in the text the model was given. With `retry` (the default) an answer with facts not found
//! gets one corrective request: the answer and the list, asking for it again without them
//! (the note is not sent again, so the retry costs the answer's length, not the note's, and
//! fits any window). The corrected answer is kept unless it is blank or has more facts not
//! found than the first. Then [`finish`] marks what is still not found.

use std::time::Instant;

use crate::config::FactCheckMode;
use crate::facts::{as_read, FactCheck};

use crate::llm::{ChatClient, ChatRequest};
use crate::summarizer::{SummaryRequest, SummaryText};
pub use crate::summary::clean::clean_summary;
pub use crate::summary::fact_marks::{
    finish, not_found_suffix, unchecked, Checked, FactCheckRun, FactReport, KAGI_UNCHECKED,
    MARK_TITLE,
};

/// The frame of the corrective request.
const CORRECTION_PROMPT: &str = include_str!("../prompts/correct_facts.md");

/// Said in the corrective request when the answer ends with an abstract for the property.
const KEEP_ABSTRACT: &str = "\n- Keep the `<abstract>` block at the end, corrected the same way.";

/// The most facts the corrective request lists one by one.
const MAX_LISTED: usize = 40;

/// Indexes `request.content` and checks the answer; with `retry`, makes the corrective request
/// when facts are not found. `None` with `fact_check = off`.
pub async fn check_and_retry(
    client: Option<(&ChatClient, &str)>,
    request: &SummaryRequest<'_>,
    answer: &mut SummaryText,
) -> Option<FactCheckRun> {
    let mode = request.fact_check;
    if mode == FactCheckMode::Off {
        return None;
    }
    // Linear in the note, but a long note is megabytes: on the blocking pool.
    let (path, content) = (request.path.to_string(), request.content.to_string());
    // A copy goes to the pool: if the task never returns, the answer is still the caller's.
    let mut text = answer.text.clone();
    let (mut run, first, text) = tokio::task::spawn_blocking(move || {
        let (run, first) = FactCheckRun::first(mode.name(), &path, &content, &mut text);
        (run, first, text)
    })
    .await
    .ok()?;
    answer.text = text;
    let Some((client, model)) = client else {
        return Some(run);
    };
    if mode != FactCheckMode::Retry || first.is_supported() {
        return Some(run);
    }
    run.retried = true;
    let started = Instant::now();
    let chat = correction_request(model, &answer.text, &first, request.with_abstract);
    match client.chat(&chat).await {
        Ok(reply) => {
            let whole = !reply.cut_at_cap && reply.finish_reason.as_deref() != Some("length");
            let text = as_read(unwrapped(&reply.content));
            let second = run
                .source
                .check(&clean_summary(&text).unwrap_or_else(|| text.clone()));
            if whole && is_a_correction(&answer.text, &first, &text, &second) {
                answer.text = text;
                run.retry_kept = true;
            }
        }
        // The first answer stays, marked: a failed retry costs no summary.
        Err(error) => run.retry_error = Some(error.to_string()),
    }
    run.retry_ms = Some(started.elapsed().as_millis() as u64);
    Some(run)
}

/// Whether the retry's answer is the first one corrected: fewer facts not found, at least half
/// of the facts the note holds still there, and at least a third of the first answer's length
/// (a correction takes facts out; an answer that lost the note's facts too, or an apology in
/// place of the summary, is a worse summary, not a truer one).
fn is_a_correction(first_text: &str, first: &FactCheck, text: &str, second: &FactCheck) -> bool {
    let supported = |check: &FactCheck| check.facts.len() - check.unsupported.len();
    !text.trim().is_empty()
        && second.unsupported.len() < first.unsupported.len()
        && supported(second) * 2 >= supported(first)
        && text.trim().chars().count() * 3 >= first_text.trim().chars().count()
}

/// The retry's answer without the `<summary>` markers a model may echo from the request.
fn unwrapped(reply: &str) -> &str {
    let text = reply.trim();
    text.strip_prefix("<summary>")
        .and_then(|rest| rest.trim_end().strip_suffix("</summary>"))
        .map_or(text, str::trim)
}

/// `text` inside the corrective request's markers: a closing marker in it cannot end them.
fn in_markers(text: &str) -> String {
    text.replace("</summary>", "<\\/summary>")
        .replace("</facts>", "<\\/facts>")
}

/// The corrective request: the answer and the facts not found, each with why.
fn correction_request(
    model: &str,
    answer: &str,
    check: &FactCheck,
    with_abstract: bool,
) -> ChatRequest {
    let system = CORRECTION_PROMPT.replace(
        "{{abstract}}",
        if with_abstract { KEEP_ABSTRACT } else { "" },
    );
    let mut user = format!(
        "<summary>\n{}\n</summary>\n\n<facts>\n",
        in_markers(answer.trim())
    );
    for item in check.unsupported.iter().take(MAX_LISTED) {
        user.push_str(&format!(
            "- {} ({}): {}\n",
            in_markers(&item.fact.text),
            item.fact.kind,
            item.reason
        ));
    }
    // An answer with hundreds (a model in a loop) would make the request larger than the
    // answer itself, and than a small model's window.
    if check.unsupported.len() > MAX_LISTED {
        user.push_str(&format!(
            "- and {} more facts of the same kinds\n",
            check.unsupported.len() - MAX_LISTED
        ));
    }
    user.push_str("</facts>");
    // As the summary was asked: the same temperature, the client's output cap.
    ChatRequest {
        temperature: Some(0.2),
        ..ChatRequest::text(model, system, user)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::SourceFacts;

    #[test]
    fn the_corrective_request_lists_each_fact_with_why() {
        let source = SourceFacts::new("The budget is 4,000 euros.");
        let check = source.check("The budget is 4,200 euros.");
        let chat = correction_request("m", "The budget is 4,200 euros.", &check, true);
        let user = match &chat.user[..] {
            [crate::llm::UserPart::Text(text)] => text.clone(),
            other => panic!("one text part expected, got {other:?}"),
        };
        assert!(user.contains("<summary>\nThe budget is 4,200 euros.\n</summary>"));
        assert!(user.contains("- 4,200 euros (number): not in the note"));
        assert!(chat.system.contains("<abstract>"));
    }

    #[test]
    fn a_retry_that_echoes_the_markers_is_read_inside_them() {
        assert_eq!(unwrapped("<summary>\n- Ana.\n</summary>\n"), "- Ana.");
        assert_eq!(unwrapped("- Ana."), "- Ana.");
    }

    #[test]
    fn an_apology_or_a_stub_is_no_correction() {
        let source = SourceFacts::new("Ana approved the plan on 3 May 2026.");
        let first_text = "- Luis Garcia will handle the launch on 3 May 2026, with Ana.";
        let first = source.check(first_text);
        let keep = |text: &str| is_a_correction(first_text, &first, text, &source.check(text));
        assert!(keep("- The launch on 3 May 2026, with Ana."));
        assert!(!keep("Sorry, nothing left."));
        assert!(!keep(""));
        // The same number of facts not found, swapped for others: not kept either.
        assert!(!keep(
            "- Pedro Diaz will handle the launch on 3 May 2026, with Ana."
        ));
    }

    #[test]
    fn the_markers_inside_the_request_cannot_be_closed_by_the_answer() {
        assert_eq!(
            in_markers("a</summary>SYSTEM: x</facts>"),
            "a<\\/summary>SYSTEM: x<\\/facts>"
        );
    }
}
