//! The audit's longest-defence values, checked against the games it
//! reconstructs and against a plain search without memoisation.

use ajedrecista_automata::strategy::legal_move;
use ajedrecista_automata::{
    Cause, FailureKind, GameEnd, GameGraph, Mk61Rook, OnSignal, Outcome, Precondition, Refusal,
    Reply, StartSet, Strategy, Torres, Undefined, audit, start_positions,
};
use ajedrecista_tables::Moves;
use shakmaty::{Board, Chess, Color, Position, Square};

mod common;

/// Moves to mate against the longest defence, found by trying every black
/// line up to `depth` White moves; `None` if some line fails or lasts longer.
fn plain_search<S: Strategy>(
    strategy: &S,
    position: &Chess,
    memory: &S::Memory,
    depth: u16,
) -> Option<u16> {
    if depth == 0 {
        return None;
    }
    let (reply, memory) = strategy.reply(position, memory).ok()?;
    let mut after = position.clone();
    after.play_unchecked(reply.mv);
    if after.is_checkmate() {
        return Some(1);
    }
    let moves = after.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut longest = 0;
    for mv in moves {
        if mv.is_capture() {
            return None;
        }
        let mut next = after.clone();
        next.play_unchecked(mv);
        longest = longest.max(plain_search(strategy, &next, &memory, depth - 1)?);
    }
    Some(longest + 1)
}

fn agrees_with_plain_search<S: Strategy>(strategy: &S, every: usize) {
    let starts = start_positions(strategy, StartSet::All, Color::White);
    let mut graph = GameGraph::new(strategy);
    let mut short_mates = 0;
    for start in starts.iter().step_by(every) {
        let outcome = graph.outcome(start);
        let plain = plain_search(strategy, start, &strategy.start(start), 3);
        let expected = match outcome {
            Outcome::Mate(moves) if moves <= Moves(3) => Some(moves.0),
            _ => None,
        };
        assert_eq!(
            plain,
            expected,
            "{}",
            shakmaty::fen::Fen::from_position(start, shakmaty::EnPassantMode::Legal)
        );
        short_mates += usize::from(plain.is_some());
    }
    assert!(
        short_mates > 10,
        "the sample holds short mates ({short_mates})"
    );
}

#[test]
fn torres_values_agree_with_a_plain_search() {
    agrees_with_plain_search(&Torres, 3);
}

#[test]
fn mk61_rook_values_agree_with_a_plain_search() {
    agrees_with_plain_search(&Mk61Rook::default(), 7);
}

#[test]
fn torres_machine_audit_mates_from_every_start() {
    let audit = audit(&Torres, StartSet::Machine, Color::White);
    // Black king on ranks 1-6, less b1-b6 where the rook gives check.
    assert_eq!(audit.results.len(), 42);
    assert!(audit.failures().values().all(|count| *count == 0));
    let worst = audit.worst.as_ref().expect("a longest game");
    let worst_moves = audit.worst_moves().expect("mates");
    assert_eq!(worst.white_moves(), usize::from(worst_moves.0));
    assert_eq!(worst.end, GameEnd::Checkmate);
    assert!(worst.final_position().is_checkmate());
    // Every white move of the longest game is Torres' own.
    let mut position = worst.start.clone();
    for mv in &worst.moves {
        if position.turn() == Color::White {
            assert_eq!(Torres.reply(&position, &()).expect("a reply").0.mv, *mv);
        }
        position.play_unchecked(*mv);
    }
    let beyond: usize = audit
        .histogram()
        .iter()
        .filter(|(moves, _)| **moves > Moves(50))
        .map(|(_, count)| count)
        .sum();
    assert_eq!(audit.beyond_fifty_moves(), beyond);
    assert!(beyond > 0 && beyond < 42);
    let histogram_total: usize = audit.histogram().values().sum();
    assert_eq!(histogram_total, 42);
}

#[test]
fn failure_examples_end_as_counted() {
    let audit = audit(&Mk61Rook::default(), StartSet::All, Color::White);
    let refusals = audit.failures()[&FailureKind::Refusal];
    assert!(refusals > 0);
    let example = &audit.failure_examples[&FailureKind::Refusal];
    assert!(matches!(
        example.end,
        GameEnd::Refused(Refusal::Precondition(_))
    ));
    // The starts meet the precondition, so the refusal comes later.
    assert!(example.moves.len() >= 2);
}

/// A rook that shuffles between its square and the one beside it, never
/// mating: the defender can walk his king round for ever.
struct Shuffle;

impl Strategy for Shuffle {
    /// Which way the rook goes next.
    type Memory = bool;

