//! The v0 envelope every Kagi endpoint answers with:
//! `{"meta":{"id","node","ms","api_balance"},"data":…,"error":[{"code","msg","ref"}]}`.
//!
//! Parsed through `serde_json::Value` on purpose: Kagi adds fields and sends `null` where a
//! strict struct would fail, and one odd field must not cost the user their results.

use serde::Serialize;
use serde_json::Value;

/// Request metadata Kagi returns with every answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Meta {
    pub id: Option<String>,
    pub node: Option<String>,
    /// Server-side time in milliseconds.
    pub ms: Option<u64>,
    /// Remaining API credit in USD.
    pub api_balance: Option<f64>,
}

/// The parts of an envelope the client uses.
#[derive(Debug, Clone, Default)]
pub(crate) struct Envelope {
    pub meta: Meta,
    pub data: Value,
    /// Every `error[].msg`, in order.
    pub errors: Vec<String>,
}

impl Envelope {
    /// Parses a body; `None` when it is not a JSON object at all.
    pub fn parse(body: &str) -> Option<Envelope> {
        let value: Value = serde_json::from_str(body).ok()?;
        let object = value.as_object()?;
        let meta = object.get("meta").map(parse_meta).unwrap_or_default();
        let errors = match object.get("error") {
            Some(Value::Array(items)) => items.iter().filter_map(error_message).collect(),
            Some(other) => error_message(other).into_iter().collect(),
            None => Vec::new(),
        };
        Some(Envelope {
            meta,
            data: object.get("data").cloned().unwrap_or(Value::Null),
            errors,
        })
    }
}

fn parse_meta(meta: &Value) -> Meta {
    let text = |key: &str| match meta.get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    Meta {
        id: text("id"),
        node: text("node"),
        ms: meta.get("ms").and_then(Value::as_u64),
        api_balance: meta.get("api_balance").and_then(Value::as_f64),
    }
}

/// `msg`, else `code`, of one error entry (a bare string counts too).
fn error_message(entry: &Value) -> Option<String> {
    match entry {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Object(o) => match (o.get("msg"), o.get("code")) {
            (Some(Value::String(m)), _) if !m.trim().is_empty() => Some(m.trim().to_string()),
            (_, Some(code)) if !code.is_null() => Some(format!("error code {code}")),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_data_and_error_messages_are_read() {
        let env = Envelope::parse(
            r#"{"meta":{"id":"abc","node":"us-east","ms":42,"api_balance":4.5},
                "data":null,
                "error":[{"code":1,"msg":"Unauthorized: Invalid token","ref":null}]}"#,
        )
        .unwrap();
        assert_eq!(env.meta.id.as_deref(), Some("abc"));
        assert_eq!(env.meta.ms, Some(42));
        assert_eq!(env.meta.api_balance, Some(4.5));
        assert_eq!(env.errors, vec!["Unauthorized: Invalid token"]);
        assert!(env.data.is_null());
    }

    #[test]
    fn error_without_msg_falls_back_to_its_code() {
        let env = Envelope::parse(r#"{"error":[{"code":101,"msg":null}]}"#).unwrap();
        assert_eq!(env.errors, vec!["error code 101"]);
    }

    #[test]
    fn non_json_body_is_not_an_envelope() {
        assert!(Envelope::parse("<html>502 Bad Gateway</html>").is_none());
        assert!(Envelope::parse("[1,2]").is_none());
    }
}
