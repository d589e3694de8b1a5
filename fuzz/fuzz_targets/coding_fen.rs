//! A FEN or extended FEN as `code` and `classify` read it, through the
//! coding crate's one dispatch (`Coded::read`, `Coded::of_entry`): the
//! orthodox reading or the fairy one under the conditions the first byte
//! picks, the final position analysed and its etalon searched. Etalon
//! searches are exponential in the men outside the zone, so positions of
//! more men are read and analysed without one.
#![no_main]

use ajedrecista_coding::fairy::{Condition, FairyFinal, FairyPosition, Rules};
use ajedrecista_coding::{Coded, FinalPosition, parse_position, read_positions};
use libfuzzer_sys::fuzz_target;
use shakmaty::Position;

/// The most men (units, in extended FEN) whose etalon is searched.
const MAX_MEN_FOR_ETALON: usize = 5;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let conditions = Condition::ALL
        .into_iter()
        .enumerate()
        .filter(|(bit, _)| pick & (1 << bit) != 0)
        .map(|(_, condition)| condition);
    let rules = Rules::new(conditions);
    if men(text) <= MAX_MEN_FOR_ETALON {
        if let Ok(coded) = Coded::read(text, &rules) {
            let _ = coded.classification();
        }
        // The same text as a file for `classify` (FEN/EPD lines or PGN).
        for entry in read_positions(rest, 1000).unwrap_or_default() {
            let small = match (&entry.line, &entry.position) {
                (Some(line), _) => men(line) <= MAX_MEN_FOR_ETALON,
                (None, Ok(position)) => position.board().occupied().count() <= MAX_MEN_FOR_ETALON,
                (None, Err(_)) => true,
            };
            if small && let Ok(coded) = Coded::of_entry(entry, &rules) {
                let _ = coded.classification();
            }
        }
        return;
    }
    if let Ok(position) = parse_position(text) {
        let _ = FinalPosition::analyse(position);
    }
    if let Ok(position) = FairyPosition::from_fen(text, rules) {
        let _ = position.fen();
        if position.legality().is_ok() {
            let _ = FairyFinal::analyse(position);
        }
    }
    let _ = read_positions(rest, 1000);
});

/// The men of a FEN's board field, by its letters (a `*` or `!` before a
/// unit is no man).
fn men(fen: &str) -> usize {
    let board = fen.split_whitespace().next().unwrap_or("");
    board.chars().filter(char::is_ascii_alphabetic).count()
}