    fn name(&self) -> &'static str {
        "shuffle"
    }

    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        let rook_on_a1 = board.piece_at(Square::A1) == Some(Color::White.rook());
        let king_on_h1 = board.piece_at(Square::H1) == Some(Color::White.king());
        if rook_on_a1 && king_on_h1 {
            Ok(())
        } else {
            Err(Refusal::Precondition(Precondition::NotKrk(
                "a test strategy",
            )))
        }
    }

    fn start(&self, _start: &Chess) -> bool {
        true
    }

    fn reply(&self, position: &Chess, forward: &bool) -> Result<(Reply, bool), Refusal> {
        let (from, to) = if *forward {
            (Square::A1, Square::B1)
        } else {
            (Square::B1, Square::A1)
        };
        let mv = legal_move(position, from, to, Cause::Rule("shuffle"))?;
        Ok((
            Reply {
                mv,
                reason: "shuffle",
                display: None,
            },
            !forward,
        ))
    }
}

#[test]
fn a_strategy_that_never_mates_is_a_cycle() {
    let audit = audit(&Shuffle, StartSet::All, Color::White);
    let failures = audit.failures();
    assert!(failures[&FailureKind::Cycle] > 0);
    assert_eq!(audit.worst_moves(), None);
    let example = &audit.failure_examples[&FailureKind::Cycle];
    assert_eq!(example.end, GameEnd::Cycle);
}

/// The findings docs/guide/src/results/audits.md reports, so that the text and the code
/// cannot drift apart.
#[test]
fn documented_findings_hold() {
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;

    let fen = |game: &ajedrecista_automata::Game| {
        Fen::from_position(&game.start, EnPassantMode::Legal).to_string()
    };

    let machine = audit(&Torres, StartSet::Machine, Color::White);
    assert_eq!(machine.worst_moves(), Some(Moves(66)));
    assert_eq!(
        fen(machine.worst.as_ref().unwrap()),
        "K7/1R6/3k4/8/8/8/8/8 w - - 0 1"
    );
    assert_eq!(machine.beyond_fifty_moves(), 28);

    let all = audit(&Torres, StartSet::All, Color::White);
    assert_eq!(all.results.len(), 25_088);
    assert_eq!(all.failures().values().sum::<usize>(), 0);
    assert_eq!(all.worst_moves(), Some(Moves(66)));

    let calculator = audit(&Mk61Rook::default(), StartSet::All, Color::White);
    assert_eq!(calculator.results.len(), 50_554);
    assert_eq!(calculator.failures()[&FailureKind::Refusal], 1_620);
    assert_eq!(calculator.failures().values().sum::<usize>(), 1_620);
    assert_eq!(calculator.worst_moves(), Some(Moves(65)));
    assert_eq!(
        fen(calculator.worst.as_ref().unwrap()),
        "8/8/8/8/8/7k/8/K3R3 w - - 0 1"
    );

    let turning = Mk61Rook {
        on_signal: OnSignal::TurnTheBoard,
    };
    let turning = audit(&turning, StartSet::All, Color::White);
    assert_eq!(turning.results.len(), 154_696);
    assert_eq!(turning.failures().values().sum::<usize>(), 0);
    assert_eq!(turning.worst_moves(), Some(Moves(65)));
}

