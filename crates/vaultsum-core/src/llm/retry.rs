//! When and how long to wait before trying a failed request again.
//!
//! async-openai has a retry layer of its own, but it drops the HTTP status of non-JSON 429
//! bodies, ignores `Retry-After` dates and has no total-time bound, so the client installs a
//! plain transport and retries here instead.
//!
//! Every attempt takes a permit from the client's [`Limiter`] and tells it how the server
//! answered, so a 429 or 503 slows all requests of the process, not just this one.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::config::LlmConfig;
use crate::llm::limiter::{Answer, Limiter};
use crate::llm::quota::LatestQuota;
use crate::llm::LlmError;

/// Longest backoff between two attempts when the server gives no `Retry-After`.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// One failed attempt: the error, and how long the server asked us to wait, if it did.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) error: LlmError,
    pub(crate) retry_after: Option<Duration>,
}

impl Failure {
    /// The error the client reports when it stops trying after `made` requests, with the
    /// server's `Retry-After` kept so a caller retrying later knows how long to wait.
    fn give_up(self, made: u32) -> LlmError {
        self.error
            .with_attempts(made)
            .with_retry_after(self.retry_after)
    }
}

impl From<LlmError> for Failure {
    fn from(error: LlmError) -> Failure {
        Failure {
            error,
            retry_after: None,
        }
    }
}

/// Attempts, total time and backoff for one logical request, and the limiter every attempt
/// goes through.
#[derive(Debug, Clone)]
pub(crate) struct RetryPolicy {
    max_attempts: u32,
    budget: Duration,
    initial_backoff: Duration,
    limiter: Arc<Limiter>,
    /// The quota the answers announce, handed to the limiter after each attempt.
    quota: LatestQuota,
}

impl RetryPolicy {
    /// The configured retries, with a default [`Limiter`] until [`RetryPolicy::set_limiter`].
    pub(crate) fn from_config(cfg: &LlmConfig) -> RetryPolicy {
        RetryPolicy {
            max_attempts: cfg.max_attempts.max(1),
            budget: Duration::from_secs(cfg.max_retry_secs),
            initial_backoff: Duration::from_millis(cfg.initial_backoff_ms),
            limiter: Arc::new(Limiter::default()),
            quota: LatestQuota::default(),
        }
    }

    /// Reads the quota the answers announce from `quota` (the transport's).
    pub(crate) fn set_quota_source(&mut self, quota: LatestQuota) {
        self.quota = quota;
    }

    pub(crate) fn set_limiter(&mut self, limiter: Limiter) {
        self.limiter = Arc::new(limiter);
    }

    pub(crate) fn limiter(&self) -> &Limiter {
        &self.limiter
    }

    /// What the limiter learns from one attempt. A `Retry-After` is kept to the time budget:
    /// a server asking for an hour would otherwise hold every request of the process for an
    /// hour, where this request gives up at once and says how long was asked.
    fn answer<T>(&self, result: &Result<T, Failure>) -> Answer {
        match result {
            Ok(_) => Answer::Fine,
            Err(failure) => {
                let wait = failure.retry_after.map(|wait| wait.min(self.budget));
                match failure.error.status() {
                    Some(429) => Answer::RateLimited(wait),
                    Some(503) => Answer::Unavailable(wait),
                    // A server that does not answer in time is queueing more than it can serve
                    // (a local model with one slot): as much overload as a 503.
                    _ if matches!(failure.error, LlmError::Timeout { .. }) => {
                        Answer::Unavailable(None)
                    }
                    _ => Answer::Other,
                }
            }
        }
    }

