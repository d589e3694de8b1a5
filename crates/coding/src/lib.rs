//! Gartser and Kharichev's coding and classification of final chess
//! positions (А.Т. Гарцер, Е.В. Харичев, «Кодирование и классификация
//! шахматных позиций», 1998).
//!
//! A final position is a mate or a stalemate of the side to move. It gets a
//! code A-B-C: the men that take part (A), what controls each square of the
//! king's zone in a fixed numbering (B), and the king's square, pins outside
//! the zone and special marks (C). Turning and shifting the position to the
//! smallest B gives the etalon position (ЭП), whose code classifies it.
//!
//! Orthodox positions are read with shakmaty and analysed by
//! [`FinalPosition`]; positions with fairy units or conditions by the rules
//! model of [`fairy`] and [`fairy::FairyFinal`]. Both are an
//! [`AnalysedFinal`] over their rules ([`FinalRules`]), so the qualities,
//! the etalon's shell and whoever prints them are written once.
//!
//! The code of example 1 of the brochure (McDowell), a model mate, and of
//! its etalon position:
//!
//! ```
//! use ajedrecista_coding::{FinalPosition, parse_position};
//!
//! let position = parse_position("8/8/8/2p1b3/3kp3/1K2p3/8/3R4 b - - 0 1").unwrap();
//! let mate = FinalPosition::analyse(position).unwrap();
//! assert!(mate.is_model());
//! assert_eq!(mate.code().to_string(), "K3/5557-3355735KK-44");
//! assert_eq!(mate.etalon().unwrap().code().to_string(), "K3/5557-33KK53755");
//! ```

pub mod code;
pub mod condition;
pub mod dispatch;
pub mod enumerate;
pub mod etalon;
pub mod fairy;
pub mod final_position;
pub mod input;
pub mod retro;
mod rules;
pub mod symbol;
pub mod zone;

/// The board's symmetries: the tables crate's, one type for the workspace.
pub use ajedrecista_tables::Symmetry;
pub use code::{Classification, Code};
pub use condition::SpecialMark;
pub use dispatch::{
    Analysis, Census, CensusError, CensusPlan, Coded, CodedError, OrthodoxChoices, Unclassified,
    rules_named,
};
pub use enumerate::{
    BadMaterial, Enumeration, EtalonGroup, Legality, NotOrthodox, OrthodoxMaterial, Selection,
    enumerate, final_positions,
};
pub use etalon::{Etalon, EtalonError};
pub use final_position::{
    AnalysedFinal, FinalKind, FinalParts, FinalPosition, FinalRules, NotFinal, Pin, RoyalZone,
};
pub use input::{Entry, TooManyPositions, read_positions};
pub use symbol::{Mark, Symbol};
pub use zone::{Zone, ZoneShape};

use shakmaty::fen::{Epd, Fen, ParseFenError};
use shakmaty::{CastlingMode, Chess, PositionError};

/// A text that is no position to code.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CodingError {
    #[error("bad FEN {text:?}: {reason}")]
    BadFen { text: String, reason: ParseFenError },
    /// A move counter too large for shakmaty, which would stop it at its
    /// largest: refused rather than changed.
    #[error(
        "bad FEN {text:?}: the {name} {value:?} is not a number from 0 to {}",
        u32::MAX
    )]
    MoveCounter {
        text: String,
        name: &'static str,
        value: String,
    },
    #[error("{text:?}: {reason}")]
    IllegalPosition {
        text: String,
        /// Boxed: it holds the position.
        reason: Box<PositionError<Chess>>,
    },
    /// A PGN game's move that cannot be read or played.
    #[error("{reason} move {token:?} at ply {ply}")]
    BadMove {
        reason: BadMove,
        token: String,
        ply: usize,
    },
    /// A line of an input that is not UTF-8 (from 1).
    #[error("line {line}: the line is not UTF-8")]
    NotUtf8 { line: usize },
}

/// Why a PGN game's move was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadMove {
    /// Not SAN.
    Unreadable,
    /// SAN, but not legal where it is played.
    Illegal,
}

impl std::fmt::Display for BadMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BadMove::Unreadable => "bad",
            BadMove::Illegal => "illegal",
        })
    }
}

/// Reads a position from a FEN, or from an EPD line (its operations are
/// ignored).
pub fn parse_position(text: &str) -> Result<Chess, CodingError> {
    let text = text.trim();
    // A counter of digits only: an EPD's operations are words.
    let counters = text.split_whitespace().skip(4).take(2);
    for (value, name) in counters.zip(["halfmove clock", "fullmove number"]) {
        if value.bytes().all(|b| b.is_ascii_digit()) && value.parse::<u32>().is_err() {
            return Err(CodingError::MoveCounter {
                text: text.to_owned(),
                name,
                value: value.to_owned(),
            });
        }
    }
    let setup = match text.parse::<Fen>() {
        Ok(fen) => fen.into_setup(),
        Err(fen_error) => {
            // EPD: four fields, then operations, each starting with a
            // letter (`bm Qh5;`). A fifth word that does not (a move
            // counter, an option inside the quotes) makes a FEN that
            // could not be read, not an EPD whose extra words are dropped.
            let fifth = text.split_whitespace().nth(4);
            if fifth.is_some_and(|word| !word.starts_with(|c: char| c.is_ascii_alphabetic())) {
                return Err(CodingError::BadFen {
                    text: text.to_owned(),
                    reason: fen_error,
                });
            }
            let fields: Vec<&str> = text.split_whitespace().take(4).collect();
            let epd = fields
                .join(" ")
                .parse::<Epd>()
                .map_err(|_| CodingError::BadFen {
                    text: text.to_owned(),
                    reason: fen_error,
                })?;
            epd.into_setup()
        }
    };
    setup
        .position(CastlingMode::Standard)
        .map_err(|error| CodingError::IllegalPosition {
            text: text.to_owned(),
            reason: Box::new(error),
        })
}
