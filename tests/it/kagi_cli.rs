//! `vaultsum summarize` and `vaultsum search` as a person runs them: the real binary, with
//! `KAGI_API_KEY` and `KAGI_BASE_URL` set in the child's environment, against a fake Kagi.

use crate::support;

use serde_json::{json, Value};
use support::fake_kagi::{
    authorization, envelope, error, ok, result, vaultsum_command, FakeKagi, TEST_KEY,
};

#[tokio::test]
async fn search_prints_the_numbered_list_on_stdout_using_the_env_key() {
    let fake = FakeKagi::start();
    fake.on_search_items(
        "rust",
        vec![result("https://r.example", "Rust", Some("lang"))],
    );
    fake.on_search_items("tokio", vec![result("https://t.example", "Tokio", None)]);
    vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args(["search", "rust", "tokio", "--limit", "4"])
        .assert()
        .success()
        .stdout("1. Rust\n   https://r.example\n   lang\n\n2. Tokio\n   https://t.example\n")
        .stderr("");
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(authorization(request), Some(format!("Bot {TEST_KEY}")));
        assert!(request.url.query().unwrap().contains("limit=4"));
    }
}

#[tokio::test]
async fn missing_key_exits_1_with_the_documented_message_on_stderr() {
    let fake = FakeKagi::start();
    vaultsum_command(&fake.base_url(), None)
        .args(["search", "anything"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "vaultsum: KAGI_API_KEY environment variable is not set. \
             Set it to your Kagi API key to use web search.\n",
        );
    vaultsum_command(&fake.base_url(), None)
        .args(["summarize", "https://example.com"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "vaultsum: KAGI_API_KEY environment variable is not set. \
             Set it to your Kagi API key to use summarize.\n",
        );
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn summarize_flags_reach_the_request_body_and_json_output_carries_details() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(json!({"output": "- key point", "tokens": 42}))));
    let assert = vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args([
            "summarize",
            "https://example.com/spec",
            "--type",
            "takeaway",
            "--engine",
            "agnes",
            "--lang",
            "JA",
            "--json",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one JSON line: {stdout}");
    let printed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(printed["text"], "- key point");
    assert_eq!(printed["is_error"], false);
    assert_eq!(printed["details"]["tokens"], 42);
    assert_eq!(printed["details"]["summary_type"], "takeaway");
    let body: Value = serde_json::from_slice(&fake.requests()[0].body).unwrap();
    assert_eq!(
        body,
        json!({"url": "https://example.com/spec", "summary_type": "takeaway",
               "engine": "agnes", "target_language": "JA"})
    );
}

#[tokio::test]
async fn json_output_of_a_failed_tool_is_still_json_and_exits_1() {
    let fake = FakeKagi::start();
    fake.on_search("q", error(401, 1, "Unauthorized: Invalid token"));
    let assert = vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args(["search", "q", "--json"])
        .assert()
        .code(1);
    let output = assert.get_output();
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["is_error"], true);
    assert_eq!(
        printed["text"],
        "Kagi search request failed: HTTP 401 Unauthorized: Unauthorized: Invalid token"
    );
    let everything = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!everything.contains(TEST_KEY));
}

#[tokio::test]
async fn verbose_renders_the_call_and_result_on_stderr_only() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(json!({"output": "Prose.", "tokens": 9}))));
    vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args(["-v", "summarize", "https://e.com", "--engine", "agnes"])
        .assert()
        .success()
        .stdout("Prose.\n")
        .stderr("→ summarize \"https://e.com\" (agnes)\n← summary, 9 tokens\n");
}

#[tokio::test]
async fn bad_flags_are_usage_errors_with_exit_2() {
    let fake = FakeKagi::start();
    vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args(["summarize", "https://e.com", "--type", "essay"])
        .assert()
        .code(2);
    let eleven: Vec<String> = (0..11).map(|i| format!("q{i}")).collect();
    vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .arg("search")
        .args(&eleven)
        .assert()
        .code(2);
    vaultsum_command(&fake.base_url(), Some(TEST_KEY))
        .args(["search", "q", "--limit", "0"])
        .assert()
        .code(2);
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn save_to_writes_the_page_note_replaces_its_own_and_refuses_a_foreign_one() {
    let fake = FakeKagi::start();
    fake.on_summarize(ok(envelope(
        json!({"output": "First: the spec, summarized.", "tokens": 42}),
    )));
    let vault = crate::support::temp_vault::TempVault::with(&[
        ("Clippings/.keep", ""),
        ("Clippings/Mine.md", "My own note.\n"),
    ]);
    let url = "https://example.com/spec";
    let run_on = |fake: &FakeKagi, url: &str, save_to: &str| {
        vaultsum_command(&fake.base_url(), Some(TEST_KEY))
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize", url, "--save-to", save_to, "--json"])
            .output()
            .unwrap()
    };
    let run = |save_to: &str| run_on(&fake, url, save_to);
    let output = run("Clippings/Spec.md");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["details"]["save_to"], "Clippings/Spec.md");
    let note = String::from_utf8(vault.read("Clippings/Spec.md")).unwrap();
    let (front, body) = note
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("---\n"))
        .expect("frontmatter");
    assert!(
        front.starts_with(&format!("source: \"{url}\"\nsummarized: \"")),
        "{note}"
    );
    // The summary carries the mark of what vaultsum wrote (its hash and length).
    let (mark, body) = body
        .strip_prefix("\n## Summary\n<!-- vaultsum: generated summary=")
        .and_then(|rest| rest.split_once(" -->\n"))
        .expect("the mark under the heading");
    assert!(mark.contains(" lines="), "{note}");
    assert_eq!(
        body,
        "\nFirst: the spec, summarized.\n\n> [!info] Not checked\n> Kagi returns the summary without the page's text, so its names and numbers could not be checked against the page.\n",
        "{note}"
    );

    // The same URL again into its note: the summary is replaced, the note stays one, and a
    // line the person typed under it stays.
    vault.write("Clippings/Spec.md", format!("{note}Mine.\n"));
    let second = FakeKagi::start();
    second.on_summarize(ok(envelope(
        json!({"output": "Second: updated.", "tokens": 7}),
    )));
    assert!(run_on(&second, url, "Clippings/Spec.md").status.success());
    let again = String::from_utf8(vault.read("Clippings/Spec.md")).unwrap();
    assert_eq!(again.matches("## Summary").count(), 1, "{again}");
    assert!(
        again.ends_with("Second: updated.\n\n> [!info] Not checked\n> Kagi returns the summary without the page's text, so its names and numbers could not be checked against the page.\nMine.\n"),
        "{again}"
    );

    // A person's note, and another URL's note, are refused before Kagi is asked.
    let asked = fake.requests().len();
    let refused = run("Clippings/Mine.md");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stdout).contains("is not a note vaultsum wrote"),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    assert_eq!(vault.read("Clippings/Mine.md"), b"My own note.\n");
    let other = run_on(&fake, "https://example.com/other", "Clippings/Spec.md");
    assert_eq!(other.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(vault.read("Clippings/Spec.md")).unwrap(),
        again
    );
    let escape = run("../outside.md");
    assert_eq!(escape.status.code(), Some(1));
    assert_eq!(
        fake.requests().len(),
        asked,
        "no paid call for a refused save_to"
    );
}
