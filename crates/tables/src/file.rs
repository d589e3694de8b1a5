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

use std::{
    cell::RefCell,
    fs,
    io::{self, Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    sync::{Mutex, OnceLock, mpsc},
    thread,
    time::{Duration, Instant},
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color, Square};

use crate::{
    error::FileError,
    material::Material,
    overflow::Overflow,
    pawn,
    rules::Rules,
    summary::{SideCounter, SideSummary, TableCounter},
    table::{Numbering, Table},
    value::{DEEP, HARD_MAX_PLIES, ILLEGAL, MAX_PLIES, encode_plies},
    variant::Variant,
};

pub const MAGIC: [u8; 8] = *b"AJEDTBL\x1a";
pub const VERSION: u32 = 6;
/// Format 5 numbered every man after the kings of a pawnless table over 64
/// squares; format 6 numbers those between the kings and the last over the
/// 62 the kings leave (`crate::index`). Earlier files are read only for
/// the tables numbered the same in both: with pawns, or of three men.
const VERSION_5: u32 = 5;
/// Format 4 had no checksum of each chunk: a file is checked whole when
/// opened.
const VERSION_4: u32 = 4;
/// The last version without the overflow, still read.
const VERSION_2: u32 = 2;
/// Format 3 numbered a table with pawns by its first pawn's place: only its
/// pawnless tables are still read.
const VERSION_3: u32 = 3;
/// Bits of an overflow entry that hold the plies.
const PLIES_BITS: u32 = 16;
const HEADER: usize = 64;
/// Numbers per chunk.
pub(crate) const CHUNK: usize = 1 << 20;
/// zstd's level, the fastest: writing KQRvKR takes about 1.4 s less CPU
/// than at level 6, for a file of 48.4 MB instead of 45.3 MB
/// (docs/tables.md).
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

/// Reads and checks an overflow list: increasing, numbers in range,
/// plies past the limit and within the bound. Whether the listed bytes
/// are DEEP is checked with the bytes.
fn read_overflow(bytes: &[u8], limit: u16, per_side: usize) -> Result<Overflow, FileError> {
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
    fn new() -> io::Result<Compressing> {
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
    let mut slot = pool[thread].lock().expect("no poisoning");
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
        let mut file = builder.tempfile_in(dir)?;
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

/// Temporary files older than this are left from a writer that died.
const STALE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes temporary files of `name` left behind by writers that died (an
/// hour old: a younger one may be another process's write in progress).
pub fn remove_stale(dir: &Path, name: &str) {
    let (prefix, suffix) = temporary(name);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE));
        if old && file.starts_with(&prefix) && file.ends_with(suffix) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Opens a table file for reading, refusing anything but a regular file
/// without waiting: a FIFO's open waits for a writer and its reads for
/// data, a device's may never end, so each would hang its reader (a
/// request worker of the server for good). The open does not block
/// (`O_NONBLOCK`, which regular files ignore), and the kind is then read
/// from the open file itself.
fn open_regular(path: &Path) -> Result<fs::File, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(FileError::NotRegular.into());
    }
    Ok(file)
}

/// How long reading a table file may take: 30 s, and 1 s more for every
/// 8 MiB of it. A regular file can still hang its reader (a network mount
/// that stopped answering, a failing disk); past this the read is given up
/// and the file treated as unusable.
pub(crate) fn read_time_limit(file_len: u64) -> Duration {
    Duration::from_secs(30 + file_len / (8 << 20))
}

/// When a read must have ended, and the limit that set it (named in the
/// error).
#[derive(Clone, Copy)]
struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    fn passed(self) -> ReadError {
        FileError::TimedOut { limit: self.limit }.into()
    }
}

/// Runs `read` on a thread of its own and waits for it at most `limit`:
/// a read that blocks leaves its caller on time with
/// [`FileError::TimedOut`]. `read` is given the deadline, so that a read
/// that goes on, only slowly, stops by itself (see [`read_before`]); one
/// blocked in the kernel ends when its `read` call returns.
fn within<T: Send + 'static>(
    limit: Duration,
    read: impl FnOnce(Deadline) -> Result<T, ReadError> + Send + 'static,
) -> Result<T, ReadError> {
    within_telling(limit, |deadline, _| read(deadline), &|_, _| {})
}

/// What the thread of a read run [`within_telling`] says.
enum Heard<T> {
    /// `done` of `total` steps of the read are done.
    Progress {
        done: u64,
        total: u64,
    },
    Answer(Result<T, ReadError>),
}

