//! The game API: a person, moving the black king, against an automaton,
//! on the automata crate's [`Session`] (all the game's rules are there).

use std::sync::Arc;

use ajedrecista_automata::{
    DEFAULT_ILLEGAL_LIMIT, GameEnd, MachineMove, MoveError, Opening, Session, StrategyName,
    UndoError,
};
use ajedrecista_tables::Tablebase;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use shakmaty::{Board, CastlingMode, Color, Move, Position, Role, Square};

use crate::audit::{Ply, Replay};
use crate::error::ApiError;
use crate::probe::{color_name, fen_of, parse_fen};
use crate::store::GameId;

/// `POST /api/games`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub strategy: String,
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

/// The automaton's move.
#[derive(Debug, Serialize)]
pub struct ReplyView {
    pub uci: String,
    pub from: String,
    pub to: String,
    pub san: String,
    /// The seed's numeric squares.
    pub numeric: String,
    pub reason: &'static str,
    /// The calculator's display.
    pub display: String,
    pub check: bool,
    pub mate: bool,
    /// The lamps of the 1912 machine that show this move.
    pub lamps: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct EndView {
    pub kind: &'static str,
    pub text: String,
    pub result: &'static str,
}

#[derive(Debug, Serialize)]
pub struct IllegalView {
    pub count: u32,
    /// 0: no limit.
    pub limit: u32,
    pub stopped: bool,
}

/// A game as the API shows it.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub strategy: &'static str,
    pub variant: String,
    /// The black king is still to be placed on one of `start_squares`.
    pub placing: bool,
    pub start_squares: Vec<String>,
    /// The board part of a FEN (the white men alone while placing).
    pub board: String,
    pub fen: Option<String>,
    pub start_fen: Option<String>,
    pub turn: Option<&'static str>,
    /// The black king's legal moves, UCI.
    pub black_moves: Vec<String>,
    pub last_move: Option<String>,
    pub moves: Vec<Ply>,
    pub last_reply: Option<ReplyView>,
    pub end: Option<EndView>,
    pub illegal: IllegalView,
    /// White's moves to mate with perfect play, from now and from the start.
    pub dtm: Option<u16>,
    pub start_dtm: Option<u16>,
    pub white_moves: usize,
    pub can_undo: bool,
    pub pgn: Option<String>,
}

/// The lamp: why the move was refused.
#[derive(Debug, Serialize)]
pub struct LampView {
    pub kind: &'static str,
    pub reason: String,
    pub count: u32,
    pub limit: u32,
    pub stopped: bool,
}

/// The answer to a legal move.
#[derive(Debug, Serialize)]
pub struct MoveView {
    pub game: GameView,
}

/// The answer to an illegal move (status 422).
#[derive(Debug, Serialize)]
pub struct IllegalMoveView {
    pub error: String,
    pub lamp: LampView,
    pub game: GameView,
}

