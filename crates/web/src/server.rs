//! The HTTP/1.1 server layer: reads each request itself, under limits a
//! hostile client cannot get round, and hands whole requests to the router.
//!
//! Why not hyper's server: hyper answers a request it cannot parse (a
//! garbage request line, a URI or head too long) with an empty body before
//! any of our code runs, and its connection has no body or whole-request
//! time-out. Here the head is read with `httparse`, the body (at most
//! [`MAX_BODY_BYTES`], by `content-length` only) is read whole, and only
//! then does the router see the request; every refusal is a JSON
//! [`ApiError`]. Limits (docs/web.md, "The server"):
//! - idle: a connection that starts no request in time is closed, silently;
//! - header and body: the head, then the body, must arrive in time (408);
//! - whole request: from its first byte to the end of the answer (503 while
//!   the work runs, then the connection closes);
//! - connections: at most so many at once. At the limit a newcomer waits,
//!   and the ones after it wait in the listener's accept queue, until a
//!   connection ends or the one waiting longest for a whole request has
//!   waited [`ServerLimits::room`]: that one is closed to make room (with a
//!   503 if it had sent part of a request: closing over unread bytes would
//!   reset it). If every connection is busy with a request, the newcomer
//!   gets 503 after `room`. No client is ever reset.
//!
//! A client that closes its connection while its request is worked on
//! drops the handler's future; [`RequestScope`] tells blocking work so.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, StatusCode, Uri, Version};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep, sleep_until, timeout, timeout_at};
use tower::ServiceExt;

use crate::{ApiError, MAX_BODY_BYTES};

/// The server's limits. [`ServerLimits::default`] is what `serve` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Before the first byte of a request (also between requests of a
    /// kept-alive connection).
    pub idle: Duration,
    /// From the first byte of a request to the end of its head.
    pub header: Duration,
    /// From the end of the head to the end of the body.
    pub body: Duration,
    /// From the first byte of a request to the end of its answer.
    pub request: Duration,
    /// Connections open at once.
    pub max_connections: usize,
    /// At the connection limit, how long a newcomer waits for room: a
    /// connection without a whole request is closed for it only once it
    /// has waited this long, and a newcomer finding every connection busy
    /// gets 503 after it.
    pub room: Duration,
    /// The request line and headers.
    pub max_head_bytes: usize,
    /// The request target (path and query).
    pub max_uri_bytes: usize,
    pub max_headers: usize,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            idle: Duration::from_secs(30),
            header: Duration::from_secs(10),
            body: Duration::from_secs(10),
            // A four-man table build or an audit takes about a second on an
            // idle machine (docs/benchmarks.md); a loaded one, ten times as
            // long.
            request: Duration::from_secs(60),
            max_connections: 256,
            // A burst is served in turn: each connection has time to send
            // its request before a newcomer may push it out.
            room: Duration::from_secs(1),
            max_head_bytes: 16 * 1024,
            max_uri_bytes: 8 * 1024,
            max_headers: 64,
        }
    }
}

impl ServerLimits {
    /// These limits with at most as many connections as the process may
    /// open files for, less a reserve for everything else (tables, the
    /// runtime, the standard streams).
    pub fn within_open_file_limit(self) -> ServerLimits {
        const RESERVE: usize = 32;
        let files = open_file_limit().unwrap_or(usize::MAX);
        ServerLimits {
            max_connections: self
                .max_connections
                .min(files.saturating_sub(RESERVE).max(4)),
            ..self
        }
    }
}

#[cfg(unix)]
fn open_file_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct it is given and nothing else.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as usize)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<usize> {
    None
}

/// The request a handler serves, as the server sees it: whether its client
/// still waits for the answer. Extract it in a handler (outside the server,
/// e.g. in tests through the router alone, it never reports a stop) and
/// let blocking work poll [`RequestScope::stopped`].
#[derive(Debug, Clone, Default)]
pub struct RequestScope {
    stopped: Arc<AtomicBool>,
}

