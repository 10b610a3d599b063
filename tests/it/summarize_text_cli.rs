//! `vaultsum summarize-text` through the real binary: stdin in, summary out, exit codes.

use assert_cmd::Command;
use predicates::prelude::*;

const NOTE: &str = "# Release plan\n\nVersion 2.0 ships on 1 June with the new sync engine.\nThe beta starts two weeks earlier for volunteers.\n\n## Open questions\n\nPricing for teams is still undecided.\n\n- [ ] Write the release notes\n- [x] Freeze the feature list\n";

/// The binary with no API key and no config file, so `auto` means `offline` and nothing on the
/// machine running the tests changes the result.
fn vaultsum() -> Command {
    let mut cmd = Command::cargo_bin("vaultsum").unwrap();
    cmd.env_remove("FIREWORKS_API_KEY")
        .env_remove("VAULTSUM_ENGINE")
        .env_remove("VAULTSUM_VAULT")
        .env("VAULTSUM_CONFIG", "")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("vaultsum-no-config"),
        );
    cmd
}

#[test]
fn summarizes_stdin_with_the_local_engine() {
    vaultsum()
        .args(["summarize-text", "--engine", "local"])
        .write_stdin(NOTE)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("### Key Points\n"))
        .stdout(predicate::str::contains(
            "- Version 2.0 ships on 1 June with the new sync engine.",
        ))
        .stdout(predicate::str::ends_with(
            "### Action Items\n\n- [ ] Write the release notes\n",
        ))
        .stdout(predicate::str::contains("Freeze the feature list").not());
}

#[test]
fn auto_without_api_key_uses_the_offline_engine_and_says_so_on_stderr_only() {
    vaultsum()
        .arg("summarize-text")
        .write_stdin(NOTE)
        .assert()
        .success()
        .stdout(predicate::str::contains("### Key Points"))
        .stdout(predicate::str::contains("offline summarizer").not())
        .stderr(predicate::str::contains(
            "using the built-in offline summarizer (--engine offline)",
        ));
}

#[test]
fn sentences_flag_sets_the_number_of_key_points() {
    let output = vaultsum()
        .args(["summarize-text", "--sentences", "2"])
        .write_stdin(NOTE)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let points = stdout
        .lines()
        .take_while(|l| !l.starts_with("### Action"))
        .filter(|l| l.starts_with("- "))
        .count();
    assert_eq!(points, 2, "{stdout}");
}

#[test]
fn focus_flag_pulls_in_the_matching_sentence() {
    vaultsum()
        .args([
            "summarize-text",
            "--sentences",
            "1",
            "--focus",
            "team pricing",
        ])
        .write_stdin(NOTE)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "- Pricing for teams is still undecided.",
        ));
}

#[test]
fn verbose_renders_the_registry_call_and_result_on_stderr() {
    vaultsum()
        .args(["-v", "summarize-text", "--engine", "local"])
        .write_stdin(NOTE)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("### Key Points\n"))
        .stderr(predicate::str::contains(format!(
            "→ summarize_text ({} chars)",
            NOTE.chars().count()
        )))
        .stderr(predicate::str::contains("← ✓ offline summary of"));
}

#[test]
fn summarize_text_is_not_listed_among_the_tools() {
    let output = vaultsum().args(["tools", "--json"]).output().unwrap();
    let tools: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "read_file",
            "summarize_file",
            "summarize",
            "web_search",
            "summarize_notes",
            "summarize_folder",
            "summary_status"
        ]
    );
}

#[test]
fn empty_stdin_is_a_usage_error_with_exit_code_2() {
    vaultsum()
        .arg("summarize-text")
        .write_stdin("  \n\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("no text on stdin"));
}

#[test]
fn text_with_only_code_is_a_tool_error_with_exit_code_1() {
    vaultsum()
        .args(["summarize-text", "--engine", "offline"])
        .write_stdin("```\nfn main() {}\n```\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("nothing to summarize"));
}

#[test]
fn zero_sentences_and_unknown_engine_are_usage_errors() {
    vaultsum()
        .args(["summarize-text", "--sentences", "0"])
        .write_stdin(NOTE)
        .assert()
        .code(2);
    vaultsum()
        .args(["summarize-text", "--engine", "gpt"])
        .write_stdin(NOTE)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("one of auto, llm, offline"));
}

#[test]
fn llm_engine_is_refused_clearly_until_it_is_wired() {
    vaultsum()
        .args(["summarize-text", "--engine", "llm"])
        .write_stdin(NOTE)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--engine offline"));
}

#[test]
fn invalid_utf8_on_stdin_is_a_usage_error() {
    vaultsum()
        .arg("summarize-text")
        .write_stdin(vec![0xff, 0xfe, 0x00])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("UTF-8"));
}
