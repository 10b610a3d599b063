//! A chat completion reply, read leniently from whatever an OpenAI-compatible server sends.

use serde_json::Value;

use crate::llm::error_body::error_excerpt;
use crate::llm::LlmError;

/// The useful part of a chat completion.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChatReply {
    /// The answer text, never blank. Reasoning put inline as `<think>…</think>` is moved out.
    pub content: String,
    /// The model's reasoning (`reasoning_content`, `reasoning` or a leading `<think>` block).
    pub reasoning: Option<String>,
    /// The `finish_reason` as sent, including non-standard values such as `eos`.
    pub finish_reason: Option<String>,
    /// The `usage` object as sent, when there was one.
    pub usage: Option<Value>,
    /// Requests made, including retries.
    pub attempts: u32,
    /// The answer went round in a loop and was cut before its first repeat, with a marker
    /// (`llm/repetition.rs`).
    pub repeats_cut: bool,
    /// The answer reached the output cap, or was still coming at the request timeout, and was
    /// kept up to its last whole item, with a marker saying which (`llm/cut_answer.rs`).
    pub cut_at_cap: bool,
    /// The answer of an identical request another caller made at the same moment (in this
    /// process or another): this caller paid nothing for it (`llm/shared_answer.rs`).
    #[serde(default)]
    pub shared: bool,
}

impl ChatReply {
    /// This answer as handed to a caller that waited on the call (paid once, by its maker).
    pub fn shared(mut self) -> ChatReply {
        self.shared = true;
        self
    }
}

/// Reads the first choice of a chat completion. Unknown fields and values are ignored; only a
/// reply without choices or without any text is an error.
pub fn parse_chat_reply(value: &Value) -> Result<ChatReply, LlmError> {
    if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
        return Err(LlmError::Malformed(format!(
            "the server reported an error with a success status: {}",
            error_excerpt(error.to_string().as_bytes(), None)
        )));
    }
    let choice = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| {
            LlmError::Malformed(format!(
                "no choices in the reply: {}",
                error_excerpt(value.to_string().as_bytes(), None)
            ))
        })?;
    let message = choice.get("message").unwrap_or(&Value::Null);
    // Legacy completions put the text on the choice itself.
    let mut content = text_of(message.get("content").or_else(|| choice.get("text")));
    let mut reasoning = ["reasoning_content", "reasoning"]
        .iter()
        .find_map(|key| message.get(*key).and_then(Value::as_str))
        .filter(|r| !r.trim().is_empty())
        .map(str::to_string);
    if let Some((thought, answer)) = split_think_block(&content) {
        reasoning.get_or_insert(thought);
        content = answer;
    }
    let finish_reason = choice
        .get("finish_reason")
        .and_then(Value::as_str)
        .map(str::to_string);
    if content.trim().is_empty() {
        return Err(LlmError::EmptyReply { finish_reason });
    }
    Ok(ChatReply {
        repeats_cut: false,
        cut_at_cap: false,
        shared: false,
        content,
        reasoning,
        finish_reason,
        usage: value.get("usage").filter(|u| !u.is_null()).cloned(),
        attempts: 1,
    })
}

/// Text from a `content` that may be a string, null, or an array of parts.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| match part {
                Value::String(s) => Some(s.as_str()),
                other => other.get("text").and_then(Value::as_str),
            })
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// Some reasoning models (DeepSeek-R1, Qwen3) put their thinking inline as a leading
/// `<think>…</think>` block; it must not end up in a note.
fn split_think_block(content: &str) -> Option<(String, String)> {
    let rest = content.trim_start().strip_prefix("<think>")?;
    let end = rest.find("</think>")?;
    Some((
        rest[..end].trim().to_string(),
        rest[end + "</think>".len()..].trim_start().to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn array_content_parts_are_joined() {
        let reply = parse_chat_reply(&json!({
            "choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}]
        }))
        .unwrap();
        assert_eq!(reply.content, "ab");
    }

    #[test]
    fn inline_think_block_becomes_reasoning() {
        let reply = parse_chat_reply(&json!({
            "choices": [{"message": {"content": "<think>\nhmm\n</think>\n\nThe answer."}, "finish_reason": "stop"}]
        }))
        .unwrap();
        assert_eq!(reply.content, "The answer.");
        assert_eq!(reply.reasoning.as_deref(), Some("hmm"));
    }

    #[test]
    fn null_content_is_an_empty_reply_with_its_finish_reason() {
        let err = parse_chat_reply(&json!({
            "choices": [{"message": {"content": null, "reasoning_content": "thinking..."}, "finish_reason": "length"}]
        }))
        .unwrap_err();
        assert!(
            matches!(err, LlmError::EmptyReply { finish_reason: Some(ref r) } if r == "length"),
            "{err:?}"
        );
    }

    #[test]
    fn reply_without_choices_is_malformed() {
        let err = parse_chat_reply(&json!({"id": "x", "object": "chat.completion"})).unwrap_err();
        assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    }

    #[test]
    fn error_object_with_success_status_is_reported() {
        let err = parse_chat_reply(&json!({"error": {"message": "model overloaded"}})).unwrap_err();
        assert!(err.to_string().contains("model overloaded"), "{err}");
    }
}
