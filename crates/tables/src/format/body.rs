//! Reading a table file: its verified body, a chunk at a time for probes, or
//! whole (or one side to move) into a table.

use std::{
    fs,
    path::{Path, PathBuf},
    sync::Arc,
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    error::FileError,
    format::{
        CHUNK, ReadError, chunk_place,
        chunks::{decompress_batch, decompress_chunk},
        guard::{decompressing, guarded, open_guarded},
        header::{read_index, read_overflow},
        read_time_limit,
        sequential::{HashedReader, read_chunks},
        verify::{Side, check_range, check_values},
    },
    material::Material,
    overflow::Overflow,
    rules::Rules,
    table::{Numbering, Table},
    variant::Variant,
};

/// The verified body of a table file: where its compressed chunks lie,
/// their lengths fitting the header, the checksums of the index (formats 5
/// and 6) or of the whole file (format 4) right, and the file kept open, from
/// which a chunk is read again when it is wanted. The cache writes a table
/// file whole under a new name and renames it, so the file kept open is
/// the one that was checked, whatever replaces it later.
pub(crate) struct Body {
    per_side: usize,
    /// The path it was opened at: its reads are guarded under it.
    path: PathBuf,
    file: Arc<fs::File>,
    /// Where each chunk lies in the file, white's chunks then black's.
    ranges: Vec<std::ops::Range<u64>>,
    /// The CRC-32 of each compressed chunk (formats 5 and 6), checked when
    /// the chunk is read.
    chunk_sums: Option<Vec<u32>>,
    overflow: Overflow,
}

impl Body {
    /// Reads a table file's header and index: header fields, length, and
    /// the chunks' lengths. From format 5 the index (the chunks' lengths and
    /// checksums, and the overflow list) has a checksum of its own, and
    /// the chunks are left unread, each checked when first wanted: a six-man
    /// file opens in milliseconds. A format 4 file is read front to back
    /// for its checksum, the chunks hashed, not kept.
    pub(crate) fn read(
        path: &Path,
        material: &Material,
        variant: Variant,
    ) -> Result<Body, ReadError> {
        let (file, file_len) = open_guarded(path)?;
        let reader = file.try_clone()?;
        let material = material.clone();
        let (layout, lengths, chunk_sums, listed) =
            guarded(path, read_time_limit(file_len), move |deadline| {
                let (mut body, layout) =
                    HashedReader::after_header(reader, file_len, &material, variant, deadline)?;
                if layout.chunk_sums {
                    let index = read_index(&body.file, &layout)?;
                    return Ok((layout, index.lengths, Some(index.chunk_sums), index.listed));
                }
                let (lengths, listed) = read_chunks(&mut body, &layout, &[], |_| Ok(()))?;
                Ok((layout, lengths, None, listed))
            })?;
        let mut ranges = Vec::with_capacity(layout.chunks);
        let mut offset = layout.chunks_start();
        for length in lengths {
            let end = offset + length as u64;
            ranges.push(offset..end);
            offset = end;
        }
        let overflow = read_overflow(&listed, layout.limit, layout.per_side)?;
        Ok(Body {
            per_side: layout.per_side,
            path: path.to_path_buf(),
            file: Arc::new(file),
            ranges,
            chunk_sums,
            overflow,
        })
    }

    /// The overflow list, checked but for whether the listed bytes are DEEP
    /// (checked with each chunk).
    pub(crate) fn overflow(&self) -> &Overflow {
        &self.overflow
    }

    /// The chunk that holds `index` with `turn` to move, and where `index`
    /// lies in it.
    pub(crate) fn chunk_of(&self, index: usize, turn: Color) -> (usize, usize) {
        let side = match turn {
            Color::White => 0,
            Color::Black => self.ranges.len() / 2,
        };
        (side + index / CHUNK, index % CHUNK)
    }

    /// Checks every chunk's compressed bytes against its checksum (formats
    /// 5 and 6; a format 4 file was checked whole when read), without
    /// decompressing: a build checks the tables it will read so, and
    /// rebuilds a damaged one before it starts rather than fail on it.
    /// The chunks are checked on every core (a build waits for it); the
    /// first chunk that fails is the one reported.
    pub(crate) fn verify_chunks(&self) -> Result<(), FileError> {
        let Some(sums) = &self.chunk_sums else {
            return Ok(());
        };
        let failed = self.ranges.par_iter().zip(sums).enumerate().find_map_first(
            |(chunk, (range, &sum))| match self.compressed(range.clone()) {
                Err(err) => Some(err),
                Ok(bytes) if crc32fast::hash(&bytes) != sum => {
                    Some(FileError::ChunkChecksum { chunk })
                }
                Ok(_) => None,
            },
        );
        failed.map_or(Ok(()), Err)
    }

