//! The slices of a long build with pawns, kept on disk as each is built, so
//! that a build stopped (interrupted, killed, the machine gone) goes on
//! from the slices done instead of from the start (docs/guide/src/reference/six-men.md, "Six
//! men", Resuming).
//!
//! The folder `<table file name>.slices` beside the table's file holds one
//! file a slice built, `<slice>.part`, written atomically:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `AJEDSLC` followed by 0x1A |
//! | 8 | 4 | the part's format version, little-endian u32 (1) |
//! | 12 | 16 | material, ASCII, padded with NUL |
//! | 28 | 4 | the slice, little-endian u32 |
//! | 32 | 8 | numbers of the slice per side to move, little-endian u64 |
//! | 40 | 2 | overflow limit, little-endian u16 |
//! | 42 | 4 + 4 | overflow entries with white, then black to move, little-endian u32 |
//! | 50 | 4 | CRC-32 (IEEE) of the content, little-endian |
//! | 54 | .. | the content, one zstd frame: the bytes with white to move, with black to move, then the overflow entries (number in the slice << 16 \| plies, little-endian u64) |
//!
//! A part that is missing, cut short or not what its header says is built
//! again; one not read in time is left as it is, and built again too (the
//! new part renamed over it). Every build that uses the folder holds a
//! shared lock on its file `lock`; it is removed once the table's file is
//! complete, by a build that can lock it alone.

use std::{
    collections::HashSet,
    fs,
    io::{self, BufReader, BufWriter, Read, Write},
    path::{Path, PathBuf},
};

use shakmaty::{ByColor, Color};

use crate::{
    error::TableError,
    format::{
        Before, ReadError, file_name, guarded, header_start, lock_shared_in, open_guarded,
        owned_temporary, read_time_limit, remove_stale, temporary, try_lock_alone,
    },
    material::Material,
    overflow::Overflow,
    value::HARD_MAX_PLIES,
    variant::Variant,
};

const MAGIC: [u8; 8] = *b"AJEDSLC\x1a";
/// The parts' own format, apart from the table file's: a build goes on
/// from the parts of another version of the program.
const VERSION: u32 = 1;
const HEADER: usize = 54;
/// zstd's fastest level: a six-man slice is two gigabytes.
const LEVEL: i32 = 1;
/// The name a part is written under before it is complete, for
/// [`temporary`] and [`remove_stale`].
const TEMPORARY: &str = "part";
/// Bits of an entry that hold the plies.
const PLIES_BITS: u32 = 16;
/// The file every build using the folder holds a shared lock on.
const LOCK: &str = "lock";

/// The ending of a part's name, after its slice's number.
const PART: &str = ".part";

/// A slice built: both sides' bytes and its overflow entries (numbers
/// inside the slice).
pub(crate) struct SliceBytes {
    pub(crate) bytes: ByColor<Vec<u8>>,
    pub(crate) overflow: Overflow,
}

/// The parts folder of one table's build.
#[derive(Debug)]
pub(crate) struct Journal {
    dir: PathBuf,
    material: Material,
    slice_len: usize,
    /// The build's overflow limit: a part built with another is not used.
    limit: u16,
    /// This build's shared lock on the folder (none for a reader).
    lock: Option<fs::File>,
}

impl Journal {
    /// The journal of the build of `material` (with pawns) into `tables`,
    /// whose slices hold `slice_len` numbers a side, with overflow limit
    /// `limit`; its folder is made.
    pub(crate) fn open(
        tables: &Path,
        material: &Material,
        slice_len: usize,
        limit: u16,
    ) -> io::Result<Journal> {
        let mut journal = Journal::at(tables, material, slice_len, limit);
        journal.lock = Some(lock_shared_in(&journal.dir, LOCK)?);
        remove_stale(&journal.dir, TEMPORARY);
        Ok(journal)
    }

