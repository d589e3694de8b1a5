//! An independent check of the pawn tables: a plain depth-limited mate
//! search on shakmaty's moves (no tables; each "exists a move" and "every
//! move" stops at its first answer, a null-window alpha-beta on mate
//! distance) agrees with the table on random positions, about every mate
//! within its depth and about there being none.

use std::sync::OnceLock;

use ajedrecista_tables::{Material, Tablebase, Value, Variant};
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Color, Position};

mod common;
use common::{board_of, legal, squares};

fn tablebase() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(Tablebase::in_memory)
}

/// The side to move mates within `plies` plies, whatever the defence.
fn wins_within(pos: &Chess, plies: u16) -> bool {
    plies >= 1
        && pos.legal_moves().iter().any(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            loses_within(&child, plies - 1)
        })
}

/// The side to move is mated within `plies` plies, whatever it plays.
fn loses_within(pos: &Chess, plies: u16) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.is_check();
    }
    plies >= 2
        && moves.iter().all(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            wins_within(&child, plies - 1)
        })
}

fn position(material: &Material, numbers: &[u8], black: bool) -> Option<Chess> {
    let turn = if black { Color::Black } else { Color::White };
    legal(&board_of(material, squares(numbers))?, turn, None)
}

/// The table and the search agree on mates of up to `depth` plies.
fn agree(pos: &Chess, depth: u16) -> Result<(), TestCaseError> {
    let value = tablebase().probe(pos, Variant::Standard).unwrap();
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
    match value {
        Value::Win(p) if p <= depth => {
            prop_assert!(wins_within(pos, p), "{} {:?}", fen, value);
            prop_assert!(p < 2 || !wins_within(pos, p - 2), "{} {:?}", fen, value);
        }
        Value::Loss(p) if p < depth => {
            prop_assert!(loses_within(pos, p), "{} {:?}", fen, value);
            prop_assert!(p < 2 || !loses_within(pos, p - 2), "{} {:?}", fen, value);
        }
        _ => {
            prop_assert!(!wins_within(pos, depth), "{} {:?}", fen, value);
            prop_assert!(!loses_within(pos, depth - 1), "{} {:?}", fen, value);
        }
    }
    Ok(())
}

fn positions(material: &str) -> impl Strategy<Value = Option<Chess>> {
    let material: Material = material.parse().unwrap();
    let n = material.len();
    (prop::collection::vec(0u8..64, n), any::<bool>())
        .prop_map(move |(squares, black)| position(&material, &squares, black))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn kpvk_agrees_with_a_mate_search(pos in positions("KPvK")) {
        if let Some(pos) = pos {
            agree(&pos, 5)?;
        }
    }

    #[test]
    fn kqvkp_agrees_with_a_mate_search(pos in positions("KQvKP")) {
        if let Some(pos) = pos {
            agree(&pos, 3)?;
        }
    }
}

/// Positions with short mates, which random squares seldom give.
#[test]
fn short_mates_agree_with_a_mate_search() {
    for fen in [
        // KPvK: the pawn promotes with mate in 3 moves at most.
        "7k/5K2/6P1/8/8/8/8/8 w - - 0 1",
        "k7/2K5/1P6/8/8/8/8/8 w - - 0 1",
        // KQvKP: mate in 1 and 2.
        "k7/8/1K6/8/8/8/6p1/5Q2 w - - 0 1",
        "7k/8/5K2/8/8/8/1p6/Q7 w - - 0 1",
    ] {
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        agree(&pos, 5).unwrap();
    }
}
