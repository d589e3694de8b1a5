//! The three men of the rook ending: white king, white rook, black king.

use shakmaty::{Board, Color, Role, Square};

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
        let mut board = Board::empty();
        board.set_piece_at(self.white_king, Color::White.king());
        board.set_piece_at(self.rook, Color::White.rook());
        board.set_piece_at(self.black_king, Color::Black.king());
        board
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

    /// A dense key for tables indexed by the three squares.
    pub fn key(&self) -> u32 {
        self.white_king.to_u32() | (self.rook.to_u32() << 6) | (self.black_king.to_u32() << 12)
    }
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
