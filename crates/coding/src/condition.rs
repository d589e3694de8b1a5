//! Fairy conditions and boards, as part C writes them (2.4.4 - 2.4.9).
//!
//! Only orthodox chess is analysed so far: a code built here always has an
//! empty list. The type fixes where conditions go and how they are written
//! so that fairy analysis can be added without changing the code's shape.

use std::fmt;

/// A condition or special board, in the form written at the end of part C.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Condition {
    /// Pure Circe `C`, or another Circe type `C(type)` (2.4.8).
    Circe(Option<String>),
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
    /// The full name of a fairy piece in the position (2.4.9).
    FairyPiece(String),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Circe(None) => f.write_str("C"),
            Condition::Circe(Some(kind)) => write!(f, "C({kind})"),
            Condition::Grid => f.write_str("Grid"),
            Condition::Cylinder => f.write_str("Cylinder"),
            Condition::Board { files, ranks } => write!(f, "{files}x{ranks}"),
            Condition::NoCapture => f.write_str("(NC)"),
            Condition::Wandelschach => f.write_str("WS"),
            Condition::Variant(letter) => write!(f, "{letter}"),
            Condition::FairyPiece(name) => write!(f, "({name})"),
        }
    }
}
