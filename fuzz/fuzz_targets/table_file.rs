//! A table file from the cache folder, header and body, with a checksum
//! that matches (so the bytes reach every check past the CRC): loaded
//! through the public `Tablebase` (the file parser is private to the
//! tables crate), then probed and walked. A file the tables refuse is
//! rebuilt, which is slow: most of the time is spent there.
#![no_main]

use ajedrecista_tables::{Material, Tablebase, Variant, file_name};
use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// The header's length and the CRC's place in it (docs/tables.md).
const HEADER: usize = 48;
const CRC_AT: usize = 40;

fuzz_target!(|data: &[u8]| {
    let material: Material = "KRvK".parse().unwrap();
    let mut bytes = data.to_vec();
    if bytes.len() >= HEADER {
        let crc = crc32fast::hash(&bytes[HEADER..]);
        bytes[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    }
    // In memory where there is a tmpfs: a rebuilt table is written with
    // fsync, which on a disk costs more than the rest of the run.
    let dir = match std::path::Path::new("/dev/shm") {
        shm if shm.is_dir() => tempfile::tempdir_in(shm),
        _ => tempfile::tempdir(),
    }
    .unwrap();
    std::fs::write(
        dir.path().join(file_name(&material, Variant::Standard)),
        &bytes,
    )
    .unwrap();
    let tables = Tablebase::new(Some(dir.path().to_path_buf()));
    let Ok(table) = tables.table(&material, Variant::Standard) else {
        return;
    };
    let _ = ajedrecista_tables::summarize(&table);
    let position: Chess = "8/8/8/3k4/8/8/1R6/K7 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let _ = tables.moves(&position, Variant::Standard);
    let _ = tables.principal_variation(&position, Variant::Standard);
});
