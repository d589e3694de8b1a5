//! Reading a position from FEN under the tables' legality: the men on
//! distinct squares and the side not to move not in check. A check that no
//! last move could have given (two checkers in a line, say) is allowed, as
//! the tables hold such positions too. **Choice** (issue 56): castling
//! rights the board cannot have (no king or rook on its starting square)
//! are dropped, as lichess does with a pasted FEN, not refused; rights the
//! board can have are kept, and refused where the tables are read.

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Position, PositionError, PositionErrorKinds,
    fen::Fen,
};

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
    /// `reasons`: every reason that applies, in the order shakmaty names
    /// them (empty board first, too much material last).
    #[error("illegal position {text:?}: {}", in_words(.reasons))]
    Illegal {
        text: String,
        reasons: Vec<IllegalReason>,
    },
    #[error(
        "castling rights are not supported by the tables: write '-' in the FEN's castling field"
    )]
    CastlingRights,
}

/// Why a position is illegal: one of shakmaty's [`PositionErrorKinds`],
/// said as a chess player would say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum IllegalReason {
    #[error("the board is empty")]
    EmptyBoard,
    #[error("a king is missing (each side needs exactly one king)")]
    MissingKing,
    #[error("a side has more than one king (each side needs exactly one king)")]
    TooManyKings,
    #[error("a pawn stands on the first or the last rank, where no pawn can be")]
    PawnsOnBackRank,
    /// Never from [`read_fen`], which drops such rights; here so that
    /// every kind of shakmaty's has words.
    #[error(
        "the castling rights do not fit the board (a side may castle only with \
         its king and that rook on their starting squares)"
    )]
    InvalidCastlingRights,
    #[error(
        "the en passant square does not fit the board (no pawn of the side that \
         has just moved can have passed over it with a two-square move)"
    )]
    InvalidEnPassantSquare,
    #[error(
        "the side not to move is in check, so its king could be taken: no game \
         reaches this position"
    )]
    OppositeCheck,
    /// Never from [`read_fen`], which allows such checks; here so that
    /// every kind of shakmaty's has words.
    #[error("no last move could have given this check")]
    ImpossibleCheck,
    #[error(
        "a side has more men than a game can give it (its pawns and the pieces \
         beyond its starting set make more than eight)"
    )]
    TooMuchMaterial,
    /// Only in shakmaty's chess variants, never in orthodox chess; here so
    /// that every kind of shakmaty's has words.
    #[error("a rule of the chess variant is broken")]
    VariantRule,
}

impl IllegalReason {
    /// Every reason with its kind, in the order errors give them (shakmaty's).
    const ALL: [(IllegalReason, PositionErrorKinds); 10] = [
        (IllegalReason::EmptyBoard, PositionErrorKinds::EMPTY_BOARD),
        (IllegalReason::MissingKing, PositionErrorKinds::MISSING_KING),
        (
            IllegalReason::TooManyKings,
            PositionErrorKinds::TOO_MANY_KINGS,
        ),
        (
            IllegalReason::PawnsOnBackRank,
            PositionErrorKinds::PAWNS_ON_BACKRANK,
        ),
        (
            IllegalReason::InvalidCastlingRights,
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
        ),
        (
            IllegalReason::InvalidEnPassantSquare,
            PositionErrorKinds::INVALID_EP_SQUARE,
        ),
        (
            IllegalReason::OppositeCheck,
            PositionErrorKinds::OPPOSITE_CHECK,
        ),
        (
            IllegalReason::ImpossibleCheck,
            PositionErrorKinds::IMPOSSIBLE_CHECK,
        ),
        (
            IllegalReason::TooMuchMaterial,
            PositionErrorKinds::TOO_MUCH_MATERIAL,
        ),
        (IllegalReason::VariantRule, PositionErrorKinds::VARIANT),
    ];

    /// The reasons among `kinds`, in shakmaty's order.
    fn all_in(kinds: PositionErrorKinds) -> Vec<IllegalReason> {
        IllegalReason::ALL
            .iter()
            .filter(|(_, kind)| kinds.contains(*kind))
            .map(|(reason, _)| *reason)
            .collect()
    }
}

/// `reasons` in words, joined by semicolons.
fn in_words(reasons: &[IllegalReason]) -> String {
    let words: Vec<String> = reasons.iter().map(ToString::to_string).collect();
    words.join("; ")
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
        .or_else(PositionError::ignore_invalid_castling_rights)
        .map_err(|err| FenError::Illegal {
            text: text.to_string(),
            reasons: IllegalReason::all_in(err.kinds()),
        })?;
    if castling == CastlingRights::Refused && position.castles().any() {
        return Err(FenError::CastlingRights);
    }
    Ok(position)
}

/// The FEN of `position` with `fullmoves` as its move number. shakmaty
/// counts moves in a u32 and stops at its largest; a line or game that
/// passes it is counted in u64 by the caller ([`fullmoves_after`]).
pub fn fen_with_fullmoves(position: &Chess, fullmoves: u64) -> String {
    let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
    match fen.rsplit_once(' ') {
        Some((rest, _)) => format!("{rest} {fullmoves}"),
        None => fen,
    }
}

