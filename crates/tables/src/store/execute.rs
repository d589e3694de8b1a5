//! Executing a build plan for the store: the tables a request reads are
//! planned first ([`BuildPlan`]) and each missing one is built in plan
//! order from the tables before it ([`Tablebase::build_node`]); every
//! build, of a node or of the table asked for, runs in one of three
//! builders (without pawns, with pawns in memory, with pawns into a file),
//! each under the build lock after a second look, reading what it needs
//! and building nothing else.

use std::{
    cell::RefCell,
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use shakmaty::{ByColor, Chess, Color, Position};

use super::*;
use crate::{
    engine::Progress,
    error::TableError,
    format::{self, ChunkedTable},
    material::Material,
    pawns::{
        PawnTable,
        build::Chosen,
        cone,
        exits::{ExitMoves, exit_materials, exit_reads},
        journal::Journal,
        promotions::{PromotionTable, Reading},
    },
    plan::{BuildPlan, Cone, Step},
    slices::SliceIndexer,
    summary::SideSummary,
    sync::lock,
    table::{Subtables, Table},
    variant::Variant,
};

impl Tablebase {
    /// The plan for the tables of `materials` in `variant` here: built into
    /// the cache folder if there is one, those whose files are there
    /// (present, not checked) marked cached.
    pub fn plan(&self, materials: &[Material], variant: Variant) -> BuildPlan {
        BuildPlan::new(
            materials,
            variant,
            self.writes_files(),
            &|material, variant| self.in_cache_folder(material, variant),
        )
    }

    /// Has every table the table of `material` reads: plans them, those in
    /// memory or with a sound file (checked whole) counting as there, and
    /// builds the others in plan order. A damaged file is reported, and
    /// its new file renamed over it; one not read in time is an error.
    fn have_subtables(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<(), TableError> {
        let hung = RefCell::new(Ok(()));
        let plan = BuildPlan::new(
            std::slice::from_ref(material),
            variant,
            self.writes_files(),
            &|sub, variant| {
                if sub == material {
                    return false;
                }
                if self.held_table(sub, variant).is_some() {
                    return true;
                }
                self.has_file(sub, variant).unwrap_or_else(|err| {
                    if hung.borrow().is_ok() {
                        *hung.borrow_mut() = Err(err);
                    }
                    false
                })
            },
        );
        hung.into_inner()?;
        for node in plan.to_build().filter(|node| node.material != *material) {
            self.build_node(&node.material, node.variant, stop)?;
        }
        Ok(())
    }

    /// Builds the table of one node of a plan from the tables it reads,
    /// which must be in memory or in the cache folder (it builds no other),
    /// and keeps it: in the cache folder, or in memory without one. A node
    /// in memory, or whose file is there and checks, is done already. The
    /// one place a build starts: under the build lock, after a second look
    /// for a table another caller built meanwhile.
    pub fn build_node(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<(), TableError> {
        let material = material.table_material();
        if self.held_table(&material, variant).is_some() || self.has_file(&material, variant)? {
            return Ok(()); // done; a damaged file was reported, and is built again
        }
        self.may_build(&material)?;
        if material.has_pawns() {
            if variant != Variant::Standard {
                return Err(TableError::FixedKingPawns(material));
            }
            return match self.writes_into_folder() {
                true => self.pawn_file_built(&material, stop).map(drop),
                false => self.pawn_table_built(&material, stop).map(drop),
            };
        }
        self.table_built(&material, variant, stop, Kept::Lent)
            .map(drop)
    }

    /// [`Tablebase::build_node`] of a table without pawns, kept as `kept`
    /// says.
    fn table_built(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
        kept: Kept,
    ) -> Result<Arc<Table>, TableError> {
        check_pawnless(material, variant)?;
        let key = (material.clone(), variant);
        let _guard = lock(&self.building);
        if let Some(table) = self.cached(&key, kept) {
            return Ok(table);
        }
        let subtables = self.capture_tables(material, variant)?;
        let table = self.building_with(material, variant, stop, |progress| {
            crate::build::build(material, variant, subtables, progress)
        })?;
        // One that could not be saved is kept: the builds after it read it.
        Ok(match self.save(&table) {
            true => self.keep(key, table, kept, Copies::OnDisk),
            false => self.keep(key, table, Kept::Asked, Copies::OnlyInMemory),
        })
    }

    /// [`Tablebase::build_node`] of a table with pawns without a cache
    /// folder it can write in: built in memory and kept.
    fn pawn_table_built(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<Arc<PawnTable>, TableError> {
        let _guard = lock(&self.building);
        if let Some(table) = self.prober.recent.pawn_table(material) {
            return Ok(table);
        }
        let subtables = self.held_subtables(material, Variant::Standard)?;
        let table = self.building_with(material, Variant::Standard, stop, |progress| {
            crate::build::build(material, Variant::Standard, subtables, progress)
        })?;
        Ok(self.keep_pawns(material, table, Copies::OnlyInMemory))
    }

    /// [`Tablebase::build_node`] of a table with pawns into its file in the
    /// cache folder, level by level, without the whole table in memory;
    /// its path, and its counts when it was built now.
    fn pawn_file_built(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<(PathBuf, Option<ByColor<SideSummary>>), TableError> {
        let dir = self.dir.as_ref().expect("a cache folder");
        let path = dir.join(format::file_name(material, Variant::Standard));
        let _guard = lock(&self.building);
        if self.pawn_file_sound(&path, material)? {
            return Ok((path, None));
        }
        // The sides captures lead into, held throughout; those promotions
        // lead into, a batch of roles at a time.
        let captures = self.capture_sides(material)?;
        let promotion_tables = self.promotion_tables(dir);
        let (path, counted) =
            self.building_with(material, Variant::Standard, stop, |progress| {
                crate::build::build_pawn_file(material, &captures, &promotion_tables, progress, dir)
            })?;
        lock(&self.reported).remove(&path);
        Ok((path, Some(counted)))
    }

    /// The tables promotions lead into, for a build into the cache folder
    /// `dir`: from memory or their files, those read by blocks opened.
    fn promotion_tables<'a>(
        &'a self,
        dir: &'a Path,
    ) -> impl Fn(&Material, &[Color], Reading) -> Result<PromotionTable, TableError> + Sync + 'a
    {
        move |sub: &Material, sides: &[Color], reading: Reading| {
            if reading == Reading::ByBlocks && self.held_table(sub, Variant::Standard).is_none() {
                // From its file a block at a time.
                let path = dir.join(format::file_name(sub, Variant::Standard));
                let opened = self
                    .usable(&path, |path| {
                        ChunkedTable::open(path, sub, Variant::Standard, &self.prober.recent)
                    })?
                    .ok_or_else(|| TableError::MissingSubtable(sub.clone()))?;
                return Ok(PromotionTable::Opened(Arc::new(opened)));
            }
            Ok(PromotionTable::Held(self.held_or_read(sub, sides)?))
        }
    }

    /// Builds one step of a plan ([`Step`]) from what it reads, which must
    /// be in the cache folder: a table as [`Tablebase::build_node`] does,
    /// or a group of the slices of a table with pawns into its journal. A
    /// group whose slices are kept, or whose table's file is sound, is
    /// done already.
    pub fn build_step(&self, step: &Step, stop: &AtomicBool) -> Result<(), TableError> {
        match step {
            Step::Table(material) => self.build_node(material, Variant::Standard, stop),
            Step::Slices {
                material,
                level,
                group,
            } if material.has_pawns() => {
                let chosen = Chosen::Step {
                    level: *level,
                    step: *group,
                };
                self.slices_built(&material.canonical(), chosen, stop)
            }
            Step::Slices {
                material,
                level,
                group,
            } => Err(TableError::NoSuchSlices {
                material: material.canonical(),
                level: *level,
                group: *group,
            }),
        }
    }

    /// The cone of a first probe of `pos` ([`Cone`]): `None` when the
    /// position has no pawns, or its table's file is in the cache folder
    /// (or there is no folder to keep slices in).
    pub fn cone(&self, pos: &Chess, variant: Variant) -> Result<Option<Cone>, TableError> {
        let material = Material::from_board(pos.board())?;
        if !material.has_pawns() || variant != Variant::Standard {
            return Ok(None);
        }
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        if self.in_cache_folder(&material, variant) {
            return Ok(None);
        }
        let (material, index) = cone::number_of(pos)?;
        let indexer = SliceIndexer::shared(&material);
        let men = indexer.men_in_order(&material);
        let reached = cone::slices_reached(&indexer, &men, indexer.slice_of(index));
        let kept = Journal::parts_present(dir, &material);
        Ok(Some(Cone {
            plan: self.plan(&exit_materials(&material), variant),
            cone_slices: reached.len(),
            slices: reached
                .into_iter()
                .filter(|slice| !kept.contains(slice))
                .collect(),
            table_slices: indexer.slices(),
            numbers_each: indexer.slice_len(),
            material,
        }))
    }

    /// Builds a cone: the tables of its plan, then its slices into the
    /// journal of its table.
    pub fn build_cone(&self, cone: &Cone, stop: &AtomicBool) -> Result<(), TableError> {
        for node in cone.plan.to_build() {
            self.build_node(&node.material, node.variant, stop)?;
        }
        if cone.slices.is_empty() {
            return Ok(());
        }
        self.slices_built(&cone.material, Chosen::Cone(&cone.slices), stop)
    }

    /// Slices of the table with pawns `material` (canonical) built into its
    /// journal in the cache folder, from its subtables' files, unless its
    /// file is there and sound.
    fn slices_built(
        &self,
        material: &Material,
        chosen: Chosen,
        stop: &AtomicBool,
    ) -> Result<(), TableError> {
        let dir = self
            .dir
            .as_ref()
            .ok_or_else(|| TableError::SlicesNeedFolder(material.clone()))?;
        self.may_build(material)?;
        let path = dir.join(format::file_name(material, Variant::Standard));
        let _guard = lock(&self.building);
        if self.pawn_file_sound(&path, material)? {
            return Ok(());
        }
        let captures = self.capture_sides(material)?;
        let promotion_tables = self.promotion_tables(dir);
        self.building_with(material, Variant::Standard, stop, |progress| {
            crate::build::build_pawn_slices(
                material,
                &captures,
                &promotion_tables,
                progress,
                dir,
                chosen,
            )
        })
    }

    /// The table of `material` in `variant` (without pawns), from memory,
    /// the cache folder or a build, with what it reads built first.
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
        if let Some(table) = self.load(material, variant)? {
            return Ok(self.keep(key, table, kept, Copies::OnDisk));
        }
        self.may_build(material)?;
        self.have_subtables(material, variant, stop)?;
        self.table_built(material, variant, stop, kept)
    }

    /// The table of a material with pawns (canonical), from memory, the
    /// cache folder or a build, with what it reads built first; with a
    /// cache folder, built into its file and read back whole (and so
    /// checked).
    pub(crate) fn pawn_table_in(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<Arc<PawnTable>, TableError> {
        let material = material.canonical();
        if let Some(table) = self.prober.recent.pawn_table(&material) {
            return Ok(table);
        }
        if let Some(table) = self.load(&material, Variant::Standard)? {
            return Ok(self.keep_pawns(&material, table, Copies::OnDisk));
        }
        if !self.writes_into_folder() {
            self.may_build(&material)?;
            self.have_subtables(&material, Variant::Standard, stop)?;
            return self.pawn_table_built(&material, stop);
        }
        // A file there failed its check: it is rebuilt, and the new file
        // renamed over it.
        let (path, _) = self.pawn_file_in(&material, stop)?;
        let table = format::read(&path, &material, Variant::Standard)
            .map_err(|err| read_error(&path, err))?;
        Ok(self.keep_pawns(&material, table, Copies::OnDisk))
    }

    /// The file of the table of a material with pawns (canonical) in the
    /// cache folder, which must be set: a file whose header and checksum
    /// are right, or one built now with what it reads, and then with the
    /// table's counts.
    pub(crate) fn pawn_file_in(
        &self,
        material: &Material,
        stop: &AtomicBool,
    ) -> Result<(PathBuf, Option<ByColor<SideSummary>>), TableError> {
        let dir = self.dir.as_ref().expect("a cache folder");
        let path = dir.join(format::file_name(material, Variant::Standard));
        if self.pawn_file_sound(&path, material)? {
            return Ok((path, None));
        }
        self.may_build(material)?;
        self.have_subtables(material, Variant::Standard, stop)?;
        self.pawn_file_built(material, stop)
    }

    /// Every table a capture or a promotion in `material` leads into, held
    /// whole, built first where missing.
    pub(crate) fn subtables_in(
        &self,
        material: &Material,
        variant: Variant,
        stop: &AtomicBool,
    ) -> Result<Subtables, TableError> {
        if variant != Variant::Standard {
            return Ok(Subtables::new());
        }
        self.have_subtables(material, variant, stop)?;
        exit_materials(material)
            .into_iter()
            .map(|sub| {
                let table = if sub.has_pawns() {
                    Arc::clone(self.pawn_table_in(&sub, stop)?.table())
                } else {
                    self.table_in(&sub, Variant::Standard, stop, Kept::Lent)?
                };
                Ok((sub, table))
            })
            .collect()
    }

    /// The tables a build of a table without pawns reads, never built:
    /// with a cache folder, the sides captures lead into; without, whole
    /// from memory.
    pub(crate) fn capture_tables(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<Subtables, TableError> {
        if variant != Variant::Standard {
            return Ok(Subtables::new());
        }
        if self.dir.is_some() {
            self.capture_sides(material)
        } else {
            self.held_subtables(material, variant)
        }
    }

    /// Every table a capture or a promotion in `material` leads into, from
    /// memory or read whole from its file, never built.
    fn held_subtables(
        &self,
        material: &Material,
        variant: Variant,
    ) -> Result<Subtables, TableError> {
        if variant != Variant::Standard {
            return Ok(Subtables::new());
        }
        exit_materials(material)
            .into_iter()
            .map(|sub| {
                let table = self.held_or_read(&sub, &Color::ALL)?;
                Ok((sub, table))
            })
            .collect()
    }

    /// The orthodox tables the captures of `material` lead into, each held
    /// in memory or read from the cache folder with only the side to move
    /// a capture leads into (KQRvKR's build holds half of each of its
    /// four-man tables), never built: [`TableError::MissingSubtable`]
    /// where one is missing.
    fn capture_sides(&self, material: &Material) -> Result<Subtables, TableError> {
        exit_reads(material, ExitMoves::Captures)
            .into_iter()
            .map(|(sub, sides)| Ok((sub.clone(), self.held_or_read(&sub, &sides)?)))
            .collect()
    }

    /// Keeps a table without pawns in memory for probes, under their
    /// budget when it has `copies` on disk; or only while it is held when
    /// it is lent to a build and can be read again from the cache folder.
    pub(crate) fn keep(
        &self,
        key: (Material, Variant),
        table: Table,
        kept: Kept,
        copies: Copies,
    ) -> Arc<Table> {
        let table = Arc::new(table);
        if kept == Kept::Lent && copies == Copies::OnDisk {
            let lent = Arc::downgrade(&table);
            lock(&self.lent).insert(key, lent);
        } else {
            let entry = Entry::Table(Arc::clone(&table));
            self.prober
                .recent
                .put(Key::Table(key.0, key.1), entry, copies);
        }
        table
    }

    /// Keeps a table with pawns (of `material`, canonical) in memory for
    /// probes, as [`Tablebase::keep`] does.
    fn keep_pawns(&self, material: &Material, table: Table, copies: Copies) -> Arc<PawnTable> {
        let table = Arc::new(PawnTable::new(Arc::new(table)));
        let entry = Entry::Pawns(Arc::clone(&table));
        self.prober
            .recent
            .put(Key::Pawns(material.clone()), entry, copies);
        table
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

    /// Refuses the build of a table larger than this tablebase builds on
    /// demand ([`Tablebase::building_up_to`]), before anything is built.
    fn may_build(&self, material: &Material) -> Result<(), TableError> {
        if material.len() > self.build_up_to {
            return Err(TableError::NotBuiltOnDemand(material.clone()));
        }
        Ok(())
    }
}