    /// The journal of `material` in `tables`, as [`Journal::open`] names
    /// it, to read: its folder is neither made, nor cleaned, nor locked.
    pub(crate) fn at(tables: &Path, material: &Material, slice_len: usize, limit: u16) -> Journal {
        Journal {
            dir: Self::dir(tables, material),
            material: material.clone(),
            slice_len,
            limit,
            lock: None,
        }
    }

    /// Whether the build of `material` into `tables` has a journal.
    pub(crate) fn exists(tables: &Path, material: &Material) -> bool {
        Self::dir(tables, material).is_dir()
    }

    fn dir(tables: &Path, material: &Material) -> PathBuf {
        let name = file_name(material, Variant::Standard);
        tables.join(format!("{name}.slices"))
    }

    /// The part of `slice` in the journal of the build of `material` into
    /// `tables`.
    #[cfg(test)]
    pub(crate) fn part_in(tables: &Path, material: &Material, slice: usize) -> PathBuf {
        Self::dir(tables, material).join(Self::part_name(slice))
    }

    /// The slices whose parts are in the journal of `material` in
    /// `tables`: present, not checked (a build reads each part whole
    /// before it counts it built). One look at the folder, guarded as a
    /// read is; none when it did not answer.
    pub(crate) fn parts_present(tables: &Path, material: &Material) -> HashSet<usize> {
        let dir = Self::dir(tables, material);
        let listed = dir.clone();
        let names = guarded(&dir, read_time_limit(0), move |_| {
            Ok(fs::read_dir(&listed)?
                .filter_map(|entry| Some(entry.ok()?.file_name()))
                .collect::<Vec<_>>())
        });
        names
            .unwrap_or_default()
            .iter()
            .filter_map(|name| name.to_str()?.strip_suffix(PART)?.parse().ok())
            .collect()
    }

    fn part_name(slice: usize) -> String {
        format!("{slice:05}{PART}")
    }

    fn part(&self, slice: usize) -> PathBuf {
        self.dir.join(Self::part_name(slice))
    }

    fn header(&self, slice: usize, entries: ByColor<usize>, sum: u32) -> Vec<u8> {
        let mut head = header_start(&MAGIC, VERSION, &self.material);
        head.extend_from_slice(&(slice as u32).to_le_bytes());
        head.extend_from_slice(&(self.slice_len as u64).to_le_bytes());
        head.extend_from_slice(&self.limit.to_le_bytes());
        for turn in Color::ALL {
            head.extend_from_slice(&(entries[turn] as u32).to_le_bytes());
        }
        head.extend_from_slice(&sum.to_le_bytes());
        head
    }

    /// Keeps a slice just built: written under a temporary name, synced,
    /// then renamed.
    pub(crate) fn save(&self, slice: usize, built: &SliceBytes) -> Result<(), TableError> {
        self.write(slice, built).map_err(|error| TableError::Io {
            path: self.part(slice),
            error,
        })
    }

    fn write(&self, slice: usize, built: &SliceBytes) -> io::Result<()> {
        let entries = ByColor::new_with(|turn| entries(built.overflow.side(turn)));
        let mut sum = crc32fast::Hasher::new();
        for turn in Color::ALL {
            sum.update(&built.bytes[turn]);
        }
        for turn in Color::ALL {
            sum.update(&entries[turn]);
        }
        debug_assert_eq!(built.overflow.limit(), self.limit);
        let (prefix, suffix) = temporary(TEMPORARY);
        let mut file = owned_temporary(
            tempfile::Builder::new().prefix(&prefix).suffix(suffix),
            &self.dir,
        )?;
        let counts = ByColor::new_with(|turn| built.overflow.side(turn).len());
        file.write_all(&self.header(slice, counts, sum.finalize()))?;
        let mut encoder = zstd::stream::write::Encoder::new(BufWriter::new(file), LEVEL)?;
        for turn in Color::ALL {
            encoder.write_all(&built.bytes[turn])?;
        }
        for turn in Color::ALL {
            encoder.write_all(&entries[turn])?;
        }
        let file = encoder.finish()?.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        file.persist(self.part(slice)).map_err(|e| e.error)?;
        Ok(())
    }