/// The fullmove number `plies` plies after `start`, in u64.
pub fn fullmoves_after(start: &Chess, plies: usize) -> u64 {
    let black_first = usize::from(start.turn() == Color::Black);
    u64::from(start.fullmoves().get()) + ((plies + black_first) / 2) as u64
}

#[cfg(test)]
mod tests {
    use super::{IllegalReason::*, *};

    /// A FEN for every reason `read_fen` can give, and one with two, with
    /// every reason it gives, in order.
    const ILLEGAL: [(&str, &[IllegalReason]); 10] = [
        ("8/8/8/8/8/8/8/8 w - - 0 1", &[EmptyBoard, MissingKing]),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", &[MissingKing]),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", &[TooManyKings]),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", &[PawnsOnBackRank]),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", &[InvalidEnPassantSquare]),
        (
            "4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1",
            &[InvalidEnPassantSquare],
        ),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", &[OppositeCheck]),
        ("4K3/8/8/8/8/8/8/4r1k1 b - - 0 1", &[OppositeCheck]),
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", &[TooMuchMaterial]),
        (
            "4k3/8/8/8/8/8/8/p3R1K1 w - - 0 1",
            &[PawnsOnBackRank, OppositeCheck],
        ),
    ];

    #[test]
    fn each_illegal_position_says_why_in_words() {
        for (fen, expected) in ILLEGAL {
            let err = read_fen(fen, CastlingRights::Allowed).unwrap_err();
            let FenError::Illegal { reasons, .. } = &err else {
                panic!("{fen}: {err}");
            };
            assert_eq!(reasons, expected, "{fen}");
            let message = err.to_string();
            for reason in expected {
                assert!(message.contains(&reason.to_string()), "{message}");
            }
        }
    }

    /// Rights the board cannot have are dropped (no rook on h1); rights it
    /// can have are refused where the tables are read, kept elsewhere.
    #[test]
    fn impossible_castling_rights_are_dropped() {
        let dropped = read_fen("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", CastlingRights::Refused).unwrap();
        assert!(!dropped.castles().any());
        let possible = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert!(matches!(
            read_fen(possible, CastlingRights::Refused),
            Err(FenError::CastlingRights)
        ));
        assert!(
            read_fen(possible, CastlingRights::Allowed)
                .unwrap()
                .castles()
                .any()
        );
    }

    #[test]
    fn the_words_of_an_illegal_position() {
        let err = read_fen("4k3/8/8/8/8/8/8/p3R1K1 w - - 0 1", CastlingRights::Refused);
        assert_eq!(
            err.unwrap_err().to_string(),
            "illegal position \"4k3/8/8/8/8/8/8/p3R1K1 w - - 0 1\": a pawn stands on \
             the first or the last rank, where no pawn can be; the side not to move is \
             in check, so its king could be taken: no game reaches this position"
        );
    }

    #[test]
    fn every_kind_of_shakmaty_has_its_own_words() {
        let named = IllegalReason::ALL
            .iter()
            .fold(PositionErrorKinds::empty(), |all, (_, kind)| all | *kind);
        assert_eq!(named, PositionErrorKinds::all());
        let words: std::collections::HashSet<String> = IllegalReason::ALL
            .iter()
            .map(|(reason, _)| reason.to_string())
            .collect();
        assert_eq!(words.len(), IllegalReason::ALL.len());
        // The one kind `read_fen` allows has words all the same.
        let strict = "4k3/8/8/8/8/8/8/r3K2r w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position::<Chess>(CastlingMode::Standard)
            .unwrap_err();
        assert_eq!(IllegalReason::all_in(strict.kinds()), [ImpossibleCheck]);
    }

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
    fn move_numbers_past_u32_are_counted_in_u64() {
        let last = "4k3/8/8/8/8/8/8/4K2R b - - 0 4294967295";
        let start = read_fen(last, CastlingRights::Refused).unwrap();
        assert_eq!(fullmoves_after(&start, 0), 4_294_967_295);
        assert_eq!(fullmoves_after(&start, 1), 4_294_967_296);
        assert_eq!(fullmoves_after(&start, 3), 4_294_967_297);
        let mut position = start.clone();
        position.play_unchecked(position.legal_moves()[0]);
        // shakmaty's own counter stays at u32::MAX.
        assert_eq!(position.fullmoves().get(), u32::MAX);
        let fen = fen_with_fullmoves(&position, fullmoves_after(&start, 1));
        assert!(fen.ends_with(" w - - 1 4294967296"), "{fen}");
        let white = read_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 7", CastlingRights::Refused).unwrap();
        assert_eq!(fullmoves_after(&white, 1), 7);
        assert_eq!(fullmoves_after(&white, 2), 8);
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