    /// The wait before retry number `retry` (0 for the first retry): the server's
    /// `Retry-After` when given, else exponential backoff from `initial_backoff`.
    pub(crate) fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        retry_after.unwrap_or_else(|| {
            self.initial_backoff
                .saturating_mul(2u32.saturating_pow(retry))
                .min(MAX_BACKOFF)
        })
    }

    /// True when waiting `delay` after `elapsed` stays within the time budget. Saturating, so a
    /// server's `Retry-After` of any size gives up instead of overflowing.
    pub(crate) fn fits_budget(&self, elapsed: Duration, delay: Duration) -> bool {
        elapsed.saturating_add(delay) <= self.budget
    }

    /// Runs `attempt` until it succeeds, fails for good, runs out of attempts, or the next wait
    /// would overrun the time budget. Returns the value and the number of attempts made.
    /// Each attempt waits for a permit of the limiter first; that wait is queueing, not
    /// retrying, so it does not count against the time budget.
    pub(crate) async fn run<T, F, Fut>(
        &self,
        what: &str,
        mut attempt: F,
    ) -> Result<(T, u32), LlmError>
    where
        T: AnswerSize,
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let started = Instant::now();
        let mut queued = Duration::ZERO;
        let mut made = 0u32;
        loop {
            made += 1;
            let asked = Instant::now();
            let permit = self.limiter.acquire().await;
            queued += asked.elapsed();
            let result = attempt().await;
            let tokens = result.as_ref().ok().and_then(AnswerSize::tokens);
            permit.answered_with(self.answer(&result), self.quota.take(), tokens);
            let failure = match result {
                Ok(value) => return Ok((value, made)),
                Err(failure) => failure,
            };
            if !failure.error.is_retryable() || made >= self.max_attempts {
                return Err(failure.give_up(made));
            }
            let delay = self.delay(made - 1, failure.retry_after);
            if !self.fits_budget(started.elapsed().saturating_sub(queued), delay) {
                tracing::warn!(
                    attempt = made,
                    wait_secs = delay.as_secs_f64(),
                    "{what}: not retrying, the wait would exceed llm.max_retry_secs ({}s)",
                    self.budget.as_secs()
                );
                return Err(failure.give_up(made));
            }
            tracing::warn!(
                attempt = made,
                wait_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                "{what} failed, retrying: {}",
                failure.error
            );
            tokio::time::sleep(delay).await;
        }
    }
}

/// What an answer says of its size, for the limiter's view of queueing (`llm/aimd.rs`).
pub(crate) trait AnswerSize {
    /// (prompt, completion) tokens, when the answer reports them.
    fn tokens(&self) -> Option<(u64, u64)>;
}

impl AnswerSize for serde_json::Value {
    /// The OpenAI `usage` object's `prompt_tokens` and `completion_tokens`.
    fn tokens(&self) -> Option<(u64, u64)> {
        let usage = self.get("usage")?;
        let count = |key: &str| usage.get(key).and_then(serde_json::Value::as_u64);
        Some((
            count("prompt_tokens").unwrap_or(0),
            count("completion_tokens")?,
        ))
    }
}

