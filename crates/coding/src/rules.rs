//! Small rules of chess the modules share.

use shakmaty::{Board, CastlingMode, Chess, Color, FromSetup, Piece, Rank, Role, Setup, Square};

/// Pawns never stand on the first or last rank.
pub(crate) fn may_stand(piece: Piece, square: Square) -> bool {
    piece.role != Role::Pawn || !is_back_rank(square)
}

/// The first or the last rank, where no pawn stands.
pub(crate) fn is_back_rank(square: Square) -> bool {
    matches!(square.rank(), Rank::First | Rank::Eighth)
}

/// The legal position with these men and `turn` to move, if there is one
/// (no castling rights, no en passant).
pub(crate) fn position_from(board: Board, turn: Color) -> Option<Chess> {
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// The square a pawn of `color` on `square` pushes to.
pub(crate) fn pawn_push(color: Color, square: Square) -> Option<Square> {
    square.offset(color.fold_wb(8, -8))
}
