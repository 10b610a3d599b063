//! Streamable HTTP: the bind policy, the bearer token, the Origin check, and robustness under
//! concurrent calls, spoken as raw JSON-RPC over real HTTP on 127.0.0.1.

use crate::support;

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::json;
use support::fixture_tools::{
    basic_fixture_tools, fixture_registry, SlowWriteProbe, SlowWriteTool,
};
use support::mcp_http_client::RawHttpSession;
use tokio_util::sync::CancellationToken;
use vaultsum::mcp::{HttpServer, HttpSettings, McpServeError, VaultsumServer};
use vaultsum_tools::config::{normalize_origin_pattern, ApiKey};
use vaultsum_tools::Tool;

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
    start_with(token, &[], basic_fixture_tools()).await
}

async fn start_with(
    token: Option<&str>,
    allowed_origins: &[&str],
    tools: Vec<Arc<dyn Tool>>,
) -> Running {
    let server = VaultsumServer::new(fixture_registry(tools));
    let settings = HttpSettings {
        addr: "127.0.0.1:0".parse().unwrap(),
        token: token.and_then(ApiKey::new),
        allowed_origins: allowed_origins
            .iter()
            .map(|origin| normalize_origin_pattern(origin).expect("valid origin"))
            .collect(),
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
    let error = HttpServer::bind(
        server,
        HttpSettings {
            addr,
            token: None,
            allowed_origins: Vec::new(),
        },
    )
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

/// The session's end answers 204, which every SDK client takes as success (the Python SDK
/// warns at each close on anything but 200 and 204), and the session is gone after it.
#[tokio::test]
async fn ending_a_session_answers_204_and_closes_it() {
    let running = start(None).await;
    let mut session = RawHttpSession::new(&running.url, None);
    assert_eq!(session.initialize().await.status, 200);
    assert_eq!(session.delete().await, 204);
    let after = session.call_tool(1, "echo", json!({ "text": "hi" })).await;
    assert_eq!(
        after.status, 404,
        "a closed session is unknown: {}",
        after.body
    );
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

/// A session with `origin` as its `Origin` header (`None`: no header, as a CLI client).
fn session_from(running: &Running, origin: Option<&str>) -> RawHttpSession {
    let mut session = RawHttpSession::new(&running.url, None);
    session.origin = origin.map(str::to_string);
    session
}

#[tokio::test]
async fn foreign_or_null_origin_gets_403_and_no_tool_runs() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("written.txt");
    let probe = Arc::new(SlowWriteProbe::default());
    let tool = SlowWriteTool {
        target: target.clone(),
        probe: probe.clone(),
    };
    let running = start_with(None, &["https://app.example.com"], vec![Arc::new(tool)]).await;

    for origin in [
        "https://evil.example",
        "null",
        "http://localhost.evil.example:8080",
        "https://app.example.com:8443",
        "http://app.example.com",
        "not an origin",
    ] {
        let reply = session_from(&running, Some(origin)).initialize().await;
        assert_eq!(reply.status, 403, "Origin {origin}: {}", reply.body);
        assert!(
            reply.session_id.is_none(),
            "Origin {origin}: session opened"
        );
    }

    // A session opened without Origin, then used from a foreign page: refused before the tool.
    let mut session = session_from(&running, None);
    assert_eq!(session.initialize().await.status, 200);
    let mut hijacked = session.clone();
    hijacked.origin = Some("https://evil.example".into());
    let reply = hijacked
        .call_tool(1, "slow_write", json!({ "delay_ms": 0 }))
        .await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.body.contains("Origin"), "{}", reply.body);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(probe.finished.load(Ordering::SeqCst), 0);
    assert!(!target.exists(), "the tool ran for a foreign Origin");

    // The same call without the foreign Origin runs: the 403 was the Origin's doing.
    let reply = session
        .call_tool(2, "slow_write", json!({ "delay_ms": 0 }))
        .await;
    assert_eq!(
        reply.message.expect("reply")["result"]["content"][0]["text"],
        "written"
    );
    assert_eq!(probe.finished.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn loopback_configured_and_absent_origins_are_served() {
    let running = start_with(
        None,
        &["https://app.example.com", "http://dev.example:*"],
        basic_fixture_tools(),
    )
    .await;
    for origin in [
        None,
        Some("http://localhost:5173"),
        Some("http://127.0.0.1:3000"),
        Some("https://localhost"),
        Some("http://[::1]:8080"),
        Some("HTTP://LOCALHOST:1234"),
        Some("https://app.example.com"),
        Some("https://app.example.com:443"),
        Some("http://dev.example:4000"),
    ] {
        let mut session = session_from(&running, origin);
        let init = session.initialize().await;
        assert_eq!(init.status, 200, "Origin {origin:?}: {}", init.body);
        let reply = session.call_tool(1, "echo", json!({ "text": "hi" })).await;
        assert_eq!(
            reply.message.expect("reply")["result"]["content"][0]["text"],
            "hi",
            "Origin {origin:?}"
        );
    }
}

#[tokio::test]
async fn default_allows_only_loopback_origins() {
    let running = start(None).await;
    let init = session_from(&running, Some("http://localhost:9999"))
        .initialize()
        .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let init = session_from(&running, Some("https://app.example.com"))
        .initialize()
        .await;
    assert_eq!(init.status, 403, "{}", init.body);
}
