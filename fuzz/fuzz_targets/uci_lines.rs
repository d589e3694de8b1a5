//! UCI lines through the engine `ajedrecista uci` runs (the automata
//! crate's `UciEngine`), one line at a time. `setoption name Strategy`
//! lines are kept only for the cheap automata (the emulated calculators
//! take milliseconds a reply); the tables build three men at most (a
//! four-man build takes seconds, past the run's time-out: the tables have
//! their own tests), so perfect play and the tables' fallback answer from
//! three-man tables or refuse. The work the engine hands out (builds) is
//! done in line after each line, as a patient runner would. Checked: every
//! `bestmove` is legal in the game the last `position` line set (none but
//! 0000 after a refused one), and a move list read whole reads back the
//! same.
#![no_main]

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, LazyLock};

use ajedrecista_automata::{MoveList, StrategyName, UciEngine};
use ajedrecista_tables::Tablebase;
use libfuzzer_sys::fuzz_target;
use shakmaty::{CastlingMode, Chess, Position, uci::UciMove};

#[path = "shared/cheap_automata.rs"]
mod cheap_automata;
use cheap_automata::CHEAP;

/// Tables of three men, built on first use and kept for later inputs.
static SMALL_TABLES: LazyLock<Arc<Tablebase>> =
    LazyLock::new(|| Arc::new(Tablebase::in_memory().building_up_to(3)));

fuzz_target!(|data: &[u8]| {
    let mut engine = UciEngine::new(Arc::clone(&SMALL_TABLES));
    let mut position = Chess::default();
    // The position a held `go infinite` answer was found in.
    let mut searched = Chess::default();
    for line in data.split(|&b| b == b'\n').take(32) {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["setoption", "name", "Strategy", "value", name, ..] => {
                let cheap = name
                    .parse::<StrategyName>()
                    .is_ok_and(|name| CHEAP.contains(&name));
                if !cheap {
                    continue;
                }
            }
            ["position", words @ ..] => {
                position = match MoveList::from_position_command(words) {
                    Ok(game) => {
                        assert_reads_back(&game);
                        game.position()
                    }
                    Err(_) => Chess::default(),
                };
            }
            ["go", rest @ ..] if rest.iter().any(|w| *w == "infinite" || *w == "ponder") => {
                searched = position.clone();
            }
            _ => {}
        }
        let answered = match words.first() {
            Some(&"go") => &position,
            _ => &searched,
        };
        let answer = engine.command(line);
        let mut lines = answer.lines;
        while let Some(work) = engine.next_work() {
            let result = work.run(&SMALL_TABLES, &AtomicBool::new(false));
            lines.extend(engine.work_done(&work, result).lines);
        }
        for said in &lines {
            if let Some(text) = said.strip_prefix("bestmove ")
                && text != "0000"
            {
                let mv = text
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|mv| mv.to_move(answered).ok());
                assert!(mv.is_some(), "{line}: bestmove {text}");
            }
        }
        if answer.quit {
            break;
        }
    }
});

/// Every move the list kept is legal where it is played, and the list
/// written as UCI reads back the same.
fn assert_reads_back(game: &MoveList) {
    let mut position = game.start.clone();
    for &mv in &game.moves {
        assert!(position.is_legal(mv));
        position.play_unchecked(mv);
    }
    if game.illegal.is_none() {
        let texts: Vec<String> = game
            .moves
            .iter()
            .map(|mv| mv.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(&MoveList::read(game.start.clone(), &texts), game);
    }
}
