//! The tablebase: tables by material and variant, loaded from the disk cache
//! or built on demand, with the smaller tables a capture leads into built
//! first.

use std::{
    collections::{HashMap, HashSet},
    fs,
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicBool, Ordering},
    },
};

use shakmaty::{ByColor, Chess, Color, Move};

use crate::{
    engine::Progress,
    error::{FileError, TableError},
    format,
    format::ChunkedTable,
    material::{MAX_MEN_BUILT_ON_DEMAND, Material},
    pawns::{
        PawnTable,
        promotions::{PromotionTable, Reading},
    },
    probe::Prober,
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
}

/// The stop flag of work that is never stopped.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

type ProgressFn = dyn Fn(&Material, Variant, Progress) + Send + Sync;
type EventFn = dyn Fn(Event) + Send + Sync;

/// Why a table is had: asked for (kept in memory), or lent to a build as
/// one of its subtables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kept {
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
        self.dir.as_ref().is_some_and(|dir| {
            dir.join(format::file_name(&material.table_material(), variant))
                .is_file()
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
        if let Some(table) = lock(&self.prober.tables).get(key) {
            return Some(Arc::clone(table));
        }
        let table = lock(&self.lent).get(key)?.upgrade()?;
        if kept == Kept::Asked {
            lock(&self.prober.tables).insert(key.clone(), Arc::clone(&table));
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

    fn table_in(
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
        Ok(self.keep((material.clone(), variant), table, Kept::Asked))
    }

    /// Every table a capture or a promotion in `material` leads into (a
    /// material with pawns under its canonical name; none in the
    /// fixed-king game, where a capture ends the game), from memory, the
    /// cache folder or a build: what [`crate::build`] needs.
    pub fn subtables(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<Subtables, TableError> {
        self.subtables_in(material, variant, &NEVER_STOPPED)
    }

    fn subtables_in(
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
    fn capture_tables_in(
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

    /// Removes the cache folder's file of a table, if there is one.
    fn remove_file_of(&self, material: &Material, variant: Variant) -> Result<(), TableError> {
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
    fn keep(&self, key: (Material, Variant), table: Table, kept: Kept) -> Arc<Table> {
        let table = Arc::new(table);
        if kept == Kept::Lent && self.dir.is_some() {
            let lent = Arc::downgrade(&table);
            lock(&self.lent).insert(key, lent);
        } else {
            lock(&self.prober.tables).insert(key, Arc::clone(&table));
        }
        table
    }

    /// The table from its file in the cache folder, read whole and checked;
    /// `None` when there is none or it is unusable (reported: it will be
    /// rebuilt). Tried before the subtables are had, which a loaded table
    /// does not need.
    fn load(&self, material: &Material, variant: Variant) -> Option<Table> {
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
    fn usable<T>(
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

    /// Saves a table in the cache folder, if any; a failure is reported.
    fn save(&self, table: &Table) {
        if let Some(dir) = &self.dir
            && let Err(err) = format::write(dir, table)
        {
            self.event(Event::NotSaved {
                path: dir.join(format::file_name(table.material(), table.variant())),
                reason: err.to_string(),
            });
        }
    }

    /// The table of a material with pawns (orthodox chess), held under its
    /// canonical material (`KvKP` under `KPvK`), from memory, the cache
    /// folder or a new build; the tables its captures and promotions lead
    /// into are had first.
    pub fn pawn_table(&self, material: &Material) -> Result<Arc<PawnTable>, TableError> {
        self.pawn_table_in(material, &NEVER_STOPPED)
    }

    fn pawn_table_in(
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
    fn pawn_file_in(
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

    /// Whether the cache folder holds the file of an orthodox table, with
    /// a right header and checksums, every chunk's included: a build's
    /// subtable whose file is damaged is built again before the build.
    fn has_file(&self, material: &Material) -> bool {
        self.dir.as_ref().is_some_and(|dir| {
            let path = dir.join(format::file_name(material, Variant::Standard));
            self.usable(&path, |path| {
                let body = format::Body::read(path, material, Variant::Standard)?;
                body.verify_chunks()?;
                Ok(body)
            })
            .is_some()
        })
    }

    /// A subtable in memory, or the sides `sides` to move of it read from
    /// its file (not kept), never built: for a build, which holds the build
    /// lock.
    fn held_or_read(&self, material: &Material, sides: &[Color]) -> Result<Arc<Table>, TableError> {
        if let Some(table) = self.held_subtable(material) {
            return Ok(table);
        }
        let table = self
            .load_sides(material, Variant::Standard, sides)
            .ok_or_else(|| TableError::MissingSubtable(material.clone()))?;
        Ok(Arc::new(table))
    }

    /// An orthodox table in memory, had without keeping it (a table with
    /// pawns by its canonical material).
    fn held_subtable(&self, material: &Material) -> Option<Arc<Table>> {
        if material.has_pawns() {
            let tables = lock(&self.prober.pawn_tables);
            tables.get(material).map(|table| Arc::clone(table.table()))
        } else {
            self.cached(&(material.clone(), Variant::Standard), Kept::Lent)
        }
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
            let tables = lock(&self.prober.pawn_tables);
            tables.get(&material).map(|table| Arc::clone(table.table()))
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
            match self.pawn_file_in(&material, &NEVER_STOPPED)? {
                // Counted as it was built.
                (_, Some(counted)) => return Ok((material, counted)),
                (path, None) => path,
            }
        } else {
            let name = format::file_name(&material, variant);
            format::remove_stale(dir, &name);
            let path = dir.join(name);
            if !path.is_file() {
                return counted(held(&material)?);
            }
            path
        };
        let summary = match format::summarize_file(&path, &material, variant, counting) {
            Err(format::ReadError::File(reason)) => {
                self.event(Event::Rebuilding {
                    path: path.clone(),
                    reason: Unusable::File(reason),
                });
                fs::remove_file(&path).map_err(|error| TableError::Io {
                    path: path.clone(),
                    error,
                })?;
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
    fn have(&self, material: &Material, variant: Variant) -> Result<(), TableError> {
        if material.has_pawns() {
            self.pawn_table(material).map(drop)
        } else {
            self.table(material, variant).map(drop)
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
        format::ReadError::File(err) => TableError::File(err),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    fn key(material: &str) -> (Material, Variant) {
        (material.parse().unwrap(), Variant::Standard)
    }

    fn kept(tb: &Tablebase, key: &(Material, Variant)) -> bool {
        tb.prober.tables.lock().unwrap().contains_key(key)
    }

    fn alive(tb: &Tablebase, key: &(Material, Variant)) -> bool {
        let lent = tb.lent.lock().unwrap();
        lent.get(key).is_some_and(|weak| weak.strong_count() > 0)
    }

    #[test]
    fn subtables_are_not_kept_after_their_build_where_files_hold_them() {
        let dir = tempfile::tempdir().unwrap();
        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let (kqvkr, kqvk) = (key("KQvKR"), key("KQvK"));
        tb.table(&kqvkr.0, kqvkr.1).unwrap();
        assert!(kept(&tb, &kqvkr));
        assert!(!kept(&tb, &kqvk) && !alive(&tb, &kqvk));
        assert!(dir.path().join(format::file_name(&kqvk.0, kqvk.1)).exists());

        // Held by a caller, a lent table is shared; asked for, it is kept.
        let subtables = tb.subtables(&kqvkr.0, kqvkr.1).unwrap();
        assert!(alive(&tb, &kqvk) && !kept(&tb, &kqvk));
        let asked = tb.table(&kqvk.0, kqvk.1).unwrap();
        assert!(Arc::ptr_eq(&asked, &subtables[&kqvk.0]));
        drop(subtables);
        assert!(kept(&tb, &kqvk));
    }

    /// With a cache folder, a build without pawns reads of each table on
    /// disk that its captures lead into only the side to move after the
    /// capture, and builds the bytes a build in memory does.
    #[test]
    fn a_build_without_pawns_reads_one_side_of_each_capture_table() {
        let dir = tempfile::tempdir().unwrap();
        let (kqvkr, variant) = key("KQvKR");
        Tablebase::new(Some(dir.path().to_path_buf()))
            .table(&kqvkr, variant)
            .unwrap();
        fs::remove_file(dir.path().join(format::file_name(&kqvkr, variant))).unwrap();

        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let read = tb
            .capture_tables_in(&kqvkr, variant, &NEVER_STOPPED)
            .unwrap();
        // White takes the rook (black to move), black takes the queen.
        for (sub, side) in [("KQvK", Color::Black), ("KvKR", Color::White)] {
            let table = &read[&sub.parse::<Material>().unwrap()];
            assert!(table.has_side(side) && !table.has_side(!side), "{sub}");
        }
        drop(read);
        let from_files = tb.table(&kqvkr, variant).unwrap();
        let in_memory = Tablebase::in_memory().table(&kqvkr, variant).unwrap();
        for turn in Color::ALL {
            assert!(from_files.bytes(turn) == in_memory.bytes(turn), "{turn:?}");
        }
    }

    #[test]
    fn subtables_are_kept_without_a_cache_folder() {
        let tb = Tablebase::in_memory();
        let (kqvkr, kqvk) = (key("KQvKR"), key("KQvK"));
        tb.table(&kqvkr.0, kqvkr.1).unwrap();
        assert!(kept(&tb, &kqvkr) && kept(&tb, &kqvk));
    }

    /// A prober lacking a position's table answers the typed error at once
    /// and writes nothing: no table file, no temporary file.
    #[test]
    fn a_probe_of_a_table_not_built_is_a_typed_error_and_writes_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let prober = Prober::new(Some(dir.path().to_path_buf()));
        for fen in [
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        ] {
            let pos = crate::read_fen(fen, crate::CastlingRights::Refused).unwrap();
            let material = Material::from_board(pos.board()).unwrap();
            assert!(!prober.has_table(&material, Variant::Standard));
            match prober.probe(&pos, Variant::Standard) {
                Err(TableError::NotBuilt(missing)) => assert_eq!(missing, material),
                other => panic!("{fen}: {other:?}"),
            }
            assert!(matches!(
                prober.moves(&pos, Variant::Standard),
                Err(TableError::NotBuilt(_))
            ));
        }
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        // Built by the store, the same folder answers.
        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let pos = crate::read_fen(
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            crate::CastlingRights::Refused,
        )
        .unwrap();
        let built = tb.probe(&pos, Variant::Standard).unwrap();
        assert_eq!(prober.probe(&pos, Variant::Standard).unwrap(), built);
    }

    /// A panic inside a build (injected through its progress) leaves the
    /// tablebase working: the next build, the same build again and a probe
    /// all succeed in the same process, though the panic was raised while
    /// the build lock was held.
    #[test]
    fn a_panic_inside_a_build_leaves_the_next_build_and_probe_working() {
        use std::sync::atomic::AtomicBool;
        let armed = Arc::new(AtomicBool::new(true));
        let trigger = Arc::clone(&armed);
        let tb = Tablebase::in_memory().on_progress(move |_, _, _| {
            if trigger.swap(false, Ordering::SeqCst) {
                panic!("injected into a build");
            }
        });
        let krk: Material = "KRvK".parse().unwrap();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tb.table(&krk, Variant::Standard)
        }));
        assert!(panicked.is_err(), "the injected panic reached the caller");
        assert!(!armed.load(Ordering::SeqCst));
        let kqk: Material = "KQvK".parse().unwrap();
        tb.table(&kqk, Variant::Standard).unwrap();
        tb.table(&krk, Variant::Standard).unwrap();
        let pos = crate::read_fen(
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            crate::CastlingRights::Refused,
        )
        .unwrap();
        assert!(tb.probe(&pos, Variant::Standard).unwrap().wdl() == crate::Wdl::Win);
        assert!(tb.prober().probe(&pos, Variant::Standard).unwrap().wdl() == crate::Wdl::Win);
    }

    /// A table without pawns whose file is in the cache folder is counted
    /// from the file, chunk by chunk, and is not held after; its counts are
    /// those of the table in memory, in both variants. One whose file is
    /// damaged is rebuilt and counted.
    #[test]
    fn a_table_without_pawns_is_counted_from_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
        for (name, variant) in [
            ("KRvKN", Variant::Standard),
            ("KQvK", Variant::FixedKing(shakmaty::Square::C3)),
        ] {
            let material: Material = name.parse().unwrap();
            let key = (material.clone(), variant);
            let table = Tablebase::in_memory().table(&material, variant).unwrap();
            let in_memory = crate::summarize(&table);
            cached().table(&material, variant).unwrap();
            let path = dir.path().join(format::file_name(&material, variant));
            let before = fs::read(&path).unwrap();

            let from_file = cached();
            let heard = Mutex::new(Vec::new());
            assert_eq!(
                from_file
                    .summary(&material, variant, &|done, total| heard
                        .lock()
                        .unwrap()
                        .push((done, total)))
                    .unwrap(),
                (material.clone(), in_memory.clone())
            );
            // The count is told from nothing to every number of both sides.
            let heard = heard.into_inner().unwrap();
            let all = 2 * Table::numbers_per_side(&material, variant) as u64;
            assert_eq!(heard.first(), Some(&(0, all)));
            assert_eq!(heard.last(), Some(&(all, all)));
            assert!(heard.windows(2).all(|w| w[0].0 <= w[1].0), "{heard:?}");
            assert!(!kept(&from_file, &key) && !alive(&from_file, &key));

            let mut damaged = before.clone();
            let at = damaged.len() / 2;
            damaged[at] ^= 0x40;
            fs::write(&path, &damaged).unwrap();
            let (rebuilt, events) = listened(cached());
            assert_eq!(
                rebuilt.summary(&material, variant, &|_, _| {}).unwrap().1,
                in_memory
            );
            assert!(matches!(
                events.lock().unwrap()[..],
                [Event::Rebuilding { .. }, ..]
            ));
            assert_eq!(fs::read(&path).unwrap(), before);
        }
    }

    /// Tables read from their files by every rayon thread at once: each
    /// read decompresses on rayon's threads, which used to be all waiting
    /// for the reads, so that every read ran out its time limit and the
    /// good files were rebuilt.
    #[test]
    fn files_read_by_every_rayon_thread_at_once_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let names = ["KQvK", "KRvK", "KBNvK", "KQvKR"];
        for name in names {
            Tablebase::new(Some(dir.path().to_path_buf()))
                .table(&name.parse().unwrap(), Variant::Standard)
                .unwrap();
        }
        let (tb, events) = listened(Tablebase::new(Some(dir.path().to_path_buf())));
        let all_in = std::sync::Barrier::new(rayon::current_num_threads());
        let started = std::time::Instant::now();
        rayon::broadcast(|context| {
            all_in.wait();
            let name = names[context.index() % names.len()];
            tb.table(&name.parse().unwrap(), Variant::Standard).unwrap();
        });
        assert_eq!(*events.lock().unwrap(), Vec::new());
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    /// A table with pawns built into its file, level by level, has the
    /// bytes and the counts of one built whole in memory, counted as it
    /// was written and again from its file: both colours promote and take
    /// en passant in KPvKP.
    #[test]
    fn a_pawn_table_built_into_its_file_equals_one_built_in_memory() {
        let material: Material = "KPvKP".parse().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let from_file = Tablebase::new(Some(dir.path().to_path_buf()));
        let (shown, counted) = from_file
            .summary(&material, Variant::Standard, &|_, _| {})
            .unwrap();
        assert_eq!(shown, material);
        assert!(
            !from_file
                .prober
                .pawn_tables
                .lock()
                .unwrap()
                .contains_key(&material)
        );
        let in_memory = Tablebase::in_memory().pawn_table(&material).unwrap();
        assert_eq!(counted, in_memory.summarize());
        // Counted as it was written above; from its file now.
        let (_, from_its_file) = Tablebase::new(Some(dir.path().to_path_buf()))
            .summary(&material, Variant::Standard, &|_, _| {})
            .unwrap();
        assert_eq!(from_its_file, counted);
        let read_back = from_file.pawn_table(&material).unwrap();
        for turn in Color::ALL {
            assert_eq!(read_back.table().bytes(turn), in_memory.table().bytes(turn));
        }
        assert!(counted.white.longest().is_some());
    }

    /// A table a pawn build reads whose file has a damaged chunk (its
    /// index right: format 5 opens without reading the chunks) is found
    /// before the build, reported and built again, and the build ends
    /// with the right bytes; it used to fail on the chunk at every run.
    #[test]
    fn a_damaged_promotion_table_is_rebuilt_before_a_pawn_build() {
        let dir = tempfile::tempdir().unwrap();
        let material: Material = "KRvKP".parse().unwrap();
        its_tables_alone(dir.path(), &material);
        let promoted: Material = "KRvKQ".parse().unwrap();
        let damaged = dir
            .path()
            .join(format::file_name(&promoted, Variant::Standard));
        let mut bytes = fs::read(&damaged).unwrap();
        let len = bytes.len();
        for at in [len / 3, 2 * len / 3] {
            bytes[at] ^= 0x40;
        }
        fs::write(&damaged, &bytes).unwrap();
        let (rebuilt, events) = listened(Tablebase::new(Some(dir.path().to_path_buf())));
        rebuilt
            .summary(&material, Variant::Standard, &|_, _| {})
            .unwrap();
        assert!(
            events
                .lock()
                .unwrap()
                .iter()
                .any(|event| matches!(event, Event::Rebuilding { path, .. } if *path == damaged))
        );
        assert_ne!(fs::read(&damaged).unwrap(), bytes);
        assert_built_as_in_memory(&rebuilt, &material);
    }

    /// Files of format 5, from before the pawnless tables' men between the
    /// kings and the last were numbered over 62 squares: only the pawnless
    /// ones of four men or more are rebuilt (the version named), the
    /// others read as they are.
    #[test]
    fn a_format_5_file_is_rebuilt_where_the_numbering_changed() {
        let dir = tempfile::tempdir().unwrap();
        let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
        cached()
            .summary(&"KRvKP".parse().unwrap(), Variant::Standard, &|_, _| {})
            .unwrap();
        let mut files: Vec<(Material, PathBuf)> = fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_str().unwrap();
                (name.split('.').next().unwrap().parse().unwrap(), path)
            })
            .collect();
        files.sort_by(|a, b| a.1.cmp(&b.1));
        let renumbered = |m: &Material| !m.has_pawns() && m.len() >= 4;
        assert!(files.iter().any(|(m, _)| renumbered(m)));
        assert!(files.iter().any(|(m, _)| !renumbered(m)));
        let version =
            |path: &Path| u32::from_le_bytes(fs::read(path).unwrap()[8..12].try_into().unwrap());
        for (_, path) in &files {
            let mut bytes = fs::read(path).unwrap();
            bytes[8..12].copy_from_slice(&5u32.to_le_bytes());
            fs::write(path, &bytes).unwrap();
        }
        let (tb, events) = listened(cached());
        for (material, _) in &files {
            tb.summary(material, Variant::Standard, &|_, _| {}).unwrap();
        }
        let rebuilt: Vec<PathBuf> = events
            .lock()
            .unwrap()
            .iter()
            .filter_map(|event| match event {
                Event::Rebuilding { path, reason } => {
                    let old = Unusable::File(FileError::Version(5, format::VERSION));
                    assert_eq!(*reason, old);
                    Some(path.clone())
                }
                _ => None,
            })
            .collect();
        for (material, path) in &files {
            assert_eq!(rebuilt.contains(path), renumbered(material), "{material}");
            let expected = if renumbered(material) {
                format::VERSION
            } else {
                5
            };
            assert_eq!(version(path), expected, "{material}");
        }
    }

    /// A capture table whose file fails its check is reported once and
    /// rebuilt once before a build reads it (it used to be reported twice:
    /// read for one side, then again by its own build).
    #[test]
    fn a_damaged_capture_table_is_reported_once() {
        let dir = tempfile::tempdir().unwrap();
        let cached = || Tablebase::new(Some(dir.path().to_path_buf()));
        let material: Material = "KRvKR".parse().unwrap();
        cached().table(&material, Variant::Standard).unwrap();
        let file = |name: &str| {
            let material: Material = name.parse().unwrap();
            dir.path()
                .join(format::file_name(&material, Variant::Standard))
        };
        fs::remove_file(file("KRvKR")).unwrap();
        let damaged = file("KRvK");
        let mut bytes = fs::read(&damaged).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        fs::write(&damaged, &bytes).unwrap();
        let (tb, events) = listened(cached());
        let built = tb.table(&material, Variant::Standard).unwrap();
        let reports = events
            .lock()
            .unwrap()
            .iter()
            .filter(|event| matches!(event, Event::Rebuilding { path, .. } if *path == damaged))
            .count();
        assert_eq!(reports, 1);
        assert_ne!(fs::read(&damaged).unwrap(), bytes);
        let in_memory = Tablebase::in_memory()
            .table(&material, Variant::Standard)
            .unwrap();
        assert_eq!(built.bytes(Color::White), in_memory.bytes(Color::White));
    }

    /// `tb`, every event it sends kept in order.
    fn listened(tb: Tablebase) -> (Tablebase, Arc<Mutex<Vec<Event>>>) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        (
            tb.on_event(move |event| seen.lock().unwrap().push(event)),
            events,
        )
    }

    /// Builds the table of `material` (with pawns) and the tables its moves
    /// lead into in `dir`, then removes its own file: the tables it reads
    /// are left, on disk only.
    fn its_tables_alone(dir: &Path, material: &Material) {
        Tablebase::new(Some(dir.to_path_buf()))
            .summary(material, Variant::Standard, &|_, _| {})
            .unwrap();
        fs::remove_file(dir.join(format::file_name(material, Variant::Standard))).unwrap();
    }

    /// The table of `material` in `tb` has the bytes of one built in memory.
    fn assert_built_as_in_memory(tb: &Tablebase, material: &Material) {
        let in_memory = Tablebase::in_memory().pawn_table(material).unwrap();
        let read_back = tb.pawn_table(material).unwrap();
        for turn in Color::ALL {
            assert_eq!(
                read_back.table().bytes(turn),
                in_memory.table().bytes(turn),
                "{material}"
            );
        }
    }

    /// A build with pawns from an empty folder leaves the files of the
    /// tables its moves lead into, and none of them in memory (before, each
    /// table with pawns of the closure stayed held: `solve KPPPvK` from an
    /// empty folder passed 6 GB).
    #[test]
    fn the_subtables_of_a_pawn_build_are_left_on_disk_only() {
        let dir = tempfile::tempdir().unwrap();
        let tb = Tablebase::new(Some(dir.path().to_path_buf()));
        let material: Material = "KPvKP".parse().unwrap();
        tb.summary(&material, Variant::Standard, &|_, _| {})
            .unwrap();
        let subtables = crate::pawns::exits::exit_materials(&material);
        assert!(subtables.iter().any(Material::has_pawns));
        for sub in &subtables {
            let path = dir.path().join(format::file_name(sub, Variant::Standard));
            assert!(path.is_file(), "{sub}");
            let key = (sub.clone(), Variant::Standard);
            assert!(!kept(&tb, &key) && !alive(&tb, &key), "{sub}");
            assert!(
                !tb.prober.pawn_tables.lock().unwrap().contains_key(sub),
                "{sub}"
            );
        }
    }

    /// Promotions that take nothing read the tables they lead into from
    /// their files a block at a time (`slice::read_by_blocks`), when no
    /// table is in memory: the bytes are those of a build that holds the
    /// tables whole, for a pawn of either colour (KRvKP's promotions lead
    /// into colour-flipped twins), and for tables with pawns left (read a
    /// slice at a time; KPPvK with both pawns on the seventh rank reaches
    /// two slices at once).
    #[test]
    fn promotions_read_a_block_at_a_time_give_the_bytes_of_whole_tables() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["KRvKP", "KRPvK", "KPvKP", "KPPvK"] {
            let material: Material = name.parse().unwrap();
            its_tables_alone(dir.path(), &material);
            let from_files = Tablebase::new(Some(dir.path().to_path_buf()));
            from_files
                .summary(&material, Variant::Standard, &|_, _| {})
                .unwrap();
            assert_built_as_in_memory(&from_files, &material);
        }
    }
}
