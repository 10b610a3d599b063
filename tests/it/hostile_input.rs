//! No panics from input (issue 10): the real binary with hostile environment values, flags,
//! config files and server replies exits with a clear error — never the panic code 101, never
//! "panicked" on stderr — and leaves the note unchanged.

use crate::support;

use std::path::Path;
use std::process::Output;

use support::cli::vaultsum;
use support::fake_openai::{FakeOpenAi, FakeReply};
use support::temp_vault::TempVault;

const NOTE: &str = "Inbox/Note.md";
const TEXT: &str = "# Plans\n\nWe chose SQLite for the offline store because it is simple.\n";

fn vault() -> TempVault {
    TempVault::with(&[(NOTE, TEXT)])
}

/// The process ended on its own terms: no panic, and a code in `allowed`.
fn assert_no_panic(output: &Output, allowed: &[i32], what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code();
    assert!(
        !stderr.contains("panicked") && code != Some(101),
        "{what}: panicked (code {code:?}): {stderr}"
    );
    assert!(
        code.is_some_and(|c| allowed.contains(&c)),
        "{what}: exit code {code:?}, expected one of {allowed:?}; stderr: {stderr}"
    );
}

/// A config file in `dir` with fast retries (2 attempts, 10 ms backoff) plus `extra` lines.
fn config_file(dir: &Path, extra: &str) -> std::path::PathBuf {
    let path = dir.join("hostile.toml");
    std::fs::write(
        &path,
        format!("[llm]\nmax_attempts = 2\ninitial_backoff_ms = 10\nmax_retry_secs = 5\n{extra}"),
    )
    .unwrap();
    path
}

#[cfg(unix)]
#[test]
fn non_utf8_value_of_a_vaultsum_variable_is_a_usage_error_naming_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let vault = vault();
    for name in ["VAULTSUM_ENGINE", "FIREWORKS_API_KEY", "VAULTSUM_VAULT"] {
        let output = vaultsum(&vault.outside())
            .env(name, OsStr::from_bytes(b"bad\xff\xfevalue"))
            .arg("--vault")
            .arg(vault.root())
            .args(["read", NOTE])
            .output()
            .unwrap();
        assert_no_panic(&output, &[2], name);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(name) && stderr.contains("UTF-8"),
            "{name}: {stderr}"
        );
    }
}

#[cfg(unix)]
#[test]
fn non_utf8_unrelated_variables_are_ignored() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let vault = vault();
    let output = vaultsum(&vault.outside())
        .env("SOME_OTHER_TOOL", OsStr::from_bytes(b"\xff\xfe"))
        .env(OsStr::from_bytes(b"NAME_\xff"), "value")
        .arg("--vault")
        .arg(vault.root())
        .args(["read", NOTE])
        .output()
        .unwrap();
    assert_no_panic(&output, &[0], "unrelated non-UTF-8 variables");
    assert!(String::from_utf8_lossy(&output.stdout).contains("SQLite"));
}

#[test]
fn hostile_watch_durations_are_usage_errors_naming_the_flag() {
    let vault = vault();
    for (flag, value) in [
        ("--settle", "1e30"),
        ("--settle", "1e18"),
        ("--settle", "31536001"),
        ("--settle", "-1"),
        ("--settle", "NaN"),
        ("--settle", "inf"),
        ("--poll", "1e30"),
        ("--poll", "NaN"),
        ("--poll", "-0.5"),
        ("--poll", "0"),
    ] {
        let output = vaultsum(&vault.outside())
            .env("VAULTSUM_STATE_DIR", vault.outside().join("state"))
            .arg("--vault")
            .arg(vault.root())
            .args(["watch", "--once", &format!("{flag}={value}")])
            .output()
            .unwrap();
        let what = format!("watch {flag}={value}");
        assert_no_panic(&output, &[2], &what);
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(flag),
            "{what}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert_eq!(vault.read(NOTE), TEXT.as_bytes());
}

#[test]
fn hostile_read_flags_do_not_panic() {
    let vault = vault();
    for args in [
        vec!["--offset", "18446744073709551615"],
        vec!["--offset", "99999999999999999999999999"],
        vec!["--offset", "-1"],
        vec!["--length", "0"],
        vec!["--length", "18446744073709551615"],
        vec!["--offset", "5", "--length", "18446744073709551615"],
    ] {
        let output = vaultsum(&vault.outside())
            .arg("--vault")
            .arg(vault.root())
            .arg("read")
            .args(&args)
            .arg(NOTE)
            .output()
            .unwrap();
        assert_no_panic(&output, &[0, 1, 2], &format!("read {args:?}"));
    }
    assert_eq!(vault.read(NOTE), TEXT.as_bytes());
}

#[test]
fn hostile_config_numbers_are_usage_errors_naming_the_key() {
    let vault = vault();
    for (key, text) in [
        (
            "llm.timeout_secs",
            "[llm]\ntimeout_secs = 18446744073709551615\n",
        ),
        (
            "llm.max_retry_secs",
            "[llm]\nmax_retry_secs = 18446744073709551615\n",
        ),
        (
            "llm.initial_backoff_ms",
            "[llm]\ninitial_backoff_ms = 18446744073709551615\n",
        ),
        (
            "kagi.search_timeout_secs",
            "[kagi]\nsearch_timeout_secs = 18446744073709551615\n",
        ),
        (
            "kagi.summarize_timeout_secs",
            "[kagi]\nsummarize_timeout_secs = 9999999999\n",
        ),
        (
            "watch.settle_secs",
            "[watch]\nsettle_secs = 18446744073709551615\n",
        ),
        ("timeout_secs", "[llm]\ntimeout_secs = -1\n"),
        ("max_attempts", "[llm]\nmax_attempts = 1e400\n"),
        (
            "max_chars",
            "[summarize]\nmax_chars = 99999999999999999999999\n",
        ),
    ] {
        let path = vault.outside().join("bad.toml");
        std::fs::write(&path, text).unwrap();
        let output = vaultsum(&vault.outside())
            .arg("--config")
            .arg(&path)
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "local", NOTE])
            .output()
            .unwrap();
        assert_no_panic(&output, &[2], key);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(key), "{key}: {stderr}");
    }
    assert_eq!(vault.read(NOTE), TEXT.as_bytes());
}