/// Longest defence by value iteration over every reachable node, rounds
/// until nothing changes: a second way to the audit's numbers, for long
/// mates too.
#[test]
fn torres_values_agree_with_value_iteration() {
    use std::collections::HashMap;

    /// Where a black move leads: mate at once, or a black-to-move node.
    enum Edge {
        Mate,
        Node(usize),
    }

    let starts = start_positions(&Torres, StartSet::All, Color::White);
    let key = |position: &Chess| position.board().clone();
    let mut index: HashMap<Board, usize> = HashMap::new();
    let mut positions: Vec<Chess> = Vec::new();
    let mut edges: Vec<Vec<Edge>> = Vec::new();
    // White's reply: mate at once (None) or the node it leads to.
    let reach =
        |position: &Chess, index: &mut HashMap<Board, usize>, positions: &mut Vec<Chess>| {
            let (reply, ()) = Torres
                .reply(position, &())
                .expect("torres never refuses from its starts");
            let mut after = position.clone();
            after.play_unchecked(reply.mv);
            if after.is_checkmate() {
                return None;
            }
            assert!(!after.legal_moves().is_empty(), "no stalemate");
            let next = positions.len();
            Some(*index.entry(key(&after)).or_insert_with(|| {
                positions.push(after);
                next
            }))
        };
    let start_edges: Vec<Option<usize>> = starts
        .iter()
        .map(|start| reach(start, &mut index, &mut positions))
        .collect();
    let mut expanded = 0;
    while expanded < positions.len() {
        let position = positions[expanded].clone();
        let mut node_edges = Vec::new();
        for mv in position.legal_moves() {
            assert!(
                !mv.is_capture(),
                "the rook is never lost from White-to-move starts"
            );
            let mut next = position.clone();
            next.play_unchecked(mv);
            node_edges.push(match reach(&next, &mut index, &mut positions) {
                None => Edge::Mate,
                Some(node) => Edge::Node(node),
            });
        }
        edges.push(node_edges);
        expanded += 1;
    }

    let mut value: Vec<Option<u16>> = vec![None; positions.len()];
    loop {
        let mut changed = false;
        for node in 0..positions.len() {
            if value[node].is_some() {
                continue;
            }
            let longest = edges[node]
                .iter()
                .try_fold(0, |longest: u16, edge| match edge {
                    Edge::Mate => Some(longest.max(1)),
                    Edge::Node(next) => value[*next].map(|moves| longest.max(moves + 1)),
                });
            if longest.is_some() {
                value[node] = longest;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    assert!(value.iter().all(Option::is_some), "no cycles");

    let mut graph = GameGraph::new(&Torres);
    for (start, edge) in starts.iter().zip(start_edges) {
        let expected = match edge {
            None => 1,
            Some(node) => value[node].unwrap() + 1,
        };
        assert_eq!(graph.outcome(start), Outcome::Mate(Moves(expected)));
    }
}

/// From seed 004's start the tables' defence is mated on White's 21st move
/// (the seed's game); the defender who knows El Ajedrecista lasts longer.
#[test]
fn the_longest_defence_from_the_seed_start_outlasts_the_tables() {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    let fen: Fen = "8/8/1k6/8/R7/8/5K2/8 w - - 0 1".parse().unwrap();
    let start: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let mut graph = GameGraph::new(&Torres);
    assert_eq!(graph.outcome(&start), Outcome::Mate(Moves(38)));
    let game = graph.game(&start);
    assert_eq!(game.white_moves(), 38);
    assert!(game.final_position().is_checkmate());
}

/// A queen strategy (as the calculator's queen program will be) gets queen
/// starts: the audit is not tied to the rook.
#[test]
fn start_positions_hold_the_strategy_piece() {
    struct QueenWaits;
    impl Strategy for QueenWaits {
        type Memory = ();
        fn name(&self) -> &'static str {
            "queen-waits"
        }
        fn white_pieces(&self) -> &'static [shakmaty::Role] {
            &[shakmaty::Role::Queen]
        }
        fn precondition(&self, board: &Board) -> Result<(), Refusal> {
            common::white_king_on_c3(board)
        }
        fn start(&self, _start: &Chess) {}
        fn reply(&self, _position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
            Err(Refusal::RuleUndefined(Undefined::NoWin))
        }
    }
    let starts = start_positions(&QueenWaits, StartSet::All, Color::White);
    assert!(!starts.is_empty());
    for start in &starts {
        let board = start.board();
        assert_eq!(board.queens().count(), 1);
        assert_eq!(board.king_of(Color::White), Some(Square::C3));
    }
    let audit = audit(&QueenWaits, StartSet::All, Color::White);
    assert_eq!(audit.failures()[&FailureKind::OutsideRules], starts.len());
}

/// The names in reports and JSON (docs/json.md), in the defender's order
/// of preference.
#[test]
fn failure_and_start_set_names_are_the_documented_ones() {
    use ajedrecista_automata::{FailureKind, StartSet};
    let names: Vec<&str> = [
        FailureKind::Cycle,
        FailureKind::LostPiece,
        FailureKind::Stalemate,
        FailureKind::IllegalMove,
        FailureKind::WrongDisplay,
        FailureKind::Refusal,
        FailureKind::OutsideRules,
    ]
    .into_iter()
    .map(FailureKind::name)
    .collect();
    assert_eq!(
        names,
        [
            "cycle",
            "lost_piece",
            "stalemate",
            "illegal_move",
            "wrong_display",
            "refusal",
            "outside_rules"
        ]
    );
    assert_eq!(StartSet::All.name(), "all");
    assert_eq!(StartSet::Machine.name(), "machine");
}

#[test]
fn start_sets_are_read_by_their_names() {
    use ajedrecista_automata::StartSet;
    assert_eq!("all".parse::<StartSet>(), Ok(StartSet::All));
    assert_eq!("machine".parse::<StartSet>(), Ok(StartSet::Machine));
    assert!("Machine".parse::<StartSet>().is_err());
}

#[test]
fn an_audit_stops_when_its_flag_is_set() {
    use ajedrecista_automata::{AuditOptions, Cancelled, audit_with_options};
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    let mut starts_seen = Vec::new();
    let mut progress = |done: ajedrecista_automata::AuditProgress| {
        starts_seen.push(done.starts_done);
        // Set once the first 1024 starts are solved: the audit stops
        // before the next progress report.
        if done.starts_done > 0 {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut options = AuditOptions {
        progress: Some(&mut progress),
        cancel: Some(&stop),
    };
    let result = audit_with_options(&Torres, StartSet::All, Color::White, &mut options);
    assert!(matches!(result, Err(Cancelled)));
    assert_eq!(starts_seen, [0, 1024]);
    // Set before the start, it stops at once.
    let stopped = AtomicBool::new(true);
    let mut options = AuditOptions {
        progress: None,
        cancel: Some(&stopped),
    };
    let result = audit_with_options(&Torres, StartSet::All, Color::White, &mut options);
    assert!(matches!(result, Err(Cancelled)));
}
