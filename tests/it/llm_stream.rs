//! Streamed chat completions against a fake server that streams as OpenAI, llama.cpp and
//! Fireworks do (`data:` chunks, `finish_reason`, usage, `[DONE]`), over real HTTP. What a user
//! of a local model depends on: an answer vaultsum no longer wants stops costing the server (the
//! fake sees the connection closed while it was still streaming), a loop or a near-loop is
//! closed as soon as it shows and never written, and a batch with default settings summarizes
//! every note.

use crate::support;

use std::time::Duration;

use support::cli::{run_to_exit, vaultsum};
use support::fake_openai::{chat_chunk, sse_event, Ended, FakeOpenAi, FakeReply, StreamScript};
use support::poll::wait_until_async;
use support::temp_vault::TempVault;
use vaultsum_core::llm::cut_answer::TIMEOUT_MARKER;
use vaultsum_core::llm::repetition::LOOP_MARKER;
use vaultsum_core::llm::stream::{STOPPED_AT_TIMEOUT, STOPPED_FOR_LOOP};
use vaultsum_core::llm::{ChatClient, ChatRequest};

const START: &str = "### Overview\n\n- The note lists the task queries of the vault.\n";

fn request() -> ChatRequest {
    ChatRequest::text("test-model", "You summarize.", "Summarize this note.")
}

/// A chunk of answer text as an event.
fn piece(text: &str) -> Vec<u8> {
    sse_event(&chat_chunk(serde_json::json!({ "content": text }), None))
}

async fn wait_for_close(server: &FakeOpenAi) -> bool {
    wait_until_async(|| {
        server
            .requests()
            .first()
            .is_some_and(|r| r.ended == Some(Ended::ClosedWhileStreaming))
    })
    .await
}

#[tokio::test]
async fn an_answer_still_coming_at_the_timeout_is_closed_and_kept_to_its_last_whole_item() {
    let server = FakeOpenAi::start();
    // A model that never stops and never repeats a whole line.
    server.push(FakeReply::chat_stream_forever(
        START,
        "and more ",
        Duration::from_millis(10),
    ));
    let mut cfg = server.llm_config();
    cfg.timeout_secs = 1;
    let reply = ChatClient::new(&cfg)
        .unwrap()
        .chat(&request())
        .await
        .unwrap();

    assert_eq!(
        reply.content,
        format!("{}\n\n{TIMEOUT_MARKER}", START.trim_end())
    );
    assert_eq!(reply.finish_reason.as_deref(), Some(STOPPED_AT_TIMEOUT));
    assert!(reply.cut_at_cap && !reply.repeats_cut);
    assert!(
        wait_for_close(&server).await,
        "the server never saw the stream closed: {:?}",
        server.requests()[0].ended
    );
    assert_eq!(server.request_count(), 1, "nothing is asked twice");
}

#[tokio::test]
async fn a_caller_that_gives_up_closes_the_stream_and_the_server_stops() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_stream_forever(
        START,
        "and more ",
        Duration::from_millis(10),
    ));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let request = request();
    let mut chat = Box::pin(client.chat(&request));
    // The caller gives up (Ctrl-C, a stopped watch, an MCP cancel) while the answer streams.
    tokio::select! {
        _ = &mut chat => panic!("an endless answer ended"),
        streaming = wait_until_async(|| server.in_flight() == 1) => assert!(streaming),
    }
    drop(chat);

    assert!(
        wait_for_close(&server).await,
        "the server went on streaming to nobody: {:?}",
        server.requests()[0].ended
    );
    assert!(wait_until_async(|| server.in_flight() == 0).await);
}

#[tokio::test]
async fn a_loop_is_closed_as_soon_as_it_shows_and_cut_before_its_first_repeat() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_stream_forever(
        START,
        "- Review the task query syntax before the release.\n",
        Duration::from_millis(5),
    ));
    // The default timeout: only closing on the loop ends this answer before two minutes.
    let mut cfg = server.llm_config();
    cfg.timeout_secs = 120;
    let reply = ChatClient::new(&cfg)
        .unwrap()
        .chat(&request())
        .await
        .unwrap();

    assert_eq!(
        reply.content,
        format!("{START}- Review the task query syntax before the release.\n\n{LOOP_MARKER}")
    );
    assert_eq!(reply.finish_reason.as_deref(), Some(STOPPED_FOR_LOOP));
    assert!(reply.repeats_cut);
    assert!(wait_for_close(&server).await);
}

