//! Streamable HTTP: the bind policy, the bearer token, and robustness under concurrent calls,
//! spoken as raw JSON-RPC over real HTTP on 127.0.0.1.

use crate::support;

use std::net::SocketAddr;

use serde_json::json;
use support::fixture_tools::{basic_fixture_tools, fixture_registry};
use support::mcp_http_client::RawHttpSession;
use tokio_util::sync::CancellationToken;
use vaultsum::mcp::{HttpServer, HttpSettings, McpServeError, VaultsumServer};
use vaultsum_tools::config::ApiKey;

struct Running {
    url: String,
    shutdown: CancellationToken,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn start(token: Option<&str>) -> Running {
    let server = VaultsumServer::new(fixture_registry(basic_fixture_tools()));
    let settings = HttpSettings {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: token.and_then(ApiKey::new),
    };
    let http = HttpServer::bind(server, settings)
        .await
        .expect("bind loopback");
    let url = http.url();
    let shutdown = CancellationToken::new();
    tokio::spawn(http.serve(shutdown.clone()));
    Running { url, shutdown }
}

#[tokio::test]
async fn non_loopback_bind_without_token_is_refused() {
    let server = VaultsumServer::new(fixture_registry(basic_fixture_tools()));
    let addr: SocketAddr = "0.0.0.0:0".parse().unwrap();
    let error = HttpServer::bind(server, HttpSettings { addr, token: None })
        .await
        .err()
        .expect("refused");
    assert!(matches!(error, McpServeError::TokenRequired { .. }));
    assert!(error.to_string().contains("VAULTSUM_MCP_TOKEN"), "{error}");
}

#[tokio::test]
async fn loopback_without_token_serves_tools() {
    let running = start(None).await;
    let mut session = RawHttpSession::new(&running.url, None);
    let init = session.initialize().await;
    assert_eq!(init.status, 200, "{}", init.body);
    assert_eq!(
        init.message.unwrap()["result"]["serverInfo"]["name"],
        "vaultsum"
    );
    let reply = session.call_tool(1, "echo", json!({ "text": "hi" })).await;
    let result = &reply.message.expect("reply")["result"];
    assert_eq!(result["content"][0]["text"], "hi");
    assert_eq!(result["_meta"]["details"]["echo_chars"], 2);
}

#[tokio::test]
async fn token_is_required_on_every_request_when_configured() {
    let running = start(Some("correct-horse")).await;

    for token in [None, Some("wrong"), Some("correct-hors")] {
        let mut session = RawHttpSession::new(&running.url, token);
        let reply = session.initialize().await;
        assert_eq!(reply.status, 401, "token {token:?}: {}", reply.body);
        assert!(
            !reply.body.contains("correct-horse"),
            "401 body echoes the token"
        );
    }

    let mut session = RawHttpSession::new(&running.url, Some("correct-horse"));
    assert_eq!(session.initialize().await.status, 200);
    // A request of an established session without the token is refused too.
    let mut stolen = session.clone();
    stolen.token = None;
    let reply = stolen.call_tool(1, "echo", json!({ "text": "x" })).await;
    assert_eq!(reply.status, 401);
    let reply = session.call_tool(2, "echo", json!({ "text": "x" })).await;
    assert_eq!(reply.message.unwrap()["result"]["content"][0]["text"], "x");
}

#[tokio::test]
async fn fifty_concurrent_calls_are_each_answered_and_serving_goes_on() {
    let running = start(None).await;
    let mut session = RawHttpSession::new(&running.url, None);
    assert_eq!(session.initialize().await.status, 200);

    let calls = (1..=50u64).map(|id| {
        let session = session.clone();
        async move {
            // A mix of outcomes: successes, tool errors, unknown tools and bad arguments.
            let reply = match id % 4 {
                0 => {
                    session
                        .call_tool(id, "echo", json!({ "text": format!("n{id}") }))
                        .await
                }
                1 => session.call_tool(id, "fail", json!({})).await,
                2 => session.call_tool(id, "no_such_tool", json!({})).await,
                _ => session.call_tool(id, "echo", json!({ "text": [id] })).await,
            };
            (id, reply)
        }
    });
    for (id, reply) in futures::future::join_all(calls).await {
        assert_eq!(reply.status, 200, "call {id}: {}", reply.body);
        let message = reply
            .message
            .unwrap_or_else(|| panic!("call {id}: no reply in {}", reply.body));
        let result = &message["result"];
        match id % 4 {
            0 => {
                assert_eq!(result["content"][0]["text"], format!("n{id}"));
                assert_eq!(result["isError"], false);
            }
            1 => assert_eq!(result["isError"], true),
            2 => assert!(result["content"][0]["text"]
                .as_str()
                .unwrap()
                .starts_with("unknown tool")),
            _ => assert!(result["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("invalid arguments")),
        }
    }

    let reply = session
        .call_tool(99, "echo", json!({ "text": "after" }))
        .await;
    assert_eq!(
        reply.message.unwrap()["result"]["content"][0]["text"],
        "after"
    );
}

#[tokio::test]
async fn huge_argument_and_malformed_body_get_answers_and_serving_goes_on() {
    let running = start(None).await;
    let mut session = RawHttpSession::new(&running.url, None);
    assert_eq!(session.initialize().await.status, 200);

    let big = "x".repeat(3 * 1024 * 1024);
    let reply = session.call_tool(1, "echo", json!({ "text": big })).await;
    let result = &reply.message.expect("reply to the huge call")["result"];
    assert_eq!(result["_meta"]["details"]["echo_chars"], 3 * 1024 * 1024);

    let malformed = session
        .http
        .post(&running.url)
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .header("Mcp-Session-Id", session.session_id.clone().unwrap())
        .body("{ this is not json")
        .send()
        .await
        .unwrap();
    assert!(
        malformed.status().is_client_error(),
        "malformed JSON answered with HTTP {}",
        malformed.status()
    );

    let reply = session
        .call_tool(2, "echo", json!({ "text": "after" }))
        .await;
    assert_eq!(
        reply.message.unwrap()["result"]["content"][0]["text"],
        "after"
    );
}
