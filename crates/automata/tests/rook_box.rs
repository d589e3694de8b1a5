//! The textbook box method: its audit over every king-and-rook start
//! (docs/guide/src/reference/automata.md, "rook-box").

mod common;

use ajedrecista_automata::{
    BoxPhase, FailureKind, GameGraph, Outcome, RookBox, StartSet, Strategy, StrategyName, audit,
};
use ajedrecista_tables::Moves;
use shakmaty::{Color, Role};

#[test]
fn with_white_to_move_the_box_method_mates_from_every_start() {
    let audit = audit(&RookBox, StartSet::All, Color::White);
    common::assert_mates_from_every_start(&audit, 175_168, Moves(35));
    let excess = common::excess_over_perfect_play(&audit);
    assert_eq!((excess.max, excess.perfect_worst), (Moves(29), Moves(16)));
    // From the starts with the rook already between the kings (the first
    // version's precondition) the box rules play as before: at most 34.
    let divided: Vec<Moves> = audit
        .results
        .iter()
        .filter(|result| RookBox.start(&result.position) == BoxPhase::Box)
        .map(|result| match result.outcome {
            Outcome::Mate(moves) => moves,
            Outcome::Failure(kind) => panic!("{kind:?}"),
        })
        .collect();
    assert_eq!(divided.len(), 87_808);
    assert_eq!(divided.iter().max(), Some(&Moves(34)));
}

#[test]
fn with_black_to_move_it_fails_only_where_the_rook_hangs_at_the_start() {
    let audit = audit(&RookBox, StartSet::All, Color::Black);
    let failures = audit.failures();
    assert_eq!(failures[&FailureKind::LostPiece], 22_176);
    common::assert_fails_only_where_the_man_hangs(&audit, Role::Rook);
    assert_eq!(audit.worst_moves(), Some(Moves(35)));
}

/// The manual's start (kings on e1 and e8, rook h1) and the 55 starts from
/// which the first version, without the cutting-off phase, cycled.
#[test]
fn it_mates_from_the_textbook_start_and_the_former_cycles() {
    let mut graph = GameGraph::new(&RookBox);
    let textbook = common::position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let Outcome::Mate(moves) = graph.outcome(&textbook) else {
        panic!("no mate from the textbook start");
    };
    let game = graph.game(&textbook);
    common::assert_replays_to_mate(&game, moves);
    // The manual's first move: the rook cuts the king off on the seventh.
    assert_eq!(game.plies()[0].san, "Rh7");
    let former: Vec<&str> = include_str!("data/rook_box_former_cycles.fen")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect();
    assert_eq!(former.len(), 55);
    for fen in former {
        let start = common::position(fen);
        assert_eq!(RookBox.start(&start), BoxPhase::CutOff, "{fen}");
        let Outcome::Mate(moves) = graph.outcome(&start) else {
            panic!("{fen}: {:?}", graph.outcome(&start));
        };
        common::assert_replays_to_mate(&graph.game(&start), moves);
    }
}

#[test]
fn it_is_in_the_catalog() {
    let name: StrategyName = "rook-box".parse().unwrap();
    assert_eq!(name.label(), "The textbook box method (KRK)");
}
