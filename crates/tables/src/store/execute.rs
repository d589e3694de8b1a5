//! Executing a build for the store: the tables a build reads had first
//! (outside the build lock), then the build under the lock, with its
//! progress and events; tables kept in memory or lent while held.

use std::{
    self, fs,
    ops::ControlFlow,
    path::PathBuf,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use shakmaty::{ByColor, Color};

use super::*;
use crate::{
    engine::Progress,
    error::TableError,
    format,
    format::ChunkedTable,
    material::Material,
    pawns::{
        PawnTable,
        promotions::{PromotionTable, Reading},
    },
    summary::SideSummary,
    sync::lock,
    table::{Subtables, Table},
    variant::Variant,
};

impl Tablebase {
    pub(crate) fn table_in(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
        kept: Kept,
    ) -> Result<Arc<Table>, TableError> {
        check_pawnless(material, variant)?;
        let key = (material.clone(), variant);
        if let Some(table) = self.cached(&key, kept) {
            return Ok(table);
        }
        if let Some(table) = self.load(material, variant) {
            return Ok(self.keep(key, table, kept));
        }
        self.may_build(material)?;
        // Subtables first, outside the build lock: they take it themselves.
        let subtables = self.capture_tables_in(material, variant, stop)?;
        let _guard = lock(&self.building);
        if let Some(table) = self.cached(&key, kept) {
            return Ok(table);
        }
        let table = self.build(material, variant, subtables, stop)?;
        self.save(&table);
        Ok(self.keep(key, table, kept))
    }

    pub(crate) fn subtables_in(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<Subtables, TableError> {
        let mut subtables = Subtables::new();
        if variant != Variant::Standard {
            return Ok(subtables);
        }
        for sub in crate::pawns::exits::exit_materials(material) {
            let table = self.subtable_in(&sub, stop)?;
            subtables.insert(sub, table);
        }
        Ok(subtables)
    }

    /// The tables the captures of a pawnless `material` lead into. With a
    /// cache folder, one held in memory or missing from the folder (built
    /// now) is had whole, and any other is read with only the side to move
    /// a capture leads into: KQRvKR's build holds half of each of its
    /// four-man tables.
    pub(crate) fn capture_tables_in(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<Subtables, TableError> {
        if self.dir.is_none() || variant != Variant::Standard {
            return self.subtables_in(material, variant, stop);
        }
        self.capture_sides(material, Some(stop))
    }

    /// The orthodox tables the captures of `material` lead into, each held
    /// in memory or read from the cache folder with only the side to move
    /// a capture leads into. One missing from the folder is built now
    /// (lent) when `build_missing` gives the build's stop flag, and is
    /// [`TableError::MissingSubtable`] otherwise (a caller that holds the
    /// build lock).
    fn capture_sides(
        &self,
        material: &Material,
        build_missing: Option<&AtomicBool>,
    ) -> Result<Subtables, TableError> {
        crate::pawns::exits::exit_reads(material, crate::pawns::exits::ExitMoves::Captures)
            .into_iter()
            .map(|(sub, sides)| {
                let table = match (self.held_or_read(&sub, &sides), build_missing) {
                    (Err(TableError::MissingSubtable(_)), Some(stop)) => {
                        // A file there failed its check, reported once: the
                        // build would read it again and report it again.
                        self.remove_file_of(&sub, Variant::Standard)?;
                        self.table_in(&sub, Variant::Standard, stop, Kept::Lent)?
                    }
                    (had, _) => had?,
                };
                Ok((sub, table))
            })
            .collect()
    }

    /// A subtable of orthodox chess, from memory, the cache folder or a
    /// build; a pawnless one lent.
    fn subtable_in(&self, sub: &Material, stop: &AtomicBool) -> Result<Arc<Table>, TableError> {
        Ok(if sub.has_pawns() {
            Arc::clone(self.pawn_table_in(sub, stop)?.table())
        } else {
            self.table_in(sub, Variant::Standard, stop, Kept::Lent)?
        })
    }

    /// Keeps a table in memory, or while it is held when it is lent to a
    /// build and can be read again from the cache folder.
    pub(crate) fn keep(&self, key: (Material, Variant), table: Table, kept: Kept) -> Arc<Table> {
        let table = Arc::new(table);
        if kept == Kept::Lent && self.dir.is_some() {
            let lent = Arc::downgrade(&table);
            lock(&self.lent).insert(key, lent);
        } else {
            lock(&self.prober.tables).insert(key, Arc::clone(&table));
        }
        table
    }

    /// Builds a table.
    fn build(
        &self,
        material: &Material,
        variant: Variant,
        subtables: Subtables,
        stop: &AtomicBool,
    ) -> Result<Table, TableError> {
        self.building_with(material, variant, stop, |progress| {
            crate::build::build(material, variant, subtables, progress)
        })
    }

    /// Runs the build of a table, `build`, telling its progress and its
    /// start and end.
    fn building_with<T>(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
        build: impl FnOnce(&(dyn Fn(Progress) -> ControlFlow<()> + Sync)) -> Result<T, TableError>,
    ) -> Result<T, TableError> {
        self.event(Event::Building {
            material: material.clone(),
            variant,
        });
        let progress = |p: Progress| {
            if let Some(f) = &self.on_progress {
                f(material, variant, p);
            }
            if stop.load(Ordering::Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let built = build(&progress)?;
        lock(&self.built).insert((material.clone(), variant));
        self.event(Event::Built {
            material: material.clone(),
            variant,
        });
        Ok(built)
    }

    pub(crate) fn pawn_table_in(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<Arc<PawnTable>, TableError> {
        let material = material.canonical();
        let cached = |m: &Material| lock(&self.prober.pawn_tables).get(m).cloned();
        if let Some(table) = cached(&material) {
            return Ok(table);
        }
        let keep = |table: Table| {
            let table = Arc::new(PawnTable::new(Arc::new(table)));
            lock(&self.prober.pawn_tables).insert(material.clone(), Arc::clone(&table));
            table
        };
        if let Some(table) = self.load(&material, Variant::Standard) {
            return Ok(keep(table));
        }
        self.may_build(&material)?;
        let table = match &self.dir {
            // Built into its file, then read back whole (and so checked).
            Some(dir) => {
                // A file there failed its check: it is rebuilt.
                let _ = fs::remove_file(dir.join(format::file_name(&material, Variant::Standard)));
                let (path, _) = self.pawn_file_in(&material, stop)?;
                format::read(&path, &material, Variant::Standard)
                    .map_err(|err| read_error(&path, err))?
            }
            None => {
                // Subtables first, outside the build lock: they take it
                // themselves.
                let subtables = self.subtables_in(&material, Variant::Standard, stop)?;
                let _guard = lock(&self.building);
                if let Some(table) = cached(&material) {
                    return Ok(table);
                }
                self.build(&material, Variant::Standard, subtables, stop)?
            }
        };
        Ok(keep(table))
    }

    /// The file of the table of a material with pawns (canonical) in the
    /// cache folder, which must be set: a file whose header and checksum
    /// are right, or one built now, level by level, without the whole
    /// table in memory, and then with the table's counts.
    pub(crate) fn pawn_file_in(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<(PathBuf, Option<ByColor<SideSummary>>), TableError> {
        let dir = self.dir.as_ref().expect("a cache folder");
        let path = dir.join(format::file_name(material, Variant::Standard));
        let usable = || {
            self.usable(&path, |path| {
                format::Body::read(path, material, Variant::Standard)
            })
        };
        if usable().is_some() {
            return Ok((path, None));
        }
        self.may_build(material)?;
        // Subtables first, outside the build lock: they take it themselves.
        // Here their files are only made sure of (built if missing): the
        // build reads the sides it needs, those of the tables captures lead
        // into now, those promotions lead into a batch of roles at a time.
        for sub in crate::pawns::exits::exit_materials(material) {
            if !self.has_file(&sub) {
                self.subtable_file_in(&sub, stop)?;
            }
        }
        let _guard = lock(&self.building);
        if usable().is_some() {
            return Ok((path, None));
        }
        // Made sure of above: none is built under the lock.
        let captures = self.capture_sides(material, None)?;
        let promotion_tables = |sub: &Material, sides: &[Color], reading: Reading| {
            if reading == Reading::ByBlocks && self.held_subtable(sub).is_none() {
                // From its file a block at a time.
                let path = dir.join(format::file_name(sub, Variant::Standard));
                let opened = self
                    .usable(&path, |path| {
                        ChunkedTable::open(path, sub, Variant::Standard)
                    })
                    .ok_or_else(|| TableError::MissingSubtable(sub.clone()))?;
                return Ok(PromotionTable::Opened(Arc::new(opened)));
            }
            Ok(PromotionTable::Held(self.held_or_read(sub, sides)?))
        };
        let (path, counted) =
            self.building_with(material, Variant::Standard, stop, |progress| {
                crate::build::build_pawn_file(material, &captures, &promotion_tables, progress, dir)
            })?;
        Ok((path, Some(counted)))
    }

    /// Builds the file of a subtable of a build with pawns, missing from
    /// the cache folder or damaged there (`has_file`, which said so), into
    /// the folder, without keeping the table in memory: a build from an
    /// empty folder makes the files of a whole closure of tables, and
    /// keeping them (a five-man table with pawns is hundreds of
    /// megabytes) held gigabytes at once.
    fn subtable_file_in(&self, sub: &Material, stop: &AtomicBool) -> Result<(), TableError> {
        if !sub.has_pawns() {
            // Lent: dropped here, read again from its file when needed.
            return self
                .table_in(sub, Variant::Standard, stop, Kept::Lent)
                .map(drop);
        }
        self.remove_file_of(sub, Variant::Standard)?;
        self.pawn_file_in(sub, stop).map(drop)
    }

    /// Refuses the build of a table larger than this tablebase builds on
    /// demand ([`Tablebase::building_up_to`]), before anything is built.
    fn may_build(&self, material: &Material) -> Result<(), TableError> {
        if material.len() > self.build_up_to {
            return Err(TableError::NotBuiltOnDemand(material.clone()));
        }
        Ok(())
    }
}
