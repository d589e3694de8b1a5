//! The schedule of a build with pawns, worked out before it starts: the
//! slices in build order, which are built together, when promotions are
//! gathered and for which slices, and when a slice built is no longer
//! read. The build follows it, and the memory estimate reads it.

use std::ops::Range;

use shakmaty::{ByColor, Color, Piece, Role};

use crate::{
    engine::{Settings, Ways},
    material::Material,
    pawns::{exits::Roles, layout::Steps, promotions::promotion_batches},
    slices::{LARGE_SLICE_FROM, SliceIndexer},
    value::MAX_PLIES,
};

/// The most bytes of gathered promotions of small slices held at once,
/// unless one level needs more: the promotions of several levels are
/// gathered together (each table had once for them all) while they fit.
/// A large slice's are gathered alone, just before it is built.
pub(crate) const GATHER_BUDGET: usize = 256 << 20;

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

/// The most numbers a side of a step of a table built in steps
/// ([`Schedule::steps`]), unless one group of slices has more: a six-man
/// table with one pawn, a slice (2^30 numbers) a step, about 7 minutes of
/// CPU; with two, the groups of a level in two steps or so.
pub(crate) const STEP_NUMBERS: usize = 1 << 30;

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
    /// The most numbers a side of a step ([`STEP_NUMBERS`]); a test lowers
    /// it to make several steps of a level of a small table.
    pub step_numbers: usize,
}

impl Tuning {
    pub const PRODUCTION: Tuning = Tuning {
        limit: MAX_PLIES,
        ways: Ways::Cheaper,
        large_slices_from: LARGE_SLICE_FROM,
        large_at_once,
        step_numbers: STEP_NUMBERS,
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

/// One advancement of the pawns: its slices lead into none of each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Level {
    pub(crate) slices: Range<usize>,
    /// Small slices: the slices whose promotions are gathered just before
    /// this level is built (this level's and the next ones', as many as
    /// [`GATHER_BUDGET`] holds), empty when none is.
    pub(crate) gathered: Vec<usize>,
    /// The slices built at once, in order: the whole level (small slices),
    /// or a few at a time ([`Tuning::large_at_once`]), each group's
    /// promotions gathered just before it is built.
    pub(crate) groups: Vec<Vec<usize>>,
}

/// How a table with pawns is built, slice by slice.
#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    pub(crate) slice_len: usize,
    /// Whether its slices are large ([`Tuning::large_slices_from`]).
    pub(crate) large: bool,
    /// The advancements, most advanced first.
    pub(crate) levels: Vec<Level>,
    /// The slices no slice reads once slice `i` is built: those whose
    /// last reader (in the order of the build) it is.
    pub(crate) unread_after: Vec<Vec<usize>>,
    /// The sides to move of a built slice kept for the slices that step
    /// into it: those a pawn's step leads into.
    pub(crate) kept_sides: ByColor<bool>,
    /// The roles whose promotions of each side are gathered together.
    pub(crate) promotion_batches: ByColor<Vec<Roles>>,
    /// For each level, its groups (indices in [`Level::groups`]) in the
    /// steps a table built in steps takes: consecutive groups of at most
    /// [`Tuning::step_numbers`] numbers a side together, at least one.
    pub(crate) steps: Vec<Vec<Range<usize>>>,
}

impl Schedule {
    /// The slices of step `step` of level `level`, if there is one.
    pub(crate) fn step_slices(&self, level: usize, step: usize) -> Option<Vec<usize>> {
        let groups = self.steps.get(level)?.get(step)?;
        Some(self.levels[level].groups[groups.clone()].concat())
    }
}

/// The steps of `levels` ([`Schedule::steps`]) for slices of `slice_len`
/// numbers, each of at most `most` numbers unless one group has more.
fn steps(levels: &[Level], slice_len: usize, most: usize) -> Vec<Vec<Range<usize>>> {
    levels
        .iter()
        .map(|level| {
            let mut steps: Vec<Range<usize>> = Vec::new();
            let mut numbers = 0;
            for (g, group) in level.groups.iter().enumerate() {
                let more = group.len() * slice_len;
                match steps.last_mut() {
                    Some(last) if numbers + more <= most => {
                        last.end = g + 1;
                        numbers += more;
                    }
                    _ => {
                        steps.push(g..g + 1);
                        numbers = more;
                    }
                }
            }
            steps
        })
        .collect()
}

impl Schedule {
    /// The schedule of the build of `material` (canonical, with pawns).
    pub(crate) fn new(material: &Material, tuning: &Tuning) -> Schedule {
        let indexer = SliceIndexer::shared(material);
        let men = indexer.men_in_order(material);
        let slice_len = indexer.slice_len();
        let large = slice_len >= tuning.large_slices_from;
        let promoting = |slice: usize| {
            Color::ALL
                .into_iter()
                .any(|c| indexer.pawns(slice).on_seventh(c))
        };
        let mut gathered_already = vec![false; indexer.slices()];
        let levels = indexer.levels();
        let levels = (0..levels.len())
            .map(|l| {
                let slices = levels[l].clone();
                let mut gathered = Vec::new();
                if !large && slices.clone().any(|s| promoting(s) && !gathered_already[s]) {
                    for level in &levels[l..] {
                        let more: Vec<usize> = level.clone().filter(|&s| promoting(s)).collect();
                        let bytes = (gathered.len() + more.len()) * slice_len * size_of::<u16>();
                        if !gathered.is_empty() && bytes > GATHER_BUDGET {
                            break;
                        }
                        gathered.extend(more);
                    }
                    for &s in &gathered {
                        gathered_already[s] = true;
                    }
                }
                let all: Vec<usize> = slices.clone().collect();
                let groups = if large {
                    all.chunks(tuning.large_at_once(slice_len))
                        .map(<[usize]>::to_vec)
                        .collect()
                } else {
                    vec![all]
                };
                Level {
                    slices,
                    gathered,
                    groups,
                }
            })
            .collect::<Vec<Level>>();
        Schedule {
            slice_len,
            large,
            steps: steps(&levels, slice_len, tuning.step_numbers),
            levels,
            unread_after: unread_after(&indexer, &men),
            kept_sides: ByColor::new_with(|turn| {
                men.iter().any(|&man| man == Role::Pawn.of(!turn))
            }),
            promotion_batches: ByColor::new_with(|color| promotion_batches(material, color)),
        }
    }
}

/// For each slice, the slices whose last reader (by a pawn's step, in the
/// order of the build) it is.
fn unread_after(indexer: &SliceIndexer, men: &[Piece]) -> Vec<Vec<usize>> {
    let mut last_reader: Vec<usize> = (0..indexer.slices()).collect();
    for reader in 0..indexer.slices() {
        for push in Steps::of(indexer, men, reader).pushes.iter().flatten() {
            last_reader[push.child] = last_reader[push.child].max(reader);
        }
    }
    let mut unread_after = vec![Vec::new(); indexer.slices()];
    for (slice, &reader) in last_reader.iter().enumerate() {
        unread_after[reader].push(slice);
    }
    unread_after
}
