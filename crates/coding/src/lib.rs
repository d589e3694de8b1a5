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
pub mod symmetry;
pub mod zone;

pub use code::{Classification, Code};
pub use condition::SpecialMark;
pub use dispatch::{
    Analysis, Census, CensusError, CensusPlan, Coded, CodedError, OrthodoxChoices, Unclassified,
    rules_named,
};
pub use enumerate::{
    Enumeration, EtalonGroup, Legality, OrthodoxMaterial, Selection, enumerate, final_positions,
};
pub use etalon::{Etalon, EtalonError};
pub use final_position::{
    AnalysedFinal, FinalKind, FinalParts, FinalPosition, FinalRules, NotFinal, Pin, RoyalZone,
};
pub use input::{Entry, read_positions};
pub use symbol::{Mark, Symbol};
pub use symmetry::Symmetry;
pub use zone::{Zone, ZoneShape};

use shakmaty::fen::{Epd, Fen};
use shakmaty::{CastlingMode, Chess};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum CodingError {
    #[error("bad FEN {text:?}: {reason}")]
    BadFen { text: String, reason: String },
    #[error("{text:?}: {reason}")]
    IllegalPosition { text: String, reason: String },
}

/// Reads a position from a FEN, or from an EPD line (its operations are
/// ignored).
pub fn parse_position(text: &str) -> Result<Chess, CodingError> {
    let text = text.trim();
    let setup = match text.parse::<Fen>() {
        Ok(fen) => fen.into_setup(),
        Err(fen_error) => {
            // EPD: four fields, then operations after the first `;`-ended op.
            let fields: Vec<&str> = text.split_whitespace().take(4).collect();
            let epd = fields
                .join(" ")
                .parse::<Epd>()
                .map_err(|_| CodingError::BadFen {
                    text: text.to_owned(),
                    reason: fen_error.to_string(),
                })?;
            epd.into_setup()
        }
    };
    setup
        .position(CastlingMode::Standard)
        .map_err(|error| CodingError::IllegalPosition {
            text: text.to_owned(),
            reason: error.to_string(),
        })
}