impl RequestScope {
    /// True once the client has gone or the request's time is up: the
    /// answer will not be sent, so the work may stop.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Marks the request stopped, as the server does when its client has
    /// gone or its time is up.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// The flag behind [`RequestScope::stopped`], for domain work that
    /// takes a stop flag (the audit's `AuditOptions::cancel`).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stopped
    }

    /// Runs blocking work (table builds, audits, machine replies) off the
    /// async threads, giving it this scope to poll.
    pub async fn blocking<T: Send + 'static>(
        self,
        work: impl FnOnce(&RequestScope) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        tokio::task::spawn_blocking(move || work(&self))
            .await
            .unwrap_or_else(|_| {
                Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the request's work stopped unexpectedly",
                ))
            })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for RequestScope {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<RequestScope>()
            .cloned()
            .unwrap_or_default())
    }
}

/// Marks the scope stopped when the request's handler is dropped, however
/// that happens (answered, timed out, client gone).
struct StopOnDrop(RequestScope);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stopped.store(true, Ordering::Relaxed);
    }
}

/// Connections that have no whole request yet (silent, or part-way
/// through a head or body): the ones the server may close to make room,
/// oldest first, each with the signal that closes it.
#[derive(Default)]
struct WaitingConnections {
    inner: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    next: u64,
    /// Each connection's signal, and when it began to wait.
    by_age: BTreeMap<u64, (Instant, Arc<Notify>)>,
    /// The server is stopping: no connection may wait any more.
    stopping: bool,
}

impl WaitingConnections {
    /// Enters `close` as waiting; `None` if the server is stopping.
    fn enter(&self, close: &Arc<Notify>) -> Option<u64> {
        let mut waiting = self.lock();
        if waiting.stopping {
            return None;
        }
        let ticket = waiting.next;
        waiting.next += 1;
        waiting
            .by_age
            .insert(ticket, (Instant::now(), Arc::clone(close)));
        Some(ticket)
    }

    fn leave(&self, ticket: u64) {
        self.lock().by_age.remove(&ticket);
    }

    /// Closes the connection waiting longest; false if none waits.
    fn close_oldest(&self) -> bool {
        self.close_oldest_after(Duration::ZERO)
    }

    /// Closes the connection waiting longest if it has waited `room`.
    fn close_oldest_after(&self, room: Duration) -> bool {
        let mut waiting = self.lock();
        match waiting.by_age.first_entry() {
            Some(entry) if entry.get().0.elapsed() >= room => {
                entry.remove().1.notify_one();
                true
            }
            _ => false,
        }
    }

    /// When the connection waiting longest began to wait.
    fn oldest(&self) -> Option<Instant> {
        self.lock()
            .by_age
            .first_key_value()
            .map(|(_, entry)| entry.0)
    }

    /// Closes every waiting connection, now and from now on.
    fn close_all(&self) {
        let mut waiting = self.lock();
        waiting.stopping = true;
        for (_, (_, close)) in std::mem::take(&mut waiting.by_age) {
            close.notify_one();
        }
    }

