//! Properties of the code under the symmetries of the board.

mod common;

use std::sync::OnceLock;

use ajedrecista_coding::{FinalKind, FinalPosition, Symmetry, Zone, parse_position};
use proptest::prelude::*;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, EnPassantMode, FromSetup, Position, Role};

/// Final positions to transform: the orthodox examples of the brochure and
/// every model mate with a few materials (with and without pawns).
fn pool() -> &'static [Chess] {
    static POOL: OnceLock<Vec<Chess>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut pool: Vec<Chess> = common::rows(include_str!("data/gk-examples.tsv"))
            .into_iter()
            .filter(|fields| fields.get(4) == Some(&"yes"))
            .map(|fields| parse_position(fields[1]).unwrap())
            .collect();
        for (material, kind) in [
            ("KRvK", FinalKind::Mate),
            ("KBNvK", FinalKind::Mate),
            ("KNNvK", FinalKind::Mate),
            ("KQvK", FinalKind::Stalemate),
            ("KRvKP", FinalKind::Mate),
        ] {
            pool.extend(
                common::orthodox_finals(material, kind)
                    .into_iter()
                    .filter(|position| {
                        FinalPosition::analyse(position.clone()).is_ok_and(|fp| fp.is_model())
                    }),
            );
        }
        pool
    })
}

fn rebuilt(position: &Chess, board: Board) -> Option<Chess> {
    let mut setup = position.to_setup(EnPassantMode::Legal);
    setup.board = board;
    setup.castling_rights = Bitboard::EMPTY;
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

/// The whole board moved by (files, ranks), if every man stays on it.
fn shifted_board(board: &Board, files: i32, ranks: i32) -> Option<Board> {
    let mut image = Board::empty();
    for (square, piece) in board {
        let file = square.file().offset(files)?;
        let rank = square.rank().offset(ranks)?;
        image.set_piece_at(shakmaty::Square::from_coords(file, rank), piece);
    }
    Some(image)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The ЭП code does not change under a symmetry that keeps the position
    /// legal: a mirror, and the rotations and reflections without pawns.
    #[test]
    fn etalon_code_is_invariant(index in any::<prop::sample::Index>(), symmetry in 0usize..8) {
        let pool = pool();
        let position = &pool[index.index(pool.len())];
        let symmetry = Symmetry::ALL[symmetry];
        let has_pawns = position.board().by_role(Role::Pawn).any();
        prop_assume!(symmetry.keeps_pawns() || !has_pawns);
        let image = rebuilt(position, symmetry.apply_board(position.board()));
        prop_assume!(image.is_some());
        let original = FinalPosition::analyse(position.clone()).unwrap();
        let turned = FinalPosition::analyse(image.unwrap()).unwrap();
        prop_assert_eq!(turned.kind(), original.kind());
        prop_assert_eq!(
            turned.etalon().unwrap().code().to_string(),
            original.etalon().unwrap().code().to_string()
        );
    }

    /// The ЭП is legal, final of the same kind, and its own etalon.
    #[test]
    fn etalon_is_a_fixed_point(index in any::<prop::sample::Index>()) {
        let pool = pool();
        let original = FinalPosition::analyse(pool[index.index(pool.len())].clone()).unwrap();
        let etalon = original.etalon().unwrap();
        let again = FinalPosition::analyse(parse_position(&etalon.fen()).unwrap()).unwrap();
        prop_assert_eq!(again.kind(), original.kind());
        let again_etalon = again.etalon().unwrap();
        prop_assert_eq!(again_etalon.code(), etalon.code());
        prop_assert_eq!(again_etalon.fen(), etalon.fen());
    }

    /// Shifting a final position (when it stays legal and final with a zone
    /// of the same shape) changes its FP code only in the king's square.
    #[test]
    fn shift_changes_only_the_square(
        index in any::<prop::sample::Index>(),
        shift in any::<prop::sample::Index>(),
    ) {
        let pool = pool();
        let position = &pool[index.index(pool.len())];
        // The shifts that keep every man on the board and the zone's shape.
        let king = position.board().king_of(position.turn()).unwrap();
        let shape = Zone::of_king(king).shape();
        let shifts: Vec<(i32, i32)> = (-7..=7)
            .flat_map(|files| (-7..=7).map(move |ranks| (files, ranks)))
            .filter(|&(files, ranks)| {
                (files, ranks) != (0, 0)
                    && shifted_board(position.board(), files, ranks).is_some()
                    && Zone::of_king(
                        shakmaty::Square::from_coords(
                            king.file().offset(files).unwrap(),
                            king.rank().offset(ranks).unwrap(),
                        ),
                    )
                    .shape()
                        == shape
            })
            .collect();
        prop_assume!(!shifts.is_empty());
        let (files, ranks) = shifts[shift.index(shifts.len())];
        let board = shifted_board(position.board(), files, ranks);
        let image = rebuilt(position, board.unwrap());
        prop_assume!(image.is_some());
        let original = FinalPosition::analyse(position.clone()).unwrap();
        let moved = FinalPosition::analyse(image.unwrap());
        prop_assume!(moved.as_ref().is_ok_and(|m| m.kind() == original.kind() && m.shape() == original.shape()));
        let (before, after) = (original.code(), moved.unwrap().code());
        prop_assert!(after.same_pattern(&before), "{} vs {}", after, before);
        let king = |code: &ajedrecista_coding::Code| code.square.unwrap();
        prop_assert_eq!(
            i32::from(king(&after).file() as u8) - i32::from(king(&before).file() as u8),
            files
        );
        prop_assert_eq!(
            i32::from(king(&after).rank() as u8) - i32::from(king(&before).rank() as u8),
            ranks
        );
    }
}

#[test]
fn pool_is_varied() {
    let pool = pool();
    assert!(pool.len() > 300);
    assert!(pool.iter().any(|p| p.board().by_role(Role::Pawn).any()));
    assert!(pool.iter().any(|p| p.is_stalemate()));
}
