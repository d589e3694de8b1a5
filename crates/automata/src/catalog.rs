//! The catalog: every automaton, once. An entry gives its name, label,
//! source, demonstration start, the white men a person places the black
//! king against, and a constructor; the command line, the UCI engine, the
//! web and the audit list and build automata only from here. Adding an
//! automaton is one entry and its module.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use ajedrecista_tables::Tablebase;

use crate::automaton::Automaton;
use crate::emulated::{Mk61Queen, Mk61RookEmulated};
use crate::mk61_rook::{Mk61Rook, OnSignal};
use crate::perfect::Perfect;
use crate::queen_box::QueenBox;
use crate::rook_box::RookBox;
use crate::torres::Torres;

/// One automaton of the catalog.
pub struct CatalogEntry {
    /// The name on the command line, in UCI and in the web's URLs.
    pub name: &'static str,
    /// What people see.
    pub label: &'static str,
    /// Where its rules come from.
    pub source: &'static str,
    /// A start for a demonstration game: the source's own where there is
    /// one.
    pub demo_fen: &'static str,
    /// The white men (board part of a FEN) a person places the black king
    /// against in a game from the machine's own start.
    pub white_men: &'static str,
    /// Why the web does not run its audit on request, if it does not.
    pub audit_too_slow: Option<&'static str>,
    /// The automaton (`tables` serve perfect play).
    pub build: fn(StrategyName, &Arc<Tablebase>) -> Automaton,
}

/// Seed 004's game.
const SEED_004: &str = "8/8/1k6/8/R7/8/5K2/8 w - - 0 1";
/// The rook program's reference trace (white king e1, rook a2, black king
/// e5).
const ROOK_TRACE: &str = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
/// El Ajedrecista's men: king a8, rook b7.
const TORRES_MEN: &str = "K7/1R6/8/8/8/8/8/8";
const ROOK_TRACE_MEN: &str = "8/8/8/8/8/8/R7/4K3";

/// Every automaton; the first is the default opponent.
pub const CATALOG: &[CatalogEntry] = &[
    CatalogEntry {
        name: "torres",
        label: "El Ajedrecista (Torres y Quevedo, 1912)",
        source: "specs/torres.md; seed 004",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        build: |name, _| Automaton::new(name, Torres),
    },
    CatalogEntry {
        name: "mk61-queen",
        label: "MK-61 queen program (1987), on the emulator",
        source: "seed 000",
        // Seed 000's example: the black king set on a8.
        demo_fen: "k7/6Q1/8/8/8/2K5/8/8 w - - 0 1",
        white_men: "8/6Q1/8/8/8/2K5/8/8",
        audit_too_slow: None,
        build: |name, _| Automaton::new(name, Mk61Queen),
    },
    CatalogEntry {
        name: "mk61-rook",
        label: "MK-61 rook program (1987), on the emulator",
        source: "seed 001",
        demo_fen: ROOK_TRACE,
        white_men: ROOK_TRACE_MEN,
        // Each answer is a calculator run and the state graph is large.
        audit_too_slow: Some(
            "the emulated rook program's audit takes minutes (ajedrecista audit mk61-rook): see \
             mk61-rook-native, equal to it at every start (docs/automata.md)",
        ),
        build: |name, _| Automaton::new(name, Mk61RookEmulated::default()),
    },
    CatalogEntry {
        name: "mk61-rook-native",
        label: "MK-61 rook program, native",
        source: "seed 001, as the emulator runs the listing",
        demo_fen: ROOK_TRACE,
        white_men: ROOK_TRACE_MEN,
        audit_too_slow: None,
        build: |name, _| Automaton::new(name, Mk61Rook::default()),
    },
    CatalogEntry {
        name: "mk61-rook-native-turning",
        label: "MK-61 rook, native, turning the board when asked",
        source: "seed 001, the player turning the board on 9------0.",
        demo_fen: ROOK_TRACE,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        build: |name, _| {
            Automaton::new(
                name,
                Mk61Rook {
                    on_signal: OnSignal::TurnTheBoard,
                },
            )
        },
    },
    CatalogEntry {
        name: "rook-box",
        label: "The textbook box method (KRK)",
        source: "the textbook rook mate, as written in docs/automata.md",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        build: |name, _| Automaton::new(name, RookBox),
    },
    CatalogEntry {
        name: "queen-box",
        label: "The textbook queen mate (KQK)",
        source: "the textbook queen mate, as written in docs/automata.md",
        demo_fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        white_men: "8/8/8/8/8/8/8/3QK3",
        audit_too_slow: None,
        build: |name, _| Automaton::new(name, QueenBox),
    },
    CatalogEntry {
        name: "perfect",
        label: "Perfect play (the tables)",
        source: "the tables (ranking method)",
        demo_fen: SEED_004,
        white_men: TORRES_MEN,
        audit_too_slow: None,
        build: |name, tables| Automaton::new(name, Perfect::new(Arc::clone(tables))),
    },
];

