//! The watcher's own retry of a note whose summary failed for a passing reason.
//!
//! Whether a failure may pass is the tool's decision, handed over as data
//! ([`RetryHint`] in its output), never read from the error text: a note named
//! `rate limit ideas.md` that fails with a 400 is not retried. The LLM client has already
//! retried within its own attempts and time budget; the watcher tries such a note again later,
//! at most `max_retries` times, after an exponential backoff (`base`, `2·base`, `4·base`, …,
//! at most [`MAX_DELAY`]) spread by ±[`JITTER`] at random, and never sooner than the provider's
//! `Retry-After`.
//!
//! Why ±20 % rather than full jitter (a uniform wait anywhere in `[0, backoff]`): notes that
//! failed together (a bulk import meeting a rate limit) must not come back together, and ±20 %
//! already spreads them over a window 40 % as wide as the backoff. Full jitter spreads them
//! further but may retry almost at once, sending the next paid request to a provider that has
//! just said it is overloaded, and it halves the average wait, undoing the backoff. With ±20 %
//! every retry still waits longer than the one before (0.8 × 2 > 1.2), and the log can say when.

use std::time::Duration;

use crate::tools::RetryHint;

/// How far a backoff is spread either way: a random factor in `[1 - JITTER, 1 + JITTER]`.
pub const JITTER: f64 = 0.2;

/// The longest the watcher waits before a retry, however large the base, the number of
/// retries or the provider's `Retry-After` (a server asking for longer than a day is taken to
/// mean a day).
pub const MAX_DELAY: Duration = Duration::from_secs(24 * 3600);

/// How the watcher retries notes whose failure may pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries of one note's content, on top of the first call.
    pub max_retries: u32,
    /// The nominal wait before the first retry; doubled for each next one.
    pub base: Duration,
}

/// What to do with a note whose summary failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryDecision {
    /// Try again after `delay`; this is retry number `retry` (from 1).
    RetryIn { delay: Duration, retry: u32 },
    /// The failure would only repeat (the tool did not mark it retryable).
    NotRetryable,
    /// Every retry has been used.
    OutOfRetries,
}

impl RetryPolicy {
    /// The decision for a failure with `hint`, after `retries_so_far` retries of this note.
    /// `unit` is a uniform random draw in `[0, 1]` that places the jitter.
    pub fn decide(&self, hint: Option<RetryHint>, retries_so_far: u32, unit: f64) -> RetryDecision {
        let Some(RetryHint::Later { after }) = hint else {
            return RetryDecision::NotRetryable;
        };
        if retries_so_far >= self.max_retries {
            return RetryDecision::OutOfRetries;
        }
        let retry = retries_so_far + 1;
        RetryDecision::RetryIn {
            delay: delay(self.base, retry, after, unit),
            retry,
        }
    }
}

/// The nominal wait before retry number `retry` (from 1): `base`, then doubled each time, at
/// most [`MAX_DELAY`]. Saturating: any base and any number give a delay, never a panic.
pub fn backoff(base: Duration, retry: u32) -> Duration {
    let doublings = retry.saturating_sub(1).min(31);
    base.saturating_mul(1u32 << doublings).min(MAX_DELAY)
}

/// `delay` spread by ±[`JITTER`]: `unit` 0 gives 80 %, 0.5 the delay itself, 1 gives 120 %.
/// A draw outside `[0, 1]` is clamped, a NaN counts as 0.5.
pub fn jitter(delay: Duration, unit: f64) -> Duration {
    let unit = if unit.is_nan() {
        0.5
    } else {
        unit.clamp(0.0, 1.0)
    };
    let factor = 1.0 - JITTER + 2.0 * JITTER * unit;
    Duration::try_from_secs_f64(delay.as_secs_f64() * factor).unwrap_or(delay)
}

