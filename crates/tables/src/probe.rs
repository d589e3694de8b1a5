//! The prober: values, moves and principal variations read from the tables
//! in memory and the files of a cache folder, opened lazily. It never
//! builds: a table it lacks is [`TableError::NotBuilt`].

use std::{
    borrow::Cow,
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, PositionError, Role};

use crate::{
    error::TableError,
    format::{self, ChunkedTable},
    material::Material,
    pawns::{PawnTable, cone::read_part, with_en_passant},
    recent::{Copies, Entry, Key, Recent},
    slices::SliceIndexer,
    sync::lock,
    table::{Table, squares_of},
    value::Value,
    variant::Variant,
};

/// What a probe does with a table it lacks, or whose file failed a check:
/// has it made ready in memory, and hands it over, or answers the error.
pub(crate) type Have<'a> = dyn Fn(&Material, Variant) -> Result<Had, TableError> + 'a;

/// A table had by [`Have`]: the probe reads this one, which the budget
/// of what is kept may let go of before it could look it up again.
pub(crate) enum Had {
    Table(Arc<Table>),
    Pawns(Arc<PawnTable>),
}

/// Reads tables, never builds them.
pub struct Prober {
    dir: Option<PathBuf>,
    /// What is kept in memory, under one budget: tables, the chunks of
    /// opened files, and the slices of tables with pawns whose files are
    /// not written, read from their journals (the cones built for probes).
    pub(crate) recent: Arc<Recent>,
    /// Table files opened for probes, their chunks read as needed.
    opened: Mutex<HashMap<(Material, Variant), Arc<ChunkedTable>>>,
}

