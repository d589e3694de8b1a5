//! The special marks at the end of part C (2.4.4 - 2.4.9): boards,
//! conditions and the names of fairy pieces. The rules themselves are in
//! [`crate::fairy::Condition`].

use std::fmt;

/// A condition or special board, in the form written at the end of part C,
/// in the order C writes them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpecialMark {
    /// Grid board (2.4.4).
    Grid,
    /// Cylinder board (2.4.4).
    Cylinder,
    /// An m x n board (2.4.4).
    Board { files: u8, ranks: u8 },
    /// No capture of the attacking unit, `(NC)` (2.4.5).
    NoCapture,
    /// Wandelschach, `WS` (2.4.6).
    Wandelschach,
    /// A chess variant by its letter: `I` Ingul, `M` Madrasi (2.4.7).
    Variant(char),
    /// Pure Circe `C`, or another Circe type `C(type)` (2.4.8).
    Circe(Option<String>),
    /// The full name of a fairy piece in the position (2.4.9).
    FairyPiece(String),
}

impl fmt::Display for SpecialMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecialMark::Circe(None) => f.write_str("C"),
            SpecialMark::Circe(Some(kind)) => write!(f, "C({kind})"),
            SpecialMark::Grid => f.write_str("Grid"),
            SpecialMark::Cylinder => f.write_str("Cylinder"),
            SpecialMark::Board { files, ranks } => write!(f, "{files}x{ranks}"),
            SpecialMark::NoCapture => f.write_str("(NC)"),
            SpecialMark::Wandelschach => f.write_str("WS"),
            SpecialMark::Variant(letter) => write!(f, "{letter}"),
            SpecialMark::FairyPiece(name) => write!(f, "({name})"),
        }
    }
}
