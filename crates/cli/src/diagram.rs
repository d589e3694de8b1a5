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
    use shakmaty::{Color, Role};
    // Unicode's chess symbols: White's king to pawn from U+2654, Black's
    // from U+265A.
    let first = match piece.color {
        Color::White => 0x2654,
        Color::Black => 0x265A,
    };
    // King first, pawn last: shakmaty numbers the roles from pawn (1) to
    // king (6).
    let offset = Role::King as u32 - piece.role as u32;
    char::from_u32(first + offset).expect("a chess symbol")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Piece, Role};

    #[test]
    fn every_man_has_its_own_symbol() {
        let roles = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        let symbols: String = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| roles.map(|role| figurine(Piece { color, role })))
            .collect();
        assert_eq!(symbols, "♔♕♖♗♘♙♚♛♜♝♞♟");
    }
}
