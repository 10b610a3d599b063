//! A streamed chat completion (`"stream": true`), put back together into the JSON of a
//! non-streamed one, so everything after the exchange reads one shape.
//!
//! Why every chat request streams: a server generates for as long as its connection is open.
//! A non-streamed request that the client gives up on (its timeout) keeps a local server busy
//! until the model stops on its own: seen on llama.cpp with one slot, a 135M model looping to
//! its 4,096-token cap went on for 70 s after vaultsum gave up, and the next notes waited behind
//! it. A streamed one ends when the client closes the connection (llama.cpp's server, vLLM,
//! Ollama and hosted APIs all stop generating then), and the client sees the answer grow, so
//! a repetition loop is caught after its third copy instead of at the cap
//! ([`crate::llm::repetition`]) and the request closed there.
//!
//! The wire format is OpenAI's server-sent events: `data: {chunk}` lines, each chunk with
//! `choices[0].delta.content` (and `reasoning_content` or `reasoning` from reasoning models), a
//! `finish_reason` in the last one, `usage` in a final chunk with empty `choices` when the
//! request set `stream_options.include_usage`, and `data: [DONE]` at the end. Comment lines
//! (`: ping`) and `event:`/`id:` lines are skipped. A server that ignores `stream` and answers
//! plain JSON is read as before (`llm/transport.rs`).

use serde_json::{json, Map, Value};

use crate::llm::error_body::error_excerpt;
use crate::llm::LlmError;

/// The `finish_reason` of an answer the client closed because it went round in a loop.
pub const STOPPED_FOR_LOOP: &str = "loop";
/// The `finish_reason` of an answer the client closed at the request timeout, keeping what
/// had arrived.
pub const STOPPED_AT_TIMEOUT: &str = "timeout";

/// The chunks of one streamed answer, as they arrive.
#[derive(Debug, Default)]
pub struct Assembly {
    /// Bytes after the last line end: the start of a line still arriving.
    pending: Vec<u8>,
    content: String,
    reasoning: String,
    finish_reason: Option<String>,
    usage: Option<Value>,
    /// `id`, `model`, `created` of the first chunk, kept for the rebuilt completion.
    head: Map<String, Value>,
    /// Chunks that carried a piece of the answer (a token each on llama.cpp).
    pieces: u64,
    done: bool,
}

