//! The three men of the rook ending: white king, white rook, black king.

use shakmaty::{Board, Color, Piece, Role, Square};

/// The squares of a king-and-rook against king position. Every automaton
/// here plays this ending, so reading the board once into this shape keeps
/// the rules free of bitboard plumbing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Krk {
    pub white_king: Square,
    pub rook: Square,
    pub black_king: Square,
}

impl Krk {
    /// The three squares, or `None` if the board holds anything other than
    /// exactly a white king, a white rook and a black king.
    pub fn from_board(board: &Board) -> Option<Krk> {
        if board.occupied().count() != 3 {
            return None;
        }
        let white_king = board.king_of(Color::White)?;
        let black_king = board.king_of(Color::Black)?;
        let rook = (board.by_role(Role::Rook) & board.by_color(Color::White)).first()?;
        Some(Krk {
            white_king,
            rook,
            black_king,
        })
    }

    /// The board with these three men and nothing else.
    pub fn board(&self) -> Board {
        three_men_board(
            self.white_king,
            Color::White.rook(),
            self.rook,
            self.black_king,
        )
    }

    /// The men as seen after turning the board a quarter turn clockwise
    /// `quarter_turns` times (a1 goes to a8).
    pub fn turned(&self, quarter_turns: u8) -> Krk {
        let turn = |mut square: Square| {
            for _ in 0..quarter_turns % 4 {
                square = square.rotate_90();
            }
            square
        };
        Krk {
            white_king: turn(self.white_king),
            rook: turn(self.rook),
            black_king: turn(self.black_king),
        }
    }
}

/// The board of a white king, one more man and a black king.
pub fn three_men_board(
    white_king: Square,
    man: Piece,
    square: Square,
    black_king: Square,
) -> Board {
    let mut board = Board::empty();
    board.set_piece_at(white_king, Color::White.king());
    board.set_piece_at(square, man);
    board.set_piece_at(black_king, Color::Black.king());
    board
}

/// An exact key for a board of up to six men: square and piece of each man,
/// in square order, ten bits apiece.
pub fn board_key(board: &Board) -> u64 {
    board.iter().fold(0, |key, (square, piece)| {
        let code = u64::from(piece.color == Color::White) << 3 | u64::from(piece.role as u8);
        key << 10 | u64::from(square.to_u32()) << 4 | code
    })
}

/// The square that `square` seen after `quarter_turns` clockwise turns of
/// the board stands on in the unturned board.
pub fn unturned(mut square: Square, quarter_turns: u8) -> Square {
    for _ in 0..quarter_turns % 4 {
        square = square.rotate_270();
    }
    square
}

/// File index 0 (a) to 7 (h), signed for coordinate arithmetic.
pub fn file_of(square: Square) -> i32 {
    square.file().to_u32() as i32
}

/// Rank index 0 (first rank) to 7 (eighth), signed for coordinate arithmetic.
pub fn rank_of(square: Square) -> i32 {
    square.rank().to_u32() as i32
}

/// The square at signed file and rank indices, if on the board.
pub fn square_at(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::new((rank * 8 + file) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_keys_tell_men_and_squares_apart() {
        let rook = three_men_board(Square::A1, Color::White.rook(), Square::B2, Square::H8);
        let queen = three_men_board(Square::A1, Color::White.queen(), Square::B2, Square::H8);
        let moved = three_men_board(Square::A1, Color::White.rook(), Square::B3, Square::H8);
        let swapped = three_men_board(Square::H8, Color::White.rook(), Square::B2, Square::A1);
        let keys = [&rook, &queen, &moved, &swapped].map(board_key);
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // The key is of the men, not of the order they were set in.
        let mut reordered = Board::empty();
        reordered.set_piece_at(Square::H8, Color::Black.king());
        reordered.set_piece_at(Square::B2, Color::White.rook());
        reordered.set_piece_at(Square::A1, Color::White.king());
        assert_eq!(board_key(&reordered), board_key(&rook));
    }

    #[test]
    fn board_keys_are_exact_over_every_three_men_board() {
        let mut seen = std::collections::HashSet::new();
        for man in [Color::White.rook(), Color::White.queen()] {
            for white_king in Square::ALL {
                for square in Square::ALL {
                    for black_king in Square::ALL {
                        if square == white_king || black_king == white_king || black_king == square
                        {
                            continue;
                        }
                        let board = three_men_board(white_king, man, square, black_king);
                        assert!(seen.insert(board_key(&board)), "{board:?}");
                    }
                }
            }
        }
        assert_eq!(seen.len(), 2 * 64 * 63 * 62);
    }

    #[test]
    fn a_quarter_turn_takes_a1_to_a8() {
        let krk = Krk {
            white_king: Square::A1,
            rook: Square::H1,
            black_king: Square::E5,
        };
        let turned = krk.turned(1);
        assert_eq!((turned.white_king, turned.rook), (Square::A8, Square::A1));
        assert_eq!(krk.turned(4), krk);
        assert_eq!(unturned(turned.black_king, 1), krk.black_king);
    }
}
