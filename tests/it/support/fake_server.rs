//! The HTTP server behind the fakes of OpenAI ([`super::fake_openai`]) and Kagi
//! ([`super::fake_kagi`]), on 127.0.0.1.
//!
//! It answers with whatever a test scripts — any status, headers and body (errors of every
//! shape, 429 with `Retry-After`, malformed JSON), after a delay if asked — and records every
//! request: its headers, body and multipart fields, when it arrived, and how its exchange
//! ended (answered, or abandoned by the client), so a test can wait for "the request is over"
//! instead of sleeping. It counts concurrent requests too. A reply can be held behind a
//! [`Gate`] until the test opens it: a model that answers exactly when the test says so. It can
//! limit the request rate with a token bucket ([`FakeServer::limit_rate`]), answering 429 with
//! `Retry-After` as hosted APIs do, and counts those answers.
//!
//! A request is answered by the first of: the first [`FakeServer::on`] route it matches, the
//! [`FakeServer::answer_with`] function when it gives a reply (a model whose answer depends on
//! what it was asked, for runs over many notes at once), the queue of [`FakeServer::push`]ed
//! replies (in order, whatever the path), the fallback
//! ([`FakeServer::set_fallback`]), and the default the fake was started with.
//!
//! A reply can be a stream of events ([`StreamScript`]: server-sent events, paced, optionally
//! without end); the server then records whether the client read it to its end or closed the
//! connection while it was streaming ([`Ended::ClosedWhileStreaming`]), the event a test of "the
//! client stopped the server generating" waits on. [`FakeServer::stream_replies_with`] turns
//! scripted replies into streams for requests that ask for one (OpenAI's `"stream": true`).
//!
//! It runs on its own thread and runtime, so it works from plain `#[test]`s that drive the
//! binary as well as from `#[tokio::test]`s.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::Value;

/// Placeholder in a scripted body replaced by the value of the header named in
/// [`FakeReply::echoing`].
pub const ECHO: &str = "{{ECHO}}";

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct FakeReply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
    echo_header: Option<String>,
    gate: Option<Gate>,
    stream: Option<StreamScript>,
}

/// A reply sent as events, one after another (the body of a `text/event-stream` answer).
#[derive(Debug, Clone, Default)]
pub struct StreamScript {
    /// Sent in order, each as given (e.g. `data: {...}\n\n`).
    pub events: Vec<Vec<u8>>,
    /// Sent again and again after `events` until the client closes the connection: a model
    /// that never stops.
    pub forever: Option<Vec<u8>>,
    /// The wait before each event.
    pub pace: Duration,
}

/// Holds back the replies scripted with [`FakeReply::held_until`] until [`Gate::open`]; a
/// client that gives up meanwhile ends its request as [`Ended::Abandoned`].
#[derive(Debug, Clone)]
pub struct Gate(Arc<tokio::sync::watch::Sender<bool>>);

impl Gate {
    /// A closed gate.
    pub fn new() -> Gate {
        Gate(Arc::new(tokio::sync::watch::Sender::new(false)))
    }

    /// Lets every reply held behind this gate go, now and later.
    pub fn open(&self) {
        self.0.send_replace(true);
    }

    async fn passed(&self) {
        let mut open = self.0.subscribe();
        let _ = open.wait_for(|open| *open).await;
    }
}

impl FakeReply {
    /// 200 with `body` as JSON.
    pub fn json(status: u16, body: Value) -> FakeReply {
        FakeReply::raw(status, "application/json", body.to_string())
    }

    /// Any status, content type and body.
    pub fn raw(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> FakeReply {
        FakeReply {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
            echo_header: None,
            gate: None,
            stream: None,
        }
    }

    /// 200 with `script` as a `text/event-stream` body.
    pub fn stream(script: StreamScript) -> FakeReply {
        let mut reply = FakeReply::raw(200, "text/event-stream", Vec::new());
        reply.stream = Some(script);
        reply
    }

    /// An error status with `body` as given; the content type follows the body's look
    /// (JSON, HTML or plain text).
    pub fn error(status: u16, body: &str) -> FakeReply {
        let trimmed = body.trim_start();
        let content_type = if trimmed.starts_with('{') || trimmed.starts_with('[') {
            "application/json"
        } else if trimmed.starts_with('<') {
            "text/html; charset=utf-8"
        } else {
            "text/plain; charset=utf-8"
        };
        FakeReply::raw(status, content_type, body)
    }

    /// Adds a response header.
    pub fn with_header(mut self, name: &str, value: &str) -> FakeReply {
        self.headers
            .push((name.to_ascii_lowercase(), value.to_string()));
        self
    }

    /// Waits this long before answering (a slow model).
    pub fn with_delay(mut self, delay: Duration) -> FakeReply {
        self.delay = delay;
        self
    }

    /// Answers only once `gate` is open (after the delay, if any).
    pub fn held_until(mut self, gate: &Gate) -> FakeReply {
        self.gate = Some(gate.clone());
        self
    }

    /// Replaces [`ECHO`] in the body with the request's value of header `name`, as servers
    /// that quote the request in their errors do.
    pub fn echoing(mut self, name: &str) -> FakeReply {
        self.echo_header = Some(name.to_ascii_lowercase());
        self
    }
}

/// How the exchange of a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The server handed its reply to the connection.
    Answered,
    /// The client went away before the reply was ready (it gave up or was cancelled).
    Abandoned,
    /// The client closed the connection while the reply was streaming, before its end.
    ClosedWhileStreaming,
}

