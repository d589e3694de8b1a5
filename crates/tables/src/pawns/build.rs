//! Building a table with pawns slice by slice, most advanced first: what is
//! held between slices, how many are built at once, and where each goes;
//! or one step of its slices alone, into its journal (a step of a plan
//! run as a process of its own).

use std::{
    collections::HashMap,
    ops::ControlFlow,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color, Piece};

use crate::{
    engine::{Progress, bytes::zeroed, run_layout},
    error::TableError,
    material::Material,
    overflow::Overflow,
    pawns::{
        exits::{ExitMoves, ExitTables},
        journal::{Journal, SliceBytes},
        layout::{Built, KeptBytes, KeptSlice, SliceLayout, Steps},
        promotions::{Promoted, PromotionTables},
        schedule::{Level, Schedule, Tuning},
    },
    slices::SliceIndexer,
    table::Subtables,
};

/// Where the slices of a build go, in the order of their numbers, each
/// once built: `first` is the number of its first position, `bytes` both
/// sides' bytes.
pub(crate) trait SliceSink {
    fn put(&mut self, first: usize, bytes: ByColor<&[u8]>) -> Result<(), TableError>;
}

/// A slice had: its number, both sides' bytes, and its overflow entries.
type OneSlice = (usize, ByColor<Vec<u8>>, Overflow);

/// The promotions gathered for slices, by slice.
type Gathered = HashMap<usize, ByColor<Option<Promoted>>>;

/// What a build holds between slices: the slices still read, and the
/// positions deeper than a byte.
struct Held {
    slices: Vec<Option<KeptSlice>>,
    /// The sides to move that pawn steps lead into.
    read: ByColor<bool>,
    slice_len: usize,
    /// The slices no slice reads once slice `i` is built: those whose
    /// last reader (in the order of the build) it is.
    unread_after: Vec<Vec<usize>>,
    deep: ByColor<HashMap<usize, u16>>,
}

impl Held {
    fn built(&self) -> Built<'_> {
        Built {
            slices: &self.slices,
            slice_len: self.slice_len,
            deep: &self.deep,
        }
    }

    /// Takes in a slice, keeping it while a slice still to build reads
    /// it, and hands its bytes to `sink` if given; drops the slices no
    /// slice left reads.
    fn absorb(
        &mut self,
        (slice, bytes, overflow): OneSlice,
        sink: Option<&mut dyn SliceSink>,
    ) -> Result<(), TableError> {
        let first = slice * self.slice_len;
        for turn in Color::ALL {
            self.deep[turn].extend(
                overflow
                    .side(turn)
                    .iter()
                    .map(|&(index, plies)| (first + index, plies)),
            );
        }
        if let Some(sink) = sink {
            sink.put(first, bytes.as_ref().map(Vec::as_slice))?;
        }
        if !self.unread_after[slice].contains(&slice) {
            let read = self.read;
            self.slices[slice] = Some(
                bytes
                    .zip_color()
                    .map(|(turn, bytes)| read[turn].then(|| KeptBytes::new(bytes))),
            );
        }
        for &unread in &self.unread_after[slice] {
            self.slices[unread] = None;
        }
        Ok(())
    }
}

/// What every slice of one build shares: the numbering, the schedule, the
/// tables its exits lead into, where built slices are kept, and its
/// progress.
struct SliceBuilder<'a> {
    material: &'a Material,
    indexer: Arc<SliceIndexer>,
    men: Vec<Piece>,
    schedule: Schedule,
    tuning: Tuning,
    exit_tables: ExitTables<'a>,
    promotion_tables: &'a PromotionTables<'a>,
    journal: Option<&'a Journal>,
    progress: &'a (dyn Fn(Progress) -> ControlFlow<()> + Sync),
    /// The slices the progress counts: all, or a group's.
    total: u64,
    done: AtomicU64,
    stop: AtomicBool,
}