    fn is_stopping(&self) -> bool {
        self.lock().stopping
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.inner
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

/// Counts a connection as open while it lives.
struct Open(Arc<AtomicUsize>);

impl Open {
    fn new(count: &Arc<AtomicUsize>) -> Open {
        count.fetch_add(1, Ordering::Relaxed);
        Open(Arc::clone(count))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `router` on `listener` under `limits` until `shutdown` completes;
/// then stops accepting, lets each connection finish the request it is
/// on, and returns.
pub async fn serve_router(
    listener: TcpListener,
    router: Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let waiting = Arc::new(WaitingConnections::default());
    let open = Arc::new(AtomicUsize::new(0));
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    'accepting: loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = connections.join_next() => continue,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) if is_per_connection(&err) => continue,
            Err(_) => {
                // Out of file descriptors (or memory): make room, wait, retry.
                if !waiting.close_oldest() {
                    sleep(Duration::from_millis(50)).await;
                }
                sleep(Duration::from_millis(5)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        // At the limit: the newcomer waits for room (the ones after it in
        // the accept queue), then is served, or gets 503 if every
        // connection is busy with a request.
        let arrived = Instant::now();
        let mut busy = false;
        while open.load(Ordering::Relaxed) >= limits.max_connections {
            let until = waiting.oldest().unwrap_or(arrived) + limits.room;
            tokio::select! {
                () = &mut shutdown => {
                    connections.spawn(refuse_busy(stream));
                    break 'accepting;
                }
                Some(_) = connections.join_next() => continue,
                () = sleep_until(until) => {}
            }
            if waiting.close_oldest_after(limits.room) {
                break;
            }
            if waiting.oldest().is_none() && arrived.elapsed() >= limits.room {
                busy = true;
                break;
            }
        }
        if busy {
            connections.spawn(refuse_busy(stream));
            continue;
        }
        let close = Arc::new(Notify::new());
        // Entered here, not in the task: a flood of connections must find
        // the ones before it closable even before their tasks have run.
        let Some(ticket) = waiting.enter(&close) else {
            break;
        };
        let connection = Connection {
            stream,
            router: router.clone(),
            limits,
            waiting: Arc::clone(&waiting),
            close,
            ticket: Some(ticket),
            open: Some(Open::new(&open)),
            buffer: Vec::new(),
        };
        connections.spawn(connection.run());
    }
    waiting.close_all();
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// An accept error about one connection only (it was reset before it was
/// taken): the listener is fine.
fn is_per_connection(err: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        err.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    )
}

/// Whether the client has sent bytes not yet read; they stay unread.
#[cfg(unix)]
fn has_unread_bytes(stream: &TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    let mut byte = 0u8;
    // SAFETY: recv writes at most one byte, into `byte`; MSG_PEEK leaves it
    // in the socket and MSG_DONTWAIT keeps the call from waiting.
    let peeked = unsafe {
        libc::recv(
            stream.as_raw_fd(),
            (&raw mut byte).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    peeked > 0
}

/// Without a way to look, any connection closed is answered.
#[cfg(not(unix))]
fn has_unread_bytes(_: &TcpStream) -> bool {
    true
}

async fn refuse_busy(mut stream: TcpStream) {
    let answer = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server is at its connection limit and every connection is busy; try again",
    );
    refuse(&mut stream, answer).await;
}

/// Answers with `refusal` and closes. What the client still sends is read
/// and dropped for a moment: closing with unread bytes would reset the
/// connection, and the client could lose the answer.
async fn refuse(stream: &mut TcpStream, refusal: ApiError) {
    let written = timeout(
        Duration::from_secs(1),
        write_response(stream, refusal.into_response(), false, true),
    )
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    let _ = timeout(Duration::from_millis(500), async {
        let mut chunk = [0; 4096];
        let mut left = 256 * 1024;
        while left > 0 {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left -= n.min(left),
            }
        }
    })
    .await;
}

/// One request's head, checked.
#[derive(Debug)]
pub struct Head {
    pub method: Method,
    pub uri: Uri,
    pub version: Version,
    pub headers: HeaderMap,
    /// Bytes of the head, the blank line included.
    pub length: usize,
    pub body_length: usize,
    pub keep_alive: bool,
    pub expects_continue: bool,
}

struct Connection {
    stream: TcpStream,
    router: Router,
    limits: ServerLimits,
    waiting: Arc<WaitingConnections>,
    /// Notified when the server closes this connection to make room.
    close: Arc<Notify>,
    /// While among the waiting connections.
    ticket: Option<u64>,
    /// Counted among the open connections until it is closed to make
    /// room: its answer and close then take no room of the limit.
    open: Option<Open>,
    /// Bytes read and not yet used (a pipelined request).
    buffer: Vec<u8>,
}

impl Connection {
    async fn run(mut self) {
        loop {
            if self.ticket.is_none() {
                self.ticket = self.waiting.enter(&self.close);
                if self.ticket.is_none() {
                    return;
                }
            }
            let close = Arc::clone(&self.close);
            let read = tokio::select! {
                () = close.notified() => {
                    // Closed to make room. Closing over bytes not yet read
                    // would reset the connection: a request begun is
                    // answered instead.
                    self.open = None;
                    if !self.buffer.is_empty() || has_unread_bytes(&self.stream) {
                        let answer = ApiError::new(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "the server is at its connection limit; try again",
                        );
                        refuse(&mut self.stream, answer).await;
                    }
                    return;
                }
                read = self.read_request() => read,
            };
            if let Some(ticket) = self.ticket.take() {
                self.waiting.leave(ticket);
            }
            match read {
                Ok(None) => return,
                Err(refusal) => {
                    refuse(&mut self.stream, refusal).await;
                    return;
                }
                Ok(Some((head, body, deadline))) => {
                    let keep_alive = head.keep_alive && !self.waiting.is_stopping();
                    let is_head = head.method == Method::HEAD;
                    let response = match self.respond(head, body, deadline).await {
                        Ok(response) => response,
                        Err(refusal) => {
                            refuse(&mut self.stream, refusal).await;
                            return;
                        }
                    };
                    let written = timeout_at(
                        deadline,
                        write_response(&mut self.stream, response, is_head, !keep_alive),
                    )
                    .await;
                    if !(keep_alive && matches!(written, Ok(Ok(())))) {
                        return;
                    }
                }
            }
        }
    }

    /// Reads the next request whole: its head, its body and its deadline.
    /// `None` if the connection closes, or stays silent, before it starts.
    async fn read_request(&mut self) -> Result<Option<(Head, Vec<u8>, Instant)>, ApiError> {
        if self.buffer.is_empty() {
            match timeout(self.limits.idle, self.read_more(None)).await {
                Ok(Ok(true)) => {}
                _ => return Ok(None),
            }
        }
        let deadline = Instant::now() + self.limits.request;
        let head_deadline = (Instant::now() + self.limits.header).min(deadline);
        let head = loop {
            if let Some(head) = parse_head(&self.buffer, &self.limits)? {
                break head;
            }
            if !self.read_more(Some(head_deadline)).await? {
                return Ok(None);
            }
        };
        let body = self.read_body(&head, deadline).await?;
        Ok(Some((head, body, deadline)))
    }

    /// Reads what the client sends next; false if it has closed.
    async fn read_more(&mut self, deadline: Option<Instant>) -> Result<bool, ApiError> {
        let mut chunk = [0; 4096];
        let read = match deadline {
            Some(deadline) => timeout_at(deadline, self.stream.read(&mut chunk)).await,
            None => Ok(self.stream.read(&mut chunk).await),
        };
        match read {
            Err(_) => Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request did not arrive in time",
            )),
            Ok(Ok(0)) | Ok(Err(_)) => Ok(false),
            Ok(Ok(n)) => {
                self.buffer.extend_from_slice(&chunk[..n]);
                Ok(true)
            }
        }
    }

    async fn read_body(&mut self, head: &Head, deadline: Instant) -> Result<Vec<u8>, ApiError> {
        self.buffer.drain(..head.length);
        let wanted = head.body_length;
        if head.expects_continue && self.buffer.len() < wanted {
            let _ = timeout_at(
                deadline,
                self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n"),
            )
            .await;
        }
        let body_deadline = (Instant::now() + self.limits.body).min(deadline);
        while self.buffer.len() < wanted {
            if !self.read_more(Some(body_deadline)).await? {
                return Err(ApiError::bad_request(
                    "the connection closed before the body was whole",
                ));
            }
        }
        Ok(self.buffer.drain(..wanted).collect())
    }

    /// The router's answer, under the whole-request deadline, watching the
    /// connection: a client that closes it drops the handler.
    async fn respond(
        &mut self,
        head: Head,
        body: Vec<u8>,
        deadline: Instant,
    ) -> Result<Response, ApiError> {
        let scope = RequestScope::default();
        let _stop = StopOnDrop(scope.clone());
        let mut request = Request::new(Body::from(body));
        *request.method_mut() = head.method;
        *request.uri_mut() = head.uri;
        *request.version_mut() = head.version;
        *request.headers_mut() = head.headers;
        request.extensions_mut().insert(scope);
        let handler = self.router.clone().oneshot(request);
        tokio::pin!(handler);
        let mut chunk = [0; 4096];
        let mut watching = true;
        loop {
            tokio::select! {
                biased;
                answer = &mut handler => {
                    return Ok(answer.unwrap_or_else(|never| match never {}));
                }
                () = tokio::time::sleep_until(deadline) => {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "the request took longer than {} s and was stopped",
                            self.limits.request.as_secs_f64()
                        ),
                    ));
                }
                read = self.stream.read(&mut chunk), if watching => match read {
                    Ok(0) | Err(_) => {
                        // The client has gone: nobody waits for the answer.
                        return Err(ApiError::bad_request("the client closed the connection"));
                    }
                    Ok(n) => {
                        // A pipelined request: kept for later, within bounds.
                        self.buffer.extend_from_slice(&chunk[..n]);
                        watching = self.buffer.len() <= self.limits.max_head_bytes + MAX_BODY_BYTES;
                    }
                },
            }
        }
    }
}