#[test]
fn extreme_but_valid_config_numbers_do_not_panic() {
    let vault = vault();
    let fake = FakeOpenAi::start();
    fake.set_fallback(FakeReply::rate_limited("1e20"));
    let path = config_file(
        &vault.outside(),
        "timeout_secs = 31536000\n[kagi]\nsearch_timeout_secs = 31536000\nsummarize_timeout_secs = 0\n[watch]\nsettle_secs = 31536000\n",
    );
    let output = vaultsum(&vault.outside())
        .envs(fake.env())
        .arg("--config")
        .arg(&path)
        .arg("--vault")
        .arg(vault.root())
        .args(["summarize-file", NOTE])
        .output()
        .unwrap();
    assert_no_panic(&output, &[1], "extreme config");
    assert_eq!(vault.read(NOTE), TEXT.as_bytes());
}

#[test]
fn hostile_retry_after_headers_give_an_error_and_leave_the_note_unchanged() {
    let vault = vault();
    let path = config_file(&vault.outside(), "");
    for value in [
        "1e20",
        "18446744073709551616",
        "99999999999999999999999999999999999999",
        "1.7976931348623157e308",
        "inf",
        "-5",
        "-1e20",
        "NaN",
        "Fri, 31 Dec 9999 23:59:59 GMT",
        "Thu, 01 Jan 1970 00:00:00 GMT",
        "soon",
        "",
    ] {
        let fake = FakeOpenAi::start();
        fake.set_fallback(FakeReply::rate_limited(value));
        let output = vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--config")
            .arg(&path)
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--json", NOTE])
            .output()
            .unwrap();
        let what = format!("Retry-After: {value:?}");
        assert_no_panic(&output, &[1], &what);
        assert!(
            String::from_utf8_lossy(&output.stdout).contains("429"),
            "{what}: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        assert_eq!(vault.read(NOTE), TEXT.as_bytes(), "{what}");
    }
}

#[test]
fn hostile_reply_bodies_give_an_error_and_leave_the_note_unchanged() {
    let vault = vault();
    let path = config_file(&vault.outside(), "");
    let replies = [
        ("malformed JSON", FakeReply::malformed()),
        (
            "non-UTF-8 body",
            FakeReply::raw(
                200,
                "application/json",
                b"\xff\xfe{\"choices\":[]}".to_vec(),
            ),
        ),
        (
            "empty body",
            FakeReply::raw(200, "application/json", Vec::new()),
        ),
        (
            "no choices",
            FakeReply::json(200, serde_json::json!({"id": "x", "choices": []})),
        ),
        (
            "null content",
            FakeReply::json(
                200,
                serde_json::json!({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": null}}]}),
            ),
        ),
        (
            "huge numbers",
            FakeReply::json(
                200,
                serde_json::json!({"id": "x", "object": "chat.completion", "created": -1e300, "model": "m",
                    "usage": {"prompt_tokens": 1e300, "completion_tokens": -5, "total_tokens": "many"},
                    "choices": [{"index": 18446744073709551615u64, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": null}}]}),
            ),
        ),
        (
            "HTML error page",
            FakeReply::raw(503, "text/html", "<html>\u{0}\u{ffff}</html>"),
        ),
        (
            "non-UTF-8 error body",
            FakeReply::raw(500, "application/json", b"{\"error\":\"\xff\"}".to_vec()),
        ),
    ];
    for (what, reply) in replies {
        let fake = FakeOpenAi::start();
        fake.set_fallback(reply);
        let output = vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--config")
            .arg(&path)
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--json", NOTE])
            .output()
            .unwrap();
        assert_no_panic(&output, &[1], what);
        assert_eq!(vault.read(NOTE), TEXT.as_bytes(), "{what}");
    }
}