/// Parses a `Retry-After` value: delay-seconds (fractions tolerated) or an HTTP date.
///
/// Never panics: a value too large for a `Duration` (`1e20`, `inf`) is `Duration::MAX`, which
/// the budget check then refuses to wait; negative values, NaN and garbage are ignored.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        if secs.is_nan() || secs < 0.0 {
            return None;
        }
        return Some(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    impl AnswerSize for () {
        fn tokens(&self) -> Option<(u64, u64)> {
            None
        }
    }

    fn policy(initial_ms: u64) -> RetryPolicy {
        RetryPolicy {
            max_attempts: 5,
            budget: Duration::from_secs(60),
            initial_backoff: Duration::from_millis(initial_ms),
            limiter: Arc::new(Limiter::default()),
            quota: LatestQuota::default(),
        }
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = policy(500);
        assert_eq!(p.delay(0, None), Duration::from_millis(500));
        assert_eq!(p.delay(1, None), Duration::from_millis(1000));
        assert_eq!(p.delay(2, None), Duration::from_millis(2000));
        assert_eq!(p.delay(20, None), MAX_BACKOFF);
    }

    #[test]
    fn retry_after_replaces_the_backoff() {
        assert_eq!(
            policy(500).delay(3, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
    }

    #[test]
    fn retry_after_seconds_are_parsed() {
        let now = SystemTime::now();
        assert_eq!(parse_retry_after("12", now), Some(Duration::from_secs(12)));
        assert_eq!(
            parse_retry_after(" 0.5 ", now),
            Some(Duration::from_millis(500))
        );
        assert_eq!(parse_retry_after("-3", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn hostile_retry_after_values_do_not_panic() {
        let now = SystemTime::now();
        assert_eq!(parse_retry_after("1e20", now), Some(Duration::MAX));
        assert_eq!(parse_retry_after("inf", now), Some(Duration::MAX));
        assert_eq!(
            parse_retry_after("99999999999999999999999999", now),
            Some(Duration::MAX)
        );
        assert_eq!(parse_retry_after("NaN", now), None);
        assert_eq!(parse_retry_after("-inf", now), None);
        assert_eq!(parse_retry_after("-0.5", now), None);
        assert!(parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", now).is_some());
        assert!(!policy(500).fits_budget(Duration::from_secs(1), Duration::MAX));
    }

    proptest::proptest! {
        /// Any header text parses without panicking, and a parsed wait never exceeds what the
        /// value asked for (or the date's distance from now).
        #[test]
        fn any_retry_after_text_parses_without_panic(value in "\\PC{0,40}") {
            let _ = parse_retry_after(&value, SystemTime::now());
        }

        #[test]
        fn any_number_of_seconds_parses_without_panic(secs in proptest::num::f64::ANY) {
            let parsed = parse_retry_after(&secs.to_string(), SystemTime::now());
            if secs.is_nan() || secs < 0.0 {
                proptest::prop_assert!(parsed.is_none());
            } else {
                proptest::prop_assert!(parsed.is_some());
            }
        }

        #[test]
        fn any_http_date_parses_without_panic(secs in proptest::prelude::any::<u64>(), now_secs in 0u64..=253_402_300_799) {
            let now = SystemTime::UNIX_EPOCH + Duration::from_secs(now_secs);
            let when = SystemTime::UNIX_EPOCH + Duration::from_secs(secs % 253_402_300_800);
            let text = httpdate::fmt_http_date(when);
            let parsed = parse_retry_after(&text, now).unwrap();
            proptest::prop_assert_eq!(parsed, when.duration_since(now).unwrap_or(Duration::ZERO));
        }

        /// Backoff never panics and stays under the cap; with a `Retry-After` the wait is the
        /// server's, and the budget check never overflows and only lets through waits that fit.
        #[test]
        fn delay_and_budget_are_bounded(
            max_attempts in proptest::prelude::any::<u32>(),
            budget_secs in proptest::prelude::any::<u64>(),
            initial_ms in proptest::prelude::any::<u64>(),
            retry in proptest::prelude::any::<u32>(),
            after_secs in proptest::prelude::any::<u64>(),
            after_nanos in 0u32..1_000_000_000,
            has_after in proptest::prelude::any::<bool>(),
            elapsed_secs in proptest::prelude::any::<u64>(),
        ) {
            let mut cfg = crate::config::Config::default().llm;
            cfg.max_attempts = max_attempts;
            cfg.max_retry_secs = budget_secs;
            cfg.initial_backoff_ms = initial_ms;
            let p = RetryPolicy::from_config(&cfg);
            proptest::prop_assert!(p.max_attempts >= 1);
            let after = has_after.then(|| Duration::new(after_secs, after_nanos));
            let delay = p.delay(retry, after);
            match after {
                Some(after) => proptest::prop_assert_eq!(delay, after),
                None => proptest::prop_assert!(delay <= MAX_BACKOFF),
            }
            let elapsed = Duration::from_secs(elapsed_secs);
            if p.fits_budget(elapsed, delay) {
                proptest::prop_assert!(delay <= p.budget);
                proptest::prop_assert!(elapsed <= p.budget);
            }
        }
    }

    #[test]
    fn retry_after_http_date_is_relative_to_now() {
        let now = httpdate::parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now),
            Some(Duration::from_secs(30))
        );
        // A date in the past means "now".
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
    }

    fn rate_limited(retry_after: Option<Duration>) -> Failure {
        Failure {
            error: LlmError::Http {
                status: 429,
                message: "rate limit exceeded".into(),
                attempts: 1,
                retry_after: None,
            },
            retry_after,
        }
    }

    fn give_up_on(policy: &RetryPolicy, failure: fn() -> Failure) -> LlmError {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime
            .block_on(policy.run("test", || async move { Err::<(), _>(failure()) }))
            .unwrap_err()
    }

    #[test]
    fn retry_after_of_the_last_attempt_is_kept_in_the_error_given_up_with() {
        let once = RetryPolicy {
            max_attempts: 1,
            ..policy(10)
        };
        let error = give_up_on(&once, || rate_limited(Some(Duration::from_secs(7))));
        assert_eq!(error.retry_after(), Some(Duration::from_secs(7)));
        assert_eq!(error.attempts(), 1);
        // Over the time budget: the client stops at once, and says how long the server asked.
        let error = give_up_on(&policy(10), || rate_limited(Some(Duration::from_secs(600))));
        assert_eq!(error.retry_after(), Some(Duration::from_secs(600)));
        let error = give_up_on(&once, || rate_limited(None));
        assert_eq!(error.retry_after(), None);
    }
}
