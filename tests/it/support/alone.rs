//! Running one test alone in a child process of the test binary, for the few tests that change
//! process-wide state (the environment): every other test runs on a thread of this process and
//! must not see it.

/// Set in the child process.
const CHILD: &str = "VAULTSUM_IT_ALONE";

/// In the child, true: the caller goes on with its body. In this process, runs the test
/// `module::name` (pass `module_path!()` and the function's name) alone in a child process of
/// the test binary, fails unless it passed there, and returns false.
pub fn in_own_process(module: &str, name: &str) -> bool {
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    // Test names leave out the crate: `it::kagi_env_key` lists as `kagi_env_key::…`.
    let module = module.split_once("::").map_or("", |(_, rest)| rest);
    let test = format!("{module}::{name}");
    let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            test.as_str(),
            "--exact",
            "--include-ignored",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test}, run alone in a child process, failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    false
}
