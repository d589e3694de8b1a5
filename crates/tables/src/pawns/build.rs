//! Building a table with pawns slice by slice, most advanced first: what is
//! held between slices, how many are built at once, and where each goes.

use std::{
    collections::HashMap,
    ops::ControlFlow,
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
};

use rayon::prelude::*;
use shakmaty::{ByColor, Color, Role};

use crate::{
    engine::{Progress, Settings, Ways, bytes::zeroed, run_layout},
    error::TableError,
    material::Material,
    overflow::Overflow,
    pawns::{
        exits::{ExitMoves, ExitTables},
        journal::{Journal, SliceBytes},
        layout::{Built, KeptBytes, KeptSlice, SliceLayout, Steps},
        promotions::{GATHER_BUDGET, Promoted, PromotionTables},
    },
    slices::{LARGE_SLICE_FROM, SliceIndexer},
    table::Subtables,
    value::MAX_PLIES,
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

/// Large slices of fewer numbers than this (five men's: 64^4) are built
/// two at a time, so that the cores seldom wait for each other at the end
/// of a step of one slice; larger ones (six men's: 64^5) one at a time,
/// since two would hold 4 GiB more.
pub(crate) const TWO_AT_A_TIME_BELOW: usize = 1 << 26;

/// How many large slices of `slice_len` numbers are built at once.
pub(crate) fn large_at_once(slice_len: usize) -> usize {
    if slice_len < TWO_AT_A_TIME_BELOW {
        2
    } else {
        1
    }
}

/// What a test may change in a build: the engine's settings, and how many
/// slices of a table with pawns are built at once.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Tuning {
    /// The deepest plies a byte may hold: deeper positions go into the
    /// overflow list. A test lowers it to try the overflow on tables that
    /// do not need it.
    pub limit: u16,
    /// A test forces each way to check it against the other.
    pub ways: Ways,
    /// Slices of a table with pawns with at least this many numbers are
    /// large ([`LARGE_SLICE_FROM`]); a test lowers it to take that
    /// way on a small table.
    pub large_slices_from: usize,
    /// How many large slices of a number of numbers are built at once
    /// ([`large_at_once`]); a test tries one and two.
    pub large_at_once: fn(usize) -> usize,
}

impl Tuning {
    pub const PRODUCTION: Tuning = Tuning {
        limit: MAX_PLIES,
        ways: Ways::Cheaper,
        large_slices_from: LARGE_SLICE_FROM,
        large_at_once,
    };

    /// The engine's part.
    pub fn settings(&self) -> Settings {
        Settings {
            limit: self.limit,
            ways: self.ways,
        }
    }

    /// How many large slices of `slice_len` numbers are built at once.
    pub fn large_at_once(&self, slice_len: usize) -> usize {
        (self.large_at_once)(slice_len)
    }
}

/// Builds the bytes of a material with pawns, slice by slice, most
/// advanced first, and hands each slice to `sink`; the slices of one
/// advancement lead into none of each other. Memory holds the slices
/// being built and those that pawn steps of slices still to build lead
/// into (large ones compressed), not the whole table. `captures` must hold
/// every table a capture that does not promote leads into; the tables
/// promotions lead into are had from `promotion_tables` a batch of
/// promoting roles of one side ([`promotion_batches`]) at a time, one side
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
    let mut last_reader: Vec<usize> = (0..indexer.slices()).collect();
    for reader in 0..indexer.slices() {
        for push in Steps::of(&indexer, &men, reader).pushes.iter().flatten() {
            last_reader[push.child] = last_reader[push.child].max(reader);
        }
    }
    let mut unread_after = vec![Vec::new(); indexer.slices()];
    for (slice, &reader) in last_reader.iter().enumerate() {
        unread_after[reader].push(slice);
    }
    let slice_len = indexer.slice_len();
    let mut held = Held {
        slices: (0..indexer.slices()).map(|_| None).collect(),
        read: ByColor::new_with(|turn| men.iter().any(|&man| man == Role::Pawn.of(!turn))),
        slice_len,
        unread_after,
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
    let promoting = |slice: &usize| {
        Color::ALL
            .into_iter()
            .any(|c| indexer.slices[*slice].on_seventh(c))
    };
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
            let found =
                Promoted::gather(&indexer, material, &men, &of_turn, turn, promotion_tables)?;
            for (slice, found) in of_turn.into_iter().zip(found) {
                gathered.entry(slice).or_default()[turn] = Some(found);
            }
        }
        Ok::<_, TableError>(gathered)
    };
    let mut gathered: HashMap<usize, ByColor<Option<Promoted>>> = HashMap::new();
    for (l, slices) in indexer.levels.iter().enumerate() {
        if slice_len < tuning.large_slices_from
            && slices
                .clone()
                .any(|slice| promoting(&slice) && !gathered.contains_key(&slice))
        {
            // Small slices: this level's promotions and those of the next
            // levels, as many as the budget holds, gathered together.
            let mut batch = Vec::new();
            for level in &indexer.levels[l..] {
                let more: Vec<usize> = level.clone().filter(promoting).collect();
                let bytes = (batch.len() + more.len()) * slice_len * size_of::<u16>();
                if !batch.is_empty() && bytes > GATHER_BUDGET {
                    break;
                }
                batch.extend(more);
            }
            gathered.extend(gather(&batch)?);
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
        let numbers: Vec<usize> = slices.clone().collect();
        if slice_len >= tuning.large_slices_from {
            // Large slices, a few at a time: their promotions gathered
            // just before they are built, so that few slices' are held.
            for group in numbers.chunks(tuning.large_at_once(slice_len)) {
                let (ones, fresh) = read_back(group);
                let mut promoted = gather(&fresh)?;
                build_rest(ones, fresh, &mut promoted)?;
            }
        } else {
            // Small slices: the whole advancement, its promotions
            // gathered already.
            let (ones, fresh) = read_back(&numbers);
            build_rest(ones, fresh, &mut gathered)?;
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
