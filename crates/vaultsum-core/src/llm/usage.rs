//! What the paid calls cost: requests answered, prompt and completion tokens, and media calls
//! (image descriptions and transcriptions), counted by the client that made them.
//!
//! Two scopes read the same counts. Each [`ChatClient`](crate::llm::ChatClient) keeps a total
//! for its process (the closing line of a batch, watch's daily total), and a call wrapped in
//! [`metered`] gets what was paid while it ran (the `cost` in a tool result's details). The
//! per-call scope is task-local, so concurrent calls never see each other's costs; a caller
//! that waited for another caller's media call (single flight) paid nothing and is charged
//! nothing.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

/// Counts of paid calls. `requests` is every answered call to the API (chat completions,
/// image descriptions included, and transcriptions); `media_calls` is the part of them made for
/// embedded media. Tokens are what the server reported in `usage` (transcriptions report none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub requests: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub media_calls: u64,
}

impl Usage {
    /// The usage of one answered chat completion, from its `usage` object when it has one.
    pub fn of_chat(usage: Option<&Value>) -> Usage {
        let tokens = |name: &str| {
            usage
                .and_then(|u| u.get(name))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Usage {
            requests: 1,
            prompt_tokens: tokens("prompt_tokens"),
            completion_tokens: tokens("completion_tokens"),
            media_calls: 0,
        }
    }

    /// What was used between `earlier` and this later reading of the same meter.
    pub fn since(&self, earlier: &Usage) -> Usage {
        Usage {
            requests: self.requests.saturating_sub(earlier.requests),
            prompt_tokens: self.prompt_tokens.saturating_sub(earlier.prompt_tokens),
            completion_tokens: self
                .completion_tokens
                .saturating_sub(earlier.completion_tokens),
            media_calls: self.media_calls.saturating_sub(earlier.media_calls),
        }
    }

    /// True when nothing was paid.
    pub fn is_zero(&self) -> bool {
        *self == Usage::default()
    }

    /// `3 requests, 1,234 prompt + 210 completion tokens, 1 media call`: how the CLI's closing
    /// line and watch's daily total say it.
    pub fn describe(&self) -> String {
        format!(
            "{}, {} prompt + {} completion tokens, {}",
            counted(self.requests, "request"),
            thousands(self.prompt_tokens),
            thousands(self.completion_tokens),
            counted(self.media_calls, "media call"),
        )
    }
}

fn counted(count: u64, noun: &str) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(count))
}

/// `12345` as `12,345`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Running counts, shared by everything that records into them.
#[derive(Debug, Default)]
pub struct UsageMeter {
    requests: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
    media_calls: AtomicU64,
}

impl UsageMeter {
    /// The counts so far.
    pub fn read(&self) -> Usage {
        Usage {
            requests: self.requests.load(Ordering::Relaxed),
            prompt_tokens: self.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: self.completion_tokens.load(Ordering::Relaxed),
            media_calls: self.media_calls.load(Ordering::Relaxed),
        }
    }

    fn add(&self, usage: Usage) {
        self.requests.fetch_add(usage.requests, Ordering::Relaxed);
        self.prompt_tokens
            .fetch_add(usage.prompt_tokens, Ordering::Relaxed);
        self.completion_tokens
            .fetch_add(usage.completion_tokens, Ordering::Relaxed);
        self.media_calls
            .fetch_add(usage.media_calls, Ordering::Relaxed);
    }

    /// Adds `usage` here and to the call being metered on this task, if any.
    pub fn record(&self, usage: Usage) {
        self.add(usage);
        let _ = CALL.try_with(|call| call.add(usage));
    }
}

tokio::task_local! {
    static CALL: Arc<UsageMeter>;
}

/// Runs `call` and returns its output with what its paid calls used (calls it made on this
/// task; work it waited for in another call is that call's cost).
pub async fn metered<F: Future>(call: F) -> (F::Output, Usage) {
    let meter = Arc::new(UsageMeter::default());
    let output = CALL.scope(meter.clone(), call).await;
    (output, meter.read())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_chat_counts_one_request_and_the_tokens_it_reported() {
        let usage = Usage::of_chat(Some(
            &json!({"prompt_tokens": 120, "completion_tokens": 30}),
        ));
        assert_eq!(
            (usage.requests, usage.prompt_tokens, usage.completion_tokens),
            (1, 120, 30)
        );
        assert_eq!(Usage::of_chat(None).prompt_tokens, 0);
        assert_eq!(Usage::of_chat(Some(&json!(null))).requests, 1);
    }

    #[test]
    fn described_with_thousands_and_singulars() {
        let usage = Usage {
            requests: 1,
            prompt_tokens: 1_234_567,
            completion_tokens: 210,
            media_calls: 2,
        };
        assert_eq!(
            usage.describe(),
            "1 request, 1,234,567 prompt + 210 completion tokens, 2 media calls"
        );
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
    }

    #[tokio::test]
    async fn each_metered_call_sees_its_own_costs_and_the_meter_sees_all() {
        let process = Arc::new(UsageMeter::default());
        let one = Usage::of_chat(Some(&json!({"prompt_tokens": 10, "completion_tokens": 1})));
        let (a, b) = tokio::join!(
            metered(async {
                process.record(one);
                tokio::task::yield_now().await;
                process.record(one);
            }),
            metered(async {
                tokio::task::yield_now().await;
                process.record(one);
            }),
        );
        assert_eq!(a.1.requests, 2);
        assert_eq!(a.1.prompt_tokens, 20);
        assert_eq!(b.1.requests, 1);
        assert_eq!(process.read().requests, 3);
        let later = process.read();
        process.record(one);
        assert_eq!(process.read().since(&later).requests, 1);
    }
}
