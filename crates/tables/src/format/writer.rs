//! Writing a table file: chunks compressed in parallel by a pool of
//! compressors, the index and the overflow list, under a temporary name
//! renamed into place.

use std::{
    fs,
    io::{self, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    sync::Mutex,
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    MAGIC, VERSION, file_name,
    format::{
        CHUNK, HEADER, LEVEL, PLIES_BITS, chunk_count, guard::owned_temporary, header::index_len,
        header_start, temporary,
    },
    material::Material,
    overflow::Overflow,
    sync::lock,
    table::{Numbering, Table},
    variant::Variant,
};

/// The overflow list as stored in a file.
fn overflow_entries(overflow: &Overflow) -> Vec<u8> {
    let mut out = Vec::new();
    for (side, turn) in Color::ALL.into_iter().enumerate() {
        for &(index, plies) in overflow.side(turn) {
            let entry = (side as u64) << 63 | (index as u64) << PLIES_BITS | u64::from(plies);
            out.extend_from_slice(&entry.to_le_bytes());
        }
    }
    out
}

/// Chunks compressed at a time per thread: enough to keep every core
/// busy, few enough that little compressed data is held.
const BATCH_PER_THREAD: usize = 2;

/// A compressor of chunks and its output buffer, one for each thread of a
/// write, kept from chunk to chunk: made afresh for every batch, the
/// contexts and the megabyte buffers came and went so often that the
/// allocator's heap grew by a few MiB over a five-man write (measured:
/// KQRvKR's peak rose from 257.4 to 262.1 MB while its file was written).
/// Level 1's own hash and chain tables (2^13 and 2^12 entries for a
/// 1 MiB chunk) are small: the compressors add little to a build's peak.
struct Compressing {
    compressor: zstd::bulk::Compressor<'static>,
    buffer: Vec<u8>,
}

impl Compressing {
    pub(crate) fn new() -> io::Result<Compressing> {
        Ok(Compressing {
            compressor: zstd::bulk::Compressor::new(LEVEL)?,
            buffer: Vec::with_capacity(zstd::zstd_safe::compress_bound(CHUNK)),
        })
    }

    /// The chunk compressed, in a vector of its own length.
    fn compress(&mut self, chunk: &[u8]) -> io::Result<Vec<u8>> {
        self.buffer.clear();
        self.compressor
            .compress_to_buffer(chunk, &mut self.buffer)?;
        Ok(self.buffer.clone())
    }
}

/// Compresses `chunk` with the compressor of the rayon thread it runs on,
/// made at its first chunk.
fn compress(pool: &[Mutex<Option<Compressing>>], chunk: &[u8]) -> io::Result<Vec<u8>> {
    let thread = rayon::current_thread_index().unwrap_or(0) % pool.len();
    let mut slot = lock(&pool[thread]);
    let compressing = match &mut *slot {
        Some(compressing) => compressing,
        None => slot.insert(Compressing::new()?),
    };
    compressing.compress(chunk)
}

/// A table file written as its bytes come, each side in number order:
/// full chunks are compressed a batch at a time and written at once, so
/// that a build need not hold the whole table. White's chunks go into the
/// file; black's, while white's are not all written, into a scratch file
/// that is copied in after white's last chunk. The header and the chunk
/// lengths, known last, go in at the end; the file takes its name only
/// when complete ([`FileWriter::finish`]).
pub(crate) struct FileWriter {
    dir: PathBuf,
    path: PathBuf,
    file: tempfile::NamedTempFile,
    scratch: Option<io::BufWriter<fs::File>>,
    material: Material,
    variant: Variant,
    per_side: usize,
    /// Bytes of each side taken so far.
    taken: ByColor<usize>,
    /// The start of each side's next chunk, short of a chunk.
    pending: ByColor<Vec<u8>>,
    lengths: ByColor<Vec<u8>>,
    /// The CRC-32 of each compressed chunk.
    chunk_sums: ByColor<Vec<u8>>,
    data_sums: ByColor<crc32fast::Hasher>,
    data: u64,
    compressors: Vec<Mutex<Option<Compressing>>>,
}

impl FileWriter {
    /// Starts the file of the table of `material` in `variant` in `dir`,
    /// under a temporary name.
    pub(crate) fn create(
        dir: &Path,
        material: &Material,
        variant: Variant,
    ) -> io::Result<FileWriter> {
        fs::create_dir_all(dir)?;
        let name = file_name(material, variant);
        let (prefix, suffix) = temporary(&name);
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(suffix);
        // Readable by all, like any file the user creates (tempfile's
        // default is private).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
        // Locked while it is written: no other process removes it as a
        // dead writer's, however long this one pauses.
        let mut file = owned_temporary(&builder, dir)?;
        let per_side = Numbering::new(material, variant).size();
        file.write_all(&vec![0u8; HEADER + index_len(chunk_count(per_side), true)])?;
        Ok(FileWriter {
            dir: dir.to_path_buf(),
            path: dir.join(name),
            file,
            scratch: Some(io::BufWriter::new(tempfile::tempfile_in(dir)?)),
            material: material.clone(),
            variant,
            per_side,
            taken: ByColor::default(),
            pending: ByColor::default(),
            lengths: ByColor::default(),
            chunk_sums: ByColor::default(),
            data_sums: ByColor::default(),
            data: 0,
            compressors: (0..rayon::current_num_threads())
                .map(|_| Mutex::new(None))
                .collect(),
        })
    }

    /// Takes the next `bytes` of side `turn`.
    pub(crate) fn append(&mut self, turn: Color, mut bytes: &[u8]) -> io::Result<()> {
        if self.taken[turn] + bytes.len() > self.per_side {
            return Err(io::Error::other("more bytes than the table has"));
        }
        self.taken[turn] += bytes.len();
        let last = self.taken[turn] == self.per_side;
        if !self.pending[turn].is_empty() {
            let fill = (CHUNK - self.pending[turn].len()).min(bytes.len());
            self.pending[turn].extend_from_slice(&bytes[..fill]);
            bytes = &bytes[fill..];
            if self.pending[turn].len() == CHUNK || last && bytes.is_empty() {
                let chunk = std::mem::take(&mut self.pending[turn]);
                self.put(turn, &[&chunk])?;
            }
        }
        let whole = if last {
            bytes.len()
        } else {
            bytes.len() / CHUNK * CHUNK
        };
        let chunks: Vec<&[u8]> = bytes[..whole].chunks(CHUNK).collect();
        self.put(turn, &chunks)?;
        self.pending[turn].extend_from_slice(&bytes[whole..]);
        if turn == Color::White && last {
            self.black_into_file()?;
        }
        Ok(())
    }

    /// Compresses `chunks` of side `turn`, in parallel, and writes them.
    fn put(&mut self, turn: Color, chunks: &[&[u8]]) -> io::Result<()> {
        let batch = BATCH_PER_THREAD * self.compressors.len();
        for batch in chunks.chunks(batch) {
            let compressed = batch
                .par_iter()
                .map(|chunk| compress(&self.compressors, chunk))
                .collect::<io::Result<Vec<_>>>()?;
            for chunk in compressed {
                match (&mut self.scratch, turn) {
                    (Some(scratch), Color::Black) => scratch.write_all(&chunk)?,
                    _ => self.file.write_all(&chunk)?,
                }
                self.data_sums[turn].update(&chunk);
                self.data += chunk.len() as u64;
                self.lengths[turn].extend_from_slice(&(chunk.len() as u32).to_le_bytes());
                self.chunk_sums[turn].extend_from_slice(&crc32fast::hash(&chunk).to_le_bytes());
            }
        }
        Ok(())
    }

    /// Once white's chunks are all written: black's written so far go in
    /// after them, and the rest straight into the file.
    fn black_into_file(&mut self) -> io::Result<()> {
        if let Some(scratch) = self.scratch.take() {
            let mut scratch = scratch.into_inner().map_err(|e| e.into_error())?;
            scratch.seek(SeekFrom::Start(0))?;
            io::copy(&mut scratch, self.file.as_file_mut())?;
        }
        Ok(())
    }

    /// Ends the file with the overflow list, the header and the chunk
    /// lengths, syncs it and gives it its name: returns its path.
    pub(crate) fn finish(mut self, overflow: &Overflow) -> io::Result<PathBuf> {
        if self.taken.iter().any(|&taken| taken != self.per_side) {
            return Err(io::Error::other("fewer bytes than the table has"));
        }
        let entries = overflow_entries(overflow);
        self.file.write_all(&entries)?;
        let mut index = std::mem::take(&mut self.lengths.white);
        index.extend_from_slice(&self.lengths.black);
        index.extend_from_slice(&self.chunk_sums.white);
        index.extend_from_slice(&self.chunk_sums.black);
        let mut index_sum = crc32fast::Hasher::new();
        index_sum.update(&index);
        index_sum.update(&entries);
        index.extend_from_slice(&index_sum.finalize().to_le_bytes());
        let mut sum = crc32fast::Hasher::new();
        sum.update(&index);
        for data_sum in &self.data_sums {
            sum.combine(data_sum);
        }
        sum.update(&entries);

        let mut head = header_start(&MAGIC, VERSION, &self.material);
        match self.variant {
            Variant::Standard => head.extend_from_slice(&[0, 0]),
            Variant::FixedKing(sq) => head.extend_from_slice(&[1, u8::from(sq)]),
        }
        head.extend_from_slice(&overflow.limit().to_le_bytes());
        head.extend_from_slice(&(self.per_side as u64).to_le_bytes());
        head.extend_from_slice(&(CHUNK as u32).to_le_bytes());
        head.extend_from_slice(&(chunk_count(self.per_side) as u32).to_le_bytes());
        head.extend_from_slice(&self.data.to_le_bytes());
        head.extend_from_slice(&sum.finalize().to_le_bytes());
        head.extend_from_slice(&((entries.len() / 8) as u32).to_le_bytes());
        self.file.seek(SeekFrom::Start(0))?;
        self.file.write_all(&head)?;
        self.file.write_all(&index)?;
        self.file.as_file().sync_all()?;
        self.file.persist(&self.path).map_err(|e| e.error)?;
        // The rename itself is made durable by syncing the folder.
        if let Ok(folder) = fs::File::open(&self.dir) {
            let _ = folder.sync_all();
        }
        Ok(self.path)
    }
}

/// Writes a table atomically: to a temporary file in the same folder,
/// synced, then renamed over the final name.
pub fn write(dir: &Path, table: &Table) -> io::Result<PathBuf> {
    let mut writer = FileWriter::create(dir, table.material(), table.variant())?;
    for turn in Color::ALL {
        writer.append(turn, table.bytes(turn))?;
    }
    writer.finish(table.overflow())
}