    /// The slice kept by an earlier build, `None` when there is none or it
    /// is not whole and right (a bad part is removed; one not read in time
    /// left as it is). Read as a table file is: a regular file only,
    /// opened without waiting, under a time limit.
    pub(crate) fn load(&self, slice: usize) -> Option<SliceBytes> {
        let path = self.part(slice);
        // What every part of this slice begins with (the counts and the
        // checksum aside).
        let expected = self.header(slice, ByColor::default(), 0);
        let (slice_len, limit) = (self.slice_len, self.limit);
        let read = open_guarded(&path).and_then(|(file, len)| {
            guarded(&path, read_time_limit(len), move |deadline| {
                let file = Before {
                    inner: file,
                    deadline,
                };
                read_part(file, &expected, slice_len, limit).map_err(ReadError::from)
            })
        });
        match read {
            Ok(built) => Some(built),
            Err(ReadError::Io(err)) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) if err.is_hung() => None,
            Err(_) => {
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Removes the folder once the table's file is complete, unless
    /// another build holds it still (that build removes it).
    pub(crate) fn remove(self) -> io::Result<()> {
        if !self.lock.as_ref().is_some_and(try_lock_alone) {
            return Ok(());
        }
        fs::remove_dir_all(&self.dir)
    }
}

/// Reads a part from `file`: its header must begin as `expected` does,
/// and its slice hold `slice_len` numbers a side, with overflow limit
/// `limit`.
fn read_part(
    file: impl Read,
    expected: &[u8],
    slice_len: usize,
    limit: u16,
) -> io::Result<SliceBytes> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut reader = BufReader::new(file);
    let mut head = [0u8; HEADER];
    reader.read_exact(&mut head)?;
    let counts = ByColor {
        white: le_u32(&head[42..46]) as usize,
        black: le_u32(&head[46..50]) as usize,
    };
    if counts.iter().any(|&count| count > slice_len) {
        return Err(bad("more overflow entries than numbers"));
    }
    if head[..42] != expected[..42] {
        return Err(bad("not this slice's part"));
    }
    let mut content = zstd::stream::read::Decoder::with_buffer(reader)?;
    let mut sum = crc32fast::Hasher::new();
    let mut bytes = ByColor::<Vec<u8>>::default();
    for turn in Color::ALL {
        bytes[turn] = vec![0; slice_len];
        content.read_exact(&mut bytes[turn])?;
        sum.update(&bytes[turn]);
    }
    let mut sides = ByColor::<Vec<(usize, u16)>>::default();
    for turn in Color::ALL {
        let mut raw = vec![0u8; 8 * counts[turn]];
        content.read_exact(&mut raw)?;
        sum.update(&raw);
        sides[turn] = raw
            .chunks_exact(8)
            .map(|entry| {
                let entry = u64::from_le_bytes(entry.try_into().expect("8 bytes"));
                (
                    (entry >> PLIES_BITS) as usize,
                    (entry & ((1 << PLIES_BITS) - 1)) as u16,
                )
            })
            .collect();
    }
    if content.read(&mut [0u8])? != 0 {
        return Err(bad("more content than the header says"));
    }
    if sum.finalize() != le_u32(&head[50..54]) {
        return Err(bad("checksum"));
    }
    let ordered = sides.iter().all(|side| {
        side.windows(2).all(|w| w[0].0 < w[1].0)
            && side.iter().all(|&(index, plies)| {
                index < slice_len && plies > limit && plies <= HARD_MAX_PLIES
            })
    });
    if !ordered {
        return Err(bad("overflow entries"));
    }
    Ok(SliceBytes {
        bytes,
        overflow: Overflow::new(limit, sides),
    })
}

fn le_u32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes.try_into().expect("4 bytes"))
}

fn entries(side: &[(usize, u16)]) -> Vec<u8> {
    side.iter()
        .flat_map(|&(index, plies)| ((index as u64) << PLIES_BITS | u64::from(plies)).to_le_bytes())
        .collect()
}
