//! The tablebase: tables by material and variant, loaded from the disk cache
//! or built on demand, with the smaller tables a capture leads into built
//! first.

mod disk;
mod execute;

use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    sync::{Arc, Mutex, Weak, atomic::AtomicBool},
};

use shakmaty::{ByColor, Chess, Color, Move, Position};

use crate::{
    engine::Progress,
    error::{FileError, TableError},
    format,
    material::{MAX_MEN_BUILT_ON_DEMAND, Material},
    pawns::{
        PawnTable,
        journal::Journal,
        schedule::{Schedule, Tuning},
    },
    plan::Step,
    probe::{Had, Prober},
    recent::{Copies, Entry, Key},
    summary::SideSummary,
    sync::lock,
    table::{Subtables, Table},
    value::Value,
    variant::Variant,
};

/// The environment variable that names the cache folder.
pub const TABLES_ENV: &str = "AJEDRECISTA_TABLES";

/// Why a cached table file is not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unusable {
    /// It could not be read (the system's error kind).
    #[error("{0}")]
    Io(std::io::ErrorKind),
    /// It was read and failed a check.
    #[error(transparent)]
    File(FileError),
}

/// Something that happened while getting a table, for the caller to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A cached file was unreadable or corrupt and is being rebuilt.
    Rebuilding { path: PathBuf, reason: Unusable },
    /// A table is being built from scratch.
    Building {
        material: Material,
        variant: Variant,
    },
    /// A build has finished.
    Built {
        material: Material,
        variant: Variant,
    },
    /// A built table could not be saved; it is used from memory.
    NotSaved { path: PathBuf, reason: String },
    /// The cache folder cannot be written in: the tables it lacks are
    /// built and kept in memory (said once).
    InMemory { dir: PathBuf, reason: String },
}

/// The stop flag of work that is never stopped.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

type ProgressFn = dyn Fn(&Material, Variant, Progress) + Send + Sync;
type EventFn = dyn Fn(Event) + Send + Sync;

/// Why a table is had: asked for (kept in memory), or lent to a build as
/// one of its subtables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    Asked,
    Lent,
}

/// Tables by material and variant.
pub struct Tablebase {
    dir: Option<PathBuf>,
    /// The tables in memory, read by probes.
    prober: Prober,
    /// Pawnless tables had only as the subtables of a build, with a cache
    /// folder: kept while someone holds them (the build, a caller), and
    /// read again from their files after that. A five-man build's write
    /// and summary then run without its subtables in memory.
    lent: Mutex<HashMap<(Material, Variant), Weak<Table>>>,
    /// Builds one table at a time (each build uses every core).
    building: Mutex<()>,
    /// The tables this tablebase has built.
    built: Mutex<HashSet<(Material, Variant)>>,
    /// Files reported unusable, not replaced since (not used until they
    /// are), and the cache folder once reported read-only.
    reported: Mutex<HashSet<PathBuf>>,
    /// The most men of a table built on demand; a larger one must be in
    /// the cache folder already.
    build_up_to: usize,
    on_progress: Option<Box<ProgressFn>>,
    on_event: Option<Box<EventFn>>,
}

impl Tablebase {
    /// A tablebase caching its tables in `dir`, or in the default folder
    /// (see [`Tablebase::default_dir`]) when `dir` is `None`.
    pub fn new(dir: Option<PathBuf>) -> Tablebase {
        Tablebase::with_dir(dir.or_else(Tablebase::default_dir))
    }

    /// A tablebase that keeps its tables in memory only.
    pub fn in_memory() -> Tablebase {
        Tablebase::with_dir(None)
    }

    fn with_dir(dir: Option<PathBuf>) -> Tablebase {
        Tablebase {
            prober: Prober::new(dir.clone()),
            dir,
            lent: Mutex::new(HashMap::new()),
            building: Mutex::new(()),
            built: Mutex::new(HashSet::new()),
            reported: Mutex::new(HashSet::new()),
            build_up_to: MAX_MEN_BUILT_ON_DEMAND,
            on_progress: None,
            on_event: None,
        }
    }

