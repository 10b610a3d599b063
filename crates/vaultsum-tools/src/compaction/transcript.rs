//! `vaultsum compact`: rewrite an OpenAI-format chat transcript so that old tool results become
//! stubs.
//!
//! The transcript is either an array of messages or an object with a `messages` array (other
//! keys are kept). Assistant messages carry `tool_calls` (`id`, `function.name`,
//! `function.arguments` as a JSON string); `role: "tool"` messages answer them by
//! `tool_call_id`. Messages are never removed or reordered, only tool-result contents change,
//! so a call is never separated from its result. All results answering one assistant message
//! are compacted together or not at all.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use crate::config::CompactionConfig;
use crate::stub::{Status, ToolSummary};
use crate::text::first_line;

/// The stub facts for one result of a transcript: `(tool name, call arguments, result text)`.
/// The Registry passes one that asks its own tools first and falls back to
/// [`generic_stub`](super::generic_stub).
pub type StubFn<'a> = &'a dyn Fn(&str, &Value, &str) -> ToolSummary;

/// A transcript that cannot be compacted. Nothing is written when this is returned.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    #[error("the transcript is not valid JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error(
        "the transcript must be a JSON array of messages or an object with a \"messages\" array, \
         but it is {0}"
    )]
    WrongShape(&'static str),
    #[error("messages[{index}]: {problem}")]
    BadMessage { index: usize, problem: String },
}

/// What a compaction did, for the `-v` line on stderr.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CompactStats {
    /// Tool results in the transcript.
    pub tool_results: usize,
    /// Results replaced by a stub.
    pub stubbed: usize,
    /// Old error results kept whole because of `preserve_errors`.
    pub errors_kept: usize,
}

/// Where a tool call was made: its tool, its arguments and the assistant message that made it.
struct Call {
    name: String,
    args: Value,
    turn: usize,
}

/// Parses `input` and compacts it; see [`compact_value`].
pub fn compact_transcript(
    input: &str,
    keep_last: usize,
    config: &CompactionConfig,
    stub: StubFn<'_>,
) -> Result<(Value, CompactStats), TranscriptError> {
    let mut transcript: Value = serde_json::from_str(input)?;
    let stats = compact_value(&mut transcript, keep_last, config, stub)?;
    Ok((transcript, stats))
}

/// Compacts a parsed transcript in place: results of all but the last `keep_last` tool results
/// (widened to whole assistant turns) become stubs. The whole transcript is checked before
/// anything changes, so an error leaves `transcript` untouched. `stub` gives each result's facts.
pub fn compact_value(
    transcript: &mut Value,
    keep_last: usize,
    config: &CompactionConfig,
    stub: StubFn<'_>,
) -> Result<CompactStats, TranscriptError> {
    let messages = messages_mut(transcript)?;
    let mut calls: HashMap<String, Call> = HashMap::new();
    // (message index, call id) of every tool result, in order.
    let mut results: Vec<(usize, String)> = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let bad = |problem: String| TranscriptError::BadMessage { index, problem };
        let object = message.as_object().ok_or_else(|| {
            bad(format!(
                "expected a message object, found {}",
                kind(message)
            ))
        })?;
        let role = object
            .get("role")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("has no \"role\" string".to_string()))?;
        match role {
            "assistant" => {
                for (id, name, args) in tool_calls(object.get("tool_calls")).map_err(bad)? {
                    calls.insert(
                        id,
                        Call {
                            name,
                            args,
                            turn: index,
                        },
                    );
                }
            }
            "tool" => {
                let id = object
                    .get("tool_call_id")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("tool message has no \"tool_call_id\" string".into()))?;
                if !calls.contains_key(id) {
                    return Err(bad(format!(
                        "tool result answers call {id:?}, which no earlier assistant message made"
                    )));
                }
                content_text(object.get("content")).map_err(bad)?;
                results.push((index, id.to_string()));
            }
            _ => {}
        }
    }

    let kept_turns: HashSet<usize> = results
        .iter()
        .rev()
        .take(keep_last)
        .map(|(_, id)| calls[id].turn)
        .collect();
    let mut stats = CompactStats {
        tool_results: results.len(),
        ..CompactStats::default()
    };
    for (index, id) in &results {
        let call = &calls[id];
        if kept_turns.contains(&call.turn) {
            continue;
        }
        let message = &mut messages[*index];
        let text = content_text(message.get("content")).unwrap_or_default();
        if is_stub(&text) {
            continue;
        }
        let tool = message
            .get("name")
            .and_then(Value::as_str)
            .filter(|_| call.name.is_empty())
            .unwrap_or(&call.name)
            .to_string();
        let mut summary = stub(&tool, &call.args, &text);
        if summary.status != Status::Error && looks_like_error(&text) {
            summary = summary.into_error(&text);
        }
        if summary.status == Status::Error && config.preserve_errors {
            stats.errors_kept += 1;
            continue;
        }
        message["content"] = Value::String(summary.render(config.max_summary_length));
        stats.stubbed += 1;
    }
    Ok(stats)
}