/// A request as the server received it.
#[derive(Debug, Clone)]
pub struct ReceivedRequest {
    pub method: String,
    /// The path, e.g. `/v1/chat/completions`.
    pub path: String,
    /// The whole URL, with the query.
    pub url: reqwest::Url,
    /// Header names in lowercase.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// When the request arrived.
    pub at: Instant,
    /// The client's address: one per connection, so two requests with the same `peer` came
    /// on one kept-alive connection.
    pub peer: SocketAddr,
    /// How its exchange ended, once it has.
    pub ended: Option<Ended>,
}

/// One field of a `multipart/form-data` body.
#[derive(Debug, Clone)]
pub struct MultipartField {
    pub name: String,
    pub file_name: Option<String>,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

impl ReceivedRequest {
    /// A header's value (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "request body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The fields of a `multipart/form-data` body (empty for other bodies).
    pub fn multipart_fields(&self) -> Vec<MultipartField> {
        let Some(boundary) = self
            .header("content-type")
            .filter(|ct| ct.starts_with("multipart/form-data"))
            .and_then(|ct| ct.split("boundary=").nth(1))
            .map(|b| b.trim_matches('"').to_string())
        else {
            return Vec::new();
        };
        let delimiter = format!("--{boundary}").into_bytes();
        let mut fields = Vec::new();
        for chunk in split_bytes(&self.body, &delimiter).into_iter().skip(1) {
            if chunk.starts_with(b"--") {
                break; // closing delimiter
            }
            let chunk = chunk.strip_prefix(b"\r\n").unwrap_or(chunk);
            let Some(split) = find(chunk, b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&chunk[..split]).into_owned();
            let mut data = chunk[split + 4..].to_vec();
            if data.ends_with(b"\r\n") {
                data.truncate(data.len() - 2);
            }
            let mut field = MultipartField {
                name: String::new(),
                file_name: None,
                content_type: None,
                data,
            };
            for line in head.lines() {
                let lower = line.to_ascii_lowercase();
                if lower.starts_with("content-disposition:") {
                    field.name = quoted_param(line, "name").unwrap_or_default();
                    field.file_name = quoted_param(line, "filename");
                } else if lower.starts_with("content-type:") {
                    field.content_type = Some(line["content-type:".len()..].trim().to_string());
                }
            }
            fields.push(field);
        }
        fields
    }

