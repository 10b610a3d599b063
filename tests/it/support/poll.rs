//! Waiting for what happens eventually: one polling loop and one deadline for every test.
//! Tests never assert on durations, only on what eventually happens (or, with an event such as
//! "the server saw the request end", on what did not).

use std::future::Future;
use std::time::{Duration, Instant};

/// How long a test waits for an expected state before failing. Generous on a busy machine.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// How often the state is checked.
const INTERVAL: Duration = Duration::from_millis(25);

/// Runs `check` every 25 ms until it yields true or [`DEADLINE`] passes; returns whether it
/// did. The check may itself be async (e.g. a tool call).
pub async fn eventually<F, Fut>(mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + DEADLINE;
    loop {
        if check().await {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(INTERVAL).await;
    }
}

/// [`eventually`] for a check that is a plain condition.
pub async fn wait_until_async(mut check: impl FnMut() -> bool) -> bool {
    eventually(|| std::future::ready(check())).await
}

/// [`wait_until_async`] for plain `#[test]`s that drive the binary (not from inside a runtime).
pub fn wait_until(check: impl FnMut() -> bool) -> bool {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime to wait on")
        .block_on(wait_until_async(check))
}
