//! The audit view: moves to mate over every start, next to perfect play,
//! and the longest game to replay.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ajedrecista_automata::app::{AuditView, AuditViewError};
use ajedrecista_automata::{
    AuditOptions, Cancelled, Contradiction, Side, StartSet, StrategyName, audit_with_options,
};
use ajedrecista_tables::Tablebase;
use axum::http::StatusCode;
use serde::Deserialize;
use shakmaty::Color;

use crate::error::ApiError;
use crate::server::RequestScope;
use crate::store::lock;

/// `GET /api/audit/{strategy}?starts=all|machine&side=white|black`: the
/// start set and the side read by their names (an unknown one is a 400).
#[derive(Debug, Deserialize)]
pub struct AuditQuery {
    pub starts: Option<StartSet>,
    pub side: Option<Side>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AuditKey {
    pub strategy: StrategyName,
    pub starts: StartSet,
    pub side: Color,
}

impl AuditKey {
    /// The key of a request: an unknown strategy is a 404 (no such
    /// resource), one the web does not audit a 422.
    pub fn new(strategy: &str, query: &AuditQuery) -> Result<AuditKey, ApiError> {
        let strategy = strategy
            .parse::<StrategyName>()
            .map_err(|err| ApiError::not_found(err.to_string()))?;
        if let Some(why) = strategy.entry().audit_too_slow {
            let stand_in = strategy.entry().audit_stand_in.unwrap_or("none");
            return Err(ApiError::unprocessable(format!(
                "{strategy}: {why} (`ajedrecista audit {strategy}`); its stand-in here: {stand_in}"
            )));
        }
        Ok(AuditKey {
            strategy,
            starts: query.starts.unwrap_or(StartSet::All),
            side: query.side.unwrap_or(Side::White).color(),
        })
    }
}

/// Audits computed so far, by key: each costs up to a second, and the
/// answer never changes.
#[derive(Default)]
pub struct AuditCache {
    done: Mutex<HashMap<AuditKey, Arc<AuditView>>>,
    /// One audit at a time: both cores are the server's to share.
    running: Mutex<()>,
    /// Audits stopped before their end because their request's client had
    /// gone or its time was up.
    stopped: AtomicUsize,
}

impl AuditCache {
    /// The audit of `key`, computed on first request (blocking). The audit
    /// and its comparison with perfect play stop soon after `scope`
    /// reports that nobody waits for the answer (a 503, which the server
    /// sends if it still can).
    pub fn get(
        &self,
        tables: &Arc<Tablebase>,
        key: AuditKey,
        scope: &RequestScope,
    ) -> Result<Arc<AuditView>, ApiError> {
        if let Some(view) = lock(&self.done).get(&key) {
            return Ok(Arc::clone(view));
        }
        let _running = lock(&self.running);
        if let Some(view) = lock(&self.done).get(&key) {
            return Ok(Arc::clone(view));
        }
        let mut options = AuditOptions {
            progress: None,
            cancel: Some(scope.stop_flag()),
        };
        let strategy = key.strategy.build(tables);
        let audit = audit_with_options(&strategy, key.starts, key.side, &mut options)
            .map_err(|Cancelled| self.stopped_error())?;
        let stop = || scope.stop_flag().load(Ordering::Relaxed);
        let view = AuditView::new(&audit, tables, stop).map_err(|err| match err {
            AuditViewError::Stopped => self.stopped_error(),
            AuditViewError::Contradiction(Contradiction::Table(err)) => {
                ApiError::unprocessable(err.to_string())
            }
            // The server's own table file is wrong: not the request's fault.
            AuditViewError::Contradiction(contradiction) => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, contradiction.to_string())
            }
        })?;
        let view = Arc::new(view);
        lock(&self.done).insert(key, Arc::clone(&view));
        Ok(view)
    }

    /// Counts a stopped audit and says so to its client.
    fn stopped_error(&self) -> ApiError {
        self.stopped.fetch_add(1, Ordering::Relaxed);
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the audit was stopped: its client has gone or its time is up",
        )
    }

    /// How many audits were stopped before their end (their client gone,
    /// their time up).
    pub fn stopped(&self) -> usize {
        self.stopped.load(Ordering::Relaxed)
    }
}
