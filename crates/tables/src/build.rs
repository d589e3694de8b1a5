//! Building a table: the pawnless engine on the whole table, or a table with
//! pawns slice by slice, into memory or straight into its file.

use std::{
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::Arc,
};

use shakmaty::{ByColor, Color};

use crate::{
    engine::{Progress, bytes::zeroed, layout::Layout, pieces::Pieces, run_layout},
    error::TableError,
    format::{self, FileWriter},
    index::Indexer,
    material::Material,
    pawns::{build::Chosen, journal::Journal, schedule::Tuning},
    rules::Rules,
    slices::SliceIndexer,
    summary::{SideSummary, TableCounter},
    table::{Numbering, Subtables, Table},
    value::MAX_PLIES,
    variant::Variant,
};

/// Builds the table of `material` in `variant`. `subtables` must hold the
/// table of every material a capture or a promotion leads to (none for the
/// fixed-king game, where a capture ends the game); a material with pawns
/// is held under its canonical material (see [`Material::canonical`]).
/// The build owns them: a table with pawns drops those it no longer needs
/// (the promotions', once no pawn is left on its seventh rank).
/// `progress` is told where the build stands; when it answers `Break`, the
/// build stops with [`TableError::Stopped`] (at the next rank, or at the
/// end of the first pass).
pub fn build(
    material: &Material,
    variant: Variant,
    subtables: Subtables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
) -> Result<Table, TableError> {
    build_tuned(material, variant, subtables, progress, Tuning::PRODUCTION)
}

/// The tables promotions lead into, all held in `subtables` (a build in
/// memory): each is given whole, however it may be read.
fn held_promotions(
    subtables: &Subtables,
) -> impl Fn(
    &Material,
    &[Color],
    crate::pawns::promotions::Reading,
) -> Result<crate::pawns::promotions::PromotionTable, TableError>
+ Sync
+ '_ {
    |material, _sides, _reading| {
        subtables
            .get(material)
            .cloned()
            .map(crate::pawns::promotions::PromotionTable::Held)
            .ok_or_else(|| TableError::MissingSubtable(material.clone()))
    }
}

/// The slices of a build with pawns gathered into the whole table.
struct WholeTable(ByColor<Vec<u8>>);

impl crate::pawns::build::SliceSink for WholeTable {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError> {
        for turn in Color::ALL {
            debug_assert_eq!(self.0[turn].len(), first);
            self.0[turn].extend_from_slice(bytes[turn]);
        }
        Ok(())
    }
}

/// The slices of a build with pawns written into the table's file, and
/// counted as they go: the file need not be read back to be summarized.
struct ToFile {
    writer: FileWriter,
    path: PathBuf,
    counter: TableCounter,
}

impl crate::pawns::build::SliceSink for ToFile {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError> {
        for turn in Color::ALL {
            self.counter.add(turn, first, bytes[turn]);
            self.writer
                .append(turn, bytes[turn])
                .map_err(|error| TableError::Io {
                    path: self.path.clone(),
                    error,
                })?;
        }
        Ok(())
    }
}

/// Builds the table of a material with pawns straight into its file in
/// `dir`, level by level, so that the whole table is never in memory (see
/// [`build`] for `subtables` and `progress`); returns the file's path and
/// the table's counts.
pub(crate) fn build_pawn_file(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &crate::pawns::promotions::PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    dir: &Path,
) -> Result<(PathBuf, ByColor<SideSummary>), TableError> {
    let path = dir.join(format::file_name(material, Variant::Standard));
    let io_error = |error| TableError::Io {
        path: path.clone(),
        error,
    };
    let writer = FileWriter::create(dir, material, Variant::Standard).map_err(io_error)?;
    let indexer = SliceIndexer::shared(material);
    let mut sink = ToFile {
        writer,
        path: path.clone(),
        counter: TableCounter::new(material, Numbering::Slices(Arc::clone(&indexer))),
    };
    // A table split into steps of slices has its journal already.
    let journal = if indexer.size() >= KEPT_FROM || Journal::exists(dir, material) {
        let journal = Journal::open(dir, material, indexer.slice_len(), Tuning::PRODUCTION.limit);
        Some(journal.map_err(io_error)?)
    } else {
        None
    };
    let overflow = crate::pawns::build::build(
        material,
        captures,
        promotion_tables,
        progress,
        Tuning::PRODUCTION,
        journal.as_ref(),
        &mut sink,
    )?;
    let path = sink.writer.finish(&overflow).map_err(io_error)?;
    if let Some(journal) = journal {
        journal.remove().map_err(io_error)?;
    }
    Ok((path, sink.counter.finish(&overflow)))
}

/// Builds slices of a material with pawns into its journal in `dir`, from
/// the slices kept there that their pawn steps lead into: one step of a
/// table split into steps ([`crate::plan::Step::Slices`]), or the cone of
/// a position probed ([`crate::pawns::cone`]); [`build_pawn_file`] then
/// writes the file from the journal.
pub(crate) fn build_pawn_slices(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &crate::pawns::promotions::PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    dir: &Path,
    chosen: Chosen,
) -> Result<(), TableError> {
    let indexer = SliceIndexer::shared(material);
    let journal = Journal::open(dir, material, indexer.slice_len(), Tuning::PRODUCTION.limit)
        .map_err(|error| TableError::Io {
            path: dir.join(format::file_name(material, Variant::Standard)),
            error,
        })?;
    crate::pawns::build::build_slices(
        material,
        captures,
        promotion_tables,
        progress,
        Tuning::PRODUCTION,
        &journal,
        chosen,
    )
}

/// Numbers a side from which a build with pawns keeps each slice on disk
/// as it is built, so that a stopped build resumes (six men with pawns:
/// hours; a five-man table takes minutes, and writing its slices twice
/// would cost more than it saves).
pub(crate) const KEPT_FROM: usize = 1 << 32;

/// [`build`] with a [`Tuning`] of its own.
pub(crate) fn build_tuned(
    material: &Material,
    variant: Variant,
    subtables: Subtables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
) -> Result<Table, TableError> {
    assert!(tuning.limit <= MAX_PLIES);
    let (bytes, overflow) = if material.has_pawns() {
        if variant != Variant::Standard {
            return Err(TableError::FixedKingPawns(material.clone()));
        }
        let mut whole = WholeTable(ByColor::new_with(|_| {
            Vec::with_capacity(Table::numbers_per_side(material, variant))
        }));
        let overflow = crate::pawns::build::build(
            material,
            &subtables,
            &held_promotions(&subtables),
            progress,
            tuning,
            None,
            &mut whole,
        )?;
        (whole.0, overflow)
    } else {
        let capture_tables = (0..material.len())
            .map(|man| match variant {
                Variant::Standard if man >= 2 => {
                    let sub = material.without(man);
                    subtables
                        .get(&sub)
                        .map(|t| Some(t.as_ref()))
                        .ok_or(TableError::MissingSubtable(sub))
                }
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pieces = Pieces::new(
            Indexer::new(material.len(), variant),
            Rules::new(material, variant),
            capture_tables,
        );
        let mut bytes = ByColor::new_with(|_| zeroed(pieces.size()));
        let overflow = run_layout(
            pieces,
            bytes.as_mut().map(Vec::as_mut_slice),
            material,
            progress,
            tuning.settings(),
        )?;
        (bytes, overflow)
    };
    Ok(Table::from_parts(
        material.clone(),
        variant,
        bytes,
        overflow,
    ))
}

#[cfg(test)]
mod tests;