/// The head at the start of `buffer` once it is all there (`None` while
/// it may still come), or the refusal to answer with.
pub fn parse_head(buffer: &[u8], limits: &ServerLimits) -> Result<Option<Head>, ApiError> {
    let mut headers = vec![httparse::EMPTY_HEADER; limits.max_headers];
    let mut request = httparse::Request::new(&mut headers);
    let length = match request.parse(buffer) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => {
            if buffer.len() <= limits.max_head_bytes {
                return Ok(None);
            }
            let line_ended = buffer[..limits.max_uri_bytes.min(buffer.len())].contains(&b'\n');
            return Err(if line_ended {
                head_too_large(limits)
            } else {
                uri_too_long(limits)
            });
        }
        Err(httparse::Error::TooManyHeaders) => return Err(head_too_large(limits)),
        Err(err) => {
            return Err(ApiError::bad_request(format!(
                "cannot read the request: {err}"
            )));
        }
    };
    if length > limits.max_head_bytes {
        return Err(head_too_large(limits));
    }
    let target = request.path.unwrap_or_default();
    if target.len() > limits.max_uri_bytes {
        return Err(uri_too_long(limits));
    }
    let method = Method::from_bytes(request.method.unwrap_or_default().as_bytes())
        .map_err(|_| ApiError::bad_request("cannot read the request's method"))?;
    let uri: Uri = target
        .parse()
        .map_err(|_| ApiError::bad_request("cannot read the request's target"))?;
    if uri.path_and_query().is_none() || uri.scheme().is_some() {
        return Err(ApiError::bad_request(
            "the request's target must be a path, such as /api/strategies",
        ));
    }
    let version = match request.version {
        Some(0) => Version::HTTP_10,
        _ => Version::HTTP_11,
    };
    let mut map = HeaderMap::with_capacity(request.headers.len());
    for header in request.headers.iter() {
        let name = HeaderName::from_bytes(header.name.as_bytes())
            .map_err(|_| ApiError::bad_request("cannot read a header's name"))?;
        let value = HeaderValue::from_bytes(header.value)
            .map_err(|_| ApiError::bad_request(format!("cannot read header {name}")))?;
        map.append(name, value);
    }
    let body_length = body_length(&map)?;
    let expects_continue = match map.get(axum::http::header::EXPECT) {
        None => false,
        Some(value) if value.as_bytes().eq_ignore_ascii_case(b"100-continue") => true,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::EXPECTATION_FAILED,
                "the only expectation understood is 100-continue",
            ));
        }
    };
    let connection = map
        .get_all(axum::http::header::CONNECTION)
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("").split(','))
        .map(|token| token.trim().to_ascii_lowercase())
        .collect::<Vec<_>>();
    let keep_alive = version == Version::HTTP_11 && !connection.iter().any(|t| t == "close");
    Ok(Some(Head {
        method,
        uri,
        version,
        headers: map,
        length,
        body_length,
        keep_alive,
        expects_continue,
    }))
}

