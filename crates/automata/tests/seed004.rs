//! Seed 004's game: White follows Torres' algorithm, Black defends by
//! tablebase. `torres` must play every white move of the game.

mod common;

use ajedrecista_automata::{Strategy, Torres};
use shakmaty::{Color, Position};

#[test]
fn torres_replays_the_seed_game_move_for_move() {
    let (start, moves) = common::read_pgn(include_str!("data/seed004.pgn"));
    let mut position = start;
    let mut white_moves = 0;
    for mv in moves {
        if position.turn() == Color::White {
            let (reply, ()) = Torres.reply(&position, &()).expect("torres moves");
            assert_eq!(
                reply.mv,
                mv,
                "white move {} ({})",
                white_moves + 1,
                reply.reason
            );
            white_moves += 1;
        }
        position.play_unchecked(mv);
    }
    assert_eq!(white_moves, 21);
    assert!(position.is_checkmate());
}

/// The PGN the audit writes reads back to the same game.
#[test]
fn written_pgn_reads_back() {
    use ajedrecista_automata::{StartSet, audit};

    let audit = audit(&Torres, StartSet::Machine, Color::Black);
    let worst = audit.worst.expect("a longest game");
    let pgn = worst.to_pgn();
    let (start, moves) = common::read_pgn(&pgn);
    assert_eq!(start, worst.start);
    assert_eq!(moves, worst.moves);
    assert!(pgn.contains("[PlyCount \"") && pgn.contains("1... K"));
    assert!(pgn.lines().all(|line| line.len() <= 80));
}
