//! MCP over streamable HTTP at `/mcp`, with the bind policy and bearer-token check.
//!
//! Policy: a loopback address needs nothing; any other address is refused unless a token is
//! configured. When a token is configured, every request must carry it as
//! `Authorization: Bearer <token>` (401 otherwise), whatever the address.
//!
//! Origin (MCP 2025-11-25, DNS rebinding and cross-site requests): a request carrying an
//! `Origin` header gets 403 unless that origin is a loopback one (`http(s)://localhost`,
//! `127.0.0.1`, `[::1]`, any port) or listed in `mcp.allowed_origins`; `Origin: null` is
//! refused. Requests without `Origin` (non-browser clients) pass. rmcp's own Origin check does
//! this once it is given a non-empty list, which the loopback entries guarantee.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::error::McpServeError;
use super::server::VaultsumServer;
use crate::config::ApiKey;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// Where and how to serve HTTP.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// The address to listen on (port 0 picks a free port).
    pub addr: SocketAddr,
    /// `VAULTSUM_MCP_TOKEN`: required for non-loopback addresses, enforced whenever set.
    pub token: Option<ApiKey>,
    /// `mcp.allowed_origins`: browser origins accepted on top of [`LOOPBACK_ORIGINS`], as
    /// normalized by the config (`scheme://host:port` or `scheme://host:*`).
    pub allowed_origins: Vec<String>,
}

/// Origins always accepted: pages served from this machine, on any port.
pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

/// A bound, not yet serving, MCP HTTP server. Binding first lets callers learn the real port
/// (for `--http 127.0.0.1:0`) before serving starts.
pub struct HttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    server: VaultsumServer,
    token: Option<ApiKey>,
    allowed_origins: Vec<String>,
}

impl HttpServer {
    /// Checks the bind policy and opens the listening socket.
    pub async fn bind(
        server: VaultsumServer,
        settings: HttpSettings,
    ) -> Result<HttpServer, McpServeError> {
        let addr = settings.addr;
        if !addr.ip().is_loopback() && settings.token.is_none() {
            return Err(McpServeError::TokenRequired { addr });
        }
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| McpServeError::Bind { addr, source })?;
        let local_addr = listener
            .local_addr()
            .map_err(|source| McpServeError::Bind { addr, source })?;
        Ok(HttpServer {
            listener,
            local_addr,
            server,
            token: settings.token,
            allowed_origins: settings.allowed_origins,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint URL clients connect to, e.g. `http://127.0.0.1:8765/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.local_addr)
    }

    /// Serves until `shutdown` is cancelled; open sessions are closed on the way out.
    pub async fn serve(self, shutdown: CancellationToken) -> Result<(), McpServeError> {
        let origins = LOOPBACK_ORIGINS
            .iter()
            .map(|origin| origin.to_string())
            .chain(self.allowed_origins);
        // Never empty, and enforced even if it were: an empty list would switch rmcp's check off.
        let mut config = StreamableHttpServerConfig::default()
            .with_cancellation_token(shutdown.child_token())
            .with_allowed_origins(origins)
            .enforce_origin_validation();
        if !self.local_addr.ip().is_loopback() {
            // rmcp's Host allow-list guards loopback servers against DNS rebinding. A
            // network-facing server is reached under names we cannot know, and the bearer
            // token (which a rebinding page cannot know either) protects it instead.
            config = config.disable_allowed_hosts();
        }
        let server = self.server;
        let service: StreamableHttpService<VaultsumServer, LocalSessionManager> =
            StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::new(LocalSessionManager::default()),
                config,
            );
        let mut router = axum::Router::new()
            .nest_service(MCP_PATH, service)
            .layer(axum::middleware::from_fn(session_end_answers_no_content));
        if let Some(token) = self.token {
            let expected: Arc<str> = Arc::from(token.expose());
            router = router.layer(axum::middleware::from_fn(move |request, next| {
                require_bearer(expected.clone(), request, next)
            }));
        }
        axum::serve(self.listener, router)
            .with_graceful_shutdown(shutdown.cancelled_owned())
            .await?;
        Ok(())
    }
}

/// Answers a session's end (`DELETE /mcp`, which rmcp answers `202 Accepted`) with `204 No
/// Content`: the session is closed by the time rmcp answers, and the official Python SDK takes
/// only 200 and 204 as success (it logs `Session termination failed: 202` for every session it
/// closes otherwise); the TypeScript SDK takes any 2xx. The MCP specification names no success
/// code for it (only 405 for a server that refuses).
async fn session_end_answers_no_content(request: Request, next: Next) -> Response {
    let is_delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if is_delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

/// Lets a request through only with `Authorization: Bearer <token>`.
async fn require_bearer(expected: Arc<str>, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_token);
    match presented {
        Some(token) if constant_time_eq(token.as_bytes(), expected.as_bytes()) => {
            next.run(request).await
        }
        _ => unauthorized(),
    }
}

/// The token of an `Authorization: Bearer <token>` value (scheme case-insensitive).
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

/// Compares without an early exit so response timing does not reveal how much of a guessed
/// token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn unauthorized() -> Response {
    let mut response = (
        StatusCode::UNAUTHORIZED,
        axum::Json(serde_json::json!({
            "error": "unauthorized",
            "message": "missing or wrong bearer token: send `Authorization: Bearer <token>` \
                        with the server's VAULTSUM_MCP_TOKEN",
        })),
    )
        .into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"vaultsum\""),
    );
    response
}

/// Parses `--http ADDR`: `HOST:PORT` with an IP or `localhost`, or a bare `PORT`, which means
/// loopback (a network-facing bind must be asked for explicitly).
pub fn parse_bind_addr(value: &str) -> Result<SocketAddr, McpServeError> {
    let value = value.trim();
    let bad = || McpServeError::BadAddress {
        value: value.to_string(),
    };
    if let Ok(addr) = value.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if let Ok(port) = value.parse::<u16>() {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    let (host, port) = value.rsplit_once(':').ok_or_else(bad)?;
    let port = port.parse::<u16>().map_err(|_| bad())?;
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    Err(bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_port_binds_loopback() {
        assert_eq!(
            parse_bind_addr("8765").unwrap(),
            "127.0.0.1:8765".parse().unwrap()
        );
        assert_eq!(
            parse_bind_addr("localhost:9").unwrap(),
            "127.0.0.1:9".parse().unwrap()
        );
    }

    #[test]
    fn explicit_addresses_are_kept() {
        assert_eq!(
            parse_bind_addr("0.0.0.0:80").unwrap(),
            "0.0.0.0:80".parse().unwrap()
        );
        assert_eq!(
            parse_bind_addr("[::1]:80").unwrap(),
            "[::1]:80".parse().unwrap()
        );
    }

    #[test]
    fn hostname_and_garbage_are_refused_with_the_expected_form() {
        for value in ["example.com:80", "nonsense", "127.0.0.1:99999", ":80"] {
            let message = parse_bind_addr(value).unwrap_err().to_string();
            assert!(message.contains("expected HOST:PORT"), "{value}: {message}");
        }
    }

    #[test]
    fn bearer_scheme_is_case_insensitive_and_token_required() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer  abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("abc"), None);
    }

    #[test]
    fn token_comparison_needs_every_byte() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
    }
}