/// The wait before retry number `retry`: the jittered backoff, at least the provider's
/// `after`, at most [`MAX_DELAY`].
pub fn delay(base: Duration, retry: u32, after: Option<Duration>, unit: f64) -> Duration {
    let spread = jitter(backoff(base, retry), unit).min(MAX_DELAY);
    let floor = after.unwrap_or(Duration::ZERO).min(MAX_DELAY);
    spread.max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const POLICY: RetryPolicy = RetryPolicy {
        max_retries: 2,
        base: Duration::from_secs(60),
    };
    const LATER: Option<RetryHint> = Some(RetryHint::Later { after: None });

    #[test]
    fn only_failures_the_tool_marks_retryable_are_retried() {
        assert_eq!(POLICY.decide(None, 0, 0.5), RetryDecision::NotRetryable);
        assert_eq!(
            POLICY.decide(LATER, 0, 0.5),
            RetryDecision::RetryIn {
                delay: Duration::from_secs(60),
                retry: 1
            }
        );
    }

    #[test]
    fn retries_are_bounded() {
        assert!(matches!(
            POLICY.decide(LATER, 1, 0.5),
            RetryDecision::RetryIn { retry: 2, .. }
        ));
        assert_eq!(POLICY.decide(LATER, 2, 0.5), RetryDecision::OutOfRetries);
        let never = RetryPolicy {
            max_retries: 0,
            ..POLICY
        };
        assert_eq!(never.decide(LATER, 0, 0.5), RetryDecision::OutOfRetries);
    }

    #[test]
    fn backoff_doubles_from_the_base_up_to_the_cap() {
        let base = Duration::from_secs(30);
        assert_eq!(backoff(base, 1), Duration::from_secs(30));
        assert_eq!(backoff(base, 2), Duration::from_secs(60));
        assert_eq!(backoff(base, 3), Duration::from_secs(120));
        assert_eq!(backoff(base, 40), MAX_DELAY);
    }

    #[test]
    fn jitter_spreads_twenty_percent_either_way() {
        let d = Duration::from_secs(100);
        assert_eq!(jitter(d, 0.0), Duration::from_secs(80));
        assert_eq!(jitter(d, 0.5), Duration::from_secs(100));
        assert_eq!(jitter(d, 1.0), Duration::from_secs(120));
        assert_eq!(jitter(d, -3.0), Duration::from_secs(80));
        assert_eq!(jitter(d, f64::NAN), Duration::from_secs(100));
    }

    #[test]
    fn retry_after_is_a_floor_not_a_replacement() {
        let asked = |secs| {
            Some(RetryHint::Later {
                after: Some(Duration::from_secs(secs)),
            })
        };
        // Longer than the backoff: the provider's wait wins.
        assert_eq!(
            POLICY.decide(asked(600), 0, 0.5),
            RetryDecision::RetryIn {
                delay: Duration::from_secs(600),
                retry: 1
            }
        );
        // Shorter: the backoff still applies.
        assert_eq!(
            POLICY.decide(asked(1), 0, 0.0),
            RetryDecision::RetryIn {
                delay: Duration::from_secs(48),
                retry: 1
            }
        );
        // Absurd: a day at most.
        assert!(matches!(
            POLICY.decide(Some(RetryHint::Later { after: Some(Duration::MAX) }), 0, 0.5),
            RetryDecision::RetryIn { delay, .. } if delay == MAX_DELAY
        ));
    }

    #[test]
    fn each_retry_waits_longer_than_the_one_before_whatever_the_draws() {
        for retry in 1..6 {
            let longest_now = delay(POLICY.base, retry, None, 1.0);
            let shortest_next = delay(POLICY.base, retry + 1, None, 0.0);
            assert!(shortest_next > longest_now, "retry {retry}");
        }
    }

    fn any_duration() -> impl Strategy<Value = Duration> {
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(secs, nanos)| Duration::new(secs, nanos))
    }

    /// Rounding allowance of the f64 arithmetic in [`jitter`] (far below a millisecond).
    const SLACK: Duration = Duration::from_micros(1);

    proptest! {
        /// Any base, any retry number, any draw (NaN and infinities included), any Retry-After:
        /// a delay, never a panic, never above the cap, never below the provider's wait.
        #[test]
        fn delays_never_panic_and_stay_within_the_cap_and_above_the_floor(
            base in any_duration(),
            retry in any::<u32>(),
            unit in proptest::num::f64::ANY,
            after in proptest::option::of(any_duration()),
        ) {
            let d = delay(base, retry, after, unit);
            prop_assert!(d <= MAX_DELAY);
            prop_assert!(d >= after.unwrap_or(Duration::ZERO).min(MAX_DELAY));
            prop_assert!(backoff(base, retry) <= MAX_DELAY);
        }

        /// With a draw in [0, 1], the delay is the backoff spread by at most ±20 %.
        #[test]
        fn jittered_delays_stay_within_twenty_percent_of_the_backoff(
            base in any_duration(),
            retry in any::<u32>(),
            unit in 0.0f64..=1.0,
        ) {
            let nominal = backoff(base, retry);
            let d = delay(base, retry, None, unit);
            prop_assert!(d + SLACK >= nominal.mul_f64(1.0 - JITTER), "{d:?} < 80 % of {nominal:?}");
            prop_assert!(d <= nominal.mul_f64(1.0 + JITTER) + SLACK, "{d:?} > 120 % of {nominal:?}");
        }

        /// The decision follows the hint and the count, for any count.
        #[test]
        fn decisions_respect_the_hint_and_the_bound(
            max_retries in 0u32..10,
            so_far in any::<u32>(),
            unit in 0.0f64..=1.0,
        ) {
            let policy = RetryPolicy { max_retries, base: Duration::from_secs(30) };
            prop_assert_eq!(policy.decide(None, so_far, unit), RetryDecision::NotRetryable);
            match policy.decide(LATER, so_far, unit) {
                RetryDecision::RetryIn { retry, .. } => {
                    prop_assert!(so_far < max_retries);
                    prop_assert_eq!(retry, so_far + 1);
                }
                RetryDecision::OutOfRetries => prop_assert!(so_far >= max_retries),
                RetryDecision::NotRetryable => prop_assert!(false, "a retryable failure was refused"),
            }
        }
    }
}
