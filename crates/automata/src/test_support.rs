//! Helpers shared by the unit tests.

use shakmaty::{CastlingMode, Chess, fen::Fen};

/// The position of a FEN that the test knows to be legal.
pub fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard)
        .expect("legal position")
}