fn head_too_large(limits: &ServerLimits) -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        format!(
            "the request's head is over {} bytes or {} headers",
            limits.max_head_bytes, limits.max_headers
        ),
    )
}

fn uri_too_long(limits: &ServerLimits) -> ApiError {
    ApiError::new(
        StatusCode::URI_TOO_LONG,
        format!(
            "the request's target is over {} bytes",
            limits.max_uri_bytes
        ),
    )
}

/// The body's length from `content-length` (no header: no body). Bodies
/// in chunks are refused: every client of this API knows its length.
fn body_length(headers: &HeaderMap) -> Result<usize, ApiError> {
    if headers.contains_key(axum::http::header::TRANSFER_ENCODING) {
        return Err(ApiError::new(
            StatusCode::LENGTH_REQUIRED,
            "send the body with a content-length, not a transfer-encoding",
        ));
    }
    let mut length = None;
    for value in headers.get_all(axum::http::header::CONTENT_LENGTH) {
        let text = value.to_str().unwrap_or("");
        let this = (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse::<u64>().unwrap_or(u64::MAX))
            .ok_or_else(|| ApiError::bad_request("cannot read the content-length"))?;
        if length.is_some_and(|length| length != this) {
            return Err(ApiError::bad_request("two different content-lengths"));
        }
        length = Some(this);
    }
    let length = length.unwrap_or(0);
    // The bound every input of the program is read under
    // (ajedrecista-input), here checked before the body is read.
    ajedrecista_input::check_length(length, MAX_BODY_BYTES as u64)
        .map_err(|err| ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body: {err}")))?;
    Ok(length as usize)
}

/// Writes `response` as HTTP/1.1, its body whole with a content-length.
async fn write_response(
    stream: &mut (impl AsyncWrite + AsyncRead + Unpin),
    response: Response,
    is_head: bool,
    close: bool,
) -> std::io::Result<()> {
    let (parts, body) = response.into_parts();
    let body = body
        .collect()
        .await
        .map(|collected| collected.to_bytes())
        .unwrap_or_default();
    let status = parts.status;
    let mut out = Vec::with_capacity(256 + body.len());
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {} {}\r\n",
            status.as_str(),
            status.canonical_reason().unwrap_or("")
        )
        .as_bytes(),
    );
    out.extend_from_slice(
        format!(
            "date: {}\r\n",
            httpdate::fmt_http_date(std::time::SystemTime::now())
        )
        .as_bytes(),
    );
    let has_body = !(status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED);
    for (name, value) in &parts.headers {
        use axum::http::header::{CONNECTION, CONTENT_LENGTH, DATE, TRANSFER_ENCODING};
        if [CONNECTION, TRANSFER_ENCODING, DATE].contains(name)
            || (name == CONTENT_LENGTH && !is_head)
        {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if has_body && !is_head {
        out.extend_from_slice(format!("content-length: {}\r\n", body.len()).as_bytes());
    }
    if close {
        out.extend_from_slice(b"connection: close\r\n");
    }
    out.extend_from_slice(b"\r\n");
    if has_body && !is_head {
        out.extend_from_slice(&body);
    }
    stream.write_all(&out).await?;
    stream.flush().await?;
    if close {
        stream.shutdown().await?;
    }
    Ok(())
}