    /// One multipart field by name.
    pub fn multipart_field(&self, name: &str) -> Option<MultipartField> {
        self.multipart_fields().into_iter().find(|f| f.name == name)
    }
}

fn quoted_param(line: &str, param: &str) -> Option<String> {
    line.split(';').map(str::trim).find_map(|part| {
        let value = part.strip_prefix(param)?.strip_prefix('=')?;
        Some(value.trim_matches('"').to_string())
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(mut data: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    while let Some(at) = find(data, delimiter) {
        parts.push(&data[..at]);
        data = &data[at + delimiter.len()..];
    }
    parts.push(data);
    parts
}

/// Which requests a route answers: method, path, and optionally one query parameter's value.
struct Route {
    method: Method,
    path: String,
    query: Option<(String, String)>,
    reply: FakeReply,
}

impl Route {
    fn matches(&self, request: &ReceivedRequest) -> bool {
        request.method == self.method.as_str()
            && request.path == self.path
            && self.query.as_ref().is_none_or(|(name, value)| {
                request
                    .url
                    .query_pairs()
                    .any(|(k, v)| k == name.as_str() && v == value.as_str())
            })
    }
}

struct Shared {
    addr: SocketAddr,
    default: fn(&ReceivedRequest) -> FakeReply,
    /// Which requests take replies from the queue (the others get routes and the default).
    queue_serves: fn(&ReceivedRequest) -> bool,
    routes: Mutex<Vec<Route>>,
    queue: Mutex<VecDeque<FakeReply>>,
    fallback: Mutex<Option<FakeReply>>,
    requests: Mutex<Vec<ReceivedRequest>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    bucket: Mutex<Option<TokenBucket>>,
    rate_limited: AtomicUsize,
    /// Set: replies are worked out one at a time, in arrival order (a one-slot local server).
    one_slot: Mutex<Option<Arc<tokio::sync::Semaphore>>>,
    /// Turns a reply into a stream for a request that asks for one.
    render_stream: Mutex<Option<RenderStream>>,
    /// Works out a reply from the request itself, before the queue.
    answer: Mutex<Option<Answer>>,
}

/// A reply worked out from the request (`None`: the queue, the fallback or the default answer).
pub type Answer = Arc<dyn Fn(&ReceivedRequest) -> Option<FakeReply> + Send + Sync>;

/// How a scripted reply's body is streamed to `request`, when it asks for a stream.
pub type RenderStream = fn(request: &ReceivedRequest, body: &[u8]) -> Option<StreamScript>;

/// `per_sec` tokens a second, at most `burst` saved up; each request takes one or is refused.
struct TokenBucket {
    per_sec: f64,
    burst: f64,
    tokens: f64,
    filled: Instant,
    /// Send the bucket's state in OpenAI's `x-ratelimit-*` headers on every answer.
    announce: bool,
    /// Empty the bucket when the first request arrives: another client spent the quota just
    /// before it, however long the client under test took to start.
    spent_at_first: bool,
}

impl TokenBucket {
    /// The `x-ratelimit-*` headers of the bucket as it is now (after the last take), as
    /// OpenAI sends them: its size, what is left, and the time until it is full again.
    fn headers(&self) -> Vec<(String, String)> {
        if !self.announce {
            return Vec::new();
        }
        let reset_ms = ((self.burst - self.tokens) / self.per_sec * 1000.0).ceil() as u64;
        vec![
            (
                "x-ratelimit-limit-requests".into(),
                format!("{}", self.burst as u64),
            ),
            (
                "x-ratelimit-remaining-requests".into(),
                format!("{}", self.tokens.floor() as u64),
            ),
            ("x-ratelimit-reset-requests".into(), format!("{reset_ms}ms")),
        ]
    }

    /// Takes a token, or says how long until there is one.
    fn take(&mut self, now: Instant) -> Result<(), Duration> {
        if std::mem::take(&mut self.spent_at_first) {
            self.tokens = 0.0;
            self.filled = now;
        }
        let elapsed = now.saturating_duration_since(self.filled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_sec).min(self.burst);
        self.filled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.tokens) / self.per_sec))
        }
    }
}

/// Records how a request ended and decrements the in-flight count, also when the client gives
/// up and the handler is dropped before it answered.
struct InFlight {
    shared: Arc<Shared>,
    index: usize,
    /// How the exchange ends if it ends now.
    ending: Ended,
}

