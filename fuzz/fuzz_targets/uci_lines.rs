//! UCI lines as `uci` reads them: each `position startpos|fen FEN [moves
//! ...]` line goes through the same domain call (`MoveList::
//! from_position_command`), its illegal move is counted against the limit,
//! and with White to move the automaton's move is replayed through a
//! session (`MoveList::automaton_move`). `setoption name Strategy value X`
//! picks the automaton among the cheap ones (the emulated calculators take
//! milliseconds a reply); `ucinewgame` clears the count. Other lines are
//! ignored, as UCI says.
#![no_main]

use std::sync::Arc;

use ajedrecista_automata::{IllegalMoves, MoveList, StrategyName};
use libfuzzer_sys::fuzz_target;
use shakmaty::{Color, Position};

#[path = "shared/cheap_automata.rs"]
mod cheap_automata;
use cheap_automata::{CHEAP, TABLES};

fuzz_target!(|data: &[u8]| {
    let [limit, rest @ ..] = data else { return };
    let mut strategy = StrategyName::TORRES;
    let mut illegal = IllegalMoves::new(u32::from(limit % 5));
    // UCI skips a line it cannot read; so does this target.
    for line in rest.split(|&b| b == b'\n').take(32) {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ucinewgame", ..] => illegal.clear(),
            ["setoption", "name", "Strategy", "value", name] => {
                if let Ok(name) = name.parse::<StrategyName>()
                    && CHEAP.contains(&name)
                {
                    strategy = name;
                }
            }
            ["position", words @ ..] => {
                let Ok(game) = MoveList::from_position_command(words) else {
                    continue;
                };
                illegal.record(&game);
                let position = game.position();
                assert_legal_line(&game);
                if game.illegal.is_none() {
                    // A list read whole reads back the same.
                    let texts: Vec<String> = game
                        .moves
                        .iter()
                        .map(|mv| mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
                        .collect();
                    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
                    assert_eq!(MoveList::read(game.start.clone(), &texts), game);
                }
                // Perfect play on four men or more builds tables in memory
                // first (seconds, past the run's time-out): not this
                // target's concern, and the tables have their own tests.
                let cheap_tables =
                    strategy != StrategyName::PERFECT || position.board().occupied().count() <= 3;
                if position.turn() == Color::White
                    && !position.legal_moves().is_empty()
                    && illegal.end().is_none()
                    && cheap_tables
                    && let Ok(reply) = game.automaton_move(Arc::clone(&TABLES), strategy)
                {
                    assert!(position.is_legal(reply.mv), "{line}");
                }
            }
            _ => {}
        }
    }
});

/// Every move the list kept is legal where it is played.
fn assert_legal_line(game: &MoveList) {
    let mut position = game.start.clone();
    for &mv in &game.moves {
        assert!(position.is_legal(mv));
        position.play_unchecked(mv);
    }
}
