//! Every value agrees with the values of its children: the table is a
//! fixed point of the minimax rule.

use std::sync::OnceLock;

use ajedrecista_tables::{Material, Tablebase, Variant};
use proptest::prelude::*;
use shakmaty::{Chess, Color, Square};

mod common;
use common::{board_of, legal, squares};

fn tablebase() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(Tablebase::in_memory)
}

const MATERIALS: [&str; 6] = ["KQvK", "KRvK", "KBNvK", "KQvKR", "KRvKB", "KBBvK"];

/// A legal position of `material` from random squares, if they make one.
fn position(
    material: &Material,
    numbers: &[u8],
    black: bool,
    fixed: Option<Square>,
) -> Option<Chess> {
    let placed = squares(numbers)
        .enumerate()
        .map(|(i, sq)| if i == 0 { fixed.unwrap_or(sq) } else { sq });
    let turn = if black { Color::Black } else { Color::White };
    legal(&board_of(material, placed)?, turn, None)
}

/// The position's value is the minimax of its moves' values
/// ([`Tablebase::check_positions`]).
fn check_consistent(pos: &Chess, variant: Variant) -> Result<(), TestCaseError> {
    let checked = tablebase()
        .check_positions(std::slice::from_ref(pos), variant, &|_| ())
        .unwrap();
    prop_assert!(
        checked.disagreements.is_empty(),
        "{:?}",
        checked.disagreements
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn orthodox_values_agree_with_children(which in 0..MATERIALS.len(), squares in prop::array::uniform5(0u8..64), black: bool) {
        let material: Material = MATERIALS[which].parse().unwrap();
        if let Some(pos) = position(&material, &squares, black, None) {
            check_consistent(&pos, Variant::Standard)?;
        }
    }

    #[test]
    fn five_men_values_agree_with_children(squares in prop::array::uniform5(0u8..64), black: bool) {
        // One five-man table (about a minute to build on two cores): the
        // symmetry merges and captures into three four-man tables.
        let material: Material = "KQRvKR".parse().unwrap();
        if let Some(pos) = position(&material, &squares, black, None) {
            check_consistent(&pos, Variant::Standard)?;
        }
    }

    #[test]
    fn fixed_king_values_agree_with_children(king in 0u32..64, squares in prop::array::uniform5(0u8..64), black: bool) {
        let material: Material = "KQvK".parse().unwrap();
        let king = Square::new(king);
        if let Some(pos) = position(&material, &squares, black, Some(king)) {
            check_consistent(&pos, Variant::FixedKing(king))?;
        }
    }
}

/// Castling can mate sooner than the board alone allows, so a position
/// with rights has no value in the tables and its probe is refused. Its
/// moves are valued, as none of its children keeps a right: castling is
/// the fastest mate, two plies shorter than without the right.
#[test]
fn castling_rights_are_refused_and_their_moves_valued() {
    let read = |fen| {
        ajedrecista_tables::read_fen(fen, ajedrecista_tables::CastlingRights::Allowed)
            .expect("a legal FEN")
    };
    let with_right = read("6k1/8/8/8/8/8/8/4K2R w K - 0 1");
    let without = read("6k1/8/8/8/8/8/8/4K2R w - - 0 1");
    assert!(matches!(
        tablebase().probe(&with_right, Variant::Standard),
        Err(ajedrecista_tables::TableError::CastlingRights)
    ));
    let moves = tablebase().moves(&with_right, Variant::Standard).unwrap();
    let (best, value) = moves[0];
    assert!(best.is_castle());
    let plies = value.plies().unwrap();
    let board_only = tablebase().probe(&without, Variant::Standard).unwrap();
    assert!(plies < board_only.plies().unwrap());
    let line = tablebase()
        .principal_variation(&with_right, Variant::Standard)
        .unwrap();
    assert_eq!(line.len(), usize::from(plies.0));
}
