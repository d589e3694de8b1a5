//! The HTTP server: hyper's HTTP/1 connections serving the axum router,
//! gzip from tower-http, and the glue that keeps what the page needs
//! (docs/web.md, "The server"):
//! - hyper reads each head under [`ServerLimits::header`] (a silent or slow
//!   connection is closed) and within [`ServerLimits::max_head_bytes`], and
//!   answers a request it cannot parse itself (4xx, no body);
//! - the body is read whole before the router sees the request, and every
//!   4xx of the server past hyper is a JSON [`crate::ApiError`];
//! - the whole request is bounded (503 and the work told to stop), and a
//!   request whose client has gone is dropped: [`RequestScope`] says so;
//! - at most [`ServerLimits::max_connections`] are open: newcomers wait in
//!   the listener's accept queue, never refused, and the connection idle
//!   longest is closed for them once idle [`ServerLimits::room`].

mod body;
mod connections;
mod limits;
mod scope;

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep, timeout, timeout_at};
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;

use crate::ApiError;
use connections::{Connection, Connections, Socket};
pub use limits::ServerLimits;
pub use scope::RequestScope;
use scope::StopOnDrop;

/// Serves `router` on `listener` under `limits` until `shutdown` completes;
/// then stops accepting, lets each connection finish the request it is
/// on, and returns.
pub async fn serve_router(
    listener: TcpListener,
    router: Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = router.layer(CompressionLayer::new());
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .max_buf_size(limits.max_head_bytes.max(8192))
        .max_headers(limits.max_headers);
    let connections = Arc::new(Connections::default());
    let mut tasks = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        if tasks.len() >= limits.max_connections {
            // At the cap: newcomers wait in the accept queue.
            let wait = connections.close_idlest(limits.room);
            tokio::select! {
                () = &mut shutdown => break,
                Some(_) = tasks.join_next() => {}
                () = sleep(wait) => {}
            }
            continue;
        }
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next() => continue,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, _)) => {
                let connection = Arc::new(connections.open());
                let served = serve(http.clone(), stream, router.clone(), limits, connection);
                tasks.spawn(served);
            }
            Err(err) if is_per_connection(&err) => {}
            Err(_) => {
                // Out of file descriptors (or memory): make room, wait, retry.
                connections.close_idlest(Duration::ZERO);
                sleep(Duration::from_millis(50)).await;
            }
        }
    }
    connections.close_all();
    while tasks.join_next().await.is_some() {}
    Ok(())
}

/// One connection until it ends or the server closes it: then a request
/// sent or under way is answered first (hyper's graceful shutdown), and a
/// connection with none (silent, part-way through a head, or slow to read
/// its last answer) is dropped.
async fn serve(
    http: http1::Builder,
    stream: TcpStream,
    router: Router,
    limits: ServerLimits,
    connection: Arc<Connection>,
) {
    let _ = stream.set_nodelay(true);
    let socket = Socket::of(&stream);
    let this = Arc::clone(&connection);
    let service = hyper::service::service_fn(move |request| {
        let busy = this.busy();
        let router = router.clone();
        async move {
            let response = respond(router, request, limits).await;
            drop(busy);
            Ok::<_, Infallible>(response)
        }
    });
    let served = http.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(served);
    tokio::select! {
        _ = served.as_mut() => return,
        () = connection.close.notified() => {}
    }
    // A request sent and not yet read is read (and answered) first.
    while socket.has_unread_bytes() {
        if timeout(Duration::from_millis(10), served.as_mut())
            .await
            .is_ok()
        {
            return;
        }
    }
    served.as_mut().graceful_shutdown();
    let mut wait = Duration::ZERO;
    while timeout(wait, served.as_mut()).await.is_err() {
        if !connection.is_busy() {
            return;
        }
        wait = limits.room;
    }
}

/// The router's answer to `request`, its body read whole first, within
/// the request's time; the request's [`RequestScope`] stops when this
/// ends or is dropped (hyper drops it when the client has gone).
async fn respond(router: Router, request: Request<Incoming>, limits: ServerLimits) -> Response {
    let deadline = Instant::now() + limits.request;
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |t| t.as_str().len());
    if target > limits.max_uri_bytes {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request's target is over {} bytes",
                limits.max_uri_bytes
            ),
        )
        .into_response();
    }
    let scope = RequestScope::default();
    let _stop = StopOnDrop(scope.clone());
    let (mut parts, body) = request.into_parts();
    let body_deadline = (Instant::now() + limits.body).min(deadline);
    let body = match body::read_whole(body, body_deadline).await {
        Ok(body) => body,
        Err(refusal) => return refusal.into_response(),
    };
    parts.extensions.insert(scope);
    let request = Request::from_parts(parts, Body::from(body));
    match timeout_at(deadline, router.oneshot(request)).await {
        Ok(answer) => answer.unwrap_or_else(|never| match never {}),
        Err(_) => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the request took longer than {} s and was stopped",
                limits.request.as_secs_f64()
            ),
        )
        .into_response(),
    }
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
