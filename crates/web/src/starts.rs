//! Where each automaton takes the black king against men set up by hand
//! (`GET /api/starts/squares`): the play view's setup board marks them.

use std::sync::Arc;

use ajedrecista_automata::Side;
use ajedrecista_automata::app::{BuildPolicy, StartSquares, squares_taken_as_starts};
use ajedrecista_tables::Tablebase;
use serde::Deserialize;
use shakmaty::Board;

use crate::error::ApiError;

/// `GET /api/starts/squares?board=BOARD&side=white|black`: `board` is a
/// FEN's board part (a black king on it is left out).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquaresQuery {
    pub board: String,
    pub side: Option<Side>,
}

/// The longest board text read (eight ranks of eight squares and slashes).
const MAX_BOARD_LEN: usize = 71;

/// For every automaton, the free squares where the black king, placed
/// against the men of `query.board`, makes a position it takes as a start
/// (the application layer's `squares_taken_as_starts`).
pub fn start_squares(
    query: &SquaresQuery,
    tables: &Arc<Tablebase>,
) -> Result<Vec<StartSquares>, ApiError> {
    if query.board.len() > MAX_BOARD_LEN {
        return Err(ApiError::bad_request(format!(
            "board longer than {MAX_BOARD_LEN} characters"
        )));
    }
    let men: Board = query.board.trim().parse().map_err(|err| {
        ApiError::bad_request(format!("cannot read the board {:?}: {err}", query.board))
    })?;
    let turn = query.side.unwrap_or(Side::White).color();
    Ok(squares_taken_as_starts(
        &men,
        turn,
        tables,
        BuildPolicy::Interactive,
    ))
}
