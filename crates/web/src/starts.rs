//! Where each automaton takes the black king against men set up by hand
//! (`GET /api/starts/squares`): the play view's setup board marks them.

use std::sync::Arc;

use ajedrecista_automata::app::start_answers;
use ajedrecista_automata::{Side, StrategyName};
use ajedrecista_tables::Tablebase;
use serde::{Deserialize, Serialize};
use shakmaty::{Board, CastlingMode, Chess, Color, Setup, Square};

use crate::error::ApiError;

/// `GET /api/starts/squares?board=BOARD&side=white|black`: `board` is a
/// FEN's board part (a black king on it is left out).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquaresQuery {
    pub board: String,
    pub side: Option<Side>,
}

/// One automaton's squares for the black king.
#[derive(Debug, Serialize)]
pub struct StartSquares {
    pub name: StrategyName,
    pub label: &'static str,
    pub squares: Vec<String>,
}

/// The longest board text read (eight ranks of eight squares and slashes).
const MAX_BOARD_LEN: usize = 71;

/// For every automaton, the free squares where the black king, placed
/// against the men of `query.board`, makes a position it takes as a start
/// (the same answer as `/api/starts` for that whole position).
pub fn start_squares(
    query: &SquaresQuery,
    tables: &Arc<Tablebase>,
) -> Result<Vec<StartSquares>, ApiError> {
    if query.board.len() > MAX_BOARD_LEN {
        return Err(ApiError::bad_request(format!(
            "board longer than {MAX_BOARD_LEN} characters"
        )));
    }
    let mut men: Board = query.board.trim().parse().map_err(|err| {
        ApiError::bad_request(format!("cannot read the board {:?}: {err}", query.board))
    })?;
    for square in men.by_piece(Color::Black.king()) {
        men.discard_piece_at(square);
    }
    let turn = query.side.unwrap_or(Side::White).color();
    let mut found: Vec<StartSquares> = StrategyName::all()
        .map(|name| StartSquares {
            name,
            label: name.label(),
            squares: Vec::new(),
        })
        .collect();
    for square in Square::ALL
        .into_iter()
        .filter(|&s| !men.occupied().contains(s))
    {
        let Some(position) = with_black_king(&men, square, turn) else {
            continue;
        };
        for (answer, entry) in start_answers(&position, tables).iter().zip(&mut found) {
            if answer.accepts {
                entry.squares.push(square.to_string());
            }
        }
    }
    Ok(found)
}

/// The legal position of `men` with the black king on `square`, `turn` to move.
fn with_black_king(men: &Board, square: Square, turn: Color) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = men.clone();
    setup.board.set_piece_at(square, Color::Black.king());
    setup.turn = turn;
    setup.position(CastlingMode::Standard).ok()
}
