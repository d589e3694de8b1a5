//! Popeye input as `code --popeye` reads it: pieces, conditions and
//! stipulation; the position it gives is written back as an extended FEN
//! and read again.
#![no_main]

use ajedrecista_coding::fairy::{FairyPosition, parse_popeye};
use libfuzzer_sys::fuzz_target;

// Bytes that are not UTF-8 end the text (libFuzzer's `&str` input).
fuzz_target!(|text: &str| {
    let Ok(problem) = parse_popeye(text) else {
        return;
    };
    let fen = problem.position.fen();
    let again = FairyPosition::from_fen(&fen, problem.position.rules().clone())
        .unwrap_or_else(|err| panic!("{fen:?} from Popeye input does not read back: {err}"));
    assert_eq!(again.fen(), fen);
});
