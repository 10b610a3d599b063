//! A provider-neutral chat request and its OpenAI wire form.

use serde_json::{json, Value};

/// One chat completion: a system prompt and one user message of text and images.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// The model name as the provider spells it, e.g. `accounts/fireworks/models/gpt-oss-120b`.
    pub model: String,
    /// The system prompt; left out of the request when empty.
    pub system: String,
    /// The user message, in order.
    pub user: Vec<UserPart>,
    /// Upper bound on generated tokens; `None` takes the client's `llm.max_output_tokens`.
    pub max_tokens: Option<u32>,
    /// Sampling temperature; the provider's default when `None`.
    pub temperature: Option<f32>,
}

/// A piece of the user message.
#[derive(Debug, Clone, PartialEq)]
pub enum UserPart {
    /// Plain text.
    Text(String),
    /// An image as a `data:<mime>;base64,…` URL.
    ImageDataUrl(String),
}

impl ChatRequest {
    /// A request with one text user message and provider defaults for everything else.
    pub fn text(
        model: impl Into<String>,
        system: impl Into<String>,
        user: impl Into<String>,
    ) -> ChatRequest {
        ChatRequest {
            model: model.into(),
            system: system.into(),
            user: vec![UserPart::Text(user.into())],
            max_tokens: None,
            temperature: None,
        }
    }

    /// The JSON body of `POST /chat/completions`. A text-only user message is sent as a plain
    /// string, which every OpenAI-compatible server accepts; content-part arrays only when
    /// there are images. The answer is streamed, with its usage in the last chunk
    /// (`llm/stream.rs` says why).
    pub fn to_wire(&self, cap_field: CapField) -> Value {
        let mut messages = Vec::with_capacity(2);
        if !self.system.is_empty() {
            messages.push(json!({"role": "system", "content": self.system}));
        }
        let content = match self.user.as_slice() {
            [UserPart::Text(text)] => Value::String(text.clone()),
            parts => Value::Array(
                parts
                    .iter()
                    .map(|part| match part {
                        UserPart::Text(text) => json!({"type": "text", "text": text}),
                        UserPart::ImageDataUrl(url) => {
                            json!({"type": "image_url", "image_url": {"url": url}})
                        }
                    })
                    .collect(),
            ),
        };
        messages.push(json!({"role": "user", "content": content}));
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "stream": true,
            "stream_options": {"include_usage": true},
        });
        if let Some(max_tokens) = self.max_tokens {
            body[cap_field.name()] = json!(max_tokens);
        }
        if let Some(temperature) = self.temperature {
            body["temperature"] = json!(temperature);
        }
        body
    }
}

/// The name the output cap is sent under. `max_tokens` is what llama.cpp, vLLM, Ollama and
/// Fireworks read; OpenAI's reasoning models refuse it with a 400 naming
/// `max_completion_tokens`, after which the client sends that name instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapField {
    MaxTokens,
    MaxCompletionTokens,
}

impl CapField {
    pub fn name(self) -> &'static str {
        match self {
            CapField::MaxTokens => "max_tokens",
            CapField::MaxCompletionTokens => "max_completion_tokens",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_only_request_sends_plain_string_content() {
        let mut req = ChatRequest::text("m", "be brief", "hello");
        req.max_tokens = Some(100);
        let wire = req.to_wire(CapField::MaxTokens);
        assert_eq!(wire["model"], "m");
        assert_eq!(wire["stream"], true);
        assert_eq!(wire["stream_options"], json!({"include_usage": true}));
        assert_eq!(wire["max_tokens"], 100);
        assert!(wire.get("temperature").is_none());
        assert_eq!(
            wire["messages"][0],
            json!({"role": "system", "content": "be brief"})
        );
        assert_eq!(
            wire["messages"][1],
            json!({"role": "user", "content": "hello"})
        );
    }

    #[test]
    fn image_request_sends_content_parts() {
        let req = ChatRequest {
            model: "vision".into(),
            system: String::new(),
            user: vec![
                UserPart::Text("describe".into()),
                UserPart::ImageDataUrl("data:image/png;base64,AAAA".into()),
            ],
            max_tokens: None,
            temperature: Some(0.2),
        };
        let wire = req.to_wire(CapField::MaxCompletionTokens);
        assert!(wire.get("max_tokens").is_none());
        assert_eq!(
            wire["messages"].as_array().unwrap().len(),
            1,
            "no empty system message"
        );
        assert_eq!(
            wire["messages"][0]["content"],
            json!([
                {"type": "text", "text": "describe"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
            ])
        );
    }
}
