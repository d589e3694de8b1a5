//! The audit view: moves to mate over every start, next to perfect play,
//! and the longest game to replay.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ajedrecista_automata::{
    Audit, AuditOptions, Cancelled, Contradiction, Game, Ply, StartSet, StrategyName,
    audit_with_options, color_name, excess_over_perfect, fen_of,
};
use ajedrecista_tables::Tablebase;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color, Position};

use crate::error::ApiError;
use crate::server::RequestScope;

/// `GET /api/audit/{strategy}?starts=all|machine&side=white|black`
#[derive(Debug, Deserialize)]
pub struct AuditQuery {
    pub starts: Option<String>,
    pub side: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AuditKey {
    pub strategy: StrategyName,
    pub starts: StartSet,
    pub side: Color,
}

impl AuditKey {
    pub fn parse(strategy: &str, query: &AuditQuery) -> Result<AuditKey, ApiError> {
        let strategy = strategy
            .parse::<StrategyName>()
            .map_err(|err| ApiError::not_found(err.to_string()))?;
        if let Some(why) = strategy.entry().audit_too_slow {
            return Err(ApiError::unprocessable(why));
        }
        let starts = query.starts.as_deref().unwrap_or("all");
        let starts = starts
            .parse::<StartSet>()
            .map_err(|_| ApiError::bad_request(format!("starts {starts:?}: all or machine")))?;
        let side = match query.side.as_deref().unwrap_or("white") {
            "white" => Color::White,
            "black" => Color::Black,
            other => {
                return Err(ApiError::bad_request(format!(
                    "side {other:?}: white or black"
                )));
            }
        };
        Ok(AuditKey {
            strategy,
            starts,
            side,
        })
    }
}

/// A game to replay move by move.
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    pub start_fen: String,
    pub plies: Vec<Ply>,
    pub pgn: String,
}

impl Replay {
    pub fn of(game: &Game) -> Replay {
        Replay {
            start_fen: fen_of(&game.start),
            plies: game.plies(),
            pgn: game.to_pgn(),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ExcessView {
    pub max: u16,
    pub mean: f64,
    pub perfect_worst: u16,
    pub perfect_at_worst_start: u16,
}

#[derive(Debug, Clone, Serialize)]
pub struct AuditView {
    pub strategy: &'static str,
    pub starts_set: &'static str,
    pub side_to_move: &'static str,
    pub starts: usize,
    pub nodes: usize,
    /// Every failure kind, zero included.
    pub failures: BTreeMap<&'static str, usize>,
    pub worst_moves: Option<u16>,
    /// `[moves, starts]` in increasing moves, the starts the automaton
    /// mates from.
    pub histogram: Vec<(u16, usize)>,
    /// `[moves, starts]` of perfect play over the same start set (every
    /// start the tables give White a win).
    pub perfect_histogram: Vec<(u16, usize)>,
    pub excess_over_perfect: Option<ExcessView>,
    /// The longest game against the longest defence.
    pub longest: Option<Replay>,
    /// One game for each failure kind found.
    pub failure_examples: BTreeMap<&'static str, Replay>,
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
        if let Some(view) = self.done.lock().expect("no poisoning").get(&key) {
            return Ok(Arc::clone(view));
        }
        let _running = self.running.lock().expect("no poisoning");
        if let Some(view) = self.done.lock().expect("no poisoning").get(&key) {
            return Ok(Arc::clone(view));
        }
        let mut options = AuditOptions {
            progress: None,
            cancel: Some(scope.stop_flag()),
        };
        let strategy = key.strategy.build(tables);
        let audit = audit_with_options(&strategy, key.starts, key.side, &mut options)
            .map_err(|Cancelled| self.stopped_error())?;
        let stop = || match scope.stop_flag().load(Ordering::Relaxed) {
            true => Err(self.stopped_error()),
            false => Ok(()),
        };
        let view = Arc::new(view_of(&audit, tables, stop)?);
        self.done
            .lock()
            .expect("no poisoning")
            .insert(key, Arc::clone(&view));
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

/// White's moves to mate by the tables, if White wins.
fn perfect_white_moves(
    tables: &Tablebase,
    audit: &Audit,
    position: &Chess,
) -> Result<Option<u16>, ApiError> {
    let value = tables
        .probe(position, audit.variant)
        .map_err(|err| ApiError::unprocessable(err.to_string()))?;
    Ok(value.white_mates_in(position.turn()))
}

/// The view of an audit, with perfect play over its starts beside it;
/// `stop` is asked before each start's walk and ends it with its error.
fn view_of(
    audit: &Audit,
    tables: &Tablebase,
    stop: impl Fn() -> Result<(), ApiError>,
) -> Result<AuditView, ApiError> {
    stop()?;
    let excess = excess_over_perfect(audit, tables).map_err(|err| match err {
        Contradiction::Table(err) => ApiError::unprocessable(err.to_string()),
        // The server's own table file is wrong: not the request's fault.
        contradiction => {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, contradiction.to_string())
        }
    })?;
    let mut perfect = BTreeMap::new();
    for result in &audit.results {
        stop()?;
        if let Some(moves) = perfect_white_moves(tables, audit, &result.position)? {
            *perfect.entry(moves).or_insert(0usize) += 1;
        }
    }
    Ok(AuditView {
        strategy: audit.strategy,
        starts_set: audit.starts_set.name(),
        side_to_move: color_name(audit.side_to_move),
        starts: audit.results.len(),
        nodes: audit.nodes,
        failures: audit.failures_by_name(),
        worst_moves: audit.worst_moves(),
        histogram: audit.histogram().into_iter().collect(),
        perfect_histogram: perfect.into_iter().collect(),
        excess_over_perfect: excess.map(|excess| ExcessView {
            max: excess.max,
            mean: excess.mean,
            perfect_worst: excess.perfect_worst,
            perfect_at_worst_start: excess.at_worst_start,
        }),
        longest: audit.worst.as_ref().map(Replay::of),
        failure_examples: audit
            .failure_examples
            .iter()
            .map(|(kind, game)| (kind.name(), Replay::of(game)))
            .collect(),
    })
}