/// [`within`], with `read` given a way to tell its progress (steps done,
/// of a total), which `progress` hears on the caller's thread.
fn within_telling<T: Send + 'static>(
    limit: Duration,
    read: impl FnOnce(Deadline, &dyn Fn(u64, u64)) -> Result<T, ReadError> + Send + 'static,
    progress: &dyn Fn(u64, u64),
) -> Result<T, ReadError> {
    let deadline = Deadline {
        at: Instant::now() + limit,
        limit,
    };
    let (tell, heard) = mpsc::channel();
    thread::Builder::new()
        .name("table file read".into())
        .spawn(move || {
            // The caller may have gone on: nobody to tell then.
            let told = |done, total| {
                let _ = tell.send(Heard::Progress { done, total });
            };
            let answer = reading_pool().install(|| read(deadline, &told));
            let _ = tell.send(Heard::Answer(answer));
        })?;
    loop {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match heard.recv_timeout(left) {
            Ok(Heard::Progress { done, total }) => progress(done, total),
            Ok(Heard::Answer(result)) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(deadline.passed()),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other(
                    "the thread reading the table file ended without an answer",
                )
                .into());
            }
        }
    }
}

/// The threads table files are decompressed and checked on: their own,
/// not rayon's global pool, whose threads may all be waiting for reads
/// (probes on every one of them at once), which would then never start.
fn reading_pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("table file read {i}"))
            .build()
            .expect("threads to read table files")
    })
}

/// Up to `len` bytes of `reader` (fewer at its end), refused once the
/// deadline has passed: it is looked at after every `read` call.
fn read_before(reader: &mut impl Read, len: u64, deadline: Deadline) -> Result<Vec<u8>, ReadError> {
    const PIECE: usize = 1 << 20;
    let len = usize::try_from(len).map_err(|_| FileError::Layout)?;
    let mut bytes = Vec::with_capacity(len);
    loop {
        let filled = bytes.len();
        if filled == len {
            return Ok(bytes);
        }
        if Instant::now() >= deadline.at {
            return Err(deadline.passed());
        }
        bytes.resize(filled + PIECE.min(len - filled), 0);
        match reader.read(&mut bytes[filled..]) {
            Ok(0) => {
                bytes.truncate(filled);
                return Ok(bytes);
            }
            Ok(got) => bytes.truncate(filled + got),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => bytes.truncate(filled),
            Err(err) => return Err(err.into()),
        }
    }
}

/// The fields of a header that has been checked against the table asked
/// for.
struct Layout {
    per_side: usize,
    chunks: usize,
    data: u64,
    /// The overflow limit and the number of entries.
    limit: u16,
    entries: u64,
    /// Each chunk has its checksum (formats 5 and 6).
    chunk_sums: bool,
}

impl Layout {
    /// Only for sizes within the bounds `check_header` sets, which keep the
    /// sum far from overflowing.
    fn file_len(&self) -> u64 {
        self.chunks_start() + self.data + 8 * self.entries
    }

    /// Where the first chunk starts.
    fn chunks_start(&self) -> u64 {
        (HEADER + index_len(self.chunks, self.chunk_sums)) as u64
    }
}

/// The bytes between the header and the chunks: their lengths, and in
/// formats 5 and 6 their checksums and the index's own.
fn index_len(chunks: usize, chunk_sums: bool) -> usize {
    if chunk_sums {
        8 * chunks + 4
    } else {
        4 * chunks
    }
}

