//! The textbook box method: its audit over every start with the rook
//! between the kings (docs/automata.md, "rook-box").

use std::sync::Arc;

use ajedrecista_automata::{
    FailureKind, Outcome, RookBox, StartSet, StrategyName, audit, excess_over_perfect,
};
use ajedrecista_tables::Tablebase;
use shakmaty::{Color, Position, Role};

#[test]
fn with_white_to_move_the_box_method_mates_from_every_start() {
    let audit = audit(&RookBox, StartSet::All, Color::White);
    assert_eq!(audit.results.len(), 87_808);
    assert!(
        audit.failures().values().all(|&count| count == 0),
        "{:?}",
        audit.failures()
    );
    assert_eq!(audit.worst_moves(), Some(34));
    let tables = Arc::new(Tablebase::in_memory());
    let excess = excess_over_perfect(&audit, &tables)
        .unwrap()
        .expect("mates");
    assert_eq!((excess.max, excess.perfect_worst), (22, 16));
}

#[test]
fn with_black_to_move_it_fails_only_where_the_rook_hangs_at_the_start() {
    let audit = audit(&RookBox, StartSet::All, Color::Black);
    let failures = audit.failures();
    assert!(failures[&FailureKind::LostPiece] > 0);
    for result in &audit.results {
        let board = result.position.board();
        let rook = board.by_role(Role::Rook).first().expect("a rook");
        let black = board.king_of(Color::Black).expect("a black king");
        let white = board.king_of(Color::White).expect("a white king");
        let hangs = black.distance(rook) == 1 && white.distance(rook) > 1;
        match result.outcome {
            Outcome::Failure(kind) => {
                assert_eq!(kind, FailureKind::LostPiece);
                assert!(hangs, "{:?}", result.position);
            }
            Outcome::Mate(_) => assert!(!hangs, "{:?}", result.position),
        }
    }
    assert_eq!(audit.worst_moves(), Some(34));
}

#[test]
fn it_is_in_the_catalog() {
    let name: StrategyName = "rook-box".parse().unwrap();
    assert_eq!(name.label(), "The textbook box method (KRK)");
}
