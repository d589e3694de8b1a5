//! The automata by name, for the command line.

use std::fmt;
use std::str::FromStr;

use ajedrecista_tables::Tablebase;

use crate::emulated::{Mk61Queen, Mk61RookEmulated};
use crate::mk61_rook::{Mk61Rook, OnSignal};
use crate::perfect::Perfect;
use crate::strategy::Strategy;
use crate::torres::Torres;

/// An automaton that can be named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StrategyName {
    /// El Ajedrecista.
    Torres,
    /// The MK-61 queen program, run on the emulator.
    Mk61Queen,
    /// The MK-61 rook program, run on the emulator.
    Mk61Rook,
    /// The MK-61 rook program natively, as the emulator runs the listing.
    Mk61RookNative,
    /// The native rook program, with the player turning the board whenever
    /// it asks to.
    Mk61RookNativeTurning,
    /// Shortest mate by the tables.
    Perfect,
}

impl StrategyName {
    pub const ALL: [StrategyName; 6] = [
        StrategyName::Torres,
        StrategyName::Mk61Queen,
        StrategyName::Mk61Rook,
        StrategyName::Mk61RookNative,
        StrategyName::Mk61RookNativeTurning,
        StrategyName::Perfect,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StrategyName::Torres => "torres",
            StrategyName::Mk61Queen => "mk61-queen",
            StrategyName::Mk61Rook => "mk61-rook",
            StrategyName::Mk61RookNative => "mk61-rook-native",
            StrategyName::Mk61RookNativeTurning => "mk61-rook-native-turning",
            StrategyName::Perfect => "perfect",
        }
    }

    /// A start position for a demonstration game: the seed's own game where
    /// there is one.
    pub fn demo_fen(self) -> &'static str {
        match self {
            // Seed 004's game.
            StrategyName::Torres | StrategyName::Perfect => "8/8/1k6/8/R7/8/5K2/8 w - - 0 1",
            // The rook program's reference trace (white king e1, rook a2,
            // black king e5).
            StrategyName::Mk61Rook
            | StrategyName::Mk61RookNative
            | StrategyName::Mk61RookNativeTurning => "8/8/8/4k3/8/8/R7/4K3 w - - 0 1",
            // Seed 000's example: the black king set on a8.
            StrategyName::Mk61Queen => "k7/6Q1/8/8/8/2K5/8/8 w - - 0 1",
        }
    }

    /// Calls `visitor` with the automaton of this name (`tables` serve
    /// perfect play).
    pub fn visit<V: StrategyVisitor>(self, tables: &Tablebase, visitor: V) -> V::Output {
        match self {
            StrategyName::Torres => visitor.visit(&Torres),
            StrategyName::Mk61Queen => visitor.visit(&Mk61Queen),
            StrategyName::Mk61Rook => visitor.visit(&Mk61RookEmulated::default()),
            StrategyName::Mk61RookNative => visitor.visit(&Mk61Rook::default()),
            StrategyName::Mk61RookNativeTurning => visitor.visit(&Mk61Rook {
                on_signal: OnSignal::TurnTheBoard,
            }),
            StrategyName::Perfect => visitor.visit(&Perfect::new(tables)),
        }
    }
}

/// Work to do with an automaton whose type is known only at run time.
pub trait StrategyVisitor {
    type Output;
    fn visit<S: Strategy>(self, strategy: &S) -> Self::Output;
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no automaton.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown strategy {0:?} (known: torres, mk61-queen, mk61-rook, mk61-rook-native, \
     mk61-rook-native-turning, perfect)"
)]
pub struct UnknownStrategy(pub String);

impl FromStr for StrategyName {
    type Err = UnknownStrategy;

    fn from_str(name: &str) -> Result<StrategyName, UnknownStrategy> {
        StrategyName::ALL
            .into_iter()
            .find(|known| known.as_str() == name)
            .ok_or_else(|| UnknownStrategy(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_the_strategies() {
        struct Name;
        impl StrategyVisitor for Name {
            type Output = &'static str;
            fn visit<S: Strategy>(self, strategy: &S) -> &'static str {
                strategy.name()
            }
        }
        for name in StrategyName::ALL {
            assert_eq!(name.as_str().parse::<StrategyName>(), Ok(name));
            assert_eq!(name.visit(&Tablebase::in_memory(), Name), name.as_str());
        }
        assert!("mk61-rook-turning".parse::<StrategyName>().is_err());
    }
}