fn messages_mut(transcript: &mut Value) -> Result<&mut Vec<Value>, TranscriptError> {
    match transcript {
        Value::Array(messages) => Ok(messages),
        Value::Object(object) => match object.get_mut("messages") {
            Some(Value::Array(messages)) => Ok(messages),
            Some(_) => Err(TranscriptError::WrongShape(
                "an object whose \"messages\" is not an array",
            )),
            None => Err(TranscriptError::WrongShape(
                "an object without a \"messages\" key",
            )),
        },
        other => Err(TranscriptError::WrongShape(kind(other))),
    }
}

/// `(id, name, parsed arguments)` of each call. Arguments that are not valid JSON are kept as
/// a string: models do emit those, and the transcript is still usable.
fn tool_calls(value: Option<&Value>) -> Result<Vec<(String, String, Value)>, String> {
    let items = match value {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(format!(
                "\"tool_calls\" must be an array, found {}",
                kind(other)
            ))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let id = call
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("tool_calls[{i}] has no \"id\" string"))?;
            let function = call
                .get("function")
                .ok_or_else(|| format!("tool_calls[{i}] has no \"function\""))?;
            let name = function
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("tool_calls[{i}].function has no \"name\" string"))?;
            let args = match function.get("arguments") {
                Some(Value::String(raw)) => {
                    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()))
                }
                Some(other) => other.clone(),
                None => Value::Null,
            };
            Ok((id.to_string(), name.to_string(), args))
        })
        .collect()
}

/// A tool message's content as text: a string, or the `text` of its content parts.
fn content_text(content: Option<&Value>) -> Result<String, String> {
    match content {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Array(parts)) => Ok(parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")),
        Some(other) => Err(format!(
            "tool message content must be a string or an array of parts, found {}",
            kind(other)
        )),
    }
}

/// A result compacted by an earlier run stays as it is.
fn is_stub(text: &str) -> bool {
    !text.contains('\n')
        && (text.starts_with("[✓ ") || text.starts_with("[❌ "))
        && text.ends_with(']')
}

static ERROR_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(error|fatal|failed|failure|exception|traceback|panic)\b|\b(error|failed)\s*:|environment variable is not set|^\{\s*.success.\s*:\s*false",
    )
    .expect("valid error pattern")
});

/// A transcript has no `is_error` flag, so errors are recognised by how they begin.
fn looks_like_error(text: &str) -> bool {
    ERROR_START.is_match(first_line(text))
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compaction::generic_stub;
    use serde_json::json;

    fn config() -> CompactionConfig {
        CompactionConfig {
            keep_last: 0,
            preserve_errors: true,
            max_summary_length: 200,
        }
    }

    fn one_result(content: &str) -> Value {
        json!([
            {"role": "assistant", "tool_calls": [{"id": "a", "type": "function",
              "function": {"name": "read_file", "arguments": "{\"path\":\"x.md\"}"}}]},
            {"role": "tool", "tool_call_id": "a", "content": content}
        ])
    }

    #[test]
    fn results_that_read_as_errors_are_kept_whole() {
        for text in [
            "Error: note not found: x.md",
            "failed: path escapes the vault: ../x.md",
            "Traceback (most recent call last):\n  File \"x.py\"",
            "Kagi search request failed: HTTP 401 Unauthorized: Invalid token",
            "KAGI_API_KEY environment variable is not set. Set it to your Kagi API key to use web search.",
            r#"{"success":false,"error":"LLM timed out"}"#,
        ] {
            let mut transcript = one_result(text);
            let stats = compact_value(&mut transcript, 0, &config(), &generic_stub).unwrap();
            assert_eq!(transcript[1]["content"], text);
            assert_eq!(stats.errors_kept, 1, "{text}");
        }
    }

    #[test]
    fn ordinary_text_mentioning_errors_is_still_compacted() {
        let mut transcript = one_result("# Error handling\n\nHow we deal with errors.");
        let stats = compact_value(&mut transcript, 0, &config(), &generic_stub).unwrap();
        assert_eq!(stats.stubbed, 1);
        assert_eq!(
            transcript[1]["content"],
            "[✓ read_file: x.md | 3 lines | 42B]"
        );
    }

    #[test]
    fn a_bad_message_leaves_the_transcript_untouched() {
        let mut transcript = one_result("fine");
        transcript
            .as_array_mut()
            .unwrap()
            .push(json!({"role": "tool", "tool_call_id": "zzz", "content": "x"}));
        let before = transcript.clone();
        assert!(compact_value(&mut transcript, 0, &config(), &generic_stub).is_err());
        assert_eq!(transcript, before);
    }
}
