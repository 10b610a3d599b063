//! `vaultsum compact` on OpenAI-format transcripts, through the real binary.

use serde_json::{json, Value};

fn vaultsum() -> assert_cmd::Command {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("vaultsum");
    command
        .env("XDG_CONFIG_HOME", "/nonexistent/vaultsum-test-config")
        .env_remove("VAULTSUM_CONFIG");
    command
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}})
}

fn assistant(calls: Vec<Value>) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

fn tool(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

const SEARCH_TEXT: &str =
    "1. Tokio\n   https://tokio.rs\n   Runtime\n\n2. Docs\n   https://docs.rs/tokio";

/// system, user, then four tool turns: read_file; web_search; bash + grep in one turn;
/// a failed bash; and a final answer.
fn transcript() -> Vec<Value> {
    vec![
        json!({"role": "system", "content": "You are helpful."}),
        json!({"role": "user", "content": "Look into it."}),
        assistant(vec![call("c1", "read_file", json!({"path": "Notes/a.md"}))]),
        tool("c1", "# A\n\nLine two\nLine three"),
        assistant(vec![call(
            "c2",
            "web_search",
            json!({"queries": ["tokio"]}),
        )]),
        tool("c2", SEARCH_TEXT),
        assistant(vec![
            call("c3", "bash", json!({"command": "cargo test"})),
            call("c4", "grep", json!({"pattern": "spawn"})),
        ]),
        tool("c3", "test result: ok\nexit code: 0"),
        tool("c4", "src/main.rs:3:spawn(x)"),
        assistant(vec![call("c5", "bash", json!({"command": "make"}))]),
        tool("c5", "make: *** No rule to make target\nexit code: 2"),
        json!({"role": "assistant", "content": "Done."}),
    ]
}

fn compact(input: &Value, keep_last: &str) -> Value {
    let assert = vaultsum()
        .args(["compact", "--keep-last", keep_last])
        .write_stdin(input.to_string())
        .assert()
        .success();
    serde_json::from_slice(&assert.get_output().stdout).expect("stdout is JSON")
}

fn contents(messages: &Value) -> Vec<Value> {
    messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].clone())
        .collect()
}

#[test]
fn old_results_become_stubs_and_the_last_ones_stay_whole() {
    let input = Value::Array(transcript());
    let output = compact(&input, "1");
    let got = contents(&output);
    assert_eq!(got[3], "[✓ read_file: Notes/a.md | 4 lines | 24B]");
    assert_eq!(
        got[5],
        "[✓ web_search: \"tokio\" | 2 results | top: https://tokio.rs, https://docs.rs/tokio]"
    );
    assert_eq!(got[7], "[✓ bash: cargo test | exit 0 | 2 lines output]");
    assert_eq!(got[8], "[✓ grep: \"spawn\" | 1 match in 1 file: main.rs]");
    assert_eq!(
        got[10], input[10]["content"],
        "the last result is kept whole"
    );
    // Everything but tool-result contents is untouched, in the same order.
    let input_messages = input.as_array().unwrap();
    let output_messages = output.as_array().unwrap();
    assert_eq!(input_messages.len(), output_messages.len());
    for (i, (a, b)) in input_messages.iter().zip(output_messages).enumerate() {
        if a["role"] != "tool" {
            assert_eq!(a, b, "message {i} changed");
        } else {
            assert_eq!(a["tool_call_id"], b["tool_call_id"]);
        }
    }
}

#[test]
fn results_answering_one_assistant_turn_are_kept_together() {
    // The last two results are c4 and c5; c4's turn also made c3, so c3 stays whole too.
    let input = json!({"messages": [
        json!({"role": "user", "content": "go"}),
        assistant(vec![call("c1", "read_file", json!({"path": "x.md"}))]),
        tool("c1", "x"),
        assistant(vec![
            call("c3", "bash", json!({"command": "cargo test"})),
            call("c4", "grep", json!({"pattern": "spawn"})),
        ]),
        tool("c3", "test result: ok\nexit code: 0"),
        tool("c4", "src/main.rs:3:spawn(x)"),
        assistant(vec![call("c5", "read_file", json!({"path": "y.md"}))]),
        tool("c5", "y"),
    ]});
    let output = compact(&input, "2");
    let got = contents(&output["messages"]);
    assert_eq!(got[2], "[✓ read_file: x.md | 1 line | 1B]");
    assert_eq!(got[4], input["messages"][4]["content"]);
    assert_eq!(got[5], input["messages"][5]["content"]);
    assert_eq!(got[7], input["messages"][7]["content"]);
}

