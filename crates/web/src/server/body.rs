//! A request's body read whole before the router sees it, under the body
//! bound and time-out, each refusal a JSON [`ApiError`].

use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::{Body, Incoming};
use tokio::time::{Instant, timeout, timeout_at};

use crate::{ApiError, MAX_BODY_BYTES};

/// The body whole, at most [`MAX_BODY_BYTES`], by `until`.
pub(super) async fn read_whole(body: Incoming, until: Instant) -> Result<Bytes, ApiError> {
    if body.size_hint().lower() > MAX_BODY_BYTES as u64 {
        read_out(body).await;
        return Err(too_large());
    }
    match timeout_at(until, Limited::new(body, MAX_BODY_BYTES).collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(err)) if err.is::<LengthLimitError>() => Err(too_large()),
        Ok(Err(_)) => Err(ApiError::bad_request(
            "the connection closed before the body was whole",
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "the request's body did not arrive in time",
        )),
    }
}

/// Reads a body declared too long and drops it, for a moment and up to a
/// mebibyte: a connection closed over bytes not yet read would be reset,
/// and its client could lose the refusal.
async fn read_out(mut body: Incoming) {
    let _ = timeout(Duration::from_millis(500), async {
        let mut left = 1usize << 20;
        while left > 0 {
            match body.frame().await {
                Some(Ok(frame)) => {
                    left = left.saturating_sub(frame.data_ref().map_or(0, |d| d.len()))
                }
                _ => break,
            }
        }
    })
    .await;
}

/// The bound every input of the program is read under (ajedrecista-input).
fn too_large() -> ApiError {
    let err = ajedrecista_input::InputError::TooLarge {
        limit: MAX_BODY_BYTES as u64,
    };
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body: {err}"))
}
