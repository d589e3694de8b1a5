//! A table file opened for probes: chunks read, checked and decompressed as
//! probes need them, the most recent kept.

use std::{
    collections::HashMap,
    ops::Range,
    path::Path,
    sync::{
        Arc, LazyLock, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{Chess, Color, Position};

use crate::{
    Table,
    error::{FileError, TableError},
    format::{Body, CHUNK, ReadError},
    material::Material,
    rules::Rules,
    table::{Numbering, squares_of},
    value::Value,
    variant::Variant,
};

/// A table file opened for probes: its chunks stay in the file, and each
/// is read, decompressed and checked when a probe needs it, so that a
/// probe answers in milliseconds without reading the whole table; the
/// chunks used last are kept for the next probes ([`RecentChunks`]).
pub(crate) struct ChunkedTable {
    material: Material,
    variant: Variant,
    numbering: Numbering,
    rules: Rules,
    body: Body,
    /// Tells this table's chunks apart in [`RecentChunks`].
    id: u64,
}

/// The chunks of opened tables used last, shared by every table of the
/// process: a long-running server that probes table after table, or a
/// thousand probes of a five-man table with pawns (768 chunks of a MiB),
/// hold at most [`RecentChunks::BUDGET`] bytes of them, not every chunk
/// they ever read (that held 363 MB for `probe --epd` of 1 000 KRPvKR
/// positions).
pub(crate) struct RecentChunks {
    /// By (table, chunk): the bytes and when they were last used.
    kept: HashMap<(u64, usize), KeptChunk>,
    clock: u64,
    /// The bytes of the chunks kept, and the most kept.
    bytes: usize,
    budget: usize,
}

/// A chunk's bytes and the clock of its last use.
type KeptChunk = (Arc<[u8]>, u64);

impl Default for RecentChunks {
    fn default() -> RecentChunks {
        RecentChunks::with_budget(RecentChunks::BUDGET)
    }
}

impl RecentChunks {
    /// 64 chunks of a MiB: a chunk read again costs a millisecond or two.
    const BUDGET: usize = 64 << 20;

    fn with_budget(budget: usize) -> RecentChunks {
        RecentChunks {
            kept: HashMap::new(),
            clock: 0,
            bytes: 0,
            budget,
        }
    }

    fn shared() -> &'static Mutex<RecentChunks> {
        static RECENT: LazyLock<Mutex<RecentChunks>> = LazyLock::new(Default::default);
        &RECENT
    }

    pub(crate) fn get(&mut self, table: u64, chunk: usize) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let (bytes, used) = self.kept.get_mut(&(table, chunk))?;
        *used = self.clock;
        Some(Arc::clone(bytes))
    }

    /// Keeps a chunk just read, letting go of those used longest ago while
    /// the budget would be passed (a scan, as costly as a little of the
    /// chunk's reading).
    fn put(&mut self, table: u64, chunk: usize, bytes: Arc<[u8]>) {
        while self.bytes + bytes.len() > self.budget {
            let oldest = self
                .kept
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(&key, _)| key);
            let Some(oldest) = oldest else { break };
            if let Some((gone, _)) = self.kept.remove(&oldest) {
                self.bytes -= gone.len();
            }
        }
        self.clock += 1;
        self.bytes += bytes.len();
        if let Some((replaced, _)) = self.kept.insert((table, chunk), (bytes, self.clock)) {
            self.bytes -= replaced.len();
        }
    }
}

impl ChunkedTable {
    /// Opens a table file: its header, length and checksum are checked
    /// now, each chunk when first used.
    pub(crate) fn open(
        path: &Path,
        material: &Material,
        variant: Variant,
    ) -> Result<ChunkedTable, ReadError> {
        let body = Body::read(path, material, variant)?;
        Ok(ChunkedTable {
            material: material.clone(),
            variant,
            numbering: Numbering::new(material, variant),
            rules: Rules::new(material, variant),
            body,
            id: {
                static OPENED: AtomicU64 = AtomicU64::new(0);
                OPENED.fetch_add(1, Ordering::Relaxed)
            },
        })
    }

