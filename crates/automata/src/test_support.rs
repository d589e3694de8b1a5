//! Helpers shared by the unit tests.

use shakmaty::{CastlingMode, Chess, Position, Square, fen::Fen};

use crate::strategy::{Refusal, Reply, Strategy};

/// The position of a FEN that the test knows to be legal.
pub fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard)
        .expect("legal position")
}

/// The automaton's first answer from `start`, with its memory after it.
pub fn first_reply<S: Strategy>(
    automaton: &S,
    start: &Chess,
) -> Result<(Reply, S::Memory), Refusal> {
    automaton.reply(start, &automaton.start(start))
}

/// Checks the automaton's first answer from the FEN `fen`: it takes the
/// position as a start, shows `display` and moves from `from` to `to`.
/// Returns its memory after the answer.
pub fn assert_first_reply<S: Strategy>(
    automaton: &S,
    fen: &str,
    display: &str,
    (from, to): (Square, Square),
) -> S::Memory {
    let start = position(fen);
    automaton.precondition(start.board()).expect("a start");
    let (reply, memory) = first_reply(automaton, &start).expect("an answer");
    assert_eq!(reply.display.as_deref(), Some(display), "{fen}");
    assert_eq!((reply.mv.from(), reply.mv.to()), (Some(from), to), "{fen}");
    memory
}
