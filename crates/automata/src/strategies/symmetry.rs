//! The eight symmetries of the board (turns and reflections), for
//! positions without pawns or castling rights: a rule that names no file,
//! rank or square colour plays every image of a position alike, so the
//! audit solves one position of each class (see
//! [`Strategy::symmetric`](crate::strategy::Strategy::symmetric)).

use ajedrecista_tables::Symmetry;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, Position, Setup};

use crate::krk::board_key;

/// The keys ([`board_key`]) of the board's eight images, in the order of
/// [`Symmetry::ALL`], without building the boards.
fn image_keys(board: &Board) -> [u64; 8] {
    let mut codes = [0u8; 64];
    for (square, piece) in board {
        codes[usize::from(square)] =
            u8::from(piece.color == shakmaty::Color::White) << 3 | piece.role as u8;
    }
    Symmetry::ALL.map(|symmetry| {
        let mut image_codes = [0u8; 64];
        let mut squares = Bitboard::EMPTY;
        for square in board.occupied() {
            let to = symmetry.apply(square);
            image_codes[usize::from(to)] = codes[usize::from(square)];
            squares.add(to);
        }
        squares.into_iter().fold(0, |key, square| {
            key << 10 | u64::from(square) << 4 | u64::from(image_codes[usize::from(square)])
        })
    })
}

/// The least key over the board's eight images, and the first symmetry
/// that gives it: the same for every image of the board.
fn canonical_image(board: &Board) -> (u64, Symmetry) {
    image_keys(board)
        .into_iter()
        .zip(Symmetry::ALL)
        .min()
        .expect("eight images")
}

/// The key of the board's class: equal for two boards exactly when one is
/// an image of the other.
pub fn canonical_key(board: &Board) -> u64 {
    canonical_image(board).0
}

/// How many distinct boards the board's class holds (1, 2, 4 or 8).
pub fn class_size(board: &Board) -> usize {
    let mut keys = image_keys(board).to_vec();
    keys.sort_unstable();
    keys.dedup();
    keys.len()
}

/// The image of the position with the least key, the same side to move.
/// The position must have no castling rights or en passant square.
pub fn canonical_position(position: &Chess) -> Chess {
    let (_, symmetry) = canonical_image(position.board());
    if symmetry == Symmetry::Identity {
        return position.clone();
    }
    let board = symmetry.apply_board(position.board());
    debug_assert_eq!(board_key(&board), canonical_key(position.board()));
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = position.turn();
    setup
        .position(CastlingMode::Standard)
        .expect("an image of a legal position without castling is legal")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::position;

    #[test]
    fn the_images_of_a_position_share_one_canonical_position() {
        let original = position("8/8/8/2k5/8/3B4/5N2/6K1 w - - 0 1");
        let images = [
            "8/8/8/5k2/8/4B3/2N5/1K6 w - - 0 1",
            "6K1/5N2/3B4/8/2k5/8/8/8 w - - 0 1",
            "1K6/2N5/4B3/8/5k2/8/8/8 w - - 0 1",
        ];
        let canonical = canonical_position(&original);
        assert_eq!(
            canonical_key(canonical.board()),
            board_key(canonical.board())
        );
        for fen in images {
            let image = position(fen);
            assert_eq!(
                canonical_key(image.board()),
                canonical_key(original.board())
            );
            assert_eq!(canonical_position(&image).board(), canonical.board());
        }
        assert_eq!(class_size(original.board()), 8);
        let other = position("8/8/8/2k5/8/3B4/4N3/6K1 w - - 0 1");
        assert_ne!(
            canonical_key(other.board()),
            canonical_key(original.board())
        );
    }

    #[test]
    fn a_symmetric_board_has_a_smaller_class() {
        // Everything on the a1-h8 diagonal: its reflection is itself.
        let diagonal = position("7k/8/8/8/8/2B5/1B6/K7 b - - 0 1");
        assert_eq!(class_size(diagonal.board()), 4);
    }
}