/// Checks a header against the table asked for.
fn check_header(
    head: &[u8],
    file_len: u64,
    material: &Material,
    variant: Variant,
) -> Result<Layout, FileError> {
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
        return Err(FileError::Layout);
    }
    let layout = Layout {
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
        return Err(FileError::Layout);
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

/// The verified body of a table file: where its compressed chunks lie,
/// their lengths fitting the header, the checksums of the index (formats 5
/// and 6) or of the whole file (format 4) right, and the file kept open, from
/// which a chunk is read again when it is wanted. The cache writes a table
/// file whole under a new name and renames it, so the file kept open is
/// the one that was checked, whatever replaces it later.
pub(crate) struct Body {
    per_side: usize,
    file: fs::File,
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
        let file = open_regular(path)?;
        let file_len = file.metadata()?.len();
        let reader = file.try_clone()?;
        let material = material.clone();
        let (layout, lengths, chunk_sums, listed) =
            within(read_time_limit(file_len), move |deadline| {
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
            file,
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

    /// The compressed bytes at `range` of the file.
    fn compressed(&self, range: std::ops::Range<u64>) -> Result<Vec<u8>, FileError> {
        use std::os::unix::fs::FileExt;
        let mut input = vec![0u8; (range.end - range.start) as usize];
        self.file
            .read_exact_at(&mut input, range.start)
            .map_err(|err| FileError::ChunkRead(err.to_string()))?;
        Ok(input)
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

/// The index of a format 5 or 6 file: its chunks' lengths and CRC-32s, and its
/// overflow list's bytes.
struct Index {
    lengths: Vec<usize>,
    chunk_sums: Vec<u32>,
    listed: Vec<u8>,
}

/// The index of a format 5 or 6 file whose header's layout is `layout`, once
/// the index's checksum is right and the lengths fit the header.
fn read_index(file: &fs::File, layout: &Layout) -> Result<Index, ReadError> {
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
        return Err(FileError::Layout.into());
    }
    Ok(Index {
        lengths,
        chunk_sums: sums.chunks(4).map(le_u32).collect(),
        listed,
    })
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
    let file = open_regular(path)?;
    let file_len = file.metadata()?.len();
    let (material, sides) = (material.clone(), sides.to_vec());
    let table = within(read_time_limit(file_len), move |deadline| {
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
                decompress_batch(&mut batch)
            })?
        };
        let overflow = read_overflow(&listed, layout.limit, layout.per_side)?;
        Ok(Table::from_parts(material, variant, values, overflow))
    })?;
    check_values(&table)?;
    Ok(table)
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
fn read_chunks(
    body: &mut HashedReader,
    layout: &Layout,
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
        return Err(FileError::Layout.into());
    }
    match failed {
        Some(err) => Err(err.into()),
        None => Ok((lengths, listed)),
    }
}

/// Compressed bytes read before the chunks among them are decompressed
/// (in parallel): about two chunks for each core.
const DECOMPRESSED_AT_ONCE: usize = 4 << 20;

/// Decompresses and empties a batch of (compressed chunk, its output).
fn decompress_batch(batch: &mut Vec<(Vec<u8>, &mut [u8])>) -> Result<(), FileError> {
    batch
        .par_drain(..)
        .try_for_each(|(input, out)| decompress_chunk(&input, out))
}

/// Decompresses one chunk into `out`, which must be its size.
fn decompress_chunk(input: &[u8], out: &mut [u8]) -> Result<(), FileError> {
    thread_local! {
        // A context a thread, made once: making one for each chunk cost a
        // tenth of reading a window.
        static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    let decompressed = DECOMPRESSOR.with_borrow_mut(|kept| {
        let decompressor = match kept {
            Some(decompressor) => decompressor,
            None => kept.insert(zstd::bulk::Decompressor::new()?),
        };
        decompressor.decompress_to_buffer(input, out)
    });
    match decompressed {
        Ok(n) if n == out.len() => Ok(()),
        _ => Err(FileError::Corrupt),
    }
}

/// A table file after its header, read in order under a deadline, every
/// byte hashed for the checksum.
struct HashedReader {
    file: fs::File,
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
    fn after_header(
        mut file: fs::File,
        file_len: u64,
        material: &Material,
        variant: Variant,
        deadline: Deadline,
    ) -> Result<(HashedReader, Layout), ReadError> {
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
    fn check_sum(&self) -> Result<(), FileError> {
        match self.hasher.clone().finalize() == self.checksum {
            true => Ok(()),
            false => Err(FileError::Checksum),
        }
    }

    /// The next `len` bytes; fewer is a truncated file.
    fn take(&mut self, len: usize) -> Result<Vec<u8>, ReadError> {
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
    fn skip(&mut self, len: u64) -> Result<(), ReadError> {
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

/// The counts of a table file, read front to back as [`read_sides`] reads
/// it, each chunk checked as [`read`] checks the whole and counted as it
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
    let file = open_regular(path)?;
    let file_len = file.metadata()?.len();
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
            let counted_chunks = batch
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
                .collect::<Result<Vec<_>, FileError>>()?;
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
    within_telling(read_time_limit(file_len), read, counted)
}

/// How many numbers of each side the semantic check samples.
const SAMPLES: usize = 4096;

/// Checks what a checksum cannot: that every byte is one the format allows,
/// and, on a sample of numbers, that illegal positions are marked illegal
/// and no others, and that checkmates are exactly the losses in 0 plies.
fn check_values(table: &Table) -> Result<(), FileError> {
    let rules = Rules::new(table.material(), table.variant());
    for turn in Color::ALL.into_iter().filter(|&turn| table.has_side(turn)) {
        let bytes = table.bytes(turn);
        let side = Side {
            turn,
            material: table.material(),
            numbering: table.numbering(),
            rules: &rules,
            overflow: table.overflow(),
        };
        check_range(bytes, 0, bytes.len(), &side)?;
    }
    Ok(())
}

/// Bytes a thread checks at a time in [`check_range`].
const CHECKED: usize = 1 << 16;

/// How many bytes of `bytes` pass `test`: counted in bytes, 255 at a time,
/// so that the compiler counts a vector of bytes an instruction (counted
/// in a `usize` the check took a third of the time of reading a chunk).
fn count_bytes(bytes: &[u8], test: impl Fn(u8) -> bool) -> usize {
    bytes
        .chunks(255)
        .map(|part| usize::from(part.iter().fold(0u8, |n, &b| n + u8::from(test(b)))))
        .sum()
}

/// [`check_values`] on the bytes of numbers `start..start + bytes.len()`
/// of a side with `per_side` numbers: the sampled numbers are the same
/// whether a side is checked whole or chunk by chunk.
fn check_range(bytes: &[u8], start: usize, per_side: usize, side: &Side) -> Result<(), FileError> {
    let turn = side.turn;
    let most = encode_plies(side.overflow.limit());
    let bad = |b: u8| b > most && b != ILLEGAL && b != DEEP;
    // Counted in plain loops over large pieces, which the compiler
    // vectorises; a bad byte is looked for only in a piece that has one.
    let (first_bad, deep) = bytes
        .par_chunks(CHECKED)
        .enumerate()
        .map(|(c, piece)| {
            let bads = count_bytes(piece, bad);
            let first_bad = (bads > 0)
                .then(|| piece.iter().position(|&b| bad(b)))
                .flatten()
                .map(|at| c * CHECKED + at);
            (first_bad, count_bytes(piece, |b| b == DEEP))
        })
        .reduce(
            || (None, 0),
            |(bad_a, deep_a), (bad_b, deep_b)| (bad_a.or(bad_b), deep_a + deep_b),
        );
    if let Some(at) = first_bad {
        return Err(FileError::BadValue {
            index: start + at,
            turn,
        });
    }
    // Every DEEP byte listed, and every listed number's byte DEEP.
    let listed = side.overflow.side(turn);
    let first = listed.partition_point(|&(i, _)| i < start);
    let inside = listed[first..].partition_point(|&(i, _)| i < start + bytes.len());
    if listed[first..first + inside]
        .iter()
        .any(|&(i, _)| bytes[i - start] != DEEP)
    {
        return Err(FileError::Overflow("a listed number's byte is not DEEP"));
    }
    if deep != inside {
        return Err(FileError::Overflow("a DEEP byte is not in the list"));
    }
    let step = (per_side / SAMPLES).max(1) | 1;
    let first = start.div_ceil(step) * step;
    for index in (first..start + bytes.len()).step_by(step) {
        let (legal, mated) = side.legal_and_mated(index);
        let byte = bytes[index - start];
        if (byte == ILLEGAL) == legal || (byte == encode_plies(0)) != mated {
            return Err(FileError::BadValue { index, turn });
        }
    }
    Ok(())
}

/// One side to move of a table, for the checks of its values.
pub(crate) struct Side<'a> {
    turn: Color,
    material: &'a Material,
    numbering: &'a Numbering,
    rules: &'a Rules,
    overflow: &'a Overflow,
}

impl Side<'_> {
    /// Whether number `index` is a legal position, and a checkmate.
    fn legal_and_mated(&self, index: usize) -> (bool, bool) {
        let Some(squares) = self.numbering.decode(index) else {
            return (false, false);
        };
        match self.numbering {
            Numbering::Pieces(_) => {
                let legal = self.rules.is_legal(&squares, self.turn);
                let mated = legal
                    && self.rules.in_check(&squares, self.turn)
                    && self.rules.moves_while(
                        &squares,
                        self.turn,
                        shakmaty::Bitboard::FULL,
                        |_| false,
                    );
                (legal, mated)
            }
            // A sample: shakmaty's rules, independent of the engine's.
            Numbering::Slices(_) => {
                match pawn::legal_position(self.material, &squares, self.turn) {
                    Some(pos) => (true, shakmaty::Position::is_checkmate(&pos)),
                    None => (false, false),
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{error::TableError, table::ChunkedTable, tablebase::Tablebase, value::UNDECIDED};

    fn krk() -> (Material, Arc<Table>) {
        let material: Material = "KRvK".parse().unwrap();
        let table = Tablebase::in_memory()
            .table(&material, Variant::Standard)
            .unwrap();
        (material, table)
    }

    proptest::proptest! {
        /// The count a vector at a time is the count a byte at a time,
        /// for any length (255-byte parts and a shorter last one).
        #[test]
        fn bytes_are_counted_as_one_by_one(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
            least in proptest::prelude::any::<u8>(),
        ) {
            let test = |b: u8| b >= least;
            let one_by_one = bytes.iter().filter(|&&b| test(b)).count();
            proptest::prop_assert_eq!(count_bytes(&bytes, test), one_by_one);
        }
    }

    /// Table `name` and its file in a new folder.
    fn table_file(name: &str) -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
        let material: Material = name.parse().unwrap();
        let table = Tablebase::in_memory()
            .table(&material, Variant::Standard)
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &table).unwrap();
        (material, table, dir, path)
    }

    /// KRvK and its file in a new folder.
    fn krk_file() -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
        table_file("KRvK")
    }

    /// KQvKR, two chunks a side, and its file.
    fn kqkr_file() -> (Material, Arc<Table>, tempfile::TempDir, PathBuf) {
        table_file("KQvKR")
    }

    /// Writes `bytes` at `path`: a file that does not open for a checksum.
    fn opening_fails_its_checksum(path: &Path, material: &Material, bytes: &[u8]) {
        fs::write(path, bytes).unwrap();
        assert!(matches!(
            ChunkedTable::open(path, material, Variant::Standard),
            Err(ReadError::File(FileError::Checksum))
        ));
    }

    /// The table with one byte changed, written as a valid file.
    fn forged(table: &Table, turn: Color, index: usize, byte: u8) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &table.with_byte(turn, index, byte)).unwrap();
        dir
    }

    /// The error of reading the table back, empty when it reads.
    fn read_back(dir: &tempfile::TempDir, material: &Material) -> String {
        read(
            &dir.path().join(file_name(material, Variant::Standard)),
            material,
            Variant::Standard,
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
    }

    #[test]
    fn a_written_table_reads_back_equal() {
        let (material, table) = krk();
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &table).unwrap();
        let back = read(
            &dir.path().join(file_name(&material, Variant::Standard)),
            &material,
            Variant::Standard,
        )
        .unwrap();
        for turn in Color::ALL {
            assert_eq!(back.bytes(turn), table.bytes(turn));
        }
    }

    /// The step between the numbers the semantic check samples (Black to
    /// move).
    fn sample_step(table: &Table) -> usize {
        (table.bytes(Color::Black).len() / SAMPLES).max(1) | 1
    }

    /// The first sampled number legal with Black to move.
    fn sampled_legal(material: &Material, table: &Table) -> usize {
        let rules = Rules::new(material, Variant::Standard);
        (0..table.bytes(Color::Black).len())
            .step_by(sample_step(table))
            .find(|&i| {
                table
                    .numbering()
                    .decode(i)
                    .is_some_and(|sq| rules.is_legal(&sq, Color::Black))
            })
            .unwrap()
    }

    #[test]
    fn a_forged_value_with_a_valid_checksum_is_refused() {
        let (material, table) = krk();
        let legal = (0..table.bytes(Color::White).len())
            .find(|&i| table.bytes(Color::White)[i] != ILLEGAL)
            .unwrap();
        // A byte the format does not have.
        let dir = forged(&table, Color::White, legal, 253);
        assert!(read_back(&dir, &material).contains("holds a value"));
        // A legal position marked illegal, at a sampled number.
        let sampled = sampled_legal(&material, &table);
        let dir = forged(&table, Color::Black, sampled, ILLEGAL);
        assert!(read_back(&dir, &material).contains("holds a value"));
        // A checkmate made a draw.
        let mate = (0..table.bytes(Color::Black).len())
            .step_by(sample_step(&table))
            .find(|&i| table.bytes(Color::Black)[i] == encode_plies(0))
            .expect("a sampled checkmate");
        let dir = forged(&table, Color::Black, mate, UNDECIDED);
        assert!(read_back(&dir, &material).contains("holds a value"));
    }

    #[test]
    fn probes_of_an_opened_file_equal_the_tables() {
        // KQvKR has two chunks a side.
        for material in ["KRvK", "KQvKR"] {
            let material: Material = material.parse().unwrap();
            let table = Tablebase::in_memory()
                .table(&material, Variant::Standard)
                .unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = write(dir.path(), &table).unwrap();
            let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
            let mut probed = 0;
            for turn in Color::ALL {
                for index in (0..table.bytes(turn).len()).step_by(7) {
                    if let Some(pos) = table.position(index, turn) {
                        assert_eq!(opened.probe(&pos).unwrap(), table.probe(&pos).unwrap());
                        probed += 1;
                    }
                }
            }
            assert!(probed > 1000, "{probed}");
        }
    }

    #[test]
    fn a_forged_chunk_is_found_by_a_probe_and_rebuilt() {
        let (material, table) = krk();
        let sampled = sampled_legal(&material, &table);
        let pos = table.position(sampled, Color::Black).unwrap();
        let dir = forged(&table, Color::Black, sampled, ILLEGAL);
        let path = dir.path().join(file_name(&material, Variant::Standard));
        let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
        assert!(matches!(
            opened.probe(&pos),
            Err(TableError::File(FileError::BadValue { .. }))
        ));
        // The tablebase reads the file whole, finds the fault and rebuilds.
        let tb = Tablebase::new(Some(dir.path().to_owned()));
        assert_eq!(
            tb.probe(&pos, Variant::Standard).unwrap(),
            table.probe(&pos).unwrap()
        );
        assert!(read_back(&dir, &material).is_empty());
    }

    /// Reads KRvK's file with the header's compressed length replaced by
    /// `forge(length)`, the file lengthened (sparse) to match when it can be.
    fn read_with_data_length(forge: impl Fn(u64) -> u64) -> Result<Table, ReadError> {
        let (material, _, _dir, path) = krk_file();
        let mut bytes = fs::read(&path).unwrap();
        let data = le_u64(&bytes[48..56]);
        let forged = forge(data);
        bytes[48..56].copy_from_slice(&forged.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        if let Some(extra) = forged.checked_sub(data).filter(|&extra| extra < 1 << 40) {
            let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.set_len(bytes.len() as u64 + extra).unwrap();
        }
        read(&path, &material, Variant::Standard)
    }

    #[test]
    fn a_header_promising_more_than_a_table_needs_is_refused_unread() {
        // Ten gigabytes more, on a sparse file of that length; and a length
        // whose sum with the others overflows.
        for forge in [|data| data + (10 << 30), |_| u64::MAX] {
            assert!(matches!(
                read_with_data_length(forge),
                Err(ReadError::File(FileError::Layout))
            ));
        }
    }

    #[test]
    fn a_chunk_that_does_not_decompress_is_corrupt_once_the_checksum_holds() {
        let (material, table, _dir, path) = krk_file();
        let mut bytes = fs::read(&path).unwrap();
        let first_chunk = HEADER + index_len(le_u32(&bytes[44..48]) as usize, true);
        bytes[first_chunk..first_chunk + 4].fill(0);
        fs::write(&path, &bytes).unwrap();
        let read_as = |sides: &[Color]| read_sides(&path, &material, Variant::Standard, sides);
        assert!(matches!(
            read_as(&Color::ALL),
            Err(ReadError::File(FileError::Checksum))
        ));
        let checksum = crc32fast::hash(&bytes[HEADER..]);
        bytes[56..60].copy_from_slice(&checksum.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        for sides in [&Color::ALL[..], &[Color::White]] {
            assert!(matches!(
                read_as(sides),
                Err(ReadError::File(FileError::Corrupt))
            ));
        }
        // Black's chunks are whole, and white's are not decompressed.
        let black = read_as(&[Color::Black]).unwrap();
        assert_eq!(black.bytes(Color::Black), table.bytes(Color::Black));
    }

    /// Rewrites a file of this format in the layout of format 4 (no
    /// checksum of each chunk) under format number `version`, with a valid
    /// checksum.
    fn as_format_4(path: &Path, version: u32) {
        let mut bytes = fs::read(path).unwrap();
        let chunks = le_u32(&bytes[44..48]) as usize;
        bytes.drain(HEADER + 4 * chunks..HEADER + index_len(chunks, true));
        bytes[8..12].copy_from_slice(&version.to_le_bytes());
        let sum = crc32fast::hash(&bytes[HEADER..]);
        bytes[56..60].copy_from_slice(&sum.to_le_bytes());
        fs::write(path, &bytes).unwrap();
    }

    /// Makes both checksums of a file of this format right again after a
    /// change: the index's, then the whole file's.
    fn fix_sums(bytes: &mut [u8]) {
        let chunks = le_u32(&bytes[44..48]) as usize;
        let entries = le_u32(&bytes[60..64]) as usize;
        let end = HEADER + index_len(chunks, true) - 4;
        let mut sum = crc32fast::Hasher::new();
        sum.update(&bytes[HEADER..end]);
        sum.update(&bytes[bytes.len() - 8 * entries..]);
        bytes[end..end + 4].copy_from_slice(&sum.finalize().to_le_bytes());
        let whole = crc32fast::hash(&bytes[HEADER..]);
        bytes[56..60].copy_from_slice(&whole.to_le_bytes());
    }

    /// A file's bytes as version 2 (no overflow), with a valid checksum.
    fn as_version_2(path: &Path) {
        assert_eq!(
            fs::read(path).unwrap()[60..64],
            [0; 4],
            "no overflow entries"
        );
        as_format_4(path, VERSION_2);
        let mut bytes = fs::read(path).unwrap();
        bytes[30..32].copy_from_slice(&[0, 0]);
        fs::write(path, &bytes).unwrap();
    }

    #[test]
    fn a_format_4_file_reads_and_opens_checked_whole() {
        let (material, table, _dir, path) = krk_file();
        as_format_4(&path, VERSION_4);
        let back = read(&path, &material, Variant::Standard).unwrap();
        let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
        for turn in Color::ALL {
            assert_eq!(back.bytes(turn), table.bytes(turn));
            for index in (0..table.bytes(turn).len()).step_by(101) {
                if let Some(pos) = table.position(index, turn) {
                    assert_eq!(opened.probe(&pos).unwrap(), table.probe(&pos).unwrap());
                }
            }
        }
        // Its checksum is of the whole file, read at the opening.
        let mut bytes = fs::read(&path).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        opening_fails_its_checksum(&path, &material, &bytes);
    }

    /// A pawnless table of four men or more was numbered otherwise before
    /// format 6: its older file is refused (and rebuilt by a tablebase,
    /// `a_format_5_file_is_rebuilt_where_the_numbering_changed`), where
    /// one of three men, numbered alike, still reads.
    #[test]
    fn a_file_numbered_as_before_format_6_is_refused() {
        for (name, readable) in [("KQvKR", false), ("KRvK", true)] {
            let (material, table, _dir, path) = table_file(name);
            let mut bytes = fs::read(&path).unwrap();
            bytes[8..12].copy_from_slice(&VERSION_5.to_le_bytes());
            let whole = crc32fast::hash(&bytes[HEADER..]);
            bytes[56..60].copy_from_slice(&whole.to_le_bytes());
            fs::write(&path, &bytes).unwrap();
            match read(&path, &material, Variant::Standard) {
                Ok(back) => {
                    assert!(readable, "{name}");
                    assert_eq!(back.bytes(Color::White), table.bytes(Color::White));
                }
                Err(ReadError::File(FileError::Version(VERSION_5, VERSION))) => {
                    assert!(!readable, "{name}")
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }

    /// A file opened for probes is checked by its index; a chunk is checked
    /// when a probe first needs it, and a damaged one fails that probe
    /// alone.
    #[test]
    fn an_opened_file_checks_each_chunk_when_first_used() {
        let (material, table, _dir, path) = kqkr_file();
        let written = fs::read(&path).unwrap();
        let chunks = le_u32(&written[44..48]) as usize;
        assert_eq!(chunks, 4);
        let lengths: Vec<usize> = (0..chunks)
            .map(|c| le_u32(&written[HEADER + 4 * c..HEADER + 4 * c + 4]) as usize)
            .collect();
        // A byte in the middle of white's second chunk changed, and both
        // checksums made right: only the chunk's own checksum tells.
        let mut bytes = written.clone();
        let second = HEADER + index_len(chunks, true) + lengths[0];
        bytes[second + lengths[1] / 2] ^= 0x40;
        fix_sums(&mut bytes);
        fs::write(&path, &bytes).unwrap();
        let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
        let in_chunk = |chunk: usize| {
            let index = (chunk * CHUNK..(chunk + 1) * CHUNK)
                .find(|&i| table.position(i, Color::White).is_some())
                .unwrap();
            table.position(index, Color::White).unwrap()
        };
        let first = in_chunk(0);
        assert_eq!(opened.probe(&first).unwrap(), table.probe(&first).unwrap());
        assert!(matches!(
            opened.probe(&in_chunk(1)),
            Err(TableError::File(FileError::ChunkChecksum { chunk: 1 }))
        ));
        // Both of white's chunks damaged: a window over them names the
        // first, whichever thread reads it.
        let mut bytes = written.clone();
        let first = HEADER + index_len(chunks, true);
        bytes[first + lengths[0] / 2] ^= 0x40;
        bytes[second + lengths[1] / 2] ^= 0x40;
        fix_sums(&mut bytes);
        fs::write(&path, &bytes).unwrap();
        let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
        for _ in 0..20 {
            assert!(matches!(
                opened.window(Color::White, 0..2 * CHUNK, Vec::new()),
                Err(TableError::File(FileError::ChunkChecksum { chunk: 0 }))
            ));
        }
        // A chunk's length changed, with the file's checksum right but not
        // the index's: the opening fails.
        let mut bytes = written.clone();
        bytes[HEADER] ^= 1;
        bytes[HEADER + 4] ^= 1;
        let whole = crc32fast::hash(&bytes[HEADER..]);
        bytes[56..60].copy_from_slice(&whole.to_le_bytes());
        opening_fails_its_checksum(&path, &material, &bytes);
    }

    #[test]
    fn a_version_2_file_reads_and_its_reserved_bytes_must_be_zero() {
        let (material, _, dir, path) = krk_file();
        as_version_2(&path);
        assert_eq!(read_back(&dir, &material), "");
        let mut bytes = fs::read(&path).unwrap();
        bytes[61] = 1;
        fs::write(&path, &bytes).unwrap();
        assert!(read_back(&dir, &material).contains("reserved"));
    }

    #[test]
    fn a_limit_over_a_byte_is_refused() {
        let (material, _, dir, path) = krk_file();
        let mut bytes = fs::read(&path).unwrap();
        bytes[30..32].copy_from_slice(&251u16.to_le_bytes());
        fs::write(&path, &bytes).unwrap();
        assert!(read_back(&dir, &material).contains("limit is over 250"));
    }

    /// KRvK built with the overflow limit lowered to 20 plies, and its
    /// file.
    fn krk_with_overflow() -> (Material, Table, tempfile::TempDir, PathBuf) {
        let material: Material = "KRvK".parse().unwrap();
        let tb = Tablebase::in_memory();
        let subtables = tb.subtables(&material, Variant::Standard).unwrap();
        let table = crate::solve::build_tuned(
            &material,
            Variant::Standard,
            subtables,
            &|_| std::ops::ControlFlow::Continue(()),
            crate::solve::Tuning {
                limit: 20,
                ..crate::solve::Tuning::PRODUCTION
            },
        )
        .unwrap();
        assert!(table.overflow().side(Color::White).len() > 2);
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &table).unwrap();
        (material, table, dir, path)
    }

    /// Rewrites the file's overflow list with `forge` and fixes its
    /// checksum.
    fn forge_entries(path: &Path, forge: impl FnOnce(&mut Vec<u64>)) {
        let mut bytes = fs::read(path).unwrap();
        let count = le_u32(&bytes[60..64]) as usize;
        let start = bytes.len() - 8 * count;
        let mut entries: Vec<u64> = bytes[start..].chunks(8).map(le_u64).collect();
        forge(&mut entries);
        bytes.truncate(start);
        bytes[60..64].copy_from_slice(&(entries.len() as u32).to_le_bytes());
        for entry in entries {
            bytes.extend_from_slice(&entry.to_le_bytes());
        }
        fix_sums(&mut bytes);
        fs::write(path, &bytes).unwrap();
    }

    #[test]
    fn a_damaged_overflow_list_is_refused() {
        let (material, table, dir, path) = krk_with_overflow();
        assert_eq!(read_back(&dir, &material), "");
        let written = fs::read(&path).unwrap();
        let restore = || fs::write(&path, &written).unwrap();
        type Forge = Box<dyn Fn(&mut Vec<u64>)>;
        let cases: [(&str, Forge); 4] = [
            ("out of order", Box::new(|e| e.swap(0, 1))),
            // Plies at the limit (20), and over the bound.
            (
                "plies not past the limit",
                Box::new(|e| e[0] = e[0] & !0xffff | 20),
            ),
            (
                "plies not past the limit",
                Box::new(|e| e[0] = e[0] & !0xffff | 1024),
            ),
            (
                "number out of range",
                Box::new(|e| *e.last_mut().unwrap() = 3 << 62 | 30),
            ),
        ];
        for (expected, forge) in cases {
            restore();
            forge_entries(&path, forge);
            let error = read_back(&dir, &material);
            assert!(error.contains(expected), "{expected}: {error}");
        }
        // A listed number whose byte is not DEEP: the entry moved to the
        // next number, which holds another value.
        let (first, _) = table.overflow().side(Color::White)[0];
        assert_ne!(table.bytes(Color::White)[first + 1], DEEP);
        restore();
        forge_entries(&path, |e| e[0] += 1 << PLIES_BITS);
        let error = read_back(&dir, &material);
        assert!(error.contains("byte is not DEEP"), "{error}");
        let opened = ChunkedTable::open(&path, &material, Variant::Standard).unwrap();
        let pos = table.position(first, Color::White).unwrap();
        assert!(matches!(
            opened.probe(&pos),
            Err(TableError::File(FileError::Overflow(_)))
        ));
        // A DEEP byte with no entry.
        restore();
        forge_entries(&path, |e| {
            e.remove(0);
        });
        let error = read_back(&dir, &material);
        assert!(error.contains("DEEP byte is not in the list"), "{error}");
    }

    #[test]
    fn stale_temporary_files_are_removed_young_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let name = "KRvK.standard.ajt";
        let old = dir.path().join(format!(".{name}.dead01.tmp"));
        let young = dir.path().join(format!(".{name}.live01.tmp"));
        let other = dir.path().join(".KQvK.standard.ajt.dead02.tmp");
        for path in [&old, &young, &other] {
            fs::write(path, b"partial").unwrap();
        }
        let long_ago = std::time::SystemTime::now() - 2 * STALE;
        for path in [&old, &other] {
            fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        remove_stale(dir.path(), name);
        assert!(!old.exists());
        assert!(young.exists());
        assert!(other.exists(), "another table's file is not touched");
    }

    /// A reader whose reads wait until its sender is dropped.
    struct Blocked(mpsc::Receiver<()>);

    impl Read for Blocked {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            let _ = self.0.recv();
            Ok(0)
        }
    }

    /// A reader that gives a byte a millisecond, for ever.
    struct Crawling;

    impl Read for Crawling {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            thread::sleep(Duration::from_millis(1));
            buf[0] = 1;
            Ok(1)
        }
    }

    #[test]
    fn a_read_that_blocks_or_crawls_is_given_up_at_its_limit() {
        let limit = Duration::from_millis(200);
        let timed_out = |result: Result<Vec<u8>, ReadError>| match result {
            Err(ReadError::File(err @ FileError::TimedOut { limit: named })) => {
                assert_eq!(named, limit);
                assert!(err.to_string().contains("time limit of 0.2 s"), "{err}");
            }
            other => panic!("{:?}", other.map(|bytes| bytes.len())),
        };
        // A read that never returns: the caller goes on at the limit.
        let (unblock, blocked) = mpsc::channel();
        let mut reader = Blocked(blocked);
        let started = Instant::now();
        timed_out(within(limit, move |deadline| {
            read_before(&mut reader, 64, deadline)
        }));
        assert!(started.elapsed() < Duration::from_secs(5));
        drop(unblock);
        // A read that goes on too slowly (17 minutes for a MiB) stops itself.
        let started = Instant::now();
        timed_out(within(limit, |deadline| {
            read_before(&mut Crawling, 1 << 20, deadline)
        }));
        let deadline = Deadline {
            at: Instant::now() + limit,
            limit,
        };
        timed_out(read_before(&mut Crawling, 1 << 20, deadline));
        assert!(started.elapsed() < Duration::from_secs(5));
        // In time: the bytes asked for, or those there are.
        let deadline = Deadline {
            at: Instant::now() + Duration::from_secs(60),
            limit,
        };
        assert_eq!(read_before(&mut &b"abc"[..], 2, deadline).unwrap(), b"ab");
        assert_eq!(read_before(&mut &b"abc"[..], 8, deadline).unwrap(), b"abc");
        // The limit grows with the file: 30 s, and 1 s for every 8 MiB.
        assert_eq!(read_time_limit(0), Duration::from_secs(30));
        assert_eq!(read_time_limit(800 << 20), Duration::from_secs(130));
    }

    #[test]
    fn a_fifo_or_a_folder_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let material: Material = "KRvK".parse().unwrap();
        let fifo = dir.path().join("KRvK.standard.ajt");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path and nothing else.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        // No writer ever comes: a blocking open would wait for good.
        for path in [fifo.as_path(), dir.path()] {
            match read(path, &material, Variant::Standard) {
                Err(ReadError::File(FileError::NotRegular)) => {}
                other => panic!("{}: {:?}", path.display(), other.err()),
            }
        }
    }
}
