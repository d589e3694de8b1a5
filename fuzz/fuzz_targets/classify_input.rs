//! A file for `classify` as the command reads it: bytes under the bounded
//! reader's limit (ajedrecista-input), then FEN/EPD lines or PGN games
//! (`read_positions`, which takes lines that are not UTF-8 as bad entries
//! and stops at its limit of positions); the final positions read are
//! analysed as `classify` analyses them.
#![no_main]

use ajedrecista_coding::{FinalPosition, TooManyPositions, read_positions};
use ajedrecista_input::{MAX_INPUT_BYTES, read_bytes};
use libfuzzer_sys::fuzz_target;
use shakmaty::Position;

/// A low limit of positions, so that inputs reach it.
const LIMIT: usize = 64;

fuzz_target!(|data: &[u8]| {
    let bytes = read_bytes(data, MAX_INPUT_BYTES).expect("under the limit");
    let entries = match read_positions(&bytes, LIMIT) {
        Ok(entries) => entries,
        Err(TooManyPositions { limit }) => {
            assert_eq!(limit, LIMIT);
            return;
        }
    };
    assert!(entries.len() <= LIMIT);
    for entry in entries {
        assert!(
            entry.source.starts_with("line ") || entry.source.starts_with("game "),
            "{}",
            entry.source
        );
        if let Ok(position) = entry.position {
            // The etalon search is exponential in the men: analysis only.
            if position.board().occupied().count() <= 8 {
                let _ = FinalPosition::analyse(position);
            }
        }
    }
});
