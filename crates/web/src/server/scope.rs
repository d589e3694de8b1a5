//! [`RequestScope`]: whether a request's client still waits for its answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::FromRequestParts;
use axum::http::StatusCode;
use axum::http::request::Parts;

use crate::ApiError;

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

/// Marks the scope stopped when dropped: the server holds one while it
/// serves the request, which ends with the answer, the time-out, or hyper
/// dropping the request when its client has gone.
pub(super) struct StopOnDrop(pub(super) RequestScope);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}
