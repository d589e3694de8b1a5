//! The build plan: before anything is built, the tables a request needs in
//! build order, how each reads the tables its moves lead into, the schedule
//! of its slices, and the memory and disk each build takes.
//!
//! Every node of a plan is one table, built by itself from the files of
//! the nodes before it, writing its own file only: the unit a build can be
//! run as, in a process of its own. A table with pawns can also be built in
//! steps ([`Step`]): each group of its slices into its journal, from the
//! slices kept there before it, then its file from the journal.

use std::{fmt, str::FromStr};

use shakmaty::Color;

use crate::{
    material::Material,
    memory::{build_bytes, built_slice_by_slice, slice_build_bytes},
    pawns::{
        exits::{ExitMoves, exit_materials, exit_reads},
        promotions::read_by_blocks,
        schedule::{Schedule, Tuning},
    },
    table::Table,
    variant::Variant,
};

/// A table's files take at most this many bytes a hundred numbers
/// (docs/guide/src/reference/table-file.md, "Sizes": 0.14 to 0.35 bytes a number).
const FILE_BYTES_A_HUNDRED: u64 = 35;

/// CPU time a build takes a number a side, in nanoseconds, by its men:
/// measured on 2-core machines (docs/guide/src/reference/probing.md, "Cones"), for estimates
/// shown before a long build, not for scheduling.
const CPU_NANOS_A_NUMBER: [(usize, f64); 3] = [(4, 40.0), (5, 60.0), (6, 180.0)];

/// The CPU seconds a build of `numbers` numbers a side of `men` men takes,
/// about.
fn cpu_seconds(men: usize, numbers: u64) -> f64 {
    let nanos = CPU_NANOS_A_NUMBER
        .iter()
        .find(|&&(most, _)| men <= most)
        .map_or(CPU_NANOS_A_NUMBER[2].1, |&(_, nanos)| nanos);
    2.0 * numbers as f64 * nanos * 1e-9
}

/// What one process builds: a whole table, or a group of the slices of a
/// table with pawns. Written `KRPvKR`, or `KRRvKRP-L2G1` for group 1 of
/// level 2 (both counted from 0, as [`Slices::steps`] lists them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The table's file; a table with pawns whose slices are kept in its
    /// journal is written from them.
    Table(Material),
    /// A group of slices, kept in the table's journal.
    Slices {
        material: Material,
        level: usize,
        group: usize,
    },
}

impl Step {
    /// The table the step builds, or builds part of.
    pub fn material(&self) -> &Material {
        match self {
            Step::Table(material) | Step::Slices { material, .. } => material,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Table(material) => write!(f, "{material}"),
            Step::Slices {
                material,
                level,
                group,
            } => write!(f, "{material}-L{level}G{group}"),
        }
    }
}

/// Text that names no step of a plan.
#[derive(Debug, thiserror::Error)]
#[error(
    "{0:?}: not a step of a build plan (a table, such as KRPvKR, or a group of its slices, such as KRRvKRP-L2G1: solve --plan lists them)"
)]
pub struct StepError(String);

impl FromStr for Step {
    type Err = StepError;

    fn from_str(text: &str) -> Result<Step, StepError> {
        let bad = || StepError(text.to_string());
        let (material, slices) = match text.split_once('-') {
            Some((material, slices)) => (material, Some(slices)),
            None => (text, None),
        };
        let material: Material = material.parse().map_err(|_| bad())?;
        let Some(slices) = slices else {
            return Ok(Step::Table(material));
        };
        let (level, group) = slices
            .strip_prefix('L')
            .and_then(|rest| rest.split_once('G'))
            .ok_or_else(bad)?;
        let number = |digits: &str| {
            digits
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| digits.parse::<usize>().ok())
                .flatten()
                .ok_or_else(bad)
        };
        Ok(Step::Slices {
            material,
            level: number(level)?,
            group: number(group)?,
        })
    }
}

/// How a build reads a table its moves lead into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Held whole, both sides to move (a build in memory).
    Whole,
    /// The sides to move its moves lead into, held whole.
    Sides,
    /// Opened, a block of numbers (a placement of the kings, or the slices
    /// one slice's promotions reach) at a time.
    ByBlocks,
}

