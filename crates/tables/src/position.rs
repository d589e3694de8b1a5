//! Reading a position from FEN under the tables' legality: the men on
//! distinct squares and the side not to move not in check. A check that no
//! last move could have given (two checkers in a line, say) is allowed, as
//! the tables hold such positions too.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, PositionError};

/// Whether castling rights in the FEN are accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastlingRights {
    /// The tables know no castling: a FEN with rights is refused.
    Refused,
    /// Kept as the FEN gives them (UCI's `startpos`, a whole game).
    Allowed,
}

/// Why a FEN is no position of the tables.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("cannot read FEN {text:?}: {reason}")]
    Syntax { text: String, reason: String },
    #[error("illegal position {text:?}: {reason}")]
    Illegal { text: String, reason: String },
    #[error(
        "castling rights are not supported by the tables: write '-' in the FEN's castling field"
    )]
    CastlingRights,
}

/// Reads `text` (surrounding blanks ignored) as a position legal for the
/// tables.
pub fn read_fen(text: &str, castling: CastlingRights) -> Result<Chess, FenError> {
    // shakmaty saturates a move counter too large for it; say so instead.
    let counters = text.split_whitespace().skip(4).take(2);
    for (field, name) in counters.zip(["halfmove clock", "fullmove number"]) {
        if field.parse::<u32>().is_err() {
            return Err(FenError::Syntax {
                text: text.to_string(),
                reason: format!(
                    "the {name} {field:?} is not a number from 0 to {}",
                    u32::MAX
                ),
            });
        }
    }
    let fen: Fen = text.trim().parse().map_err(|err| FenError::Syntax {
        text: text.to_string(),
        reason: format!("{err}"),
    })?;
    let position = fen
        .into_position::<Chess>(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|err| FenError::Illegal {
            text: text.to_string(),
            reason: err.to_string(),
        })?;
    if castling == CastlingRights::Refused && position.castles().any() {
        return Err(FenError::CastlingRights);
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_counters_beyond_u32_are_refused() {
        let big = "4k3/8/8/8/8/8/8/4K2R w - - 0 99999999999999999999";
        assert!(matches!(
            read_fen(big, CastlingRights::Refused),
            Err(FenError::Syntax { .. })
        ));
        let largest = "4k3/8/8/8/8/8/8/4K2R w - - 0 4294967295";
        assert!(read_fen(largest, CastlingRights::Refused).is_ok());
    }

    #[test]
    fn legality_is_the_tables() {
        // Two checkers no last move could give: the tables hold it.
        assert!(read_fen("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", CastlingRights::Refused).is_ok());
        // The side not to move in check: illegal.
        assert!(matches!(
            read_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", CastlingRights::Refused),
            Err(FenError::Illegal { .. })
        ));
        assert!(matches!(
            read_fen("not a fen", CastlingRights::Allowed),
            Err(FenError::Syntax { .. })
        ));
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(
            read_fen(start, CastlingRights::Refused),
            Err(FenError::CastlingRights)
        );
        assert_eq!(
            read_fen(start, CastlingRights::Allowed).unwrap(),
            Chess::default()
        );
    }
}