impl Assembly {
    /// Reads `bytes` of the event stream. Lines are only read once their end arrived (a chunk
    /// can split a line, or a character, anywhere). An `error` object in a chunk (a server
    /// failing mid-answer) is an error.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), LlmError> {
        self.pending.extend_from_slice(bytes);
        let Some(last_end) = self.pending.iter().rposition(|b| *b == b'\n') else {
            return Ok(());
        };
        let rest = self.pending.split_off(last_end + 1);
        let complete = std::mem::replace(&mut self.pending, rest);
        for line in complete.split(|b| *b == b'\n') {
            self.line(line)?;
        }
        Ok(())
    }

    /// Reads what is left when the stream ended without a last line end.
    pub fn finish(&mut self) -> Result<(), LlmError> {
        let rest = std::mem::take(&mut self.pending);
        self.line(&rest)
    }

    fn line(&mut self, line: &[u8]) -> Result<(), LlmError> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(data) = line.strip_prefix(b"data:") else {
            // Comments (`: ping`), `event:`, `id:`, `retry:` and the blank lines between events.
            return Ok(());
        };
        let data = data.strip_prefix(b" ").unwrap_or(data);
        if data.trim_ascii() == b"[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk: Value = serde_json::from_slice(data).map_err(|e| {
            LlmError::Malformed(format!(
                "a streamed chunk is not JSON ({e}): {}",
                error_excerpt(data, Some("an empty chunk"))
            ))
        })?;
        self.chunk(&chunk)
    }

    fn chunk(&mut self, chunk: &Value) -> Result<(), LlmError> {
        if let Some(error) = chunk.get("error").filter(|e| !e.is_null()) {
            return Err(LlmError::Malformed(format!(
                "the server reported an error while answering: {}",
                error_excerpt(error.to_string().as_bytes(), None)
            )));
        }
        if self.head.is_empty() {
            for key in ["id", "model", "created"] {
                if let Some(value) = chunk.get(key) {
                    self.head.insert(key.to_string(), value.clone());
                }
            }
        }
        if let Some(usage) = chunk.get("usage").filter(|u| !u.is_null()) {
            self.usage = Some(usage.clone());
        }
        let Some(choice) = chunk
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|choices| choices.first())
        else {
            return Ok(());
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        // Legacy completions stream `text` on the choice itself.
        let piece = delta
            .get("content")
            .or_else(|| choice.get("text"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !piece.is_empty() {
            self.content.push_str(piece);
            self.pieces += 1;
        }
        if let Some(thought) = ["reasoning_content", "reasoning"]
            .iter()
            .find_map(|key| delta.get(*key).and_then(Value::as_str))
        {
            self.reasoning.push_str(thought);
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_string());
        }
        Ok(())
    }

    /// The answer so far.
    pub fn content(&self) -> &str {
        &self.content
    }

    /// Whether the server said the answer is over (`[DONE]`).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether the server said why the answer ended (`finish_reason`).
    pub fn has_finish_reason(&self) -> bool {
        self.finish_reason.is_some()
    }

    /// Chunks that carried a piece of the answer.
    pub fn pieces(&self) -> u64 {
        self.pieces
    }

    /// The answer as a non-streamed chat completion; `stopped` (the client's reason for
    /// closing the stream) replaces the `finish_reason` when given.
    pub fn into_completion(self, stopped: Option<&str>) -> Value {
        let mut message = json!({"role": "assistant", "content": self.content});
        if !self.reasoning.is_empty() {
            message["reasoning_content"] = json!(self.reasoning);
        }
        let finish_reason = stopped.map(str::to_string).or(self.finish_reason);
        let mut completion = Value::Object(self.head);
        completion["object"] = json!("chat.completion");
        completion["choices"] = json!([{
            "index": 0,
            "message": message,
            "finish_reason": finish_reason,
        }]);
        if let Some(usage) = self.usage {
            completion["usage"] = usage;
        }
        completion
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(delta: Value, finish: Option<&str>) -> String {
        let value = json!({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        });
        format!("data: {value}\n\n")
    }

    #[test]
    fn chunks_split_anywhere_make_the_same_completion() {
        let stream = [
            ": ping - 2026-11-27\n\n".to_string(),
            chunk(json!({"role": "assistant", "content": ""}), None),
            chunk(json!({"reasoning_content": "Think. "}), None),
            chunk(json!({"content": "## Überblick\n"}), None),
            chunk(json!({"content": "- Done."}), None),
            chunk(json!({}), Some("stop")),
            "data: {\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":4}}\n\n".to_string(),
            "data: [DONE]\n\n".to_string(),
        ]
        .concat();
        for split in [1, 3, 7, 64, stream.len()] {
            let mut assembly = Assembly::default();
            for piece in stream.as_bytes().chunks(split) {
                assembly.feed(piece).unwrap();
            }
            assembly.finish().unwrap();
            assert!(assembly.is_done() && assembly.has_finish_reason());
            assert_eq!(assembly.pieces(), 2);
            let completion = assembly.into_completion(None);
            assert_eq!(
                completion["choices"][0]["message"]["content"],
                "## Überblick\n- Done."
            );
            assert_eq!(
                completion["choices"][0]["message"]["reasoning_content"],
                "Think. "
            );
            assert_eq!(completion["choices"][0]["finish_reason"], "stop");
            assert_eq!(completion["usage"]["completion_tokens"], 4);
            assert_eq!(completion["model"], "m");
        }
    }

    #[test]
    fn a_stream_ended_by_the_client_says_why() {
        let mut assembly = Assembly::default();
        assembly
            .feed(chunk(json!({"content": "a a a"}), None).as_bytes())
            .unwrap();
        assert!(!assembly.has_finish_reason() && !assembly.is_done());
        let completion = assembly.into_completion(Some(STOPPED_FOR_LOOP));
        assert_eq!(completion["choices"][0]["finish_reason"], "loop");
        assert!(completion.get("usage").is_none());
    }

    #[test]
    fn an_error_chunk_or_a_chunk_that_is_not_json_is_an_error() {
        let mut assembly = Assembly::default();
        let err = assembly
            .feed(b"data: {\"error\":{\"message\":\"model crashed\"}}\n\n")
            .unwrap_err();
        assert!(err.to_string().contains("model crashed"), "{err}");
        let err = Assembly::default().feed(b"data: {oops\n").unwrap_err();
        assert!(matches!(err, LlmError::Malformed(_)), "{err:?}");
    }

    #[test]
    fn crlf_lines_and_data_without_a_space_are_read() {
        let mut assembly = Assembly::default();
        assembly
            .feed(b"data:{\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"length\"}]}\r\n\r\ndata:[DONE]")
            .unwrap();
        assembly.finish().unwrap();
        assert!(assembly.is_done());
        assert_eq!(assembly.content(), "x");
        assert_eq!(
            assembly.into_completion(None)["choices"][0]["finish_reason"],
            "length"
        );
    }
}