#[test]
fn old_errors_are_kept_whole() {
    let input = Value::Array(transcript());
    let output = compact(&input, "0");
    let got = contents(&output);
    assert_eq!(
        got[10], input[10]["content"],
        "a failed command stays readable"
    );
    assert!(got[3].as_str().unwrap().starts_with("[✓ read_file"));
}

#[test]
fn object_transcripts_keep_their_other_keys() {
    let input = json!({"model": "gpt-x", "temperature": 0.2, "messages": transcript()});
    let output = compact(&input, "3");
    assert_eq!(output["model"], "gpt-x");
    assert_eq!(output["temperature"], 0.2);
    assert_eq!(output["messages"].as_array().unwrap().len(), 12);
    assert!(output["messages"][3]["content"]
        .as_str()
        .unwrap()
        .starts_with("[✓ read_file: "));
}

#[test]
fn default_keep_last_is_three_and_compacting_twice_changes_nothing_more() {
    let input = Value::Array(transcript());
    let assert = vaultsum()
        .arg("compact")
        .write_stdin(input.to_string())
        .assert()
        .success();
    let once: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let got = contents(&once);
    // Last three results: c3, c4 (one turn) and c5.
    assert!(got[3].as_str().unwrap().starts_with("[✓ read_file"));
    assert!(got[5].as_str().unwrap().starts_with("[✓ web_search"));
    assert_eq!(got[7], input[7]["content"]);
    assert_eq!(compact(&once, "3"), once);
}

#[test]
fn transcript_file_argument_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    std::fs::write(&path, Value::Array(transcript()).to_string()).unwrap();
    let assert = vaultsum()
        .args(["compact", path.to_str().unwrap(), "--keep-last", "5"])
        .assert()
        .success();
    let output: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(output, Value::Array(transcript()), "five results, all kept");
}

#[test]
fn content_parts_and_unparsable_arguments_are_handled() {
    let input = json!([
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "read_file", "arguments": "{not json"}}
        ]},
        {"role": "tool", "tool_call_id": "a", "content": [{"type": "text", "text": "one\ntwo"}]},
        {"role": "assistant", "content": null, "tool_calls": [call("b", "read_file", json!({"path": "b.md"}))]},
        {"role": "tool", "tool_call_id": "b", "content": "b"}
    ]);
    let output = compact(&input, "1");
    assert_eq!(output[1]["content"], "[✓ read_file: ? | 2 lines | 7B]");
    assert_eq!(output[3]["content"], "b");
}

fn fails_with(input: &str, expected: &str) {
    let assert = vaultsum()
        .arg("compact")
        .write_stdin(input.to_string())
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains(expected),
        "expected {expected:?} in {stderr:?}"
    );
}

#[test]
fn malformed_transcripts_are_refused_with_a_clear_error_and_nothing_printed() {
    fails_with(
        "{\"messages\": [",
        "cannot compact stdin: the transcript is not valid JSON",
    );
    fails_with("42", "must be a JSON array of messages or an object with a \"messages\" array, but it is a number");
    fails_with(
        "{\"msgs\": []}",
        "but it is an object without a \"messages\" key",
    );
    fails_with(
        "[\"hello\"]",
        "messages[0]: expected a message object, found a string",
    );
    fails_with(
        "[{\"content\": \"hi\"}]",
        "messages[0]: has no \"role\" string",
    );
    fails_with(
        &json!([{"role": "assistant", "tool_calls": {"id": "x"}}]).to_string(),
        "messages[0]: \"tool_calls\" must be an array, found an object",
    );
    fails_with(
        &json!([{"role": "assistant", "tool_calls": [{"id": "x"}]}]).to_string(),
        "messages[0]: tool_calls[0] has no \"function\"",
    );
    fails_with(
        &json!([{"role": "tool", "content": "orphan"}]).to_string(),
        "messages[0]: tool message has no \"tool_call_id\" string",
    );
    // A malformed message late in the transcript: nothing at all is printed.
    let mut late = transcript();
    late.push(tool("nobody-called-this", "x"));
    fails_with(
        &Value::Array(late).to_string(),
        "messages[12]: tool result answers call \"nobody-called-this\", which no earlier assistant message made",
    );
    fails_with(
        &json!([assistant(vec![call("a", "t", json!({}))]), {"role": "tool", "tool_call_id": "a", "content": 5}]).to_string(),
        "messages[1]: tool message content must be a string or an array of parts, found a number",
    );
}

#[test]
fn missing_transcript_file_names_the_file() {
    let assert = vaultsum()
        .args(["compact", "/nonexistent/transcript.json"])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("cannot read transcript /nonexistent/transcript.json"),
        "{stderr}"
    );
}
