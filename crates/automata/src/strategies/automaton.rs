//! An automaton of the catalog as one type, so that one value can stand
//! for any of them: a session keeps it, the audit and selfplay run it, a
//! front end lists it. The catalog's machines are a closed set, so they are
//! the variants of an enum ([`Machine`]), and so are their memories
//! ([`Memory`]): `Clone + Eq + Hash` as each machine's own, so
//! [`Automaton`] is itself a [`Strategy`].
//!
//! A new machine is one line in the `machines!` list below (its variant
//! name and its strategy type), besides its module and its catalog entry.

use std::fmt;

use ajedrecista_tables::Variant;
use shakmaty::{Board, Chess, Role};

use crate::bishop_knight::BishopKnight;
use crate::bishops::Bishops;
use crate::catalog::StrategyName;
use crate::emulated::{Mk61Queen, Mk61RookEmulated};
use crate::mk61_rook::Mk61Rook;
use crate::perfect::Perfect;
use crate::queen_box::QueenBox;
use crate::rook_box::RookBox;
use crate::strategy::{Refusal, Reply, Strategy};
use crate::torres::Torres;

/// Declares [`Machine`], one variant a strategy type, and [`Memory`], the
/// same variants holding each one's memory, with the [`Strategy`]
/// methods passed on to the variant.
macro_rules! machines {
    ($($variant:ident($strategy:ty)),+ $(,)?) => {
        /// The machine behind an automaton: a strategy of the catalog.
        pub enum Machine {
            $($variant($strategy)),+
        }

        /// What an automaton remembers: its machine's own memory.
        #[derive(Clone, PartialEq, Eq, Hash, Debug)]
        pub enum Memory {
            $($variant(<$strategy as Strategy>::Memory)),+
        }

        $(impl From<$strategy> for Machine {
            fn from(strategy: $strategy) -> Machine {
                Machine::$variant(strategy)
            }
        })+

        impl Machine {
            fn name(&self) -> &'static str {
                match self { $(Machine::$variant(s) => Strategy::name(s)),+ }
            }
            fn white_pieces(&self) -> &'static [Role] {
                match self { $(Machine::$variant(s) => Strategy::white_pieces(s)),+ }
            }
            fn symmetric(&self) -> bool {
                match self { $(Machine::$variant(s) => Strategy::symmetric(s)),+ }
            }
            fn variant(&self) -> Variant {
                match self { $(Machine::$variant(s) => Strategy::variant(s)),+ }
            }
            fn precondition(&self, board: &Board) -> Result<(), Refusal> {
                match self { $(Machine::$variant(s) => Strategy::precondition(s, board)),+ }
            }
            fn is_machine_start(&self, board: &Board) -> bool {
                match self { $(Machine::$variant(s) => s.is_machine_start(board)),+ }
            }
            fn costly_replies(&self) -> bool {
                match self { $(Machine::$variant(s) => Strategy::costly_replies(s)),+ }
            }
            fn start(&self, start: &Chess) -> Memory {
                match self { $(Machine::$variant(s) => Memory::$variant(Strategy::start(s, start))),+ }
            }
            fn reply(&self, position: &Chess, memory: &Memory) -> Result<(Reply, Memory), Refusal> {
                match (self, memory) {
                    $((Machine::$variant(s), Memory::$variant(memory)) => Strategy::reply(s, position, memory)
                        .map(|(reply, memory)| (reply, Memory::$variant(memory))),)+
                    _ => panic!("an automaton is given only the memories it made"),
                }
            }
        }
    };
}

machines! {
    Torres(Torres),
    Mk61Queen(Mk61Queen),
    Mk61RookEmulated(Mk61RookEmulated),
    Mk61Rook(Mk61Rook),
    RookBox(RookBox),
    QueenBox(QueenBox),
    Bishops(Bishops),
    BishopKnight(BishopKnight),
    Perfect(Perfect),
}

/// An automaton of the catalog, built by [`StrategyName::build`].
pub struct Automaton {
    name: StrategyName,
    strategy: Machine,
}

impl Automaton {
    /// `strategy` as the catalog's automaton `name`.
    pub fn new(name: StrategyName, strategy: impl Into<Machine>) -> Automaton {
        Automaton {
            name,
            strategy: strategy.into(),
        }
    }

    /// Its name in the catalog.
    pub fn catalog_name(&self) -> StrategyName {
        self.name
    }
}

impl fmt::Debug for Automaton {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Automaton").field(&self.name).finish()
    }
}

impl Strategy for Automaton {
    type Memory = Memory;

    fn name(&self) -> &'static str {
        self.strategy.name()
    }
    fn white_pieces(&self) -> &'static [Role] {
        self.strategy.white_pieces()
    }
    fn symmetric(&self) -> bool {
        self.strategy.symmetric()
    }
    fn variant(&self) -> Variant {
        self.strategy.variant()
    }
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        self.strategy.precondition(board)
    }
    fn is_machine_start(&self, board: &Board) -> bool {
        self.strategy.is_machine_start(board)
    }
    fn start(&self, start: &Chess) -> Memory {
        self.strategy.start(start)
    }
    fn reply(&self, position: &Chess, memory: &Memory) -> Result<(Reply, Memory), Refusal> {
        self.strategy.reply(position, memory)
    }
    fn costly_replies(&self) -> bool {
        self.strategy.costly_replies()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::sync::Arc;

    use ajedrecista_tables::Tablebase;
    use shakmaty::Position;

    use crate::test_support::position;

    fn hash_of(memory: &Memory) -> u64 {
        let mut hasher = DefaultHasher::new();
        memory.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn memories_compare_and_hash_as_their_machines_values() {
        let tables = Arc::new(Tablebase::in_memory());
        let rook = StrategyName::named("mk61-rook-native")
            .unwrap()
            .build(&tables);
        let start = position("8/8/8/4k3/8/8/R7/4K3 w - - 0 1");
        let first = rook.start(&start);
        assert_eq!(first, rook.start(&start));
        assert_eq!(hash_of(&first), hash_of(&rook.start(&start)));
        let (_, after) = rook.reply(&start, &first).unwrap();
        assert_ne!(after, first, "the program keeps what it was keyed");
        // Two machines that remember nothing still remember apart.
        let torres = StrategyName::TORRES.build(&tables);
        let perfect = StrategyName::PERFECT.build(&tables);
        let torres_start = position("K7/1R6/8/8/8/3k4/8/8 w - - 0 1");
        assert_ne!(torres.start(&torres_start), perfect.start(&torres_start));
        assert_eq!(torres.start(&torres_start).clone(), Memory::Torres(()));
        assert!(
            torres_start.is_legal(
                torres
                    .reply(&torres_start, &Memory::Torres(()))
                    .unwrap()
                    .0
                    .mv
            )
        );
    }

    #[test]
    #[should_panic(expected = "only the memories it made")]
    fn a_machine_refuses_another_machines_memory() {
        let tables = Arc::new(Tablebase::in_memory());
        let torres = StrategyName::TORRES.build(&tables);
        let start = position("K7/1R6/8/8/8/3k4/8/8 w - - 0 1");
        let _ = torres.reply(&start, &Memory::QueenBox(()));
    }
}
