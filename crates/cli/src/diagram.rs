//! A board diagram for the terminal: Unicode men, coordinates, and marked
//! squares.

use shakmaty::{Bitboard, Board, File, Rank, Square};

/// The board as text, white at the bottom, with `marked` squares shown in
/// brackets (the last move, say).
pub fn diagram(board: &Board, marked: Bitboard) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        out.push_str(&format!(" {} ", rank.char()));
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            let glyph = match board.piece_at(sq) {
                Some(piece) => figurine(piece),
                None if sq.is_dark() => '·',
                None => ' ',
            };
            if marked.contains(sq) {
                out.push('[');
                out.push(glyph);
                out.push(']');
            } else {
                out.push(' ');
                out.push(glyph);
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in File::ALL {
        out.push_str(&format!(" {} ", file.char()));
    }
    out.push('\n');
    out
}

fn figurine(piece: shakmaty::Piece) -> char {
    use shakmaty::{Color::*, Role::*};
    match (piece.color, piece.role) {
        (White, King) => '♔',
        (White, Queen) => '♕',
        (White, Rook) => '♖',
        (White, Bishop) => '♗',
        (White, Knight) => '♘',
        (White, Pawn) => '♙',
        (Black, King) => '♚',
        (Black, Queen) => '♛',
        (Black, Rook) => '♜',
        (Black, Bishop) => '♝',
        (Black, Knight) => '♞',
        (Black, Pawn) => '♟',
    }
}
