//! What the table tests share: positions from random or enumerated squares,
//! under the tables' legality.

// Each test file uses only some of these.
#![allow(dead_code)]

use ajedrecista_tables::Material;
use shakmaty::{Board, CastlingMode, Chess, Color, PositionError, Setup, Square};

/// The men of `material` on `squares`, in material order; `None` when two
/// share a square.
pub fn board_of(material: &Material, squares: impl IntoIterator<Item = Square>) -> Option<Board> {
    let mut board = Board::empty();
    for (&man, sq) in material.men().iter().zip(squares) {
        if board.piece_at(sq).is_some() {
            return None;
        }
        board.set_piece_at(sq, man);
    }
    Some(board)
}

/// Squares from the numbers proptest draws (0 to 63).
pub fn squares(numbers: &[u8]) -> impl Iterator<Item = Square> + '_ {
    numbers.iter().map(|&n| Square::new(u32::from(n)))
}

/// `board` with `turn` to move, if legal as the tables count it: a check
/// that no last move could have given is allowed.
pub fn legal(board: &Board, turn: Color, ep_square: Option<Square>) -> Option<Chess> {
    Setup {
        board: board.clone(),
        turn,
        ep_square,
        ..Setup::empty()
    }
    .position(CastlingMode::Standard)
    .or_else(PositionError::ignore_impossible_check)
    .ok()
}
