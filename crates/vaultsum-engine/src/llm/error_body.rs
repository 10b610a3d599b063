//! Turns an error body of any shape into one short, readable line.
//!
//! Providers disagree on error formats: OpenAI sends `{"error":{"message":…}}`, FastAPI-based
//! servers `{"detail":…}`, proxies and load balancers plain text or whole HTML pages, and some
//! nothing at all. A person needs the gist, not a page of markup.

use serde_json::Value;

use crate::html::clean_text;

/// Longest excerpt kept, in characters.
const MAX_EXCERPT_CHARS: usize = 300;

/// A one-line excerpt of an error body, at most [`MAX_EXCERPT_CHARS`] characters.
/// `reason` (the status's canonical reason, e.g. "Bad Gateway") stands in for an empty body.
pub fn error_excerpt(body: &[u8], reason: Option<&str>) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    let message = if text.is_empty() {
        reason.unwrap_or("no error message").to_string()
    } else if let Ok(json) = serde_json::from_str::<Value>(text) {
        json_message(&json)
    } else if looks_like_html(text) {
        html_message(text)
    } else {
        text.to_string()
    };
    let message = collapse_whitespace(&message);
    if message.is_empty() {
        return reason.unwrap_or("no error message").to_string();
    }
    truncate_chars(&message, MAX_EXCERPT_CHARS)
}

/// The most specific human message in a JSON error body.
fn json_message(json: &Value) -> String {
    if let Value::String(s) = json {
        return s.clone();
    }
    for key in ["error", "detail", "message", "error_message", "msg"] {
        match json.get(key) {
            Some(Value::String(s)) => return s.clone(),
            Some(Value::Object(inner)) => {
                if let Some(Value::String(s)) = inner.get("message") {
                    // llama.cpp's context error gives the window only as fields: keep them, so
                    // the limit can be learned from the error (`llm::context_window`).
                    if let Some(n_ctx) = inner.get("n_ctx").and_then(Value::as_u64) {
                        let prompt = inner.get("n_prompt_tokens").and_then(Value::as_u64);
                        let prompt = prompt
                            .map(|n| format!("n_prompt_tokens {n}, "))
                            .unwrap_or_default();
                        return format!("{s} ({prompt}n_ctx {n_ctx})");
                    }
                    return s.clone();
                }
                return Value::Object(inner.clone()).to_string();
            }
            // FastAPI validation errors: a list of {"loc":…, "msg":…}.
            Some(Value::Array(items)) => {
                let msgs: Vec<String> = items
                    .iter()
                    .map(
                        |item| match item.get("msg").or_else(|| item.get("message")) {
                            Some(Value::String(s)) => s.clone(),
                            _ => item.to_string(),
                        },
                    )
                    .collect();
                return msgs.join("; ");
            }
            _ => {}
        }
    }
    json.to_string()
}

fn looks_like_html(text: &str) -> bool {
    let head: String = text
        .chars()
        .take(200)
        .collect::<String>()
        .to_ascii_lowercase();
    head.starts_with('<')
        && (head.contains("<html")
            || head.contains("<!doctype")
            || head.contains("<head")
            || head.contains("<body")
            || head.contains("<h1")
            || head.contains("<title"))
}

/// The page's `<title>` (or first `<h1>`), else its text without tags.
fn html_message(html: &str) -> String {
    for tag in ["title", "h1"] {
        if let Some(inner) = element_text(html, tag) {
            let inner = clean_text(&inner);
            if !inner.is_empty() {
                return inner;
            }
        }
    }
    clean_text(html)
}

fn element_text(html: &str, tag: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find(&format!("<{tag}"))?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find(&format!("</{tag}"))?;
    Some(html[start..end].to_string())
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters, with `…` marking a cut.
pub fn truncate_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_error_object_gives_its_message() {
        let body = br#"{"error":{"message":"Invalid API key","type":"invalid_request_error","code":null}}"#;
        assert_eq!(error_excerpt(body, None), "Invalid API key");
    }

    #[test]
    fn fastapi_detail_string_and_list_are_read() {
        assert_eq!(
            error_excerpt(br#"{"detail":"Model not found"}"#, None),
            "Model not found"
        );
        let body =
            br#"{"detail":[{"loc":["body","model"],"msg":"field required","type":"missing"}]}"#;
        assert_eq!(error_excerpt(body, None), "field required");
    }

    #[test]
    fn error_as_plain_string_is_read() {
        assert_eq!(
            error_excerpt(br#"{"error":"rate limited","code":429}"#, None),
            "rate limited"
        );
    }

    #[test]
    fn html_page_gives_its_title_not_markup() {
        let body = b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>\
                     <body><h1>Bad Gateway</h1><p>nginx</p></body></html>";
        assert_eq!(error_excerpt(body, None), "502 Bad Gateway");
    }

    #[test]
    fn html_without_title_is_stripped_of_tags() {
        let body = b"<html><body><p>Service &amp; things\n unavailable</p></body></html>";
        assert_eq!(error_excerpt(body, None), "Service & things unavailable");
    }

    #[test]
    fn empty_body_falls_back_to_the_status_reason() {
        assert_eq!(
            error_excerpt(b"  \n", Some("Service Unavailable")),
            "Service Unavailable"
        );
    }

    #[test]
    fn long_plain_text_is_cut_to_a_short_excerpt() {
        let body = "x".repeat(5000);
        let excerpt = error_excerpt(body.as_bytes(), None);
        assert_eq!(excerpt.chars().count(), MAX_EXCERPT_CHARS + 1);
        assert!(excerpt.ends_with('…'));
    }

    #[test]
    fn unknown_json_shape_is_shown_compactly() {
        assert_eq!(
            error_excerpt(br#"{"status":"bad","why":1}"#, None),
            r#"{"status":"bad","why":1}"#
        );
    }
}
