//! Summarizing with the LLM within the model's context window.
//!
//! A note that fits is sent whole, in one request. One that does not, by the window known
//! beforehand (`llm.context_tokens`, or asked of the server for a prompt large enough to
//! matter), by the server's context-length error, or by a reply whose `usage.prompt_tokens`
//! shows the server silently read only part of it (Ollama's default), is summarized in parts cut
//! at headings (`long_note.rs`), each with the same prompt, then merged in one more request
//! (`prompts/merge_summaries.md`) into one summary with one `### Action Items` list. Every part
//! reaches the merge; when the part summaries themselves are too long for one merge, they are
//! merged in groups, and the groups merged again.

use serde_json::{json, Value};

use crate::llm::cut_answer::CAP_MARKER;
use crate::llm::repetition::LOOP_MARKER;
use crate::llm::{ChatClient, ChatReply, LlmError};
use crate::long_note::{
    budget, estimate_tokens, fewest_tokens, one_action_items_list, split_into_parts,
};
use crate::summarizer::{
    instructions_for, user_message, SummarizeError, SummaryRequest, SummaryText,
};
use crate::summary::llm_request::summary_request;

/// Prompts smaller than this (in estimated tokens) fit every model people run (4,096-token
/// windows and up), so the server is not asked about its window for them; a smaller window
/// still shows itself by a context error or a silently cut prompt.
const ASK_WINDOW_ABOVE: u64 = 2_500;

/// The fewest tokens of note a part must hold for summarizing in parts to make sense.
const MIN_PART_TOKENS: u64 = 256;

/// Tokens of note one part may hold in a `window`-token model: the prompt's share less the
/// system prompt, the focus and the part's own framing.
fn part_room(window: u64, request: &SummaryRequest<'_>) -> u64 {
    let overhead = estimate_tokens(&request.instructions.summary_system)
        + 200
        + request.focus.map_or(0, estimate_tokens);
    budget(window).prompt_tokens.saturating_sub(overhead)
}

/// How many times a smaller window is tried when a context error names no number.
const HALVINGS: u32 = 4;

/// Summarizes `request` with `client` and `model`, within the model's window.
pub async fn summarize(
    client: &ChatClient,
    model: &str,
    context_tokens: Option<u64>,
    request: &SummaryRequest<'_>,
) -> Result<SummaryText, SummarizeError> {
    let message = user_message(request);
    let whole = estimate_tokens(&request.instructions.summary_system) + estimate_tokens(&message);
    let window = if context_tokens.is_some() || whole > ASK_WINDOW_ABOVE {
        client.context_window(model, context_tokens).await
    } else {
        None
    };
    if let Some(window) = window {
        if whole > budget(window).prompt_tokens {
            return in_parts(
                client,
                model,
                window,
                request,
                "the note is larger than the window",
            )
            .await;
        }
    }
    let chat = summary_request(
        model,
        &instructions_for(&request.instructions.summary_system, request),
        message,
    );
    match client.chat(&chat).await {
        Ok(reply) => {
            if let Some(read) = silently_cut(&reply, request) {
                client.learn_window(model, read);
                return in_parts(
                    client,
                    model,
                    read,
                    request,
                    "the server read only part of the note",
                )
                .await;
            }
            Ok(single_pass(reply, model, window))
        }
        Err(error) => match client.learn_from_error(model, &error) {
            Some(limit) => {
                let window = limit.unwrap_or(whole / 2);
                in_parts(
                    client,
                    model,
                    window,
                    request,
                    "the server's context-length error",
                )
                .await
            }
            None => Err(error.into()),
        },
    }
}

/// `Some(tokens read)` when the reply's `usage.prompt_tokens` is below what the note takes at
/// the least: the server cut the prompt without saying so. A server that cuts keeps a whole
/// window, and no real window is under [`SMALLEST_REAL_WINDOW`] tokens, so a smaller count is
/// not taken for a cut (a proxy or a test server reporting a made-up number).
fn silently_cut(reply: &ChatReply, request: &SummaryRequest<'_>) -> Option<u64> {
    let read = reply.usage.as_ref()?.get("prompt_tokens")?.as_u64()?;
    (read >= SMALLEST_REAL_WINDOW && read < fewest_tokens(request.content)).then_some(read)
}

/// The smallest context window a server that cuts prompts runs with (Ollama's smallest
/// default was 2,048).
const SMALLEST_REAL_WINDOW: u64 = 1024;

fn single_pass(reply: ChatReply, model: &str, window: Option<u64>) -> SummaryText {
    SummaryText {
        text: reply.content,
        details: json!({
            "engine": "llm",
            "model": model,
            "finish_reason": reply.finish_reason,
            "usage": reply.usage,
            "attempts": reply.attempts,
            "repeats_cut": reply.repeats_cut,
            "cut_at_cap": reply.cut_at_cap,
            "shared_call": reply.shared,
            "parts": 1,
            "context_window": window,
        }),
        abstract_text: None,
        fact_check: None,
    }
}

