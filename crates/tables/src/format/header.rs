//! The header and index of a table file, checked against the table asked for,
//! and the overflow list read back.

use std::fs;

use shakmaty::{ByColor, Color, Square};

use crate::{
    MAGIC, VERSION,
    error::FileError,
    format::{
        CHUNK, HEADER, PLIES_BITS, ReadError, VERSION_2, VERSION_3, VERSION_4, VERSION_5,
        chunk_count, le_u32, le_u64,
    },
    material::Material,
    overflow::Overflow,
    table::Numbering,
    value::{HARD_MAX_PLIES, MAX_PLIES},
    variant::Variant,
};

/// Reads and checks an overflow list: increasing, numbers in range,
/// plies past the limit and within the bound. Whether the listed bytes
/// are DEEP is checked with the bytes.
pub(crate) fn read_overflow(
    bytes: &[u8],
    limit: u16,
    per_side: usize,
) -> Result<Overflow, FileError> {
    let mut sides = ByColor::new_with(|_| Vec::new());
    let mut last = None;
    for entry in bytes.chunks(8) {
        let entry = le_u64(entry);
        if last.is_some_and(|last| entry <= last) {
            return Err(FileError::Overflow("entries out of order"));
        }
        last = Some(entry);
        let turn = if entry >> 63 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let index = ((entry & !(1 << 63)) >> PLIES_BITS) as usize;
        let plies = (entry & ((1 << PLIES_BITS) - 1)) as u16;
        if index >= per_side {
            return Err(FileError::Overflow("a number out of range"));
        }
        if plies <= limit || plies > HARD_MAX_PLIES {
            return Err(FileError::Overflow(
                "plies not past the limit, or over 1023",
            ));
        }
        sides[turn].push((index, plies));
    }
    Ok(Overflow::new(limit, sides))
}

/// The fields of a header that has been checked against the table asked
/// for.
pub(crate) struct Header {
    pub(crate) per_side: usize,
    pub(crate) chunks: usize,
    pub(crate) data: u64,
    /// The overflow limit and the number of entries.
    pub(crate) limit: u16,
    pub(crate) entries: u64,
    /// Each chunk has its checksum (formats 5 and 6).
    pub(crate) chunk_sums: bool,
}

impl Header {
    /// Only for sizes within the bounds `check_header` sets, which keep the
    /// sum far from overflowing.
    pub(crate) fn file_len(&self) -> u64 {
        self.chunks_start() + self.data + 8 * self.entries
    }

    /// Where the first chunk starts.
    pub(crate) fn chunks_start(&self) -> u64 {
        (HEADER + index_len(self.chunks, self.chunk_sums)) as u64
    }
}

/// The bytes between the header and the chunks: their lengths, and in
/// formats 5 and 6 their checksums and the index's own.
pub(crate) fn index_len(chunks: usize, chunk_sums: bool) -> usize {
    if chunk_sums {
        8 * chunks + 4
    } else {
        4 * chunks
    }
}

/// Checks a header against the table asked for.
pub(crate) fn check_header(
    head: &[u8],
    file_len: u64,
    material: &Material,
    variant: Variant,
) -> Result<Header, FileError> {
    let per_side = Numbering::new(material, variant).size();
    if head.len() < HEADER {
        return Err(FileError::Truncated {
            found: file_len,
            expected: HEADER as u64,
        });
    }
    if head[..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    let version = le_u32(&head[8..12]);
    let numbered_as_before = material.has_pawns() || material.len() <= 3;
    let readable = match version {
        VERSION => true,
        VERSION_5 | VERSION_4 => numbered_as_before,
        VERSION_3 | VERSION_2 => numbered_as_before && !material.has_pawns(),
        _ => false,
    };
    if !readable {
        return Err(FileError::Version(version, VERSION));
    }
    let name = String::from_utf8_lossy(&head[12..28])
        .trim_end_matches('\0')
        .to_owned();
    let stored_variant = match (head[28], head[29]) {
        (0, 0) => Some(Variant::Standard),
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
    let (limit, entries) = if version == VERSION_2 {
        if head[30..32] != [0, 0] || head[60..64] != [0; 4] {
            return Err(FileError::Reserved);
        }
        (MAX_PLIES, 0)
    } else {
        (
            u16::from_le_bytes([head[30], head[31]]),
            u64::from(le_u32(&head[60..64])),
        )
    };
    if limit > MAX_PLIES {
        return Err(FileError::Overflow("the limit is over 250 plies"));
    }
    let chunks = chunk_count(per_side);
    if le_u64(&head[32..40]) != per_side as u64
        || le_u32(&head[40..44]) as usize != CHUNK
        || le_u32(&head[44..48]) as usize != chunks
    {
        return Err(FileError::Sizes);
    }
    let layout = Header {
        per_side,
        chunks,
        data: le_u64(&head[48..56]),
        limit,
        entries,
        chunk_sums: version >= VERSION_5,
    };
    // A file is read whole once its length matches the header, so the
    // header must not promise more than the table can need: every chunk
    // at zstd's bound, and at most one overflow entry a position.
    let data_bound = chunks as u64 * zstd::zstd_safe::compress_bound(CHUNK) as u64;
    if layout.data > data_bound || layout.entries > 2 * per_side as u64 {
        return Err(FileError::Sizes);
    }
    let expected = layout.file_len();
    if file_len != expected {
        return Err(FileError::Truncated {
            found: file_len,
            expected,
        });
    }
    Ok(layout)
}

/// The index of a format 5 or 6 file: its chunks' lengths and CRC-32s, and its
/// overflow list's bytes.
pub(crate) struct Index {
    pub(crate) lengths: Vec<usize>,
    pub(crate) chunk_sums: Vec<u32>,
    pub(crate) listed: Vec<u8>,
}

/// The index of a format 5 or 6 file whose header's layout is `layout`, once
/// the index's checksum is right and the lengths fit the header.
pub(crate) fn read_index(file: &fs::File, layout: &Header) -> Result<Index, ReadError> {
    use std::os::unix::fs::FileExt;
    let mut index = vec![0u8; index_len(layout.chunks, true)];
    file.read_exact_at(&mut index, HEADER as u64)?;
    let mut listed = vec![0u8; 8 * layout.entries as usize];
    file.read_exact_at(&mut listed, layout.file_len() - 8 * layout.entries)?;
    let (words, stored) = index.split_at(index.len() - 4);
    let mut sum = crc32fast::Hasher::new();
    sum.update(words);
    sum.update(&listed);
    if sum.finalize() != le_u32(stored) {
        return Err(FileError::Checksum.into());
    }
    let (lengths, sums) = words.split_at(4 * layout.chunks);
    let lengths: Vec<usize> = lengths.chunks(4).map(|l| le_u32(l) as usize).collect();
    if lengths.iter().map(|&l| l as u64).sum::<u64>() != layout.data {
        return Err(FileError::Sizes.into());
    }
    Ok(Index {
        lengths,
        chunk_sums: sums.chunks(4).map(le_u32).collect(),
        listed,
    })
}