#[tokio::test]
async fn a_near_loop_of_one_sentence_and_a_varied_code_block_is_closed_and_never_written() {
    let server = FakeOpenAi::start();
    let mut events = vec![piece(START)];
    for (i, project) in ["Alpha", "Beta", "Gamma", "Delta", "Omega", "Sigma"]
        .iter()
        .enumerate()
    {
        events.push(piece(
            "\nTo list the open tasks of a project, use this query:\n\n",
        ));
        events.push(piece(&format!(
            "```tasks\nnot done\npath includes Projects/{project}\nlimit {}\n```\n",
            10 + i
        )));
    }
    server.push(FakeReply::stream(StreamScript {
        events,
        // Then it rambles on without end: only closing on the near-loop stops it in time.
        forever: Some(piece("and so on ")),
        pace: Duration::from_millis(5),
    }));
    let mut cfg = server.llm_config();
    cfg.timeout_secs = 120;
    let reply = ChatClient::new(&cfg)
        .unwrap()
        .chat(&request())
        .await
        .unwrap();

    assert_eq!(
        reply.content,
        format!(
            "{START}\nTo list the open tasks of a project, use this query:\n\n\
             ```tasks\nnot done\npath includes Projects/Alpha\nlimit 10\n```\n\n{LOOP_MARKER}"
        )
    );
    assert_eq!(reply.finish_reason.as_deref(), Some(STOPPED_FOR_LOOP));
    assert!(wait_for_close(&server).await);
}

#[tokio::test]
async fn an_answer_cut_short_by_a_local_server_is_asked_again_one_request_at_a_time() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_stream_cut_short(&[
        "### Overview\n\n",
        "- The note lists the ta",
    ]));
    server.push(FakeReply::chat(
        "### Overview\n\n- The note lists the task queries.",
    ));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let reply = client.chat(&request()).await.unwrap();

    assert_eq!(
        reply.content,
        "### Overview\n\n- The note lists the task queries."
    );
    assert_eq!(reply.attempts, 2);
    assert_eq!(server.request_count(), 2);
    // 127.0.0.1 is a local server: it cut the answer for another request, so it serves one.
    assert_eq!(client.limiter().snapshot().ceiling, 1);
}

#[tokio::test]
async fn usage_reasoning_and_finish_reason_come_through_the_stream() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::chat_with_reasoning(
        "### Overview\n\n- Fine.",
        "The user wants a summary of the note.",
    ));
    let reply = ChatClient::new(&server.llm_config())
        .unwrap()
        .chat(&request())
        .await
        .unwrap();
    assert_eq!(reply.content, "### Overview\n\n- Fine.");
    assert_eq!(
        reply.reasoning.as_deref(),
        Some("The user wants a summary of the note.")
    );
    assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
    assert_eq!(reply.usage.as_ref().unwrap()["completion_tokens"], 30);
    assert_eq!(
        server.requests()[0].ended,
        Some(Ended::Answered),
        "read to its end"
    );
}

#[tokio::test]
async fn a_server_refusing_stream_options_is_asked_without_them() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::error(
        400,
        // How a server built on pydantic with extra fields forbidden (vLLM's shape) says it.
        r#"{"object":"error","message":"1 validation error for ChatCompletionRequest\nstream_options\n  Extra inputs are not permitted [type=extra_forbidden, input_value={'include_usage': True}, input_type=dict]","type":"BadRequestError","param":null,"code":400}"#,
    ));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    client.chat(&request()).await.unwrap();
    client
        .chat(&request())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let sent: Vec<bool> = server
        .requests()
        .iter()
        .map(|r| r.json().get("stream_options").is_some())
        .collect();
    assert_eq!(sent, [true, false, false]);
}

/// Defaults only (no config file, no setting changed) against a one-slot local server whose
/// model loops on the first note and never stops: every note is summarized, no loop is
/// written, and the looping answer is closed, freeing the slot for the next note.
#[test]
fn with_defaults_a_one_slot_server_that_loops_summarizes_every_note() {
    let vault = TempVault::new();
    for i in 0..4 {
        vault.write(
            &format!("Inbox/Note {i}.md"),
            format!("# Note {i}\n\nWhat was decided on day {i}, and who follows it up.\n"),
        );
    }
    let fake = FakeOpenAi::start();
    fake.serve_one_at_a_time();
    fake.push(FakeReply::chat_stream_forever(
        START,
        "- Review the task query syntax before the release.\n",
        Duration::from_millis(5),
    ));
    fake.set_fallback(FakeReply::chat(
        "### Overview\n\n- Decided and followed up.",
    ));

    let output = run_to_exit(
        vaultsum(&vault.outside())
            .envs(fake.env())
            .arg("--vault")
            .arg(vault.root())
            .args(["summarize-file", "--engine", "llm", "Inbox"]),
    );

    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    assert!(stderr.contains("4 summarized"), "{stderr}");
    let notes: Vec<String> = (0..4)
        .map(|i| String::from_utf8(vault.read(&format!("Inbox/Note {i}.md"))).unwrap())
        .collect();
    let looped: Vec<&String> = notes.iter().filter(|n| n.contains(LOOP_MARKER)).collect();
    assert_eq!(looped.len(), 1, "{notes:#?}");
    assert_eq!(
        looped[0]
            .matches("- Review the task query syntax before the release.")
            .count(),
        1,
        "{}",
        looped[0]
    );
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.ended == Some(Ended::ClosedWhileStreaming)),
        "the looping answer was never closed"
    );
}

