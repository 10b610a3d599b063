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
use crate::llm::ChatClient;
use crate::summarizer::{SummaryRequest, SummaryText};
pub use crate::summary::clean::clean_summary;
pub use crate::summary::fact_marks::{
    finish, not_found_suffix, unchecked, Checked, FactCheckRun, FactReport, KAGI_UNCHECKED,
    MARK_TITLE,
};
use crate::summary::fact_retry::{corrected, correction_request};

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
            if let Some(text) = corrected(&run.source, &answer.text, &first, &reply) {
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
