//! A FEN or extended FEN as `code` and `classify` read it: the orthodox
//! reading, then the fairy one under the conditions the first byte picks;
//! final positions are analysed and, when small, their etalon searched.
#![no_main]

use ajedrecista_coding::fairy::{Condition, FairyFinal, FairyPosition, Rules};
use ajedrecista_coding::{FinalPosition, parse_position, read_positions};
use libfuzzer_sys::fuzz_target;
use shakmaty::Position;

/// Etalon searches are exponential in the men outside the zone; larger
/// positions are read and analysed only.
const MAX_MEN_FOR_ETALON: usize = 5;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(position) = parse_position(text) {
        let men = position.board().occupied().count();
        if let Ok(fp) = FinalPosition::analyse(position)
            && men <= MAX_MEN_FOR_ETALON
        {
            let _ = fp.etalon();
        }
    }
    let conditions = Condition::ALL
        .into_iter()
        .enumerate()
        .filter(|(bit, _)| pick & (1 << bit) != 0)
        .map(|(_, condition)| condition);
    if let Ok(position) = FairyPosition::from_fen(text, Rules::new(conditions)) {
        let _ = position.fen();
        if position.legality().is_ok() {
            let men = position.occupied().count();
            if let Ok(fp) = FairyFinal::analyse(position)
                && men <= MAX_MEN_FOR_ETALON
            {
                let _ = fp.etalon();
            }
        }
    }
    // The same text as a file for `classify` (FEN/EPD lines or PGN).
    let _ = read_positions(rest, 1000);
});