    /// `$AJEDRECISTA_TABLES`, else `ajedrecista/tables` in the user's cache
    /// folder.
    pub fn default_dir() -> Option<PathBuf> {
        std::env::var_os(TABLES_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("ajedrecista").join("tables")))
    }

    /// The cache folder, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Whether the file of the table that holds `material`'s positions
    /// ([`Material::table_material`]) is in the cache folder.
    pub fn in_cache_folder(&self, material: &Material, variant: Variant) -> bool {
        self.prober.in_folder(material, variant)
    }

    /// Whether the cache folder holds what a step of a plan writes (present,
    /// not checked): a table's file, or the parts of a group of slices kept
    /// in its table's journal (or the table's file, written from them).
    pub fn step_in_cache_folder(&self, step: &Step) -> bool {
        let material = step.material().table_material();
        if self.in_cache_folder(&material, Variant::Standard) {
            return true;
        }
        let (Step::Slices { level, group, .. }, Some(dir)) = (step, &self.dir) else {
            return false;
        };
        if !material.has_pawns() {
            return false;
        }
        Schedule::new(&material, &Tuning::PRODUCTION)
            .step_slices(*level, *group)
            .is_some_and(|slices| {
                let kept = Journal::parts_present(dir, &material);
                slices.iter().all(|slice| kept.contains(slice))
            })
    }

    /// Whether this tablebase has built the table of `material` (its
    /// canonical material, for a table with pawns) in `variant`.
    pub fn has_built(&self, material: &Material, variant: Variant) -> bool {
        lock(&self.built).contains(&(material.table_material(), variant))
    }

    /// Builds tables of up to `men` men when they are needed and not in the
    /// cache folder. By default five ([`MAX_MEN_BUILT_ON_DEMAND`]): a
    /// six-man table, with pawns or without, takes gigabytes of memory and
    /// an hour, which only a request for that table (`solve`) should start,
    /// never a probe of one position.
    pub fn building_up_to(mut self, men: usize) -> Tablebase {
        self.build_up_to = men;
        self
    }

    /// Keeps at most `bytes` of tables, file chunks and slices in memory
    /// for probes ([`Prober::memory_budget`]); a table that could not be
    /// saved is kept whatever the budget, and counts against it.
    pub fn memory_budget(mut self, bytes: usize) -> Tablebase {
        self.prober = self.prober.memory_budget(bytes);
        self
    }

    /// Calls `f` as builds progress.
    pub fn on_progress(
        mut self,
        f: impl Fn(&Material, Variant, Progress) + Send + Sync + 'static,
    ) -> Tablebase {
        self.on_progress = Some(Box::new(f));
        self
    }

    /// Calls `f` on every [`Event`].
    pub fn on_event(mut self, f: impl Fn(Event) + Send + Sync + 'static) -> Tablebase {
        self.on_event = Some(Box::new(f));
        self
    }

    fn event(&self, event: Event) {
        if let Some(f) = &self.on_event {
            f(event);
        }
    }

    /// The table of `key` if it is in memory; one lent to a build is kept
    /// from now on when `kept` says it was asked for.
    fn cached(&self, key: &(Material, Variant), kept: Kept) -> Option<Arc<Table>> {
        if let Some(table) = self.prober.held(key) {
            return Some(table);
        }
        let table = lock(&self.lent).get(key)?.upgrade()?;
        if kept == Kept::Asked {
            // Lent tables have their files.
            let entry = Entry::Table(Arc::clone(&table));
            self.prober
                .recent
                .put(Key::of_table(key.0.clone(), key.1), entry, Copies::OnDisk);
        }
        Some(table)
    }

    /// The table of `material` in `variant`, from memory, the cache folder
    /// or a new build.
    pub fn table(&self, material: &Material, variant: Variant) -> Result<Arc<Table>, TableError> {
        self.table_in(material, variant, &NEVER_STOPPED, Kept::Asked)
    }

    /// Has the table a position of `material` is probed in (its canonical
    /// material's, with pawns) ready for probes: in memory, in the cache
    /// folder, or built now with the tables its moves lead into, unless
    /// `stop` is raised first ([`TableError::Stopped`]: nothing half-built
    /// is kept). For work that may be abandoned, such as a web request.
    pub fn prepare(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<(), TableError> {
        if self.in_cache_folder(material, variant) {
            return Ok(()); // opened for probes when first probed
        }
        let stored = material.table_material();
        if stored.has_pawns() {
            self.pawn_table_in(&stored, stop).map(|_| ())
        } else {
            self.table_in(&stored, variant, stop, Kept::Asked)
                .map(|_| ())
        }
    }

    /// [`Tablebase::prepare`] for the probes of one position: where that
    /// needs a table with pawns whose file is not in the cache folder,
    /// only its cone is built ([`Tablebase::cone`]).
    pub fn prepare_position(
        &self,
        pos: &Chess,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<(), TableError> {
        match self.cone(pos, variant)? {
            Some(cone) => self.build_cone(&cone, stop),
            None => self.prepare(&Material::from_board(pos.board())?, variant, stop),
        }
    }

    /// The table of `material` in `variant` read from the file at `path`
    /// and checked as a cached file is (header, checksum, chunks, the
    /// semantic check), then kept in memory in place of any other. Unlike
    /// [`Tablebase::table`], a file that fails is an error, never rebuilt.
    pub fn load_file(
        &self,
        path: &Path,
        material: &Material,
        variant: Variant,
    ) -> Result<Arc<Table>, TableError> {
        check_pawnless(material, variant)?;
        let table = format::read(path, material, variant).map_err(|err| read_error(path, err))?;
        let key = (material.clone(), variant);
        Ok(self.keep(key, table, Kept::Asked, Copies::OnlyInMemory))
    }

    /// Every table a capture or a promotion in `material` leads into (a
    /// material with pawns under its canonical name; none in the
    /// fixed-king game, where a capture ends the game), from memory, the
    /// cache folder or a build: what [`crate::build()`] needs.
    pub fn subtables(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<Subtables, TableError> {
        self.subtables_in(material, variant, &NEVER_STOPPED)
    }

    /// The table of a material with pawns (orthodox chess), held under its
    /// canonical material (`KvKP` under `KPvK`), from memory, the cache
    /// folder or a new build; the tables its captures and promotions lead
    /// into are had first.
    pub fn pawn_table(&self, material: &Material) -> Result<Arc<PawnTable>, TableError> {
        self.pawn_table_in(material, &NEVER_STOPPED)
    }

    /// The counts of the table of `material` in `variant`, shown under the
    /// material it is held under (returned with them: a material with pawns
    /// under its canonical one). A table in memory is counted there. With
    /// a cache folder, a table whose file is there is counted from the file
    /// chunk by chunk, the whole table never in memory (a six-man table
    /// without pawns is counted in a few hundred megabytes, not its 15 GB);
    /// one whose file is missing is built first, and one whose file fails
    /// its check is rebuilt. `counting` hears the progress of a count from
    /// a file: the numbers counted so far (both sides), of all (a six-man
    /// table takes minutes).
    pub fn summary(
        &self,
        material: &Material,
        variant: Variant,
        counting: &dyn Fn(u64, u64),
    ) -> Result<(Material, ByColor<SideSummary>), TableError> {
        let pawns = material.has_pawns();
        if !pawns {
            check_pawnless(material, variant)?;
        } else if variant != Variant::Standard {
            return Err(TableError::FixedKingPawns(material.clone()));
        }
        let material = material.table_material();
        // A table without pawns built here is lent, not kept: with a cache
        // folder it is read from its file when next needed.
        let held = |material: &Material| -> Result<Arc<Table>, TableError> {
            if pawns {
                Ok(Arc::clone(self.pawn_table(material)?.table()))
            } else {
                self.table_in(material, variant, &NEVER_STOPPED, Kept::Lent)
            }
        };
        let in_memory = if pawns {
            let table = self.prober.recent.pawn_table(&material);
            table.map(|table| Arc::clone(table.table()))
        } else {
            self.cached(&(material.clone(), variant), Kept::Lent)
        };
        let counted = |table: Arc<Table>| Ok((material.clone(), crate::summarize(&table)));
        let dir = match (in_memory, &self.dir) {
            (Some(table), _) => return counted(table),
            (None, None) => return counted(held(&material)?),
            (None, Some(dir)) => dir,
        };
        let path = if pawns {
            let path = dir.join(format::file_name(&material, variant));
            // A folder it cannot write in, without the file: built and
            // counted in memory.
            if !self.writes_files() && !self.pawn_file_sound(&path, &material)? {
                return counted(held(&material)?);
            }
            match self.pawn_file_in(&material, &NEVER_STOPPED)? {
                // Counted as it was built.
                (_, Some(counted)) => return Ok((material, counted)),
                (path, None) => path,
            }
        } else {
            let name = format::file_name(&material, variant);
            format::remove_stale(dir, &name);
            let path = dir.join(name);
            if !format::is_present(&path) {
                return counted(held(&material)?);
            }
            path
        };
        let summary = match format::summarize_file(&path, &material, variant, counting) {
            // Rebuilt, and the new file renamed over it.
            Err(format::ReadError::File(reason)) if !reason.is_hung() => {
                self.unusable(&path, Unusable::File(reason));
                if !pawns {
                    return counted(held(&material)?);
                }
                match self.pawn_file_in(&material, &NEVER_STOPPED)? {
                    (_, Some(counted)) => Ok(counted),
                    // Another caller rebuilt it meanwhile.
                    (path, None) => format::summarize_file(&path, &material, variant, counting),
                }
            }
            summary => summary,
        }
        .map_err(|err| read_error(&path, err))?;
        Ok((material, summary))
    }

    /// The read-only side of this tablebase: its tables in memory and the
    /// files of its cache folder, never a build.
    pub fn prober(&self) -> &Prober {
        &self.prober
    }

    /// [`Prober::probe`], with any table the position needs that is
    /// missing (from memory and the cache folder) built first, and any
    /// whose file fails its check read whole, which finds the fault and
    /// rebuilds it.
    pub fn probe(&self, pos: &Chess, variant: Variant) -> Result<Value, TableError> {
        self.prober
            .probe_having(pos, variant, &|material, variant| {
                self.have(material, variant)
            })
    }

    /// [`Prober::moves`], building what is missing as [`Tablebase::probe`]
    /// does.
    pub fn moves(&self, pos: &Chess, variant: Variant) -> Result<Vec<(Move, Value)>, TableError> {
        self.prober
            .moves_having(pos, variant, &|material, variant| {
                self.have(material, variant)
            })
    }

    /// [`Prober::principal_variation`], building what is missing as
    /// [`Tablebase::probe`] does.
    pub fn principal_variation(
        &self,
        pos: &Chess,
        variant: Variant,
    ) -> Result<Vec<Move>, TableError> {
        self.prober
            .principal_variation_having(pos, variant, &|material, variant| {
                self.have(material, variant)
            })
    }

    /// Has the table of `material` (canonical, with pawns) in memory: read
    /// whole from its file (a damaged one rebuilt) or built.
    fn have(&self, material: &Material, variant: Variant) -> Result<Had, TableError> {
        if material.has_pawns() {
            self.pawn_table(material).map(Had::Pawns)
        } else {
            self.table(material, variant).map(Had::Table)
        }
    }
}

/// Refuses what a pawnless table cannot hold: pawns, or men of Black's
/// in the game where the white king never moves.
fn check_pawnless(material: &Material, variant: Variant) -> Result<(), TableError> {
    if matches!(variant, Variant::FixedKing(_)) && !material.is_bare(Color::Black) {
        return Err(TableError::FixedKingNeedsBareBlack(material.clone()));
    }
    if material.has_pawns() {
        return Err(TableError::PawnMaterial(material.clone()));
    }
    Ok(())
}

/// The table error of a file that failed to read.
fn read_error(path: &Path, err: format::ReadError) -> TableError {
    match err {
        format::ReadError::Io(error) => TableError::Io {
            path: path.to_path_buf(),
            error,
        },
        format::ReadError::File(error) if error.is_hung() => TableError::Hung {
            path: path.to_path_buf(),
            error,
        },
        format::ReadError::File(err) => TableError::File(err),
    }
}

#[cfg(test)]
mod tests;
