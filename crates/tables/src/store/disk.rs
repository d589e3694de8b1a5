//! Reading and writing the cache folder for the store: files checked as
//! they are read (damaged ones reported for a rebuild, those that do not
//! answer left alone), saved. No file is removed: a new one is renamed
//! over the old.

use std::{self, path::Path, sync::Arc};

use shakmaty::Color;

use super::*;
use crate::{
    error::TableError, format, material::Material, sync::lock, table::Table, variant::Variant,
};

impl Tablebase {
    /// The table from its file in the cache folder, read whole and checked;
    /// `None` when there is none or it is unusable (reported: it will be
    /// rebuilt). Tried before the subtables are had, which a loaded table
    /// does not need.
    pub(crate) fn load(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<Option<Table>, TableError> {
        self.load_sides(material, variant, &Color::ALL)
    }

    /// [`Tablebase::load`] holding the values of the sides `sides` to move
    /// only.
    fn load_sides(
        &self,
        material: &Material,
        variant: Variant,
        sides: &[Color],
    ) -> Result<Option<Table>, TableError> {
        let Some(dir) = self.dir.as_ref() else {
            return Ok(None);
        };
        let path = dir.join(format::file_name(material, variant));
        self.usable(&path, |path| {
            format::read_sides(path, material, variant, sides)
        })
    }

    /// What `read` makes of the file at `path` (the temporary files of it
    /// that no writer holds removed first); `None` when there is none or
    /// it is unusable (reported: it will be rebuilt, and the new file
    /// renamed over it); [`TableError::Hung`] when it was not read in time:
    /// it may be sound on a disk that stopped answering, and is left alone.
    pub(crate) fn usable<T>(
        &self,
        path: &Path,
        read: impl FnOnce(&Path) -> Result<T, format::ReadError>,
    ) -> Result<Option<T>, TableError> {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            format::remove_stale(dir, &name.to_string_lossy());
        }
        // Found damaged already, and not replaced since: a read that looks
        // at less of it (its header) must not take it for sound.
        if lock(&self.reported).contains(path) {
            return Ok(None);
        }
        match read(path) {
            Ok(read) => Ok(Some(read)),
            Err(format::ReadError::Io(err)) if err.kind() == std::io::ErrorKind::NotFound => {
                Ok(None)
            }
            Err(format::ReadError::File(error)) if error.is_hung() => Err(TableError::Hung {
                path: path.to_path_buf(),
                error,
            }),
            Err(err) => {
                self.unusable(
                    path,
                    match err {
                        format::ReadError::Io(err) => Unusable::Io(err.kind()),
                        format::ReadError::File(err) => Unusable::File(err),
                    },
                );
                Ok(None)
            }
        }
    }

    /// Reports the file at `path` unusable, once until this tablebase
    /// replaces it: a build looks at a damaged file more than once before
    /// its new file is renamed over it.
    pub(crate) fn unusable(&self, path: &Path, reason: Unusable) {
        if lock(&self.reported).insert(path.to_path_buf()) {
            self.event(Event::Rebuilding {
                path: path.to_path_buf(),
                reason,
            });
        }
    }

    /// Whether builds write into the cache folder: there is one, and it can
    /// be written in.
    pub(crate) fn writes_files(&self) -> bool {
        self.dir.as_ref().is_some_and(|dir| writable(dir).is_ok())
    }

    /// Whether a build writes its table into the cache folder
    /// ([`Tablebase::writes_files`]); else it is built and kept in memory,
    /// which an event says once when there is a folder (read-only: what it
    /// holds is still read).
    pub(crate) fn writes_into_folder(&self) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        match writable(dir) {
            Ok(()) => true,
            Err(err) => {
                if lock(&self.reported).insert(dir.clone()) {
                    self.event(Event::InMemory {
                        dir: dir.clone(),
                        reason: err.to_string(),
                    });
                }
                false
            }
        }
    }

    /// Saves a table in the cache folder, if any and it can be written in;
    /// a failure is reported, and answers false.
    pub(crate) fn save(&self, table: &Table) -> bool {
        let Some(dir) = &self.dir else {
            return false;
        };
        if !self.writes_into_folder() {
            return false;
        }
        match format::write(dir, table) {
            Ok(path) => {
                lock(&self.reported).remove(&path);
                true
            }
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
    pub(crate) fn has_file(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<bool, TableError> {
        let Some(dir) = self.dir.as_ref() else {
            return Ok(false);
        };
        let path = dir.join(format::file_name(material, variant));
        let sound = self.usable(&path, |path| {
            let body = format::Body::read(path, material, variant)?;
            body.verify_chunks()?;
            Ok(body)
        })?;
        Ok(sound.is_some())
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
            .load_sides(material, Variant::Standard, sides)?
            .ok_or_else(|| TableError::MissingSubtable(material.clone()))?;
        Ok(Arc::new(table))
    }

    /// A table in memory, had without keeping it (a table with pawns by
    /// its canonical material).
    pub(crate) fn held_table(&self, material: &Material, variant: Variant) -> Option<Arc<Table>> {
        if material.has_pawns() {
            let table = self.prober.recent.pawn_table(material);
            table.map(|table| Arc::clone(table.table()))
        } else {
            self.cached(&(material.clone(), variant), Kept::Lent)
        }
    }

    /// Whether the file at `path` of the table of a material with pawns
    /// (canonical) has a right header and checksum (a damaged one is
    /// reported; one not read in time an error).
    pub(crate) fn pawn_file_sound(
        &self,
        path: &Path,
        material: &Material,
    ) -> Result<bool, TableError> {
        let sound = self.usable(path, |path| {
            format::Body::read(path, material, Variant::Standard)
        })?;
        Ok(sound.is_some())
    }
}

/// Whether files can be written in `dir` (made if missing): a file is
/// made there, with no name, and let go.
fn writable(dir: &Path) -> std::io::Result<()> {
    #[cfg(test)]
    if super::tests::read_only(dir) {
        return Err(std::io::ErrorKind::ReadOnlyFilesystem.into());
    }
    std::fs::create_dir_all(dir)?;
    tempfile::tempfile_in(dir).map(drop)
}
