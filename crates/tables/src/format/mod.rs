//! The table file: a fixed header, a list of chunk lengths, the bytes of
//! the table in chunks compressed with zstd, then the overflow list.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `AJEDTBL` followed by 0x1A |
//! | 8 | 4 | format version, little-endian u32 (6; earlier ones are read for the tables they number alike) |
//! | 12 | 16 | material, ASCII (`KQvKR`), padded with NUL |
//! | 28 | 1 | variant: 0 orthodox, 1 fixed white king |
//! | 29 | 1 | the fixed king's square, 0 (a1) to 63 (h8); 0 when orthodox |
//! | 30 | 2 | overflow limit: the deepest plies a byte holds, little-endian u16 (at most 250; zero in version 2) |
//! | 32 | 8 | numbers per side to move, little-endian u64 |
//! | 40 | 4 | numbers per chunk, little-endian u32 |
//! | 44 | 4 | number of chunks, little-endian u32 |
//! | 48 | 8 | bytes of the compressed chunks, little-endian u64 |
//! | 56 | 4 | CRC-32 (IEEE) of everything after the header, little-endian |
//! | 60 | 4 | entries of the overflow list, little-endian u32 (zero in version 2) |
//! | 64 | 4 per chunk | compressed length of each chunk, little-endian u32 |
//! | .. | .. | the chunks: each a zstd frame of the table bytes |
//! | .. | 8 per entry | the overflow list, little-endian u64 each |
//!
//! The table bytes are those with white to move, then those with black to
//! move, each side cut into chunks of the given length (the last one
//! shorter). A byte is 0 for a draw, 255 for a number with no legal
//! position, and otherwise plies to mate + 1 (odd plies: the side to move
//! wins), or 252 (DEEP) for a decisive position deeper than the limit.
//! Chunks are compressed and decompressed in parallel.
//!
//! An overflow entry is `side << 63 | number << 16 | plies` (side 0 white
//! to move, 1 black; plies from limit + 1 to 1023): one for every DEEP
//! byte, in increasing order. A version 2 file (no overflow) reads as one
//! with limit 250 and no entries.

mod body;
mod chunked;
mod chunks;
mod guard;
mod header;
mod sequential;
mod verify;
mod writer;

use std::io::{self};

pub(crate) use body::{Body, read, read_sides};
pub(crate) use chunked::ChunkedTable;
#[cfg(test)]
pub(crate) use guard::stall::Stall;
pub(crate) use guard::{
    Before, guarded, is_present, lock_shared_in, open_guarded, owned_temporary, read_time_limit,
    remove_stale, try_lock_alone,
};
pub(crate) use sequential::summarize_file;
use shakmaty::Color;
pub(crate) use writer::{FileWriter, write};

use crate::{error::FileError, material::Material, variant::Variant};

pub const MAGIC: [u8; 8] = *b"AJEDTBL\x1a";
pub const VERSION: u32 = 6;
/// Format 5 numbered every man after the kings of a pawnless table over 64
/// squares; format 6 numbers those between the kings and the last over the
/// 62 the kings leave (`crate::index`). Earlier files are read only for
/// the tables numbered the same in both: with pawns, or of three men.
const VERSION_5: u32 = 5;
/// Format 4 had no checksum of each chunk: a file is checked whole when
/// opened.
pub(crate) const VERSION_4: u32 = 4;
/// The last version without the overflow, still read.
const VERSION_2: u32 = 2;
/// Format 3 numbered a table with pawns by its first pawn's place: only its
/// pawnless tables are still read.
pub(crate) const VERSION_3: u32 = 3;
/// Bits of an overflow entry that hold the plies.
const PLIES_BITS: u32 = 16;
const HEADER: usize = 64;
/// Numbers per chunk.
pub(crate) const CHUNK: usize = 1 << 20;
/// zstd's level, the fastest: writing KQRvKR takes about 1.4 s less CPU
/// than at level 6, for a file of 48.4 MB instead of 45.3 MB
/// (docs/guide/src/reference/table-file.md).
const LEVEL: i32 = 1;

/// The file name of a table: `KQvK.standard.ajt`, `KQvK.fixed-king-c3.ajt`.
pub fn file_name(material: &Material, variant: Variant) -> String {
    format!("{material}.{variant}.ajt")
}

/// How a file of this crate's begins (a table file, a slice part): its
/// magic, its format version and the material's name padded to 16 bytes.
/// The rest of the header is built on it.
pub(crate) fn header_start(magic: &[u8; 8], version: u32, material: &Material) -> Vec<u8> {
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(magic);
    head.extend_from_slice(&version.to_le_bytes());
    let mut name = [0u8; 16];
    let material = material.to_string();
    name[..material.len()].copy_from_slice(material.as_bytes());
    head.extend_from_slice(&name);
    head
}

/// The prefix and suffix of a temporary file being written for `name`.
pub(crate) fn temporary(name: &str) -> (String, &'static str) {
    (format!(".{name}."), ".tmp")
}

fn le_u32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes.try_into().expect("4 bytes"))
}

fn le_u64(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
}

fn chunk_count(per_side: usize) -> usize {
    2 * per_side.div_ceil(CHUNK)
}

/// The side to move of chunk `chunk` of a file of `chunks` chunks, and its
/// first number: white's chunks come first.
fn chunk_place(chunk: usize, chunks: usize) -> (Color, usize) {
    let per_side = chunks / 2;
    match chunk < per_side {
        true => (Color::White, chunk * CHUNK),
        false => (Color::Black, (chunk - per_side) * CHUNK),
    }
}

/// Why a table file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    File(#[from] FileError),
}

impl ReadError {
    /// Whether the read did not end in time ([`FileError::is_hung`]).
    pub(crate) fn is_hung(&self) -> bool {
        matches!(self, ReadError::File(err) if err.is_hung())
    }
}

#[cfg(test)]
mod tests;