/// A table read by a build, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub material: Material,
    /// The sides to move read.
    pub sides: Vec<Color>,
    pub reading: Reading,
    /// Read for the promotions of this colour (a batch of roles at a
    /// time); `None`: for captures, held throughout the build.
    pub promotions: Option<Color>,
}

/// The slices of a table with pawns, in build order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slices {
    /// Slices, and numbers in each.
    pub count: usize,
    pub numbers_each: usize,
    /// The advancements, most advanced first: the slices of each, built
    /// in groups (the slices of a group at once).
    pub levels: Vec<Vec<Vec<usize>>>,
    /// For each advancement, the slices whose promotions are gathered
    /// before it is built (small slices; a large slice's promotions are
    /// gathered with its group).
    pub gathered: Vec<Vec<usize>>,
    /// For each advancement, the slices of each of its steps, when the
    /// table is built in steps ([`Step::Slices`]): its groups, joined while
    /// they hold at most 2^30 numbers a side.
    pub steps: Vec<Vec<Vec<usize>>>,
}

/// One table of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The table's material (a table with pawns: its canonical material).
    pub material: Material,
    pub variant: Variant,
    /// Its file is in the cache folder already: nothing to build.
    pub cached: bool,
    /// Numbers per side to move.
    pub numbers: u64,
    /// The tables it reads, each built before it.
    pub reads: Vec<Read>,
    /// A table with pawns built into its file: its slices.
    pub slices: Option<Slices>,
    /// The memory its build holds at its peak (estimated).
    pub peak_bytes: u64,
    /// The most its file takes (estimated).
    pub file_bytes: u64,
}

/// The tables a request needs, each after those it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildPlan {
    pub nodes: Vec<Node>,
}

impl BuildPlan {
    /// The plan for the tables of `materials` in `variant`, built into a
    /// cache folder when `into_file`; `cached` says which tables' files are
    /// there already (their own subtables are then not needed).
    pub fn new(
        materials: &[Material],
        variant: Variant,
        into_file: bool,
        cached: &dyn Fn(&Material, Variant) -> bool,
    ) -> BuildPlan {
        let mut plan = BuildPlan { nodes: Vec::new() };
        for material in materials {
            plan.add(&material.table_material(), variant, into_file, cached);
        }
        plan
    }

    /// Adds `material` after the tables it reads, unless it is there.
    fn add(
        &mut self,
        material: &Material,
        variant: Variant,
        into_file: bool,
        cached: &dyn Fn(&Material, Variant) -> bool,
    ) {
        if self.node(material, variant).is_some() {
            return;
        }
        let is_cached = cached(material, variant);
        if !is_cached && variant == Variant::Standard {
            for sub in exit_materials(material) {
                self.add(&sub, variant, into_file, cached);
            }
        }
        self.nodes
            .push(Node::new(material, variant, into_file, is_cached));
    }

    /// The node of a table, if the plan has it.
    pub fn node(&self, material: &Material, variant: Variant) -> Option<&Node> {
        let material = material.table_material();
        self.nodes
            .iter()
            .find(|node| node.material == material && node.variant == variant)
    }

    /// The nodes still to build, in order.
    pub fn to_build(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|node| !node.cached)
    }

    /// The memory the plan's largest build holds at its peak: builds run
    /// one at a time, each with every core.
    pub fn peak_bytes(&self) -> u64 {
        self.to_build()
            .map(|node| node.peak_bytes)
            .max()
            .unwrap_or(0)
    }

    /// The most the files it writes take together.
    pub fn file_bytes(&self) -> u64 {
        self.to_build().map(|node| node.file_bytes).sum()
    }

    /// The CPU seconds its builds take, about.
    pub fn cpu_seconds(&self) -> f64 {
        self.to_build().map(Node::cpu_seconds).sum()
    }
}

