//! The practice API: the visitor plays White and gives the mate against
//! the tables' best defence, on the automata crate's [`Practice`] (every
//! rule of it is there).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ajedrecista_automata::StrategyName;
use ajedrecista_automata::app::{BuildPolicy, Hint, Practice, PracticeError, PracticeView, Turn};
use ajedrecista_tables::{Tablebase, Variant};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::probe::{parse_fen, probe_error};
use crate::store::GameId;

/// `POST /api/practice`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPractice {
    /// The start, White to move; without it the method's own start.
    pub fen: Option<String>,
    /// The method that gives hints, by catalog name.
    pub method: Option<StrategyName>,
}

/// A practice as the API shows it: the automata crate's view and its id.
#[derive(Debug, Serialize)]
pub struct PracticeState {
    pub id: String,
    #[serde(flatten)]
    pub practice: PracticeView,
}

/// The answer to a move: what it cost, the defence's reply, the state.
#[derive(Debug, Serialize)]
pub struct TurnView {
    pub turn: Turn,
    pub practice: PracticeState,
}

/// Starts a practice (blocking: its table may be built, which stops, with
/// a 503, once `stop` is raised).
pub fn new_practice(
    tables: Arc<Tablebase>,
    request: &NewPractice,
    stop: &AtomicBool,
) -> Result<Practice, ApiError> {
    let fen = request.fen.as_deref().map(parse_fen).transpose()?;
    let start = Practice::start_of(fen, request.method).map_err(practice_error)?;
    BuildPolicy::Interactive
        .prepare(&tables, &start, Variant::Standard, stop)
        .map_err(|err| probe_error(err, "practice"))?;
    Practice::new(tables, start, request.method).map_err(practice_error)
}

/// The practice's state.
pub fn state(id: GameId, practice: &Practice) -> Result<PracticeState, ApiError> {
    Ok(PracticeState {
        id: id.to_string(),
        practice: practice.view().map_err(practice_error)?,
    })
}

/// Plays the visitor's move and the defence's reply.
pub fn play(id: GameId, practice: &mut Practice, text: &str) -> Result<TurnView, ApiError> {
    let turn = practice.play(text).map_err(practice_error)?;
    Ok(TurnView {
        turn,
        practice: state(id, practice)?,
    })
}

/// The method's move and rule for the position now.
pub fn hint(practice: &Practice) -> Result<Hint, ApiError> {
    practice.hint().map_err(practice_error)
}

/// Takes back the last move and its reply.
pub fn undo(id: GameId, practice: &mut Practice) -> Result<PracticeState, ApiError> {
    if !practice.undo() {
        return Err(ApiError::new(StatusCode::CONFLICT, "nothing to undo"));
    }
    state(id, practice)
}

/// Back to the start.
pub fn retry(id: GameId, practice: &mut Practice) -> Result<PracticeState, ApiError> {
    practice.retry();
    state(id, practice)
}

/// The answer for a practice that failed: the visitor's fault is a 4xx
/// in words, a table's a 5xx.
fn practice_error(err: PracticeError) -> ApiError {
    match err {
        PracticeError::Probe(err) => probe_error(err, "practice"),
        PracticeError::GameOver | PracticeError::NoMethod => {
            ApiError::new(StatusCode::CONFLICT, err.to_string())
        }
        PracticeError::NotAMove(_) | PracticeError::NoStart => {
            ApiError::bad_request(err.to_string())
        }
        _ => ApiError::unprocessable(err.to_string()),
    }
}
