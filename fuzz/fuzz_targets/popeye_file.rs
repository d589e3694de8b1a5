//! A Popeye file as `code --popeye` reads it: bytes through the bounded
//! reader (ajedrecista-input: its limit, a byte-order mark left out,
//! UTF-8), then `parse_popeye_problems`; each position it gives is
//! analysed as a final position under its conditions and its etalon
//! searched when small.
#![no_main]

use ajedrecista_coding::fairy::{FairyFinal, parse_popeye_problems};
use ajedrecista_input::{MAX_INPUT_BYTES, read_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = read_text(data, MAX_INPUT_BYTES) else {
        return;
    };
    for problem in parse_popeye_problems(&text).into_iter().flatten() {
        let position = problem.position;
        if position.legality().is_ok() {
            let men = position.occupied().count();
            if let Ok(analysed) = FairyFinal::analyse(position)
                && men <= 4
            {
                let _ = analysed.etalon();
            }
        }
    }
});
