//! A table file opened for probes: chunks read, checked and decompressed as
//! probes need them, the most recent kept.

use std::{
    ops::Range,
    path::Path,
    sync::{
        Arc,
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
    recent::{Copies, Entry, Key, Recent},
    rules::Rules,
    table::{Numbering, squares_of},
    value::Value,
    variant::Variant,
};

/// A table file opened for probes: its chunks stay in the file, and each
/// is read, decompressed and checked when a probe needs it, so that a
/// probe answers in milliseconds without reading the whole table; the
/// chunks used last are kept for the next probes, under the budget of
/// what probes keep ([`Recent`]).
pub(crate) struct ChunkedTable {
    material: Material,
    variant: Variant,
    numbering: Numbering,
    rules: Rules,
    body: Body,
    /// Tells this table's chunks apart in `recent`.
    id: u64,
    recent: Arc<Recent>,
}

impl ChunkedTable {
    /// Opens a table file: its header, length and checksum are checked
    /// now, each chunk when first used; the chunks read are kept in
    /// `recent`.
    pub(crate) fn open(
        path: &Path,
        material: &Material,
        variant: Variant,
        recent: &Arc<Recent>,
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
            recent: Arc::clone(recent),
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

    /// Chunk `chunk`, from the recent entries or read from the file.
    fn chunk(&self, chunk: usize) -> Result<Arc<[u8]>, FileError> {
        let key = Key::Chunk {
            file: self.id,
            chunk,
        };
        if let Some(bytes) = self.recent.chunk(&key) {
            return Ok(bytes);
        }
        let bytes: Arc<[u8]> = self
            .body
            .chunk(chunk, &self.material, &self.numbering, &self.rules)?
            .into();
        let entry = Entry::Chunk(Arc::clone(&bytes));
        self.recent.put(key, entry, Copies::OnDisk);
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
