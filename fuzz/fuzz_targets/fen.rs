//! A FEN as `probe` reads it: shakmaty's FEN, the tables' legality (a check
//! no last move could give is allowed), then every three-man position
//! probed, its moves valued and its principal variation walked, orthodox
//! and with the white king fixed on its square.
#![no_main]

use std::sync::LazyLock;

use ajedrecista_tables::{CastlingRights, Material, Tablebase, Variant, read_fen};
use libfuzzer_sys::fuzz_target;
use shakmaty::{Color, Position};

/// Tables built in memory on first use (a three-man table takes
/// milliseconds) and kept for every later input.
static TABLES: LazyLock<Tablebase> = LazyLock::new(Tablebase::in_memory);

// Bytes that are not UTF-8 end the text (libFuzzer's `&str` input).
fuzz_target!(|text: &str| {
    // The CLI's and the web's reading: castling rights are refused.
    let Ok(position) = read_fen(text, CastlingRights::Refused) else {
        return;
    };
    let Ok(material) = Material::from_board(position.board()) else {
        return;
    };
    if material.len() > 3 {
        return;
    }
    let fixed = position
        .board()
        .king_of(Color::White)
        .map(Variant::FixedKing);
    for variant in std::iter::once(Variant::Standard).chain(fixed) {
        let value = TABLES.probe(&position, variant);
        let moves = TABLES.moves(&position, variant);
        let line = TABLES.principal_variation(&position, variant);
        if let (Ok(value), Ok(_), Ok(line)) = (value, moves, line) {
            // The principal variation runs to mate in the value's plies.
            assert_eq!(
                line.len(),
                usize::from(value.plies().unwrap_or_default().0),
                "{text}"
            );
        }
    }
});
