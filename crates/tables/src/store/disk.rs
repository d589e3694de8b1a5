//! Reading and writing the cache folder for the store: files checked as
//! they are read (damaged ones reported for a rebuild), saved, removed.

use std::{self, fs, path::Path, sync::Arc};

use shakmaty::Color;

use super::*;
use crate::{
    error::TableError, format, material::Material, sync::lock, table::Table, variant::Variant,
};

impl Tablebase {
    /// Removes the cache folder's file of a table, if there is one.
    pub(crate) fn remove_file_of(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<(), TableError> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let path = dir.join(format::file_name(material, variant));
        match fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(TableError::Io { path, error })
            }
            _ => Ok(()),
        }
    }

    /// The table from its file in the cache folder, read whole and checked;
    /// `None` when there is none or it is unusable (reported: it will be
    /// rebuilt). Tried before the subtables are had, which a loaded table
    /// does not need.
    pub(crate) fn load(&self, material: &Material, variant: Variant) -> Option<Table> {
        self.load_sides(material, variant, &Color::ALL)
    }

    /// [`Tablebase::load`] holding the values of the sides `sides` to move
    /// only.
    fn load_sides(&self, material: &Material, variant: Variant, sides: &[Color]) -> Option<Table> {
        let dir = self.dir.as_ref()?;
        let path = dir.join(format::file_name(material, variant));
        self.usable(&path, |path| {
            format::read_sides(path, material, variant, sides)
        })
    }

    /// What `read` makes of the file at `path` (stale temporary files of
    /// it removed first); `None` when there is none or it is unusable
    /// (reported: it will be rebuilt).
    pub(crate) fn usable<T>(
        &self,
        path: &Path,
        read: impl FnOnce(&Path) -> Result<T, format::ReadError>,
    ) -> Option<T> {
        let dir = path.parent()?;
        format::remove_stale(dir, &path.file_name()?.to_string_lossy());
        match read(path) {
            Ok(read) => Some(read),
            Err(format::ReadError::Io(err)) if err.kind() == std::io::ErrorKind::NotFound => None,
            Err(err) => {
                self.event(Event::Rebuilding {
                    path: path.to_path_buf(),
                    reason: match err {
                        format::ReadError::Io(err) => Unusable::Io(err.kind()),
                        format::ReadError::File(err) => Unusable::File(err),
                    },
                });
                None
            }
        }
    }

    /// Saves a table in the cache folder, if any; a failure is reported,
    /// and answers false.
    pub(crate) fn save(&self, table: &Table) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        match format::write(dir, table) {
            Ok(_) => true,
            Err(err) => {
                self.event(Event::NotSaved {
                    path: dir.join(format::file_name(table.material(), table.variant())),
                    reason: err.to_string(),
                });
                false
            }
        }
    }

    /// Whether the cache folder holds the file of a table, with a right
    /// header and checksums, every chunk's included: a build's subtable
    /// whose file is damaged is built again before the build.
    pub(crate) fn has_file(&self, material: &Material, variant: Variant) -> bool {
        self.dir.as_ref().is_some_and(|dir| {
            let path = dir.join(format::file_name(material, variant));
            self.usable(&path, |path| {
                let body = format::Body::read(path, material, variant)?;
                body.verify_chunks()?;
                Ok(body)
            })
            .is_some()
        })
    }

    /// A subtable in memory, or the sides `sides` to move of it read from
    /// its file (not kept), never built: for a build, which holds the build
    /// lock.
    pub(crate) fn held_or_read(
        &self,
        material: &Material,
        sides: &[Color],
    ) -> Result<Arc<Table>, TableError> {
        if let Some(table) = self.held_table(material, Variant::Standard) {
            return Ok(table);
        }
        let table = self
            .load_sides(material, Variant::Standard, sides)
            .ok_or_else(|| TableError::MissingSubtable(material.clone()))?;
        Ok(Arc::new(table))
    }

    /// A table in memory, had without keeping it (a table with pawns by
    /// its canonical material).
    pub(crate) fn held_table(&self, material: &Material, variant: Variant) -> Option<Arc<Table>> {
        if material.has_pawns() {
            let tables = lock(&self.prober.pawn_tables);
            tables.get(material).map(|table| Arc::clone(table.table()))
        } else {
            self.cached(&(material.clone(), variant), Kept::Lent)
        }
    }

    /// Whether the file at `path` of the table of a material with pawns
    /// (canonical) has a right header and checksum (a damaged one is
    /// reported).
    pub(crate) fn pawn_file_sound(&self, path: &Path, material: &Material) -> bool {
        self.usable(path, |path| {
            format::Body::read(path, material, Variant::Standard)
        })
        .is_some()
    }
}
