//! A bare streamable-HTTP MCP client speaking raw JSON-RPC with reqwest: it sees what the wire
//! carries (status codes, headers, SSE frames), which a full SDK client hides.

use serde_json::{json, Value};

/// The protocol version the raw client negotiates (one with the `initialize` handshake).
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// One MCP session over HTTP.
#[derive(Clone)]
pub struct RawHttpSession {
    pub http: reqwest::Client,
    pub url: String,
    pub token: Option<String>,
    pub session_id: Option<String>,
    /// Sent as the `Origin` header of every request when set (as a browser page would).
    pub origin: Option<String>,
}

/// A JSON-RPC exchange as seen on the wire.
#[derive(Debug)]
pub struct HttpReply {
    pub status: u16,
    /// The JSON-RPC message answering the request (from a JSON body or an SSE `data:` frame).
    pub message: Option<Value>,
    /// The `Mcp-Session-Id` response header, if any.
    pub session_id: Option<String>,
    pub body: String,
}

impl RawHttpSession {
    /// A session that has not initialized yet.
    pub fn new(url: &str, token: Option<&str>) -> RawHttpSession {
        RawHttpSession {
            http: reqwest::Client::new(),
            url: url.to_string(),
            token: token.map(str::to_string),
            session_id: None,
            origin: None,
        }
    }

    /// Runs the `initialize` handshake and keeps the session id; returns the initialize reply.
    pub async fn initialize(&mut self) -> HttpReply {
        let reply = self
            .post(&json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": { "name": "raw-http-test", "version": "0" }
                }
            }))
            .await;
        self.session_id = reply.session_id.clone();
        if reply.status == 200 {
            let ack = self
                .post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
                .await;
            assert!(
                ack.status < 300,
                "initialized notification: HTTP {}",
                ack.status
            );
        }
        reply
    }

    /// `tools/call` with id `id`; returns the reply.
    pub async fn call_tool(&self, id: u64, name: &str, arguments: Value) -> HttpReply {
        self.post(&json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": name, "arguments": arguments }
        }))
        .await
    }

    /// Ends the session (`DELETE` with its id, as SDK clients do at close); returns the status.
    pub async fn delete(&self) -> u16 {
        let mut request = self.http.delete(&self.url);
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(id) = &self.session_id {
            request = request
                .header("Mcp-Session-Id", id)
                .header("MCP-Protocol-Version", PROTOCOL_VERSION);
        }
        let response = request
            .send()
            .await
            .expect("HTTP request to the MCP server");
        response.status().as_u16()
    }

    /// POSTs one JSON-RPC message and returns the status and the matching reply, if any.
    pub async fn post(&self, message: &Value) -> HttpReply {
        let mut request = self
            .http
            .post(&self.url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .body(message.to_string());
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(origin) = &self.origin {
            request = request.header("Origin", origin);
        }
        if let Some(id) = &self.session_id {
            request = request
                .header("Mcp-Session-Id", id)
                .header("MCP-Protocol-Version", PROTOCOL_VERSION);
        }
        let response = request
            .send()
            .await
            .expect("HTTP request to the MCP server");
        let status = response.status().as_u16();
        let session_id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = response.text().await.unwrap_or_default();
        let message = reply_for(&body, message.get("id"));
        HttpReply {
            status,
            message,
            session_id,
            body,
        }
    }
}

/// The JSON-RPC message in `body` that answers request `id`: the body itself when it is JSON,
/// else the SSE `data:` frame carrying that id.
fn reply_for(body: &str, id: Option<&Value>) -> Option<Value> {
    let id = id?;
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        return (value.get("id") == Some(id)).then_some(value);
    }
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|value| value.get("id") == Some(id))
}
