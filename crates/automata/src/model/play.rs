//! Playing one game: the automaton against a defence.

use std::collections::HashSet;

use shakmaty::{Chess, Color, Move, Position};

use crate::game::{Game, GameEnd};
use crate::krk::board_key;
use crate::strategy::Strategy;

/// Plays from `start` until mate, stalemate, White's last man lost, a refusal, a
/// repeated (position, memory) when `repetition_is_cycle` (a deterministic
/// defence against a deterministic automaton then loops for ever), or
/// `max_plies`. `defend` picks Black's move in a position with moves; its
/// error stops the game and is handed back.
pub fn play<S: Strategy, E>(
    strategy: &S,
    start: &Chess,
    mut defend: impl FnMut(&Chess, &S::Memory) -> Result<Move, E>,
    repetition_is_cycle: bool,
    max_plies: usize,
    black_name: &str,
) -> Result<Game, E> {
    let mut position = start.clone();
    let mut memory = strategy.start(start);
    let mut moves = Vec::new();
    let mut seen = HashSet::new();
    let end = loop {
        if position.is_checkmate() {
            break GameEnd::Checkmate;
        }
        if position.is_stalemate() {
            break GameEnd::Stalemate;
        }
        if moves.len() >= max_plies {
            break GameEnd::Unfinished;
        }
        if position.turn() == Color::White {
            match strategy.reply(&position, &memory) {
                Ok((reply, next)) => {
                    position.play_unchecked(reply.mv);
                    moves.push(reply.mv);
                    memory = next;
                }
                Err(refusal) => break GameEnd::Refused(refusal),
            }
        } else {
            if repetition_is_cycle {
                let node = (board_key(position.board()), memory.clone());
                if !seen.insert(node) {
                    break GameEnd::Cycle;
                }
            }
            let mv = defend(&position, &memory)?;
            position.play_unchecked(mv);
            moves.push(mv);
            if let Some(end) = GameEnd::after_black_move(mv, &position) {
                break end;
            }
        }
    };
    Ok(Game {
        white: strategy.name().to_string(),
        black: black_name.to_string(),
        start: start.clone(),
        moves,
        end,
    })
}
