//! The rate limit a hosted API announces on every answer (`x-ratelimit-*`, as OpenAI,
//! Fireworks, Groq and Together send them), read so the limiter can pace below it before any
//! 429 (`aimd.rs: Aimd::quota`).
//!
//! `x-ratelimit-limit-requests` is the bucket's size, `-remaining-requests` what is left of it,
//! `-reset-requests` the time until it is full again (`1s`, `6m0s`, `20ms`, or plain seconds).
//! With all three the refill rate is known exactly: `(limit - remaining) / reset`. The token
//! variants (`-tokens`) are read too: a token quota that is used up holds requests until it
//! resets. Answers without the headers change nothing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::HeaderMap;

/// One answer's view of the quota.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Quota {
    /// Requests left in the bucket.
    pub(crate) remaining: u64,
    /// Starts per second the bucket refills at, when the answer says enough to know.
    pub(crate) refill_per_sec: Option<f64>,
    /// How long until a used-up token quota resets (requests wait that long).
    pub(crate) tokens_exhausted_for: Option<Duration>,
}

impl Quota {
    /// The quota the headers announce, if they announce the request quota.
    pub(crate) fn from_headers(headers: &HeaderMap) -> Option<Quota> {
        let number = |name: &str| -> Option<u64> {
            let value = headers.get(name)?.to_str().ok()?.trim();
            value.parse::<u64>().ok().or_else(|| {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f >= 0.0)
                    .map(|f| f as u64)
            })
        };
        let duration = |name: &str| parse_reset(headers.get(name)?.to_str().ok()?);
        let remaining = number("x-ratelimit-remaining-requests")?;
        let refill_per_sec = match (
            number("x-ratelimit-limit-requests"),
            duration("x-ratelimit-reset-requests"),
        ) {
            (Some(limit), Some(reset)) if limit > remaining && !reset.is_zero() => {
                Some((limit - remaining) as f64 / reset.as_secs_f64())
            }
            _ => None,
        };
        let tokens_exhausted_for = (number("x-ratelimit-remaining-tokens") == Some(0))
            .then(|| duration("x-ratelimit-reset-tokens"))
            .flatten();
        Some(Quota {
            remaining,
            refill_per_sec,
            tokens_exhausted_for,
        })
    }
}

/// A reset time as the providers write it: Go durations (`1s`, `6m0s`, `1h2m3.5s`, `20ms`,
/// `250us`) or plain seconds (`0.5`). Anything else is `None`.
pub(crate) fn parse_reset(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e9)));
    }
    let mut total = 0.0f64;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if digits == 0 {
            return None;
        }
        let value: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let seconds = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        total += value * seconds;
        rest = &rest[unit_len..];
    }
    (total.is_finite() && total <= 1e9).then(|| Duration::from_secs_f64(total))
}

/// The latest quota any answer announced, handed from the transport (which sees the headers)
/// to the retry loop (which holds the limiter).
#[derive(Debug, Clone, Default)]
pub(crate) struct LatestQuota(Arc<Mutex<Option<Quota>>>);

impl LatestQuota {
    pub(crate) fn set(&self, quota: Quota) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(quota);
    }

    pub(crate) fn take(&self) -> Option<Quota> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn reset_times_in_every_form_the_providers_send() {
        assert_eq!(parse_reset("1s"), Some(Duration::from_secs(1)));
        assert_eq!(parse_reset("6m0s"), Some(Duration::from_secs(360)));
        assert_eq!(parse_reset("20ms"), Some(Duration::from_millis(20)));
        assert_eq!(
            parse_reset("1h2m3.5s"),
            Some(Duration::from_secs_f64(3723.5))
        );
        assert_eq!(parse_reset("0.5"), Some(Duration::from_millis(500)));
        for bad in ["", "soon", "5x", "-1", "s", "1e400"] {
            assert_eq!(parse_reset(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_refill_rate_follows_from_limit_remaining_and_reset() {
        let quota = Quota::from_headers(&headers(&[
            ("x-ratelimit-limit-requests", "60"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "3s"),
        ]))
        .unwrap();
        assert_eq!(quota.remaining, 0);
        assert_eq!(quota.refill_per_sec, Some(20.0));
        assert_eq!(quota.tokens_exhausted_for, None);
    }

    #[test]
    fn a_used_up_token_quota_and_missing_headers() {
        let quota = Quota::from_headers(&headers(&[
            ("x-ratelimit-remaining-requests", "12"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("x-ratelimit-reset-tokens", "850ms"),
        ]))
        .unwrap();
        assert_eq!(quota.refill_per_sec, None);
        assert_eq!(quota.tokens_exhausted_for, Some(Duration::from_millis(850)));
        assert_eq!(Quota::from_headers(&HeaderMap::new()), None);
        assert_eq!(
            Quota::from_headers(&headers(&[("x-ratelimit-remaining-requests", "many")])),
            None
        );
    }
}