/// The stream's end without `[DONE]` (a server that just closes) still ends the answer.
#[tokio::test]
async fn a_stream_that_ends_without_done_after_its_finish_reason_is_whole() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::stream(StreamScript {
        events: vec![
            piece("### Overview\n\n- Whole."),
            sse_event(&chat_chunk(serde_json::json!({}), Some("stop"))),
        ],
        ..StreamScript::default()
    }));
    let reply = ChatClient::new(&server.llm_config())
        .unwrap()
        .chat(&request())
        .await
        .unwrap();
    assert_eq!(reply.content, "### Overview\n\n- Whole.");
}

/// A stream that just stops (no `finish_reason`, no `[DONE]`: llama-cpp-python failing after
/// its 200, as for an image its chat template cannot take) is a broken exchange: asked again,
/// and no sign that the server serves one request at a time.
#[tokio::test]
async fn a_stream_that_just_stops_is_asked_again_as_a_broken_exchange() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::stream(StreamScript {
        events: vec![piece("### Overview\n\n- The note lists the ta")],
        ..StreamScript::default()
    }));
    server.push(FakeReply::chat("### Overview\n\n- Whole."));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let reply = client.chat(&request()).await.unwrap();
    assert_eq!(reply.content, "### Overview\n\n- Whole.");
    assert_eq!(reply.attempts, 2);
    assert!(client.limiter().snapshot().ceiling > 1);
}

/// llama-cpp-python's server closes a connection whose stream failed a moment after the
/// stream ends; a request sent on it then meets "connection reset by peer" (seen failing a
/// note four times over on the real server). A local server's answers each get a connection
/// of their own, so none is sent on one the server may be closing.
#[tokio::test]
async fn each_answer_of_a_local_server_comes_on_a_connection_of_its_own() {
    let server = FakeOpenAi::start();
    server.push(FakeReply::stream(StreamScript::default()));
    server.push(FakeReply::error(
        500,
        r#"{"error":{"message":"can only concatenate str (not \"list\") to str","type":"internal_server_error","param":null,"code":null}}"#,
    ));
    server.set_fallback(FakeReply::chat("### Overview\n\n- Whole."));
    let client = ChatClient::new(&server.llm_config()).unwrap();
    let reply = client.chat(&request()).await.unwrap();
    assert_eq!(reply.content, "### Overview\n\n- Whole.");
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "streamed, unstreamed (500), then again");
    assert_eq!(requests[1].json()["stream"], false);
    let peers: std::collections::HashSet<_> = requests.iter().map(|r| r.peer).collect();
    assert_eq!(peers.len(), 3, "three connections: {peers:?}");
}

/// A local server reading a long prompt on a busy CPU sends nothing but its keep-alives
/// (sse-starlette's `: ping` comments) until the first token: that is work, not silence, and
/// the timeout counts from the last of them.
#[tokio::test]
async fn keep_alives_before_the_first_piece_hold_the_request_open() {
    let server = FakeOpenAi::start();
    let mut events: Vec<Vec<u8>> = (0..6)
        .map(|i| format!(": ping - {i}\n\n").into_bytes())
        .collect();
    events.push(piece("### Overview\n\n- Read at last."));
    events.push(sse_event(&chat_chunk(serde_json::json!({}), Some("stop"))));
    server.push(FakeReply::stream(StreamScript {
        events,
        forever: None,
        // Six keep-alives 400 ms apart: 2.4 s before the first piece, past the 1 s timeout.
        pace: Duration::from_millis(400),
    }));
    let mut cfg = server.llm_config();
    cfg.timeout_secs = 1;
    let reply = ChatClient::new(&cfg)
        .unwrap()
        .chat(&request())
        .await
        .unwrap();
    assert_eq!(reply.content, "### Overview\n\n- Read at last.");
    assert_eq!(reply.finish_reason.as_deref(), Some("stop"));
}