    /// The value of a position, as [`Table::probe`]; an error when the
    /// chunk that holds it fails its check.
    pub(crate) fn probe(&self, pos: &Chess) -> Result<Value, TableError> {
        let squares = squares_of(&self.material, self.variant, pos.board())?;
        let index = self
            .numbering
            .encode(&squares[..self.material.len()])
            .ok_or(TableError::NotInTable)?;
        let (chunk, at) = self.body.chunk_of(index, pos.turn());
        let bytes = self.chunk(chunk).map_err(|err| self.error(err))?;
        self.body
            .overflow()
            .value(pos.turn(), index, bytes[at])
            .ok_or(TableError::NotInTable)
    }

    /// Chunk `chunk`, from the recent chunks or read from the file.
    fn chunk(&self, chunk: usize) -> Result<Arc<[u8]>, FileError> {
        let recent = || {
            RecentChunks::shared()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        };
        if let Some(bytes) = recent().get(self.id, chunk) {
            return Ok(bytes);
        }
        let bytes: Arc<[u8]> = self
            .body
            .chunk(chunk, &self.material, &self.numbering, &self.rules)?
            .into();
        recent().put(self.id, chunk, Arc::clone(&bytes));
        Ok(bytes)
    }

    pub(crate) fn material(&self) -> &Material {
        &self.material
    }

    /// The table error of a chunk that failed: one that was not read in
    /// time names the file, which is left alone; any other is the file's
    /// fault.
    fn error(&self, err: FileError) -> TableError {
        if err.is_hung() {
            let path = self.body.path().to_path_buf();
            TableError::Hung { path, error: err }
        } else {
            TableError::File(err)
        }
    }

    /// The window ([`Table::window`]) of side `turn` that holds the
    /// numbers `numbers`: the chunks that hold them, each read from the
    /// file and checked as for a probe, and not kept here. The window's
    /// bytes go into `bytes`, a buffer given back by
    /// [`Table::into_side`]: a build reads thousands of windows, and fresh
    /// memory for each cost it a page fault every 4 KiB.
    pub(crate) fn window(
        &self,
        turn: Color,
        numbers: Range<usize>,
        mut bytes: Vec<u8>,
    ) -> Result<Table, TableError> {
        let end = numbers.end.min(self.numbering.size());
        let chunks = numbers.start / CHUNK..end.div_ceil(CHUNK);
        let len = chunks.clone().map(|c| self.body.chunk_len(c * CHUNK)).sum();
        bytes.resize(len, 0);
        // On every core: a build waits for its windows. Of several damaged
        // chunks, the first is named, whichever thread met it.
        let damaged = bytes
            .par_chunks_mut(CHUNK)
            .zip(chunks.clone())
            .find_map_first(|(out, chunk)| {
                let (chunk, _) = self.body.chunk_of(chunk * CHUNK, turn);
                self.body
                    .chunk_into(chunk, out, &self.material, &self.numbering, &self.rules)
                    .err()
            });
        if let Some(error) = damaged {
            return Err(self.error(error));
        }
        Ok(Table::window(
            self.material.clone(),
            self.variant,
            turn,
            chunks.start * CHUNK,
            bytes,
            self.body.overflow().clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recent chunks hold at most their budget of bytes, and let go of
    /// the one used longest ago, each table's chunks told apart.
    #[test]
    fn recent_chunks_keep_the_last_used_up_to_their_budget() {
        let mut recent = RecentChunks::with_budget(100);
        let bytes = |chunk: usize| -> Arc<[u8]> { Arc::from(vec![chunk as u8; 10]) };
        for chunk in 0..20 {
            recent.put(7, chunk, bytes(chunk));
        }
        assert_eq!((recent.kept.len(), recent.bytes), (10, 100));
        assert!(recent.get(7, 9).is_none());
        assert_eq!(recent.get(7, 10).as_deref(), Some(&[10u8; 10][..]));
        assert!(recent.get(8, 10).is_none());
        // Chunk 10 was used last: chunk 11 goes first, then 12 and 13 for
        // a chunk of three times the size.
        recent.put(7, 5000, bytes(5000));
        assert!(recent.get(7, 11).is_none());
        assert!(recent.get(7, 10).is_some());
        recent.put(7, 6000, Arc::from(vec![0u8; 30]));
        assert!(recent.get(7, 12).is_none() && recent.get(7, 14).is_none());
        assert!(recent.get(7, 15).is_some() && recent.get(7, 10).is_some());
        assert_eq!(
            recent.bytes,
            recent.kept.values().map(|(b, _)| b.len()).sum()
        );
        assert!(recent.bytes <= 100);
    }
}
