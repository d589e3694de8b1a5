//! The move input of a game session, as `play`, the web and UCI's replay
//! hand it over: each line one entry (SAN, UCI, long algebraic, a target
//! square, the calculator's digits `27` or `2.7`, the black king's square
//! while it is placed) or `undo`. The first bytes pick the automaton (the
//! ones whose replies are cheap: the emulated calculators take
//! milliseconds a reply), the opening (the machine's own, placing the
//! black king, or its demonstration position) and the illegal-move limit.
#![no_main]

use std::sync::Arc;

use ajedrecista_automata::{MoveError, Opening, Session};
use libfuzzer_sys::fuzz_target;
use shakmaty::{EnPassantMode, Position, Setup};

#[path = "shared/cheap_automata.rs"]
mod cheap_automata;
use cheap_automata::{CHEAP, TABLES};

fuzz_target!(|data: &[u8]| {
    let [pick, opening, limit, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let strategy = CHEAP[usize::from(*pick) % CHEAP.len()];
    let opening = match opening % 2 {
        0 => Opening::machine_start(strategy),
        _ => Opening::Position(strategy.demo_position()),
    };
    let limit = u32::from(limit % 5);
    let Ok(mut session) = Session::new(Arc::clone(&TABLES), strategy, opening, limit) else {
        return;
    };
    for line in text.lines().take(64) {
        if line == "undo" {
            let _ = session.undo();
        } else {
            let before = state(&session);
            match session.play(line) {
                Ok(_) => {}
                Err(MoveError::Illegal { count, stopped, .. }) => {
                    // The lamp: nothing moved, the count is the session's.
                    assert_eq!(before, state(&session), "{line:?}");
                    assert_eq!(count, session.illegal().count);
                    assert_eq!(stopped, limit > 0 && count >= limit);
                }
                Err(MoveError::NotAMove(reason)) => {
                    // A hint: nothing moved and nothing counted.
                    assert_eq!(before, state(&session), "{line:?}");
                    assert!(!reason.lights_the_lamp());
                }
                Err(MoveError::GameOver) => assert!(session.end().is_some()),
            }
        }
        let _ = serde_json::to_string(&session.view()).unwrap();
    }
    let _ = session.pgn();
});

/// What a lamp must leave as it was: the position, or the white men while
/// the black king is placed.
fn state(session: &Session) -> (Option<Setup>, Option<shakmaty::Board>) {
    (
        session
            .position()
            .map(|position| position.to_setup(EnPassantMode::Always)),
        session.placing().cloned(),
    )
}