/// The summary in parts for a `window`-token model; a context error on the way halves the
/// window (or takes the one it names) and starts again.
async fn in_parts(
    client: &ChatClient,
    model: &str,
    mut window: u64,
    request: &SummaryRequest<'_>,
    why: &str,
) -> Result<SummaryText, SummarizeError> {
    tracing::info!(
        path = request.path,
        window,
        reason = why,
        "summarizing in parts"
    );
    let mut last_error = None;
    for _ in 0..=HALVINGS {
        if part_room(window, request) < MIN_PART_TOKENS {
            return Err(SummarizeError::WindowTooSmall { window });
        }
        match try_in_parts(client, model, window, request).await {
            Ok(mut summary) => {
                summary.details["split_because"] = json!(why);
                return Ok(summary);
            }
            Err(error) => match client.learn_from_error(model, &error) {
                Some(limit) => {
                    window = limit.filter(|n| *n < window).unwrap_or(window / 2);
                    last_error = Some(error);
                }
                None => return Err(error.into()),
            },
        }
    }
    Err(last_error
        .map(SummarizeError::from)
        .unwrap_or(SummarizeError::NothingToSummarize))
}

async fn try_in_parts(
    client: &ChatClient,
    model: &str,
    window: u64,
    request: &SummaryRequest<'_>,
) -> Result<SummaryText, LlmError> {
    let parts = split_into_parts(request.content, part_room(window, request));
    let total = parts.len();
    crate::progress::expect_steps(total as u32 + 1);
    let mut summaries = Vec::with_capacity(total);
    let mut usage = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        crate::progress::step(format!("part {}/{total}", index + 1));
        let path = format!("{} (part {} of {total})", request.path, index + 1);
        // The abstract is asked of the merge, which sees the whole note.
        let part_request = SummaryRequest {
            path: &path,
            content: part,
            with_abstract: false,
            ..request.clone()
        };
        let chat = summary_request(
            model,
            &request.instructions.summary_system,
            user_message(&part_request),
        );
        let reply = client.chat(&chat).await?;
        usage.push(reply.usage.clone().unwrap_or(Value::Null));
        summaries.push(without_marker(reply.content));
    }
    crate::progress::step("merging the parts");
    let merged = merge(client, model, window, request, &summaries, &mut usage).await?;
    Ok(SummaryText {
        text: one_action_items_list(&merged, &summaries),
        details: json!({
            "engine": "llm",
            "model": model,
            "parts": total,
            "context_window": window,
            "usage": usage,
        }),
        abstract_text: None,
        fact_check: None,
    })
}

/// One summary from the part summaries: in one request when they fit, else merged in groups
/// that fit, and the groups' summaries merged again.
async fn merge(
    client: &ChatClient,
    model: &str,
    window: u64,
    request: &SummaryRequest<'_>,
    summaries: &[String],
    usage: &mut Vec<Value>,
) -> Result<String, LlmError> {
    let room = budget(window)
        .prompt_tokens
        .saturating_sub(estimate_tokens(&request.instructions.merge_system) + 200);
    let mut level: Vec<String> = summaries.to_vec();
    loop {
        let mut groups: Vec<Vec<String>> = vec![Vec::new()];
        let mut used = 0;
        for summary in level {
            let tokens = estimate_tokens(&summary) + 16;
            let group = groups.last_mut().expect("one group at least");
            // A group takes two summaries at least, so each round at least halves their
            // number and the merging ends, whatever the room.
            if used + tokens > room && group.len() >= 2 {
                groups.push(Vec::new());
                used = 0;
            }
            groups.last_mut().expect("just pushed").push(summary);
            used += tokens;
        }
        let single = groups.len() == 1;
        let mut next = Vec::with_capacity(groups.len());
        // Only the last merge, of the whole note, is asked for the abstract.
        let system = if single {
            instructions_for(&request.instructions.merge_system, request)
        } else {
            request.instructions.merge_system.clone()
        };
        for group in groups {
            let chat = summary_request(model, &system, merge_message(request, &group));
            let reply = client.chat(&chat).await?;
            usage.push(reply.usage.clone().unwrap_or(Value::Null));
            next.push(if single {
                reply.content
            } else {
                without_marker(reply.content)
            });
        }
        if single {
            return Ok(next.remove(0));
        }
        level = next;
    }
}

/// A part's summary as the merge reads it: the marker of a loop or cap cut is for the note's
/// reader, and the merge's own answer carries one if it is cut itself.
fn without_marker(summary: String) -> String {
    match [LOOP_MARKER, CAP_MARKER]
        .iter()
        .find_map(|marker| summary.strip_suffix(marker))
    {
        Some(kept) => kept.trim_end().to_string(),
        None => summary,
    }
}

/// The merge request's user message: the focus when given, then the part summaries in order.
fn merge_message(request: &SummaryRequest<'_>, summaries: &[String]) -> String {
    let mut message = String::new();
    if let Some(focus) = request.focus {
        message.push_str(&format!("Focus the summary on: {}\n\n", focus.trim()));
    }
    message.push_str(&format!(
        "Summaries of the {} consecutive parts of the note \"{}\":\n",
        summaries.len(),
        request.path.replace('"', "'")
    ));
    for (index, summary) in summaries.iter().enumerate() {
        message.push_str(&format!(
            "\n<part n=\"{}\">\n{}\n</part>\n",
            index + 1,
            summary.replace("</part>", "<\\/part>")
        ));
    }
    message
}
