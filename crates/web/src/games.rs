//! The game API: a person, moving the black king, against an automaton,
//! on the automata crate's [`Session`] (all the game's rules are there).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ajedrecista_automata::app::BuildPolicy;
use ajedrecista_automata::{
    DEFAULT_ILLEGAL_LIMIT, LampView, MoveError, Opening, Session, StrategyName, UndoError,
};
use ajedrecista_tables::{Tablebase, Variant};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::probe::{parse_fen, probe_error};
use crate::store::GameId;

/// `POST /api/games`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Read by its catalog name: an unknown one is a 400, as any field
    /// that does not fit.
    pub strategy: StrategyName,
    /// A whole start position; without it the machine's own start (the
    /// person places the black king).
    pub fen: Option<String>,
}

/// `POST /api/games/{id}/moves`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// As typed: `Kd5`, `e4d5`, `d5`, `45`.
    #[serde(rename = "move")]
    pub text: String,
}

/// A game as the API shows it: the automata crate's view and its id.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: String,
    #[serde(flatten)]
    pub game: ajedrecista_automata::GameView,
}

/// The answer to a legal move.
#[derive(Debug, Serialize)]
pub struct MoveView {
    pub game: GameView,
}

/// The answer to an illegal move (status 200, with the lamp).
#[derive(Debug, Serialize)]
pub struct IllegalMoveView {
    pub error: String,
    pub lamp: LampView,
    pub game: GameView,
}

/// Starts a game (blocking: perfect play may build its table, which stops,
/// with a 503, once `stop` is raised).
pub fn new_session(
    tables: Arc<Tablebase>,
    request: &NewGame,
    stop: &AtomicBool,
) -> Result<Session, ApiError> {
    let strategy = request.strategy;
    let opening = match request.fen.as_deref() {
        None => Opening::machine_start(strategy),
        Some(text) => {
            let position = parse_fen(text)?;
            BuildPolicy::Interactive
                .prepare(&tables, &position, Variant::Standard, stop)
                .map_err(|err| probe_error(err, "new game"))?;
            Opening::Position(position)
        }
    };
    Session::new(tables, strategy, opening, DEFAULT_ILLEGAL_LIMIT)
        .map_err(|err| ApiError::unprocessable(err.to_string()))
}

/// Plays the person's move: the new state, or the lamp.
pub fn play_move(id: GameId, session: &mut Session, text: &str) -> Result<MoveView, MoveFailure> {
    match session.play(text) {
        Ok(_) => Ok(MoveView {
            game: view(id, session),
        }),
        Err(MoveError::Illegal { reason, .. }) => {
            Err(MoveFailure::Illegal(Box::new(IllegalMoveView {
                error: reason.to_string(),
                lamp: LampView::new(&reason, session.illegal()),
                game: view(id, session),
            })))
        }
        Err(MoveError::NotAMove(reason)) => Err(MoveFailure::NotAMove(Box::new(HintView {
            hint: reason.to_string(),
            kind: reason.kind(),
            game: view(id, session),
        }))),
        Err(MoveError::GameOver) => Err(MoveFailure::Refused(ApiError::new(
            StatusCode::CONFLICT,
            "the game is over",
        ))),
    }
}

/// The answer to text that is no move at all (status 200): a hint, and
/// the game unchanged, its lamp off and its count the same.
#[derive(Debug, Serialize)]
pub struct HintView {
    pub hint: String,
    /// A stable name of what was wrong (`IllegalMove::kind`).
    pub kind: &'static str,
    pub game: GameView,
}

/// A move that was not played.
pub enum MoveFailure {
    Illegal(Box<IllegalMoveView>),
    NotAMove(Box<HintView>),
    Refused(ApiError),
}

pub fn undo(id: GameId, session: &mut Session) -> Result<GameView, ApiError> {
    session.undo().map_err(|err| match err {
        UndoError::NothingToUndo | UndoError::Stopped(_) => {
            ApiError::new(StatusCode::CONFLICT, err.to_string())
        }
    })?;
    Ok(view(id, session))
}

/// The game as the API shows it.
pub fn view(id: GameId, session: &Session) -> GameView {
    GameView {
        id: id.to_string(),
        game: session.view(),
    }
}
