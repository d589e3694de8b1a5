//! The table file: a fixed header, then the bytes of the table.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `AJEDTBL` followed by 0x1A |
//! | 8 | 4 | format version, little-endian u32 (1) |
//! | 12 | 16 | material, ASCII (`KQvKR`), padded with NUL |
//! | 28 | 1 | variant: 0 orthodox, 1 fixed white king |
//! | 29 | 1 | the fixed king's square, 0 (a1) to 63 (h8); 0 when orthodox |
//! | 30 | 2 | zero |
//! | 32 | 8 | numbers per side to move, little-endian u64 |
//! | 40 | 4 | CRC-32 (IEEE) of the body, little-endian u32 |
//! | 44 | 4 | zero |
//! | 48 | .. | body: one byte per number with white to move, then with black to move |
//!
//! A body byte is 0 for a draw, 255 for a number with no legal position, and
//! otherwise plies to mate + 1 (odd plies: the side to move wins).

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

use shakmaty::{ByColor, Square};

use crate::{error::FileError, index::Indexer, material::Material, table::Table, variant::Variant};

pub const MAGIC: [u8; 8] = *b"AJEDTBL\x1a";
pub const VERSION: u32 = 1;
const HEADER: usize = 48;

/// The file name of a table: `KQvK.standard.ajt`, `KQvK.fixed-king-c3.ajt`.
pub fn file_name(material: &Material, variant: Variant) -> String {
    format!("{material}.{variant}.ajt")
}

fn header(material: &Material, variant: Variant, per_side: u64, checksum: u32) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    let name = material.to_string();
    h[12..12 + name.len()].copy_from_slice(name.as_bytes());
    if let Variant::FixedKing(sq) = variant {
        h[28] = 1;
        h[29] = u8::from(sq);
    }
    h[32..40].copy_from_slice(&per_side.to_le_bytes());
    h[40..44].copy_from_slice(&checksum.to_le_bytes());
    h
}

fn checksum(table: &ByColor<&[u8]>) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(table.white);
    hasher.update(table.black);
    hasher.finalize()
}

/// Writes a table atomically: to a temporary file in the same folder, synced,
/// then renamed over the final name.
pub fn write(dir: &Path, table: &Table) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(file_name(table.material(), table.variant()));
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        file_name(table.material(), table.variant()),
        std::process::id()
    ));
    let body = ByColor::new_with(|c| table.bytes(c));
    let head = header(
        table.material(),
        table.variant(),
        body.white.len() as u64,
        checksum(&body),
    );
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&head)?;
        file.write_all(body.white)?;
        file.write_all(body.black)?;
        file.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|()| path)
}

/// Reads and verifies a table file's bytes: header fields, length and
/// checksum must all match the table asked for.
pub fn parse(bytes: Vec<u8>, material: &Material, variant: Variant) -> Result<Table, FileError> {
    let per_side = Indexer::new(material.len(), variant).size();
    let expected_len = (HEADER + 2 * per_side) as u64;
    if bytes.len() < HEADER {
        return Err(FileError::Truncated {
            found: bytes.len() as u64,
            expected: expected_len,
        });
    }
    if bytes[..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(FileError::Version(version, VERSION));
    }
    let name = String::from_utf8_lossy(&bytes[12..28])
        .trim_end_matches('\0')
        .to_owned();
    let stored_variant = match (bytes[28], bytes[29]) {
        (0, _) => Some(Variant::Standard),
        (1, sq) if sq < 64 => Some(Variant::FixedKing(Square::new(u32::from(sq)))),
        _ => None,
    };
    if name != material.to_string() || stored_variant != Some(variant) {
        return Err(FileError::WrongTable {
            found: format!(
                "{name} ({})",
                stored_variant.map_or("unknown variant".to_owned(), |v| v.to_string())
            ),
            expected: format!("{material} ({variant})"),
        });
    }
    let stored_per_side = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
    if bytes.len() as u64 != expected_len || stored_per_side != per_side as u64 {
        return Err(FileError::Truncated {
            found: bytes.len() as u64,
            expected: expected_len,
        });
    }
    let stored_sum = u32::from_le_bytes(bytes[40..44].try_into().expect("4 bytes"));
    let (white, black) = bytes[HEADER..].split_at(per_side);
    if checksum(&ByColor { white, black }) != stored_sum {
        return Err(FileError::Checksum);
    }
    let mut bytes = bytes;
    let black = bytes.split_off(HEADER + per_side);
    let white = bytes.split_off(HEADER);
    Ok(Table::from_parts(
        material.clone(),
        variant,
        ByColor { white, black },
    ))
}
