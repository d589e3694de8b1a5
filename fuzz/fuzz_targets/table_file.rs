//! A table file `KRvK.standard.ajt` (the current format, 6) from the cache
//! folder, with checksums that match, so the bytes reach every check
//! past the CRCs: read through `Tablebase::load_file` (which checks a file
//! as a cached file is checked, and refuses it with the typed error without
//! rebuilding it), summarised, probed and walked. The first byte picks how
//! the input becomes a file:
//! - even: the input is the file itself, its whole-file CRC made to match
//!   (the header, the index, the zstd frames);
//! - odd: the input patches the true table's bytes (three bytes a patch:
//!   the number, white's then black's, little-endian, and the new byte),
//!   and the file is written as the tables crate writes it, chunks
//!   compressed, so every forged file reaches the semantic check and, if
//!   it passes, the walks.
//!
//! A file that loads is then walked as the audit and `selfplay` walk it:
//! El Ajedrecista's audit of its own starts set against perfect play, and
//! the perfect automaton's game against the tables' defence, checked
//! against the tables' own distance (a contradiction is an error, never a
//! panic or an endless walk).
//!
//! The true tables (KRvK, which the patches start from, and KvK, which a
//! capture of the rook leads into) are built once per process into a
//! folder the walks' tablebase reads; the forged KRvK, once loaded, stands
//! in memory in place of the true one.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use ajedrecista_automata::{
    Audit, Perfect, StartSet, Torres, audit, check_tables_game, excess_over_perfect,
    perfect_defence, play,
};
use ajedrecista_tables::{MAGIC, Material, TableError, Tablebase, VERSION, Variant, file_name};
use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color};

/// The header's length, where its CRC lies (crates/tables/src/format/mod.rs).
const HEADER: usize = 64;
const CRC_AT: usize = 56;
/// Numbers per chunk: KRvK's 29 568 numbers a side fit in one.
const CHUNK: u32 = 1 << 20;

fn krvk() -> Material {
    "KRvK".parse().unwrap()
}

/// This process's scratch folder, in memory where there is a tmpfs: the
/// true tables in `true/`, each input's file in `forged/`. Statics are never
/// dropped, so it is removed at exit (libFuzzer ends with `exit`).
static SCRATCH: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = match Path::new("/dev/shm") {
        shm if shm.is_dir() => tempfile::tempdir_in(shm),
        _ => tempfile::tempdir(),
    }
    .unwrap()
    .keep();
    std::fs::create_dir(dir.join("true")).unwrap();
    std::fs::create_dir(dir.join("forged")).unwrap();
    extern "C" fn remove_scratch() {
        let _ = std::fs::remove_dir_all(&*SCRATCH);
    }
    // SAFETY: registers a function that takes no arguments and returns;
    // it only removes a folder.
    unsafe { libc::atexit(remove_scratch) };
    dir
});

/// The true tables' folder: KRvK and KvK, built once.
static TRUE_DIR: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = SCRATCH.join("true");
    Tablebase::new(Some(dir.clone()))
        .table(&krvk(), Variant::Standard)
        .unwrap();
    dir
});

/// Where each input's file is written (not in the true tables' folder,
/// which holds only true tables).
static FORGED: LazyLock<PathBuf> = LazyLock::new(|| {
    SCRATCH
        .join("forged")
        .join(file_name(&krvk(), Variant::Standard))
});

/// The true table's bytes, white to move then black, read back from the
/// file the tables crate writes.
static TRUE_BYTES: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let file = std::fs::read(TRUE_DIR.join(file_name(&krvk(), Variant::Standard))).unwrap();
    let chunks = u32::from_le_bytes(file[44..48].try_into().unwrap()) as usize;
    assert_eq!(chunks, 2, "one chunk a side");
    // The lengths, the chunks' CRC-32s and the index's come first.
    let mut offset = HEADER + 8 * chunks + 4;
    (0..chunks)
        .map(|i| {
            let at = HEADER + 4 * i;
            let len = u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
            let chunk = &file[offset..offset + len];
            offset += len;
            zstd::bulk::decompress(chunk, CHUNK as usize).unwrap()
        })
        .collect()
});

/// El Ajedrecista's audit of its own starts: it asks nothing of the
/// tables, so it is made once.
static TORRES_AUDIT: LazyLock<Audit> =
    LazyLock::new(|| audit(&Torres, StartSet::Machine, Color::White));

/// A file of `sides` (one chunk each) as the tables crate
/// writes it, at zstd's cheapest level: the reader takes any level.
fn forge(sides: &[Vec<u8>]) -> Vec<u8> {
    let chunks: Vec<Vec<u8>> = sides
        .iter()
        .map(|side| zstd::bulk::compress(side, 1).unwrap())
        .collect();
    let mut rest = Vec::new();
    for chunk in &chunks {
        rest.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    }
    for chunk in &chunks {
        rest.extend_from_slice(&crc32fast::hash(chunk).to_le_bytes());
    }
    // The index's CRC-32 (no overflow list follows).
    rest.extend_from_slice(&crc32fast::hash(&rest).to_le_bytes());
    for chunk in &chunks {
        rest.extend_from_slice(chunk);
    }
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 16];
    name[..4].copy_from_slice(b"KRvK");
    head.extend_from_slice(&name);
    // Orthodox, no fixed square; overflow limit 250 (format 3).
    head.extend_from_slice(&[0, 0, 250, 0]);
    head.extend_from_slice(&(sides[0].len() as u64).to_le_bytes());
    head.extend_from_slice(&CHUNK.to_le_bytes());
    head.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let data: usize = chunks.iter().map(Vec::len).sum();
    head.extend_from_slice(&(data as u64).to_le_bytes());
    head.extend_from_slice(&crc32fast::hash(&rest).to_le_bytes());
    head.extend_from_slice(&[0; 4]);
    head.extend_from_slice(&rest);
    head
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let bytes = match mode % 2 {
        0 => {
            let mut bytes = input.to_vec();
            if bytes.len() >= HEADER {
                let crc = crc32fast::hash(&bytes[HEADER..]);
                bytes[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
            }
            bytes
        }
        _ => {
            let mut sides = TRUE_BYTES.clone();
            let per_side = sides[0].len();
            for patch in input.chunks_exact(3) {
                let number = usize::from(u16::from_le_bytes([patch[0], patch[1]]));
                let side = &mut sides[(number / per_side) % 2];
                side[number % per_side] = patch[2];
            }
            forge(&sides)
        }
    };
    let path = &*FORGED;
    std::fs::write(path, &bytes).unwrap();
    let tables = Arc::new(Tablebase::new(Some(TRUE_DIR.clone())));
    let table = match tables.load_file(path, &krvk(), Variant::Standard) {
        Ok(table) => table,
        // Refused with what is wrong with the file: the only error a
        // forged file may get.
        Err(TableError::File(_)) => return,
        Err(other) => panic!("{other}"),
    };
    let _ = ajedrecista_tables::summarize(&table);
    let position: Chess = "8/8/8/3k4/8/8/1R6/K7 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let _ = tables.moves(&position, Variant::Standard);
    let _ = tables.principal_variation(&position, Variant::Standard);
    let _ = excess_over_perfect(&TORRES_AUDIT, &tables);
    let perfect = Perfect::new(Arc::clone(&tables));
    if let Ok(game) = play(
        &perfect,
        &position,
        |position, _| perfect_defence(&tables, position),
        true,
        1000,
        "the tables' defence",
    ) {
        let _ = check_tables_game(&perfect, &game, &tables);
    }
});
