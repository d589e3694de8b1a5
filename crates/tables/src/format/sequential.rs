//! Reading a table file front to back under a deadline, every byte hashed:
//! format 4's whole-file check and a table's counts straight from its file.

use std::{fs, path::Path};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    error::FileError,
    format::{
        CHUNK, HEADER, ReadError, chunk_place,
        chunks::{DECOMPRESSED_AT_ONCE, decompress_chunk},
        guard::{Deadline, decompressing, guarded_telling, open_guarded, read_before},
        header::{Header, check_header, index_len, read_overflow},
        le_u32, read_time_limit,
        verify::{Side, check_range},
    },
    material::Material,
    rules::Rules,
    summary::{SideCounter, SideSummary, TableCounter},
    table::Numbering,
    variant::Variant,
};

/// A table file after its header, read in order under a deadline, every
/// byte hashed for the checksum.
pub(crate) struct HashedReader {
    pub(crate) file: fs::File,
    hasher: crc32fast::Hasher,
    /// The header's checksum of everything after it.
    checksum: u32,
    deadline: Deadline,
    position: u64,
    file_len: u64,
}

impl HashedReader {
    /// Reads the header of `file` (`file_len` long) and checks it against
    /// the table asked for: the reader then stands at the body.
    pub(crate) fn after_header(
        mut file: fs::File,
        file_len: u64,
        material: &Material,
        variant: Variant,
        deadline: Deadline,
    ) -> Result<(HashedReader, Header), ReadError> {
        let head = read_before(&mut file, HEADER as u64, deadline)?;
        let layout = check_header(&head, file_len, material, variant)?;
        let reader = HashedReader {
            file,
            hasher: crc32fast::Hasher::new(),
            checksum: le_u32(&head[56..60]),
            deadline,
            position: HEADER as u64,
            file_len,
        };
        Ok((reader, layout))
    }

    /// Whether what was read hashes to the header's checksum.
    pub(crate) fn check_sum(&self) -> Result<(), FileError> {
        match self.hasher.clone().finalize() == self.checksum {
            true => Ok(()),
            false => Err(FileError::Checksum),
        }
    }

    /// The next `len` bytes; fewer is a truncated file.
    pub(crate) fn take(&mut self, len: usize) -> Result<Vec<u8>, ReadError> {
        let bytes = read_before(&mut self.file, len as u64, self.deadline)?;
        self.position += bytes.len() as u64;
        if bytes.len() < len {
            // Shortened since its length was read.
            return Err(FileError::Truncated {
                found: self.position,
                expected: self.file_len,
            }
            .into());
        }
        self.hasher.update(&bytes);
        Ok(bytes)
    }

    /// Reads and hashes the next `len` bytes without keeping them.
    pub(crate) fn skip(&mut self, len: u64) -> Result<(), ReadError> {
        const PIECE: u64 = 1 << 20;
        let mut left = len;
        while left > 0 {
            let piece = left.min(PIECE);
            self.take(piece as usize)?;
            left -= piece;
        }
        Ok(())
    }
}

