//! Building a table with pawns slice by slice, most advanced first: what is
//! held between slices, how many are built at once, and where each goes.

use std::{
    collections::HashMap,
    ops::ControlFlow,
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    engine::{Progress, bytes::zeroed, run_layout},
    error::TableError,
    material::Material,
    overflow::Overflow,
    pawns::{
        exits::{ExitMoves, ExitTables},
        journal::{Journal, SliceBytes},
        layout::{Built, KeptBytes, KeptSlice, SliceLayout},
        promotions::{Promoted, PromotionTables},
        schedule::{Schedule, Tuning},
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

    /// Takes in a slice just built and hands it to `sink`; drops the
    /// slices no slice left reads.
    fn absorb(
        &mut self,
        (slice, bytes, overflow): (usize, ByColor<Vec<u8>>, Overflow),
        sink: &mut dyn SliceSink,
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
        sink.put(first, bytes.as_ref().map(Vec::as_slice))?;
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

/// Builds the bytes of a material with pawns, slice by slice, most
/// advanced first, and hands each slice to `sink`; the slices of one
/// advancement lead into none of each other. Memory holds the slices
/// being built and those that pawn steps of slices still to build lead
/// into (large ones compressed), not the whole table. `captures` must hold
/// every table a capture that does not promote leads into; the tables
/// promotions lead into are had from `promotion_tables` a batch of
/// promoting roles of one side ([`Schedule::promotion_batches`]) at a time, one side
/// to move of each, while a slice (small ones: a few levels) with a pawn
/// on its seventh rank is gathered for. Returns the positions deeper than
/// a byte.
pub(crate) fn build(
    material: &Material,
    captures: &Subtables,
    promotion_tables: &PromotionTables,
    progress: &(dyn Fn(Progress) -> ControlFlow<()> + Sync),
    tuning: Tuning,
    journal: Option<&Journal>,
    sink: &mut dyn SliceSink,
) -> Result<Overflow, TableError> {
    let indexer = SliceIndexer::shared(material);
    let men = indexer.men_in_order(material);
    let schedule = Schedule::new(material, &tuning);
    let slice_len = indexer.slice_len();
    let mut held = Held {
        slices: (0..indexer.slices()).map(|_| None).collect(),
        read: schedule.kept_sides,
        slice_len,
        unread_after: schedule.unread_after.clone(),
        deep: ByColor::default(),
    };
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let total = indexer.slices() as u64;
    let inner = |_: Progress| {
        if stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let exit_tables = ExitTables::new(&men, captures, ExitMoves::Captures)?;
    // The best promotions of each side in `slices`, each promoting side's
    // tables had once for all of them.
    let gather = |slices: &[usize]| {
        let mut gathered: HashMap<usize, ByColor<Option<Promoted>>> = HashMap::new();
        for turn in Color::ALL {
            let of_turn: Vec<usize> = slices
                .iter()
                .copied()
                .filter(|&slice| indexer.slices[slice].on_seventh(turn))
                .collect();
            if of_turn.is_empty() {
                continue;
            }
            let found = Promoted::gather(
                &indexer,
                material,
                &men,
                &of_turn,
                turn,
                &schedule.promotion_batches[turn],
                promotion_tables,
            )?;
            for (slice, found) in of_turn.into_iter().zip(found) {
                gathered.entry(slice).or_default()[turn] = Some(found);
            }
        }
        Ok::<_, TableError>(gathered)
    };
    let mut gathered: HashMap<usize, ByColor<Option<Promoted>>> = HashMap::new();
    for level in &schedule.levels {
        if !level.gathered.is_empty() {
            gathered.extend(gather(&level.gathered)?);
        }
        let slice_done = |number: usize, kept: bool| {
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            let pawns = indexer.pawns(number);
            if progress(Progress::Slice {
                done,
                total,
                pawns,
                kept,
            })
            .is_break()
            {
                stop.store(true, Ordering::Relaxed);
            }
        };
        // A slice an earlier build of this table kept.
        let kept = |number: usize| {
            let kept = journal?.load(number)?;
            slice_done(number, true);
            Some((number, kept.bytes, kept.overflow))
        };
        let build_one = |slice: (usize, ByColor<Option<Promoted>>), built: Built| {
            let mut bytes = ByColor::new_with(|_| zeroed(slice_len));
            let number = slice.0;
            let layout = SliceLayout::new(&indexer, &men, &exit_tables, slice, built);
            let overflow = run_layout(
                layout,
                bytes.as_mut().map(Vec::as_mut_slice),
                material,
                &inner,
                tuning.settings(),
            )?;
            let one = SliceBytes { bytes, overflow };
            if let Some(journal) = journal {
                journal.save(number, &one)?;
            }
            slice_done(number, false);
            Ok::<_, TableError>((number, one.bytes, one.overflow))
        };
        // The slices of `group` an earlier build kept, read back, and the
        // numbers of the others, to build.
        let read_back = |group: &[usize]| {
            let mut ones = Vec::with_capacity(group.len());
            let mut fresh = Vec::with_capacity(group.len());
            for &slice in group {
                match kept(slice) {
                    Some(one) => ones.push(one),
                    None => fresh.push(slice),
                }
            }
            (ones, fresh)
        };
        // Builds the slices `fresh` in parallel, their promotions taken
        // from `promoted`, and hands them and `ones` (read back) to the
        // sink in the order of their numbers.
        let mut build_rest =
            |mut ones: Vec<(usize, ByColor<Vec<u8>>, Overflow)>,
             fresh: Vec<usize>,
             promoted: &mut HashMap<usize, ByColor<Option<Promoted>>>| {
                for (number, ..) in &ones {
                    promoted.remove(number);
                }
                let jobs: Vec<_> = fresh
                    .into_iter()
                    .map(|slice| (slice, promoted.remove(&slice).unwrap_or_default()))
                    .collect();
                let built = held.built();
                ones.extend(
                    jobs.into_par_iter()
                        .map(|job| build_one(job, built))
                        .collect::<Result<Vec<_>, TableError>>()?,
                );
                ones.sort_unstable_by_key(|one| one.0);
                for one in ones {
                    held.absorb(one, sink)?;
                }
                Ok::<_, TableError>(())
            };
        for group in &level.groups {
            let (ones, fresh) = read_back(group);
            if schedule.large {
                // Large slices, a few at a time: their promotions gathered
                // just before they are built, so that few slices' are held.
                let mut promoted = gather(&fresh)?;
                build_rest(ones, fresh, &mut promoted)?;
            } else {
                // Small slices: the whole advancement, its promotions
                // gathered already.
                build_rest(ones, fresh, &mut gathered)?;
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
