//! The textbook queen mate: its audit over every king-and-queen start
//! (docs/automata.md, "queen-box").

mod common;

use std::sync::Arc;

use ajedrecista_automata::{
    FailureKind, GameGraph, Outcome, QueenBox, StartSet, StrategyName, audit, excess_over_perfect,
};
use ajedrecista_tables::Tablebase;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Role};

#[test]
fn with_white_to_move_the_queen_method_mates_from_every_start() {
    let audit = audit(&QueenBox, StartSet::All, Color::White);
    assert_eq!(audit.results.len(), 144_508);
    assert!(
        audit.failures().values().all(|&count| count == 0),
        "{:?}",
        audit.failures()
    );
    assert_eq!(audit.worst_moves(), Some(19));
    common::assert_replays_to_mate(audit.worst.as_ref().expect("a longest game"), 19);
    let tables = Arc::new(Tablebase::in_memory());
    let excess = excess_over_perfect(&audit, &tables)
        .unwrap()
        .expect("mates");
    assert_eq!(excess.perfect_worst, 10);
    assert_eq!(excess.max, 13);
}

#[test]
fn with_black_to_move_it_fails_only_where_the_queen_hangs_at_the_start() {
    let audit = audit(&QueenBox, StartSet::All, Color::Black);
    for result in &audit.results {
        let board = result.position.board();
        let queen = board.by_role(Role::Queen).first().expect("a queen");
        let black = board.king_of(Color::Black).expect("a black king");
        let white = board.king_of(Color::White).expect("a white king");
        let hangs = black.distance(queen) == 1 && white.distance(queen) > 1;
        match result.outcome {
            Outcome::Failure(kind) => {
                assert_eq!(kind, FailureKind::LostPiece, "{:?}", result.position);
                assert!(hangs, "{:?}", result.position);
            }
            Outcome::Mate(_) => assert!(!hangs, "{:?}", result.position),
        }
    }
}

#[test]
fn it_mates_from_the_demonstration_start_in_the_catalog() {
    let name: StrategyName = "queen-box".parse().unwrap();
    let start: Chess = name
        .demo_fen()
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut graph = GameGraph::new(&QueenBox);
    let Outcome::Mate(moves) = graph.outcome(&start) else {
        panic!("no mate from {}", name.demo_fen());
    };
    common::assert_replays_to_mate(&graph.game(&start), moves);
}