impl<'a> SliceBuilder<'a> {
    fn new(
        material: &'a Material,
        captures: &'a Subtables,
        promotion_tables: &'a PromotionTables<'a>,
        progress: &'a (dyn Fn(Progress) -> ControlFlow<()> + Sync),
        tuning: Tuning,
        journal: Option<&'a Journal>,
    ) -> Result<SliceBuilder<'a>, TableError> {
        let indexer = SliceIndexer::shared(material);
        let men = indexer.men_in_order(material);
        let exit_tables = ExitTables::new(&men, captures, ExitMoves::Captures)?;
        Ok(SliceBuilder {
            material,
            schedule: Schedule::new(material, &tuning),
            total: indexer.slices() as u64,
            indexer,
            men,
            tuning,
            exit_tables,
            promotion_tables,
            journal,
            progress,
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        })
    }

    fn held(&self) -> Held {
        Held {
            slices: (0..self.indexer.slices()).map(|_| None).collect(),
            read: self.schedule.kept_sides,
            slice_len: self.indexer.slice_len(),
            unread_after: self.schedule.unread_after.clone(),
            deep: ByColor::default(),
        }
    }

    /// The best promotions of each side in `slices`, each promoting side's
    /// tables had once for all of them.
    fn gather(&self, slices: &[usize]) -> Result<Gathered, TableError> {
        let mut gathered = Gathered::new();
        for turn in Color::ALL {
            let of_turn: Vec<usize> = slices
                .iter()
                .copied()
                .filter(|&slice| self.indexer.slices[slice].on_seventh(turn))
                .collect();
            if of_turn.is_empty() {
                continue;
            }
            let found = Promoted::gather(
                &self.indexer,
                self.material,
                &self.men,
                &of_turn,
                turn,
                &self.schedule.promotion_batches[turn],
                self.promotion_tables,
            )?;
            for (slice, found) in of_turn.into_iter().zip(found) {
                gathered.entry(slice).or_default()[turn] = Some(found);
            }
        }
        Ok(gathered)
    }

    fn slice_done(&self, number: usize, kept: bool) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let progress = Progress::Slice {
            done,
            total: self.total,
            pawns: self.indexer.pawns(number),
            kept,
        };
        if (self.progress)(progress).is_break() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The slice an earlier build of this table kept in the journal.
    fn kept(&self, number: usize) -> Option<OneSlice> {
        let kept = self.journal?.load(number)?;
        Some((number, kept.bytes, kept.overflow))
    }

    /// The slices of `group` an earlier build kept, read back, and the
    /// numbers of the others, to build.
    fn read_back(&self, group: &[usize]) -> (Vec<OneSlice>, Vec<usize>) {
        let mut ones = Vec::with_capacity(group.len());
        let mut fresh = Vec::with_capacity(group.len());
        for &slice in group {
            match self.kept(slice) {
                Some(one) => {
                    self.slice_done(slice, true);
                    ones.push(one);
                }
                None => fresh.push(slice),
            }
        }
        (ones, fresh)
    }

    /// Builds one slice, its promotions given, from the slices `built`,
    /// and keeps it in the journal if there is one.
    fn build_one(
        &self,
        (number, promoted): (usize, ByColor<Option<Promoted>>),
        built: Built,
    ) -> Result<OneSlice, TableError> {
        let slice_len = self.indexer.slice_len();
        let mut bytes = ByColor::new_with(|_| zeroed(slice_len));
        let layout = SliceLayout::new(
            &self.indexer,
            &self.men,
            &self.exit_tables,
            (number, promoted),
            built,
        );
        let inner = |_: Progress| {
            if self.stop.load(Ordering::Relaxed) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let overflow = run_layout(
            layout,
            bytes.as_mut().map(Vec::as_mut_slice),
            self.material,
            &inner,
            self.tuning.settings(),
        )?;
        let one = SliceBytes { bytes, overflow };
        if let Some(journal) = self.journal {
            journal.save(number, &one)?;
        }
        self.slice_done(number, false);
        Ok((number, one.bytes, one.overflow))
    }

    /// Builds the slices `fresh` in parallel, their promotions taken from
    /// `promoted`, from the slices `held` has.
    fn build_fresh(
        &self,
        fresh: Vec<usize>,
        promoted: &mut Gathered,
        held: &Held,
    ) -> Result<Vec<OneSlice>, TableError> {
        let jobs: Vec<_> = fresh
            .into_iter()
            .map(|slice| (slice, promoted.remove(&slice).unwrap_or_default()))
            .collect();
        let built = held.built();
        jobs.into_par_iter()
            .map(|job| self.build_one(job, built))
            .collect()
    }
}