impl Prober {
    /// A prober of the table files in `dir` (none: of tables handed to it
    /// in memory only), keeping at most [`Prober::DEFAULT_MEMORY_BUDGET`]
    /// bytes of what it reads.
    pub fn new(dir: Option<PathBuf>) -> Prober {
        Prober {
            dir,
            recent: Arc::new(Recent::new(Prober::DEFAULT_MEMORY_BUDGET)),
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// The prober keeping at most `bytes` of what it reads: tables,
    /// chunks of files and slices alike, the last used kept.
    pub fn memory_budget(mut self, bytes: usize) -> Prober {
        self.recent = Arc::new(Recent::new(bytes));
        self
    }

    /// 64 MiB: 64 chunks of a table file (a chunk read again costs a
    /// millisecond or two), or two slices of a five-man table with a pawn.
    /// `probe --epd` of 1 000 KRPvKR positions then peaks at 77 MB, against
    /// 274 MB under 256 MiB, with the same output (docs/guide/src/reference/probing.md). A
    /// table whose only copy is in memory (none can be saved) is never
    /// let go, and counts against it.
    pub const DEFAULT_MEMORY_BUDGET: usize = 64 << 20;

    /// The bytes of tables, chunks and slices kept in memory now.
    pub fn memory_held(&self) -> usize {
        self.recent.bytes()
    }

    /// The folder its files are read from, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Whether a probe of a position of `material` (with pawns: its
    /// canonical material's table) finds its table in memory or in the
    /// folder, so that it needs no build. A position's moves and en
    /// passant captures may still lead into tables that are missing.
    pub fn has_table(&self, material: &Material, variant: Variant) -> bool {
        let stored = material.table_material();
        let in_memory = self.recent.contains(&Key::of_table(stored, variant));
        in_memory || self.in_folder(material, variant)
    }

    /// Whether the file of the table that holds `material`'s positions
    /// ([`Material::table_material`]) is in the folder (present, not
    /// checked).
    pub fn in_folder(&self, material: &Material, variant: Variant) -> bool {
        self.dir.as_ref().is_some_and(|dir| {
            format::is_present(&dir.join(format::file_name(&material.table_material(), variant)))
        })
    }

    /// The value of a position: its table is found from its material. A
    /// position with pawns whose material is the colour-flipped twin of its
    /// table's is probed as its mirror image (colours exchanged).
    ///
    /// A table not in memory whose file is in the folder is opened for
    /// probes: its chunks are read as probes need them. A table that is
    /// neither is [`TableError::NotBuilt`]; a chunk that fails its check,
    /// [`TableError::File`].
    ///
    /// A position with castling rights is refused: castling can change its
    /// value, and the tables hold none.
    pub fn probe(&self, pos: &Chess, variant: Variant) -> Result<Value, TableError> {
        self.probe_having(pos, variant, &not_built)
    }

    /// [`Prober::probe`], `have` called for a table that is missing or
    /// whose chunk failed its check, and the probe tried once more.
    pub(crate) fn probe_having(
        &self,
        pos: &Chess,
        variant: Variant,
        have: &Have,
    ) -> Result<Value, TableError> {
        if pos.castles().any() {
            return Err(TableError::CastlingRights);
        }
        let material = Material::from_board(pos.board())?;
        if !material.has_pawns() {
            let key = (material, variant);
            let had = |had| match had {
                Had::Table(table) => Some(table),
                Had::Pawns(_) => None,
            };
            return self.probe_table(&key, pos, have, |tb| tb.held(&key), had, Table::probe);
        }
        if variant != Variant::Standard {
            return Err(TableError::FixedKingPawns(material));
        }
        let (canonical, held_pos) = as_held(pos)?;
        let pos = held_pos.as_ref();
        let key = (canonical, variant);
        let held = |tb: &Prober| tb.recent.pawn_table(&key.0);
        let had = |had| match had {
            Had::Pawns(table) => Some(table),
            Had::Table(_) => None,
        };
        let probe = |table: &PawnTable, pos: &Chess| table.table().probe(pos);
        let value = match self.probe_part(&key.0, pos) {
            Some(value) => value?,
            None => self.probe_table(&key, pos, have, held, had, probe)?,
        };
        with_en_passant(pos, value, &|p: &Chess| self.probe_having(p, variant, have))
    }

    /// A probe of the table of `key`: in memory (`held`), else its file
    /// opened for probes, else the one `have` hands over (`had`).
    fn probe_table<T>(
        &self,
        key: &(Material, Variant),
        pos: &Chess,
        have: &Have,
        held: impl Fn(&Prober) -> Option<Arc<T>>,
        had: impl Fn(Had) -> Option<Arc<T>>,
        probe: impl Fn(&T, &Chess) -> Result<Value, TableError>,
    ) -> Result<Value, TableError> {
        if let Some(table) = held(self) {
            return probe(&table, pos);
        }
        let table = match self.opened(key)?.map(|table| table.probe(pos)) {
            Some(Err(TableError::File(err))) => {
                // Forgotten; `have` reads it whole, which finds the fault.
                lock(&self.opened).remove(key);
                have(&key.0, key.1).map_err(|_| TableError::File(err))?
            }
            Some(value) => return value,
            None => have(&key.0, key.1)?,
        };
        let table = had(table).ok_or_else(|| TableError::NotBuilt(key.0.clone()))?;
        probe(&table, pos)
    }

    /// The value of `pos` (of `material`, canonical, with pawns) from the
    /// slice its table's journal keeps, where the table is neither in
    /// memory nor in a file: `None` when it is, or when the slice is not
    /// kept.
    fn probe_part(&self, material: &Material, pos: &Chess) -> Option<Result<Value, TableError>> {
        let dir = self.dir.as_ref()?;
        let key = (material.clone(), Variant::Standard);
        if lock(&self.opened).contains_key(&key)
            || self.recent.contains(&Key::Pawns(material.clone()))
            || self.in_folder(material, Variant::Standard)
        {
            return None;
        }
        let squares = match squares_of(material, Variant::Standard, pos.board()) {
            Ok(squares) => squares,
            Err(err) => return Some(Err(err)),
        };
        let indexer = SliceIndexer::shared(material);
        let index = indexer.encode(&squares[..material.len()])?;
        let slice = indexer.slice_of(index);
        let part = match self.recent.part(material, slice) {
            Some(part) => part,
            None => {
                let part = Arc::new(read_part(dir, material, slice)?);
                let key = Key::Part {
                    material: material.clone(),
                    slice,
                };
                self.recent
                    .put(key, Entry::Table(Arc::clone(&part)), Copies::OnDisk);
                part
            }
        };
        Some(
            part.value_at(index, pos.turn())
                .ok_or(TableError::NotInTable),
        )
    }

    /// A table without pawns in memory.
    pub(crate) fn held(&self, key: &(Material, Variant)) -> Option<Arc<Table>> {
        self.recent.table(&key.0, key.1)
    }

    /// The table file of `key` opened for probes, `None` when there is no
    /// readable file; an error when it did not answer in time (it is left
    /// alone).
    fn opened(&self, key: &(Material, Variant)) -> Result<Option<Arc<ChunkedTable>>, TableError> {
        let Some(dir) = self.dir.as_ref() else {
            return Ok(None);
        };
        if let Some(table) = lock(&self.opened).get(key) {
            return Ok(Some(Arc::clone(table)));
        }
        let (material, variant) = key;
        let name = format::file_name(material, *variant);
        // A probe may be the only command that ever opens this table.
        format::remove_stale(dir, &name);
        let path = dir.join(name);
        // Opened without the lock: a file that does not answer holds up
        // its own probes only.
        match ChunkedTable::open(&path, material, *variant, &self.recent) {
            Ok(table) => {
                let mut opened = lock(&self.opened);
                let table = opened.entry(key.clone()).or_insert_with(|| Arc::new(table));
                Ok(Some(Arc::clone(table)))
            }
            Err(format::ReadError::File(error)) if error.is_hung() => {
                Err(TableError::Hung { path, error })
            }
            Err(_) => Ok(None),
        }
    }

    /// The legal moves of a position in `variant`, each with the value the
    /// mover gets by playing it, best first (fastest win, draws, slowest
    /// loss; ties in UCI order).
    ///
    /// In the fixed-king game the white king does not move, and a capture by
    /// black ends the game: such a move is given as a draw.
    pub fn moves(&self, pos: &Chess, variant: Variant) -> Result<Vec<(Move, Value)>, TableError> {
        self.moves_having(pos, variant, &not_built)
    }

    pub(crate) fn moves_having(
        &self,
        pos: &Chess,
        variant: Variant,
        have: &Have,
    ) -> Result<Vec<(Move, Value)>, TableError> {
        let fixed = matches!(variant, Variant::FixedKing(_));
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            if fixed && pos.turn() == Color::White && mv.role() == Role::King {
                continue;
            }
            let value = if fixed && mv.is_capture() {
                Value::Draw
            } else {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                self.probe_having(&child, variant, have)?.parent()
            };
            moves.push((mv, value));
        }
        moves.sort_by_cached_key(|(mv, value)| {
            (
                value.order_key(),
                mv.to_uci(CastlingMode::Standard).to_string(),
            )
        });
        Ok(moves)
    }

    /// The principal variation: best moves (as [`Prober::moves`] orders
    /// them) from `pos` until mate; empty for a draw.
    pub fn principal_variation(
        &self,
        pos: &Chess,
        variant: Variant,
    ) -> Result<Vec<Move>, TableError> {
        self.principal_variation_having(pos, variant, &not_built)
    }

    pub(crate) fn principal_variation_having(
        &self,
        pos: &Chess,
        variant: Variant,
        have: &Have,
    ) -> Result<Vec<Move>, TableError> {
        let mut line = Vec::new();
        let start = pos;
        let mut pos = pos.clone();
        // A mate in n plies has a line of n plies; a longer one can only come
        // from a table that contradicts itself, and must not run forever.
        let mut length = None;
        while let Some((mv, value)) = self.moves_having(&pos, variant, have)?.into_iter().next() {
            let Some(plies) = value.plies() else {
                break;
            };
            if line.len() >= usize::from(length.get_or_insert(plies).0) {
                return Err(TableError::Inconsistent(Material::from_board(
                    start.board(),
                )?));
            }
            pos.play_unchecked(mv);
            line.push(mv);
        }
        Ok(line)
    }
}

/// The material of the table that holds a position
/// ([`Material::table_material`]), and the position as that table holds
/// it: its mirror image (colours exchanged) when its material is the
/// colour-flipped twin's.
pub(crate) fn as_held(pos: &Chess) -> Result<(Material, Cow<'_, Chess>), TableError> {
    let material = Material::from_board(pos.board())?;
    let canonical = material.table_material();
    if canonical == material {
        return Ok((canonical, Cow::Borrowed(pos)));
    }
    let mirrored = mirror(pos).ok_or(TableError::NotInTable)?;
    Ok((canonical, Cow::Owned(mirrored)))
}

/// A prober's answer for a table it lacks.
/// The position with the colours swapped and the board turned over: a
/// position of a material with pawns as its colour-flipped twin's table
/// holds it; `None` where that is no position.
fn mirror(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.mirror();
    setup
        .position(CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .ok()
}

fn not_built(material: &Material, _: Variant) -> Result<Had, TableError> {
    Err(TableError::NotBuilt(material.clone()))
}
