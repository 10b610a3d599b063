//! A fake Kagi v0 API on 127.0.0.1 ([`FakeServer`]) answering with the real envelopes:
//! `{"meta":{"id","node","ms","api_balance"},"data":…,"error":[{"code","msg","ref"}]}`.

use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use vaultsum_core::kagi::{KagiClient, KeySource};
use vaultsum_tools::config::{ApiKey, Config};
use vaultsum_tools::ToolContext;

pub use super::fake_server::{FakeReply, FakeServer, ReceivedRequest};

/// The key the tests hand out; asserted to appear in the header and nowhere else.
pub const TEST_KEY: &str = "kagi-test-key-7f3a9c";

/// Kagi's `meta` block as the real API sends it.
pub fn meta() -> Value {
    json!({"id": "1b2c3d", "node": "us-central1", "ms": 412, "api_balance": 9.876})
}

/// A success envelope around `data`.
pub fn envelope(data: Value) -> Value {
    json!({"meta": meta(), "data": data})
}

/// An error envelope (`data: null`) with one error entry.
pub fn error_envelope(code: i64, msg: &str) -> Value {
    json!({"meta": meta(), "data": null, "error": [{"code": code, "msg": msg, "ref": null}]})
}

/// A `t: 0` search result.
pub fn result(url: &str, title: &str, snippet: Option<&str>) -> Value {
    json!({"t": 0, "rank": 1, "url": url, "title": title, "snippet": snippet})
}

/// A `t: 1` related-searches item.
pub fn related(list: &[&str]) -> Value {
    json!({"t": 1, "list": list})
}

/// A 200 answer with this envelope.
pub fn ok(body: Value) -> FakeReply {
    FakeReply::json(200, body)
}

/// A non-2xx answer with Kagi's error envelope.
pub fn error(status: u16, code: i64, msg: &str) -> FakeReply {
    FakeReply::json(status, error_envelope(code, msg))
}

/// Kagi's refusal of a summarize request without a URL: what `vaultsum doctor` asks, since it
/// costs nothing.
pub fn missing_url_reply() -> FakeReply {
    error(400, 1, "Either url or text is required")
}

/// The fake server; an unscripted `GET /api/v0/summarize` without `url` gets
/// [`missing_url_reply`], other unscripted requests 404.
pub struct FakeKagi {
    server: FakeServer,
}

impl Deref for FakeKagi {
    type Target = FakeServer;
    fn deref(&self) -> &FakeServer {
        &self.server
    }
}

impl FakeKagi {
    /// Starts an empty fake.
    pub fn start() -> FakeKagi {
        FakeKagi {
            server: FakeServer::start(|request| {
                let free_check = request.method == "GET"
                    && request.path == "/api/v0/summarize"
                    && !request.url.query_pairs().any(|(k, _)| k == "url");
                if free_check {
                    missing_url_reply()
                } else {
                    FakeReply::raw(404, "text/plain", "")
                }
            }),
        }
    }

    /// What `KAGI_BASE_URL` should be set to.
    pub fn base_url(&self) -> String {
        format!("{}/api/v0", self.server.url())
    }

    /// Answers `GET /api/v0/search?q=<query>` with `reply`.
    pub fn on_search(&self, query: &str, reply: FakeReply) {
        self.server
            .on("GET", "/api/v0/search", Some(("q", query)), reply);
    }

    /// Answers `GET /api/v0/search?q=<query>` with a success envelope of these items.
    pub fn on_search_items(&self, query: &str, items: Vec<Value>) {
        self.on_search(query, ok(envelope(Value::Array(items))));
    }

    /// Answers every `POST /api/v0/summarize` with `reply`.
    pub fn on_summarize(&self, reply: FakeReply) {
        self.server.on("POST", "/api/v0/summarize", None, reply);
    }

    /// A configuration pointing the Kagi tools at this fake.
    pub fn config(&self) -> Config {
        let mut config = Config::default();
        config.kagi.base_url = self.base_url();
        config
    }

    /// A tool context over [`FakeKagi::config`].
    pub fn context(&self) -> Arc<ToolContext> {
        Arc::new(ToolContext::new(self.config()).expect("a context without a vault always builds"))
    }

    /// A client for this fake holding [`TEST_KEY`] (so in-process tests never touch the
    /// process environment), with the given timeout for both endpoints.
    pub fn client(&self, timeout: Duration) -> KagiClient {
        KagiClient::from_config(&self.config().kagi)
            .with_key_source(KeySource::Fixed(ApiKey::new(TEST_KEY)))
            .with_timeouts(timeout, timeout)
    }
}

/// The `Authorization` header of a request.
pub fn authorization(request: &ReceivedRequest) -> Option<String> {
    request.header("authorization").map(str::to_string)
}

/// A base URL where nothing listens (a port bound, then released).
pub fn closed_base_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/api/v0")
}

/// The `vaultsum` binary aimed at this fake through `KAGI_BASE_URL`, with `KAGI_API_KEY` set to
/// `key` (or removed) in the child's environment only, and no user config file.
pub fn vaultsum_command(base_url: &str, key: Option<&str>) -> assert_cmd::Command {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("vaultsum");
    command
        .env("KAGI_BASE_URL", base_url)
        .env("XDG_CONFIG_HOME", "/nonexistent/vaultsum-test-config")
        .env_remove("VAULTSUM_CONFIG")
        .env_remove("RUST_LOG");
    match key {
        Some(key) => command.env("KAGI_API_KEY", key),
        None => command.env_remove("KAGI_API_KEY"),
    };
    command
}
