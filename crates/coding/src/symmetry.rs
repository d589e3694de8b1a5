//! The eight symmetries of the board (3.2: rotation and reflection) acting
//! on offsets around the king and on whole positions.

use shakmaty::{Board, Square};

use crate::zone::Offset;

/// A symmetry of the square: rotations counter-clockwise (White at the
/// bottom) and reflections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    Identity,
    Rotate90,
    Rotate180,
    Rotate270,
    /// Reflection in the vertical axis: files a..h become h..a. The one
    /// symmetry besides the identity that keeps pawns moving the right way.
    MirrorFiles,
    /// Reflection in the horizontal axis.
    MirrorRanks,
    /// Reflection in the a1-h8 diagonal.
    Diagonal,
    /// Reflection in the a8-h1 diagonal.
    AntiDiagonal,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate 90",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Rotate270 => "rotate 270",
            Symmetry::MirrorFiles => "mirror files",
            Symmetry::MirrorRanks => "mirror ranks",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
        }
    }

    /// Pawns keep their direction only under these.
    pub fn keeps_pawns(self) -> bool {
        matches!(self, Symmetry::Identity | Symmetry::MirrorFiles)
    }

    /// The image of a vector.
    pub fn apply(self, (x, y): Offset) -> Offset {
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (-y, x),
            Symmetry::Rotate180 => (-x, -y),
            Symmetry::Rotate270 => (y, -x),
            Symmetry::MirrorFiles => (-x, y),
            Symmetry::MirrorRanks => (x, -y),
            Symmetry::Diagonal => (y, x),
            Symmetry::AntiDiagonal => (-y, -x),
        }
    }

    /// The image of a square under the symmetry of the whole board (about
    /// its centre).
    pub fn apply_square(self, square: Square) -> Square {
        // Doubled coordinates centred on the middle of the board.
        let centred = (
            2 * square.file().to_u32() as i32 - 7,
            2 * square.rank().to_u32() as i32 - 7,
        );
        let (x, y) = self.apply(centred);
        let index = |c: i32| ((c + 7) / 2) as u32;
        Square::from_coords(shakmaty::File::new(index(x)), shakmaty::Rank::new(index(y)))
    }

    /// The image of a whole board.
    pub fn apply_board(self, board: &Board) -> Board {
        let mut image = Board::empty();
        for (square, piece) in board {
            image.set_piece_at(self.apply_square(square), piece);
        }
        image
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_vectors_agree() {
        for symmetry in Symmetry::ALL {
            for a in Square::ALL {
                for b in [Square::A1, Square::D5, Square::H7] {
                    let before = crate::zone::offset_between(a, b);
                    let after = crate::zone::offset_between(
                        symmetry.apply_square(a),
                        symmetry.apply_square(b),
                    );
                    assert_eq!(symmetry.apply(before), after, "{symmetry:?}");
                }
            }
        }
        assert_eq!(Symmetry::Rotate90.apply_square(Square::A1), Square::H1);
        assert_eq!(Symmetry::MirrorFiles.apply_square(Square::B3), Square::G3);
        assert_eq!(Symmetry::AntiDiagonal.apply_square(Square::A1), Square::H8);
    }
}