/// An automaton of the catalog, by its place there.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StrategyName(usize);

impl StrategyName {
    /// El Ajedrecista, the default opponent.
    pub const TORRES: StrategyName = StrategyName::lookup("torres");
    /// Shortest mate by the tables.
    pub const PERFECT: StrategyName = StrategyName::lookup("perfect");

    /// The entry named `name`, found at compile time.
    const fn lookup(name: &str) -> StrategyName {
        let mut i = 0;
        while i < CATALOG.len() {
            if same_text(CATALOG[i].name, name) {
                return StrategyName(i);
            }
            i += 1;
        }
        panic!("no such automaton in the catalog")
    }

    /// Every automaton, in catalog order.
    pub const ALL: [StrategyName; CATALOG.len()] = {
        let mut all = [StrategyName(0); CATALOG.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = StrategyName(i);
            i += 1;
        }
        all
    };

    /// Every automaton, in catalog order.
    pub fn all() -> impl ExactSizeIterator<Item = StrategyName> {
        StrategyName::ALL.into_iter()
    }

    /// The automaton named `name`, if there is one.
    pub fn named(name: &str) -> Option<StrategyName> {
        Self::all().find(|known| known.as_str() == name)
    }

    /// Its entry in the catalog.
    pub fn entry(self) -> &'static CatalogEntry {
        &CATALOG[self.0]
    }

    pub fn as_str(self) -> &'static str {
        self.entry().name
    }

    pub fn label(self) -> &'static str {
        self.entry().label
    }

    /// A start position for a demonstration game.
    pub fn demo_fen(self) -> &'static str {
        self.entry().demo_fen
    }

    /// The automaton (`tables` serve perfect play).
    pub fn build(self, tables: &Arc<Tablebase>) -> Automaton {
        (self.entry().build)(self, tables)
    }
}

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for StrategyName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A name that is no automaton.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy {name:?} (known: {})", known_names())]
pub struct UnknownStrategy {
    pub name: String,
}

fn known_names() -> String {
    StrategyName::all()
        .map(StrategyName::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for StrategyName {
    type Err = UnknownStrategy;

    fn from_str(name: &str) -> Result<StrategyName, UnknownStrategy> {
        StrategyName::named(name).ok_or_else(|| UnknownStrategy {
            name: name.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Strategy;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    #[test]
    fn every_entry_builds_its_own_automaton_and_demo() {
        let tables = Arc::new(Tablebase::in_memory());
        let mut names = std::collections::HashSet::new();
        for name in StrategyName::all() {
            assert!(names.insert(name.as_str()), "{name} twice");
            assert_eq!(name.as_str().parse::<StrategyName>(), Ok(name));
            let automaton = name.build(&tables);
            assert_eq!(automaton.name(), name.as_str());
            assert_eq!(automaton.catalog_name(), name);
            let demo: Chess = name
                .demo_fen()
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            assert_eq!(automaton.precondition(demo.board()), Ok(()), "{name}");
            let men: shakmaty::Board = name.entry().white_men.parse().unwrap();
            assert_eq!(men.by_color(shakmaty::Color::Black).count(), 0, "{name}");
        }
        assert_eq!(StrategyName::TORRES.as_str(), "torres");
        assert_eq!(StrategyName::PERFECT.as_str(), "perfect");
        let err = "mk61-rook-turning".parse::<StrategyName>().unwrap_err();
        assert!(
            err.to_string().contains("known: torres, mk61-queen"),
            "{err}"
        );
    }
}