    /// The path the file was opened at.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The compressed bytes at `range` of the file, read under a time
    /// limit as every read of a table file is.
    fn compressed(&self, range: std::ops::Range<u64>) -> Result<Vec<u8>, FileError> {
        use std::os::unix::fs::FileExt;
        let file = Arc::clone(&self.file);
        let len = range.end - range.start;
        guarded(&self.path, read_time_limit(len), move |_| {
            let mut input = vec![0u8; len as usize];
            file.read_exact_at(&mut input, range.start)?;
            Ok(input)
        })
        .map_err(|err| match err {
            ReadError::Io(err) => FileError::ChunkRead(err.to_string()),
            ReadError::File(err) => err,
        })
    }

    /// Reads chunk `chunk` from the file and decompresses it into `out`,
    /// which must be its size.
    fn decompress_to(&self, chunk: usize, out: &mut [u8]) -> Result<(), FileError> {
        let input = self.compressed(self.ranges[chunk].clone())?;
        if let Some(sums) = &self.chunk_sums
            && crc32fast::hash(&input) != sums[chunk]
        {
            return Err(FileError::ChunkChecksum { chunk });
        }
        decompress_chunk(&input, out)
    }

    /// One chunk, decompressed and checked as [`check_values`] checks a
    /// whole table (the same sampled numbers, those that fall in it).
    pub(crate) fn chunk(
        &self,
        chunk: usize,
        material: &Material,
        numbering: &Numbering,
        rules: &Rules,
    ) -> Result<Box<[u8]>, FileError> {
        let (_, start) = chunk_place(chunk, self.ranges.len());
        let mut out = vec![0u8; self.chunk_len(start)].into_boxed_slice();
        self.chunk_into(chunk, &mut out, material, numbering, rules)?;
        Ok(out)
    }

    /// The numbers in the chunk of a side that starts at number `start`.
    pub(crate) fn chunk_len(&self, start: usize) -> usize {
        CHUNK.min(self.per_side - start)
    }

    /// [`Body::chunk`] into `out`, which must be the chunk's size: a
    /// window's chunks go straight to their place in it.
    pub(crate) fn chunk_into(
        &self,
        chunk: usize,
        out: &mut [u8],
        material: &Material,
        numbering: &Numbering,
        rules: &Rules,
    ) -> Result<(), FileError> {
        let (turn, start) = chunk_place(chunk, self.ranges.len());
        self.decompress_to(chunk, out)?;
        let side = Side {
            turn,
            material,
            numbering,
            rules,
            overflow: &self.overflow,
        };
        check_range(out, start, self.per_side, &side)
    }
}

/// Reads and verifies a table file: header fields, length (before the body
/// is read), checksum, the chunks' lengths, and the values themselves.
pub fn read(path: &Path, material: &Material, variant: Variant) -> Result<Table, ReadError> {
    read_sides(path, material, variant, &Color::ALL)
}

/// Reads and verifies a table file as [`read`] does, but holds the values
/// of the sides `sides` to move only (a build reads one side of most of
/// the tables its moves lead into). The file is read front to back, hashed
/// as it goes, and the chunks of `sides` decompressed a batch at a time:
/// neither the compressed body nor a side not asked for is held. Nothing
/// is returned before the checksum has been compared, and a checksum that
/// fails is the error reported even when a chunk failed to decompress
/// first, as in [`Body::read`].
pub(crate) fn read_sides(
    path: &Path,
    material: &Material,
    variant: Variant,
    sides: &[Color],
) -> Result<Table, ReadError> {
    let (file, file_len) = open_guarded(path)?;
    let (material, sides) = (material.clone(), sides.to_vec());
    let table = guarded(path, read_time_limit(file_len), move |deadline| {
        let (mut body, layout) =
            HashedReader::after_header(file, file_len, &material, variant, deadline)?;
        let mut values = ByColor::new_with(|turn| match sides.contains(&turn) {
            true => vec![0u8; layout.per_side],
            false => Vec::new(),
        });
        let (_, listed) = {
            let ByColor { white, black } = &mut values;
            let mut outputs = white.chunks_mut(CHUNK).chain(black.chunks_mut(CHUNK));
            read_chunks(&mut body, &layout, &sides, |batch| {
                let mut batch = batch
                    .into_iter()
                    .map(|(_, input)| {
                        let out = outputs.next().expect("one output a chunk of a side read");
                        (input, out)
                    })
                    .collect();
                decompressing().install(|| decompress_batch(&mut batch))
            })?
        };
        let overflow = read_overflow(&listed, layout.limit, layout.per_side)?;
        Ok(Table::from_parts(material, variant, values, overflow))
    })?;
    check_values(&table)?;
    Ok(table)
}
