//! The game a table is for.

use std::fmt;

use shakmaty::Square;

/// Orthodox chess, or the fixed-king game of Brudno and Landau.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Orthodox chess.
    Standard,
    /// The white king stands on this square and never moves. Black, who has
    /// a bare king, may not stand next to it; a capture by black ends the
    /// attempt (not a win for white), and so does stalemate.
    FixedKing(Square),
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Standard => f.write_str("standard"),
            Variant::FixedKing(sq) => write!(f, "fixed-king-{sq}"),
        }
    }
}