impl InFlight {
    /// How the exchange ends when this is dropped.
    fn end_as(&mut self, ending: Ended) {
        self.ending = ending;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.shared.requests.lock().unwrap()[self.index].ended = Some(self.ending);
        self.shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The running fake server. Dropping it stops the server.
pub struct FakeServer {
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeServer {
    /// Starts a server on a free port of 127.0.0.1; `default` answers what nothing scripted.
    pub fn start(default: fn(&ReceivedRequest) -> FakeReply) -> FakeServer {
        FakeServer::start_with_queue_for(default, |_| true)
    }

    /// Like [`FakeServer::start`], with only the requests `queue_serves` accepts answered from
    /// the queue (so a client's side requests, such as a probe, never take a scripted reply).
    pub fn start_with_queue_for(
        default: fn(&ReceivedRequest) -> FakeReply,
        queue_serves: fn(&ReceivedRequest) -> bool,
    ) -> FakeServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            addr,
            default,
            queue_serves,
            routes: Mutex::default(),
            queue: Mutex::default(),
            fallback: Mutex::default(),
            requests: Mutex::default(),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            bucket: Mutex::default(),
            rate_limited: AtomicUsize::new(0),
            one_slot: Mutex::new(None),
            render_stream: Mutex::new(None),
            answer: Mutex::new(None),
        });
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                tokio::select! {
                    _ = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()) => {}
                    _ = rx => {}
                }
            });
            runtime.shutdown_background();
        });
        FakeServer {
            shared,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.shared.addr)
    }

    /// Answers every `method` request for `path` (whose query has `name=value`, when given)
    /// with `reply`, before the queue. The first matching route wins.
    pub fn on(&self, method: &str, path: &str, query: Option<(&str, &str)>, reply: FakeReply) {
        self.shared.routes.lock().unwrap().push(Route {
            method: method.parse().expect("an HTTP method"),
            path: path.to_string(),
            query: query.map(|(k, v)| (k.to_string(), v.to_string())),
            reply,
        });
    }

    /// From now on, a request no route matches is answered by `answer` when it gives a reply:
    /// a model that answers each note of one run with that note's own scripted answer.
    pub fn answer_with(&self, answer: Answer) {
        *self.shared.answer.lock().unwrap() = Some(answer);
    }

    /// Queues a reply; queued replies are served first-in first-out.
    pub fn push(&self, reply: FakeReply) {
        self.shared.queue.lock().unwrap().push_back(reply);
    }

    /// The reply used whenever the queue is empty.
    pub fn set_fallback(&self, reply: FakeReply) {
        *self.shared.fallback.lock().unwrap() = Some(reply);
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<ReceivedRequest> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// How many requests arrived.
    pub fn request_count(&self) -> usize {
        self.shared.requests.lock().unwrap().len()
    }

    /// How many requests have ended (answered or abandoned).
    pub fn ended_count(&self) -> usize {
        let requests = self.shared.requests.lock().unwrap();
        requests.iter().filter(|r| r.ended.is_some()).count()
    }

    /// The most requests that were being answered at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// Requests being answered right now.
    pub fn in_flight(&self) -> usize {
        self.shared.in_flight.load(Ordering::SeqCst)
    }

    /// From now on, admits `per_sec` requests a second, `burst` at once after a quiet spell (a
    /// token bucket, full at first), as hosted APIs do. A request over the limit is answered at
    /// once with 429, an OpenAI error body and `Retry-After`: the whole seconds (at least 1)
    /// until the bucket has a token again; it is recorded like any other request.
    pub fn limit_rate(&self, per_sec: f64, burst: f64) {
        *self.shared.bucket.lock().unwrap() = Some(TokenBucket {
            per_sec,
            burst: burst.max(1.0),
            tokens: burst.max(1.0),
            filled: Instant::now(),
            announce: false,
            spent_at_first: false,
        });
    }

    /// Makes the rate limit's answers carry `x-ratelimit-limit-requests`, `-remaining-requests`
    /// and `-reset-requests`, as OpenAI, Fireworks and Groq send them.
    pub fn announce_rate_limit(&self) {
        if let Some(bucket) = self.shared.bucket.lock().unwrap().as_mut() {
            bucket.announce = true;
        }
    }

    /// As [`FakeServer::limit_rate`], with the bucket empty when the first request arrives:
    /// another client spent the quota a moment before, so the first request is answered 429
    /// (whatever time the client under test took to start: a slow start under Wine refilled a
    /// bucket emptied at setup).
    pub fn limit_rate_spent(&self, per_sec: f64, burst: f64) {
        self.limit_rate(per_sec, burst);
        if let Some(bucket) = self.shared.bucket.lock().unwrap().as_mut() {
            bucket.spent_at_first = true;
        }
    }

    /// From now on, works out one model call's reply at a time, as llama.cpp's server with one
    /// slot does:
    /// a request waits (in arrival order, counted in flight) until those before it were
    /// answered, then takes its reply's delay. An answer takes longer the more are queued.
    pub fn serve_one_at_a_time(&self) {
        *self.shared.one_slot.lock().unwrap() = Some(Arc::new(tokio::sync::Semaphore::new(1)));
    }

    /// From now on, a reply `render` turns into a stream for its request is sent as that
    /// stream (a chat completion to a request with `"stream": true`).
    pub fn stream_replies_with(&self, render: RenderStream) {
        *self.shared.render_stream.lock().unwrap() = Some(render);
    }

    /// How many requests [`FakeServer::limit_rate`] refused with 429.
    pub fn rate_limited_count(&self) -> usize {
        self.shared.rate_limited.load(Ordering::SeqCst)
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.max_in_flight.fetch_max(now, Ordering::SeqCst);

    let request = ReceivedRequest {
        method: method.to_string(),
        path: uri.path().to_string(),
        url: reqwest::Url::parse(&format!("http://{}{uri}", shared.addr)).expect("request URL"),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body.to_vec(),
        at: Instant::now(),
        peer,
        ended: None,
    };
    let (refused, quota_headers) = match shared.bucket.lock().unwrap().as_mut() {
        Some(bucket) => (bucket.take(request.at).err(), bucket.headers()),
        None => (None, Vec::new()),
    };
    if let Some(wait) = refused {
        shared.rate_limited.fetch_add(1, Ordering::SeqCst);
        let mut requests = shared.requests.lock().unwrap();
        requests.push(request);
        // Counted in flight while it is answered, like any request.
        let _answering = InFlight {
            shared: shared.clone(),
            index: requests.len() - 1,
            ending: Ended::Answered,
        };
        drop(requests);
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        let mut response = Response::builder();
        for (name, value) in &quota_headers {
            response = response.header(name, value);
        }
        return response
            .status(StatusCode::TOO_MANY_REQUESTS)
            .header("content-type", "application/json")
            .header("retry-after", format!("{seconds}"))
            .body(Body::from(
                r#"{"error":{"message":"rate limit exceeded","type":"rate_limit_error","param":null,"code":null}}"#,
            ))
            .unwrap();
    }
    let routed = shared
        .routes
        .lock()
        .unwrap()
        .iter()
        .find(|route| route.matches(&request))
        .map(|route| route.reply.clone());
    let answer = shared.answer.lock().unwrap().clone();
    let reply = routed
        .or_else(|| answer.and_then(|answer| answer(&request)))
        .or_else(|| {
            if (shared.queue_serves)(&request) {
                shared.queue.lock().unwrap().pop_front()
            } else {
                None
            }
        })
        .or_else(|| shared.fallback.lock().unwrap().clone())
        .unwrap_or_else(|| (shared.default)(&request));
    let mut body = reply.body.clone();
    if let Some(name) = &reply.echo_header {
        let value = request.header(name).unwrap_or("").to_string();
        body = String::from_utf8_lossy(&body)
            .replace(ECHO, &value)
            .into_bytes();
    }
    let takes_slot = (shared.queue_serves)(&request);
    let render = *shared.render_stream.lock().unwrap();
    let stream = reply
        .stream
        .clone()
        .or_else(|| render.and_then(|render| render(&request, &body)));
    let mut guard = {
        let mut requests = shared.requests.lock().unwrap();
        requests.push(request);
        InFlight {
            shared: shared.clone(),
            index: requests.len() - 1,
            ending: Ended::Abandoned,
        }
    };

    // Only model calls take the slot: a server answers `/props` or `/models` at once.
    let slot = shared
        .one_slot
        .lock()
        .unwrap()
        .clone()
        .filter(|_| takes_slot);
    let slot = match slot {
        Some(slot) => Some(slot.acquire_owned().await.expect("never closed")),
        None => None,
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    if let Some(gate) = &reply.gate {
        gate.passed().await;
    }
    let mut response = Response::builder().status(StatusCode::from_u16(reply.status).unwrap());
    if let Some(script) = stream {
        for (name, value) in reply.headers.iter().chain(&quota_headers) {
            if name != "content-type" {
                response = response.header(name, value);
            }
        }
        guard.ending = Ended::ClosedWhileStreaming;
        let events = Streaming {
            guard,
            _slot: slot,
            script,
            next: 0,
        };
        return response
            .status(StatusCode::OK)
            .header("content-type", "text/event-stream")
            .header("cache-control", "no-cache")
            .body(Body::from_stream(events.into_stream()))
            .unwrap();
    }
    for (name, value) in reply.headers.iter().chain(&quota_headers) {
        response = response.header(name, value);
    }
    guard.ending = Ended::Answered;
    drop(slot);
    response.body(Body::from(body)).unwrap()
}

/// A streaming reply on its way: the request stays in flight (and holds the one slot, as a
/// server generating does) until the stream ends or the client closes it.
struct Streaming {
    guard: InFlight,
    _slot: Option<tokio::sync::OwnedSemaphorePermit>,
    script: StreamScript,
    next: usize,
}

impl Streaming {
    fn into_stream(self) -> impl futures::Stream<Item = Result<Bytes, std::io::Error>> + Send {
        futures::stream::unfold(self, |mut streaming| async move {
            let event = match streaming.script.events.get(streaming.next) {
                Some(event) => event.clone(),
                None => match &streaming.script.forever {
                    Some(event) => event.clone(),
                    None => {
                        streaming.guard.end_as(Ended::Answered);
                        return None;
                    }
                },
            };
            streaming.next += 1;
            if !streaming.script.pace.is_zero() {
                tokio::time::sleep(streaming.script.pace).await;
            }
            Some((Ok(Bytes::from(event)), streaming))
        })
    }
}