/// The counts of a table file, read front to back as [`read_sides`](super::read_sides) reads
/// it, each chunk checked as [`read`](super::read) checks the whole and counted as it
/// comes: only a batch of chunks is in memory. The overflow list, which
/// ends the file and which the chunks' checks need, is read first, out of
/// order, and again in order, hashed with the rest: nothing is returned
/// before the checksum is right and the two reads agree. `counted` hears
/// the numbers counted so far (both sides), of all.
pub fn summarize_file(
    path: &Path,
    material: &Material,
    variant: Variant,
    counted: &dyn Fn(u64, u64),
) -> Result<ByColor<SideSummary>, ReadError> {
    use std::os::unix::fs::FileExt;
    let (file, file_len) = open_guarded(path)?;
    let ahead = file.try_clone()?;
    let material = material.clone();
    let read = move |deadline, counted: &dyn Fn(u64, u64)| {
        let (mut body, layout) =
            HashedReader::after_header(file, file_len, &material, variant, deadline)?;
        let mut listed = vec![0u8; 8 * layout.entries as usize];
        ahead.read_exact_at(&mut listed, layout.file_len() - 8 * layout.entries)?;
        let overflow = match read_overflow(&listed, layout.limit, layout.per_side) {
            Ok(overflow) => overflow,
            Err(err) => {
                read_chunks(&mut body, &layout, &[], |_| Ok(()))?;
                return Err(err.into());
            }
        };
        let rules = Rules::new(&material, variant);
        let mut table = TableCounter::new(&material, Numbering::new(&material, variant));
        let numbering = table.numbering().clone();
        let total = 2 * layout.per_side as u64;
        let mut done = 0;
        counted(done, total);
        let (_, in_order) = read_chunks(&mut body, &layout, &Color::ALL, |batch| {
            // Each chunk decompressed, checked and counted on its own
            // core; only the counts are merged here.
            let counted_chunks = decompressing().install(|| {
                batch
                    .into_par_iter()
                    .map(|(chunk, input)| {
                        let (turn, start) = chunk_place(chunk, layout.chunks);
                        let mut bytes = vec![0u8; CHUNK.min(layout.per_side - start)];
                        decompress_chunk(&input, &mut bytes)?;
                        let side = Side {
                            turn,
                            material: &material,
                            numbering: &numbering,
                            rules: &rules,
                            overflow: &overflow,
                        };
                        check_range(&bytes, start, layout.per_side, &side)?;
                        let mut counter = SideCounter::new();
                        counter.add(&numbering, start, &bytes);
                        Ok((turn, bytes.len(), counter))
                    })
                    .collect::<Result<Vec<_>, FileError>>()
            })?;
            for (turn, len, counter) in counted_chunks {
                table.merge(turn, counter);
                done += len as u64;
            }
            counted(done, total);
            Ok(())
        })?;
        if in_order != listed {
            return Err(FileError::Overflow("changed while it was read").into());
        }
        Ok(table.finish(&overflow))
    };
    guarded_telling(path, read_time_limit(file_len), read, counted)
}

/// Reads the rest of a table file from `body` (standing after the header)
/// front to back, and hands the chunks of the sides `sides` to `batch`,
/// compressed, with their numbers, a batch of about
/// [`DECOMPRESSED_AT_ONCE`] bytes at a time; the other chunks are hashed
/// unkept. Returns the chunks' lengths and the overflow list's bytes once
/// the checksum is right.
/// A bad checksum is the error reported even when a batch failed first;
/// after it, chunks that do not fit the file, then the first batch's
/// error.
pub(crate) fn read_chunks(
    body: &mut HashedReader,
    layout: &Header,
    sides: &[Color],
    mut batch: impl FnMut(Vec<(usize, Vec<u8>)>) -> Result<(), FileError>,
) -> Result<(Vec<usize>, Vec<u8>), ReadError> {
    let lengths: Vec<usize> = body
        .take(4 * layout.chunks)?
        .chunks(4)
        .map(|length| le_u32(length) as usize)
        .collect();
    if layout.chunk_sums {
        // Hashed with the rest; a whole read checks the file's checksum.
        body.take(index_len(layout.chunks, true) - 4 * layout.chunks)?;
    }
    let chunks_fit = lengths.iter().map(|&l| l as u64).sum::<u64>() == layout.data;
    let mut failed = None;
    if chunks_fit {
        let mut pending = Vec::new();
        let mut batched = 0;
        for (chunk, &length) in lengths.iter().enumerate() {
            let (turn, _) = chunk_place(chunk, layout.chunks);
            if !sides.contains(&turn) {
                body.skip(length as u64)?;
                continue;
            }
            batched += length;
            pending.push((chunk, body.take(length)?));
            if batched >= DECOMPRESSED_AT_ONCE {
                failed = failed.or(batch(std::mem::take(&mut pending)).err());
                batched = 0;
            }
        }
        failed = failed.or(batch(pending).err());
    } else {
        body.skip(layout.data)?;
    }
    let listed = body.take(8 * layout.entries as usize)?;
    body.check_sum()?;
    if !chunks_fit {
        return Err(FileError::Sizes.into());
    }
    match failed {
        Some(err) => Err(err.into()),
        None => Ok((lengths, listed)),
    }
}