/// Builds the bytes of a material with pawns, slice by slice, most
/// advanced first, and hands each slice to `sink`; the slices of one
/// advancement lead into none of each other. Memory holds the slices
/// being built and those that pawn steps of slices still to build lead
/// into (large ones compressed), not the whole table. `captures` must hold
/// every table a capture that does not promote leads into; the tables
/// promotions lead into are had from `promotion_tables` a batch of
/// promoting roles of one side ([`Schedule::promotion_batches`]) at a time, one side
/// to move of each, while a slice (small ones: a few levels) with a pawn
/// on its seventh rank is gathered for. A slice kept in `journal` is read
/// back, not built. Returns the positions deeper than a byte.
pub(crate) fn build(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
    journal: Option<&Journal>,
    sink: &mut dyn SliceSink,
) -> Result<Overflow, TableError> {
    let builder = SliceBuilder::new(
        material,
        captures,
        promotion_tables,
        progress,
        tuning,
        journal,
    )?;
    let mut held = builder.held();
    let mut gathered = Gathered::new();
    for level in &builder.schedule.levels {
        if !level.gathered.is_empty() {
            gathered.extend(builder.gather(&level.gathered)?);
        }
        for group in &level.groups {
            let (mut ones, fresh) = builder.read_back(group);
            for (number, ..) in &ones {
                gathered.remove(number);
            }
            // Large slices, a few at a time: their promotions gathered
            // just before they are built, so that few slices' are held.
            // Small slices: the whole advancement, its promotions
            // gathered already.
            let mut own;
            let promoted = if builder.schedule.large {
                own = builder.gather(&fresh)?;
                &mut own
            } else {
                &mut gathered
            };
            ones.extend(builder.build_fresh(fresh, promoted, &held)?);
            ones.sort_unstable_by_key(|one| one.0);
            for one in ones {
                held.absorb(one, Some(&mut *sink))?;
            }
        }
    }
    let Held { mut deep, .. } = held;
    let listed = ByColor::new_with(|turn| {
        let mut listed: Vec<(usize, u16)> = deep[turn].drain().collect();
        listed.sort_unstable();
        listed
    });
    Ok(Overflow::new(tuning.limit, listed))
}

/// Which slices [`build_slices`] builds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Chosen<'a> {
    /// Step `step` of advancement `level` ([`Schedule::steps`]): the slices
    /// its pawn steps lead into must be kept in the journal already.
    Step { level: usize, step: usize },
    /// A cone ([`crate::pawns::cone`]): slices closed under pawn steps,
    /// built level by level, those of each level from the ones before.
    Cone(&'a [usize]),
}

/// Builds the slices `chosen` of a material with pawns into `journal`,
/// alone: each advancement's from the slices its pawn steps lead into,
/// which must be kept there by then (else [`TableError::MissingSlices`],
/// naming them), a group of the schedule at a time. Slices already kept
/// are not built again. The tables are those of [`build`].
pub(crate) fn build_slices(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
    journal: &Journal,
    chosen: Chosen,
) -> Result<(), TableError> {
    let mut builder = SliceBuilder::new(
        material,
        captures,
        promotion_tables,
        progress,
        tuning,
        Some(journal),
    )?;
    let slices = match chosen {
        Chosen::Step { level, step } => {
            builder
                .schedule
                .step_slices(level, step)
                .ok_or_else(|| TableError::NoSuchSlices {
                    material: material.clone(),
                    level,
                    group: step,
                })?
        }
        Chosen::Cone(slices) => slices.to_vec(),
    };
    let fresh: Vec<usize> = slices
        .into_iter()
        .filter(|&slice| builder.kept(slice).is_none())
        .collect();
    builder.total = fresh.len() as u64;
    for level in &builder.schedule.levels {
        let of_level: Vec<usize> = fresh
            .iter()
            .copied()
            .filter(|slice| level.slices.contains(slice))
            .collect();
        if !of_level.is_empty() {
            build_level(&builder, level, &of_level)?;
        }
    }
    Ok(())
}

/// Builds `fresh`, slices of `level`, from the slices kept in the journal
/// that their pawn steps lead into.
fn build_level(builder: &SliceBuilder, level: &Level, fresh: &[usize]) -> Result<(), TableError> {
    let mut read: Vec<usize> = fresh
        .iter()
        .flat_map(|&slice| {
            Steps::of(&builder.indexer, &builder.men, slice)
                .pushes
                .iter()
                .flatten()
                .map(|push| push.child)
                .collect::<Vec<_>>()
        })
        .collect();
    read.sort_unstable();
    read.dedup();
    let mut held = builder.held();
    let mut missing = Vec::new();
    for slice in read {
        match builder.kept(slice) {
            Some(one) => held.absorb(one, None)?,
            None => missing.push(slice),
        }
    }
    if !missing.is_empty() {
        return Err(TableError::MissingSlices {
            material: builder.material.clone(),
            slices: missing,
        });
    }
    // A group at a time, as the whole build makes them.
    for group in &level.groups {
        let of_group: Vec<usize> = group
            .iter()
            .copied()
            .filter(|slice| fresh.contains(slice))
            .collect();
        if of_group.is_empty() {
            continue;
        }
        let mut promoted = builder.gather(&of_group)?;
        builder.build_fresh(of_group, &mut promoted, &held)?;
    }
    Ok(())
}
