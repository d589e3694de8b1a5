//! The textbook queen mate: its audit over every king-and-queen start
//! (docs/guide/src/reference/automata.md, "queen-box").

mod common;

use ajedrecista_automata::{
    FailureKind, GameGraph, Outcome, QueenBox, StartSet, StrategyName, audit,
};
use ajedrecista_tables::Moves;
use shakmaty::{Color, Role};

#[test]
fn with_white_to_move_the_queen_method_mates_from_every_start() {
    let audit = audit(&QueenBox, StartSet::All, Color::White);
    common::assert_mates_from_every_start(&audit, 144_508, Moves(19));
    let excess = common::excess_over_perfect_play(&audit);
    assert_eq!(excess.perfect_worst, Moves(10));
    assert_eq!(excess.max, Moves(13));
}

#[test]
fn with_black_to_move_it_fails_only_where_the_queen_hangs_at_the_start() {
    let audit = audit(&QueenBox, StartSet::All, Color::Black);
    assert_eq!(audit.failures()[&FailureKind::LostPiece], 22_176);
    assert_eq!(audit.worst_moves(), Some(Moves(19)));
    common::assert_fails_only_where_the_man_hangs(&audit, Role::Queen);
}

#[test]
fn it_mates_from_the_demonstration_start_in_the_catalog() {
    let name: StrategyName = "queen-box".parse().unwrap();
    let start = common::position(name.demo_fen());
    let mut graph = GameGraph::new(&QueenBox);
    let Outcome::Mate(moves) = graph.outcome(&start) else {
        panic!("no mate from {}", name.demo_fen());
    };
    common::assert_replays_to_mate(&graph.game(&start), moves);
}
