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