/// What a first probe of a position of a table with pawns builds: the
/// tables its moves lead into, whole, and of its own table only the slices
/// its pawns can step into ([`crate::pawns::cone`]), kept in the table's
/// journal, where later probes read them and a whole build resumes from
/// them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cone {
    /// The table (canonical material).
    pub material: Material,
    /// The tables its slices read, in build order.
    pub plan: BuildPlan,
    /// The slices of its cone not kept yet, to build.
    pub slices: Vec<usize>,
    /// The slices of its cone, kept or not.
    pub cone_slices: usize,
    /// The slices of the whole table.
    pub table_slices: usize,
    /// Numbers of a slice, a side.
    pub numbers_each: usize,
}

impl Cone {
    /// Whether it has nothing left to build.
    pub fn is_built(&self) -> bool {
        self.slices.is_empty() && self.plan.to_build().next().is_none()
    }

    /// Numbers a side its builds fill: the tables', then its slices'.
    pub fn numbers(&self) -> u64 {
        self.plan.to_build().map(|node| node.numbers).sum::<u64>() + self.slice_numbers()
    }

    /// Numbers a side of the slices it builds.
    pub fn slice_numbers(&self) -> u64 {
        (self.slices.len() * self.numbers_each) as u64
    }

    /// The CPU seconds its builds take, about.
    pub fn cpu_seconds(&self) -> f64 {
        self.plan.cpu_seconds() + cpu_seconds(self.material.len(), self.slice_numbers())
    }
}

impl Node {
    /// The CPU seconds its build takes, about (none when cached).
    pub fn cpu_seconds(&self) -> f64 {
        if self.cached {
            0.0
        } else {
            cpu_seconds(self.material.len(), self.numbers)
        }
    }

    fn new(material: &Material, variant: Variant, into_file: bool, cached: bool) -> Node {
        let numbers = Table::numbers_per_side(material, variant) as u64;
        // Worked out once: the slices, the promotions' reads and the
        // estimate all follow it.
        let schedule = built_slice_by_slice(material, into_file)
            .then(|| Schedule::new(material, &Tuning::PRODUCTION));
        Node {
            material: material.clone(),
            variant,
            cached,
            numbers,
            reads: if variant == Variant::Standard {
                reads(material, into_file, schedule.as_ref())
            } else {
                Vec::new()
            },
            slices: schedule.as_ref().map(Slices::of),
            peak_bytes: match &schedule {
                Some(schedule) => slice_build_bytes(material, schedule),
                None => build_bytes(material, variant, into_file),
            },
            file_bytes: 2 * numbers * FILE_BYTES_A_HUNDRED / 100,
        }
    }
}

impl Slices {
    fn of(schedule: &Schedule) -> Slices {
        Slices {
            count: schedule.unread_after.len(),
            numbers_each: schedule.slice_len,
            levels: schedule.levels.iter().map(|l| l.groups.clone()).collect(),
            gathered: schedule.levels.iter().map(|l| l.gathered.clone()).collect(),
            steps: (0..schedule.levels.len())
                .map(|level| {
                    (0..schedule.steps[level].len())
                        .filter_map(|step| schedule.step_slices(level, step))
                        .collect()
                })
                .collect(),
        }
    }
}