/// Starts a game (blocking: perfect play may build its table).
pub fn new_session(tables: Arc<Tablebase>, request: &NewGame) -> Result<Session, ApiError> {
    let strategy = request
        .strategy
        .parse::<StrategyName>()
        .map_err(|err| ApiError::unprocessable(err.to_string()))?;
    let opening = match request.fen.as_deref() {
        None => Opening::machine_start(strategy, &tables),
        Some(text) => {
            let position = parse_fen(text)?;
            crate::probe::probeable_material(
                &tables,
                &position,
                ajedrecista_tables::Variant::Standard,
            )?;
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
        Err(MoveError::Illegal {
            reason,
            count,
            stopped,
        }) => Err(MoveFailure::Illegal(Box::new(IllegalMoveView {
            error: reason.to_string(),
            lamp: LampView {
                kind: reason.kind(),
                reason: reason.to_string(),
                count,
                limit: session.illegal_moves().1,
                stopped,
            },
            game: view(id, session),
        }))),
        Err(MoveError::GameOver) => Err(MoveFailure::Refused(ApiError::new(
            StatusCode::CONFLICT,
            "the game is over",
        ))),
    }
}

/// A move that was not played.
pub enum MoveFailure {
    Illegal(Box<IllegalMoveView>),
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

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

fn end_view(end: &GameEnd) -> EndView {
    EndView {
        kind: end.kind(),
        text: end.to_string(),
        result: end.result(),
    }
}

/// The lamps of El Ajedrecista's board that show White's move: the rook to
/// the a- or h-file, the rook or the king one square down, left or right.
/// "Down" is towards the black king's side of the white king (rank 1 in the
/// 1912 machine's own orientation); left is towards the a-file.
pub fn torres_lamps(mv: Move, board_after: &Board) -> Vec<&'static str> {
    let (Some(from), to) = (mv.from(), mv.to()) else {
        return Vec::new();
    };
    let rank = |square: Square| i32::from(u8::from(square.rank()));
    let file = |square: Square| i32::from(u8::from(square.file()));
    let down = match (
        board_after.king_of(Color::White),
        board_after.king_of(Color::Black),
    ) {
        (Some(white), Some(black)) => (rank(black) - rank(white)).signum(),
        _ => -1,
    };
    let (files, ranks) = (file(to) - file(from), rank(to) - rank(from));
    let mut lamps = Vec::new();
    match mv.role() {
        Role::Rook if files != 0 && (file(to) == 0 || file(to) == 7) && files.abs() > 1 => {
            lamps.push(if file(to) == 0 {
                "rook_a_file"
            } else {
                "rook_h_file"
            });
        }
        Role::Rook if files == 0 && ranks == down => lamps.push("rook_down"),
        Role::Rook if ranks == 0 && files == -1 => lamps.push("rook_left"),
        Role::Rook if ranks == 0 && files == 1 => lamps.push("rook_right"),
        Role::King => {
            if ranks != 0 && ranks == down {
                lamps.push("king_down");
            }
            if files == -1 {
                lamps.push("king_left");
            }
            if files == 1 {
                lamps.push("king_right");
            }
        }
        _ => {}
    }
    lamps
}

fn reply_view(reply: &MachineMove, board_after: &Board, mate: bool) -> ReplyView {
    ReplyView {
        uci: uci(reply.mv),
        from: reply.mv.from().map(|s| s.to_string()).unwrap_or_default(),
        to: reply.mv.to().to_string(),
        san: reply.san.clone(),
        numeric: reply.numeric.clone(),
        reason: reply.reason,
        display: reply.display.clone(),
        check: reply.check,
        mate,
        lamps: torres_lamps(reply.mv, board_after),
    }
}

/// The game as the API shows it.
pub fn view(id: GameId, session: &Session) -> GameView {
    let position = session.position();
    let end = session.end();
    let board = session.board();
    let reply = match session.last_turn() {
        Some(turn) => turn.reply.as_ref(),
        None => session.opening_reply(),
    };
    let (count, limit) = session.illegal_moves();
    let game = session.game();
    GameView {
        id: id.to_string(),
        strategy: session.strategy().as_str(),
        variant: session.variant().to_string(),
        placing: session.placing().is_some(),
        start_squares: session
            .start_squares()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        board: board.to_string(),
        fen: position.map(fen_of),
        start_fen: session.start().map(fen_of),
        turn: position.map(|p| color_name(p.turn())),
        black_moves: session.black_moves().into_iter().map(uci).collect(),
        last_move: session.last_move().map(uci),
        moves: game
            .as_ref()
            .map(|game| Replay::of(game).plies)
            .unwrap_or_default(),
        last_reply: reply.map(|reply| {
            reply_view(
                reply,
                &board,
                matches!(end, Some(GameEnd::Checkmate)) && session.last_move() == Some(reply.mv),
            )
        }),
        illegal: IllegalView {
            count,
            limit,
            stopped: matches!(end, Some(GameEnd::IllegalMoves(_))),
        },
        end: end.as_ref().map(end_view),
        dtm: session.dtm(),
        start_dtm: session.start_dtm(),
        white_moves: session.white_moves(),
        can_undo: session.placing().is_none()
            && !matches!(end, Some(GameEnd::IllegalMoves(_)))
            && session.last_turn().is_some(),
        pgn: session.pgn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().as_setup().board.clone()
    }

    #[test]
    fn lamps_follow_the_orientation_of_the_kings() {
        // 1912 orientation: white king above, black king below ("down" is
        // towards rank 1).
        let after = board("K7/8/8/8/8/1R6/8/3k4");
        let rook_down = Move::Normal {
            role: Role::Rook,
            from: Square::B4,
            capture: None,
            to: Square::B3,
            promotion: None,
        };
        assert_eq!(torres_lamps(rook_down, &after), ["rook_down"]);
        let rook_far = Move::Normal {
            role: Role::Rook,
            from: Square::B3,
            capture: None,
            to: Square::H3,
            promotion: None,
        };
        assert_eq!(torres_lamps(rook_far, &after), ["rook_h_file"]);
        let king_down = Move::Normal {
            role: Role::King,
            from: Square::A8,
            capture: None,
            to: Square::A7,
            promotion: None,
        };
        assert_eq!(
            torres_lamps(king_down, &board("8/K7/8/8/8/1R6/8/3k4")),
            ["king_down"]
        );
        // Mirrored (seed 004's game): the black king above, so a king step
        // towards rank 8 is "down".
        let mirrored = board("8/8/1k6/8/R7/5K2/8/8");
        let king_up = Move::Normal {
            role: Role::King,
            from: Square::F2,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        assert_eq!(torres_lamps(king_up, &mirrored), ["king_down"]);
        let rook_left = Move::Normal {
            role: Role::Rook,
            from: Square::B4,
            capture: None,
            to: Square::A4,
            promotion: None,
        };
        assert_eq!(torres_lamps(rook_left, &mirrored), ["rook_left"]);
    }
}