/// How a build of `material` reads the tables its moves lead into: in
/// memory, every one whole; into a file, the sides captures lead into, and
/// for promotions the sides they lead into, the tables of promotions that
/// take nothing a block at a time where they can be (a batch of roles at a
/// time, as `schedule`, that of a table with pawns, says).
fn reads(material: &Material, into_file: bool, schedule: Option<&Schedule>) -> Vec<Read> {
    if !into_file {
        return exit_materials(material)
            .into_iter()
            .map(|material| Read {
                material,
                sides: Color::ALL.to_vec(),
                reading: Reading::Whole,
                promotions: None,
            })
            .collect();
    }
    let mut reads: Vec<Read> = exit_reads(material, ExitMoves::Captures)
        .into_iter()
        .map(|(material, sides)| Read {
            material,
            sides,
            reading: Reading::Sides,
            promotions: None,
        })
        .collect();
    if let Some(schedule) = schedule {
        for color in Color::ALL {
            for &roles in &schedule.promotion_batches[color] {
                let by_blocks = read_by_blocks(material, color, roles);
                for (sub, sides) in exit_reads(material, ExitMoves::Promotions(color, roles)) {
                    let reading = if by_blocks.iter().any(|(_, table)| *table == sub) {
                        Reading::ByBlocks
                    } else {
                        Reading::Sides
                    };
                    reads.push(Read {
                        material: sub,
                        sides,
                        reading,
                        promotions: Some(color),
                    });
                }
            }
        }
    }
    reads
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A step is written as it is read, and text that names none is
    /// refused.
    #[test]
    fn steps_are_written_as_they_are_read() {
        for text in ["KRPvKR", "KRRvKRP-L2G1", "KPvKP-L0G12"] {
            assert_eq!(text.parse::<Step>().unwrap().to_string(), text);
        }
        for bad in [
            "",
            "KRPvKR-",
            "KRPvKR-L1",
            "KRPvKR-L1G",
            "KRPvKR-L+1G0",
            "KRPvKR-2.1",
            "XvK",
        ] {
            assert!(bad.parse::<Step>().is_err(), "{bad:?}");
        }
    }

    /// The plan of `name` into a cache folder holding the files of `cached`.
    pub(crate) fn plan(name: &str, cached: &[&str]) -> BuildPlan {
        let cached: Vec<Material> = cached.iter().map(|m| m.parse().unwrap()).collect();
        BuildPlan::new(
            &[name.parse().unwrap()],
            Variant::Standard,
            true,
            &|material, _| cached.contains(material),
        )
    }

    /// Every node comes after every table it reads, the request last, and
    /// each table once.
    #[test]
    fn nodes_come_after_the_tables_they_read() {
        for name in ["KQRvKR", "KRPvKR", "KPPvKP"] {
            let plan = plan(name, &[]);
            let material: Material = name.parse().unwrap();
            assert_eq!(
                plan.nodes.last().unwrap().material,
                material.table_material()
            );
            for (i, node) in plan.nodes.iter().enumerate() {
                for read in &node.reads {
                    let at = plan.nodes.iter().position(|n| n.material == read.material);
                    assert!(at.is_some_and(|at| at < i), "{name}: {}", read.material);
                }
                let again = plan.nodes.iter().filter(|n| n.material == node.material);
                assert_eq!(again.count(), 1);
            }
        }
        // KRvK, KQvK, KRvKR... down to the three-man tables.
        assert!(plan("KQRvKR", &[]).nodes.len() > 6);
    }

    /// A table whose file is there is a cached node, and the tables only
    /// it reads are left out.
    #[test]
    fn cached_tables_are_not_built_nor_their_subtables() {
        let whole = plan("KRPvKR", &[]);
        let cached = plan("KRPvKR", &["KQRvKR", "KRRvKR"]);
        assert!(
            cached
                .node(&"KQRvKR".parse().unwrap(), Variant::Standard)
                .unwrap()
                .cached
        );
        assert!(cached.nodes.len() < whole.nodes.len());
        assert!(
            cached
                .to_build()
                .all(|n| n.material.to_string() != "KQRvKR")
        );
        let nothing = plan("KRvK", &["KRvK"]);
        assert_eq!(nothing.to_build().count(), 0);
        assert_eq!(nothing.peak_bytes(), 0);
    }

    /// A six-man table with pawns reads its promotions' six-man tables a
    /// block at a time, and its estimate is its build's.
    #[test]
    fn a_six_man_pawn_table_reads_its_promotions_by_blocks() {
        let material: Material = "KRRvKRP".parse().unwrap();
        let node = Node::new(&material, Variant::Standard, true, false);
        let promotions: Vec<&Read> = node
            .reads
            .iter()
            .filter(|r| r.promotions.is_some())
            .collect();
        assert!(!promotions.is_empty());
        assert!(
            promotions
                .iter()
                .all(|r| r.promotions == Some(Color::Black))
        );
        assert!(promotions.iter().any(|r| r.reading == Reading::ByBlocks));
        let slices = node.slices.as_ref().unwrap();
        assert_eq!(
            slices.count,
            slices.levels.iter().flatten().flatten().count()
        );
        assert_eq!(
            node.peak_bytes,
            build_bytes(&material, Variant::Standard, true)
        );
    }
}
