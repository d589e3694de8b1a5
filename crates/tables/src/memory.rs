//! The memory a build holds at its peak, estimated before it starts, so
//! that a build that cannot fit is refused at once rather than killed by
//! the system hours into it (`ajedrecista solve`).

use shakmaty::{Color, Role};

use crate::{
    material::Material,
    pawns::{
        exits::{ExitMoves, exit_reads},
        promotions::{promotion_table_bytes_of, read_bytes},
        schedule::{Schedule, Tuning},
    },
    slices::SliceIndexer,
    table::Table,
    variant::Variant,
};

/// A large slice kept for the slices that step into it is held
/// compressed; it is counted at this many bytes a hundred numbers: the
/// most the files, compressed alike, take (0.14 to 0.35 bytes a number,
/// docs/guide/src/reference/table-file.md, "Sizes"). KRRvKRP's kept slices took 0.16.
const KEPT_BYTES_A_HUNDRED: u64 = 35;

/// Bytes of a gathered promotion (`pawns::promotions::Promoted`), a number.
const PROMOTED_BYTES: u64 = size_of::<u16>() as u64;

/// The bytes a build of the table of `material` in `variant` holds at its
/// peak. A table with pawns built `into_file` (a tablebase with a cache
/// folder) is built slice by slice (`slice_build_bytes`); any other
/// table is held whole while it is built: a byte a number, both sides to
/// move. The tables its moves lead into are taken to be in the cache
/// folder already.
pub fn build_bytes(material: &Material, variant: Variant, into_file: bool) -> u64 {
    if built_slice_by_slice(material, into_file) {
        let material = material.canonical();
        slice_build_bytes(&material, &Schedule::new(&material, &Tuning::PRODUCTION))
    } else {
        2 * Table::numbers_per_side(material, variant) as u64
    }
}

/// Whether the build of `material`'s table holds it a slice at a time
/// rather than whole: a table with pawns built into its file.
pub fn built_slice_by_slice(material: &Material, into_file: bool) -> bool {
    material.has_pawns() && into_file
}

/// The peak of a slice-by-slice build of `material` (canonical, with
/// pawns), following its [`Schedule`], a byte a number unless said
/// otherwise:
/// - the tables captures lead into, the sides their captures read, held
///   throughout;
/// - the slices still stepped into (a large slice compressed:
///   [`KEPT_BYTES_A_HUNDRED`]), the sides to move that steps lead into:
///   while the slices of one advancement are built, at most those of that
///   advancement and of the two before it, a step adding 1 or 2;
/// - the gathered promotions, two bytes a number: a large slice's, for
///   each side with a pawn on its seventh rank, in the group built at
///   once; the small slices' largest gathering;
/// - the larger of: the slices being built (a group), both sides; and the
///   sides of the tables one side's promotions lead into, a batch of roles
///   at a time, held while they are gathered;
/// - the table of every placement of the pawns, 4 bytes an entry.
pub(crate) fn slice_build_bytes(material: &Material, schedule: &Schedule) -> u64 {
    let indexer = SliceIndexer::shared(material);
    let slice = schedule.slice_len as u64;
    let promoting = |slices: &mut dyn Iterator<Item = usize>, color: Color| {
        slices
            .filter(|&s| indexer.pawns(s).on_seventh(color))
            .count() as u64
    };
    // Small slices: the promotions of one gathering, each side's, are held
    // from their gathering until their slices are built.
    let gathered_small = schedule
        .levels
        .iter()
        .map(|level| {
            Color::ALL
                .into_iter()
                .map(|color| promoting(&mut level.gathered.iter().copied(), color))
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0)
        * PROMOTED_BYTES
        * slice;
    let kept_sides = schedule.kept_sides.iter().filter(|&&kept| kept).count() as u64;
    let levels = &schedule.levels;
    let peak = (0..levels.len())
        .map(|l| {
            let held: u64 = levels[l.saturating_sub(2)..=l]
                .iter()
                .map(|level| level.slices.len() as u64)
                .sum();
            let promoting_sides: Vec<Color> = Color::ALL
                .into_iter()
                .filter(|&color| promoting(&mut levels[l].slices.clone(), color) > 0)
                .collect();
            let promotion_tables = promoting_sides
                .iter()
                .map(|&color| promotion_table_bytes(material, schedule, color))
                .max()
                .unwrap_or(0);
            let at_once = levels[l].groups.iter().map(Vec::len).max().unwrap_or(0) as u64;
            let (kept, promoted, building) = if schedule.large {
                (
                    held * kept_sides * slice * KEPT_BYTES_A_HUNDRED / 100,
                    at_once * promoting_sides.len() as u64 * PROMOTED_BYTES * slice,
                    at_once * 2 * slice,
                )
            } else {
                (
                    held * kept_sides * slice,
                    gathered_small,
                    at_once * 2 * slice,
                )
            };
            kept + promoted + building.max(promotion_tables)
        })
        .max()
        .unwrap_or(0);
    let pawns = material
        .men()
        .iter()
        .filter(|m| m.role == Role::Pawn)
        .count();
    let placements = 4u64 << (6 * pawns);
    read_bytes(exit_reads(material, ExitMoves::Captures)) + peak + placements
}

/// The most bytes the tables the promotions of `color` lead into take at
/// once ([`Schedule::promotion_batches`]).
fn promotion_table_bytes(material: &Material, schedule: &Schedule, color: Color) -> u64 {
    schedule.promotion_batches[color]
        .iter()
        .copied()
        .map(|roles| promotion_table_bytes_of(material, color, roles))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pawns::{exits::Roles, promotions::promotion_batches};

    const MIB: u64 = 1 << 20;
    const GIB: u64 = 1 << 30;

    fn estimate(name: &str) -> u64 {
        build_bytes(&name.parse().unwrap(), Variant::Standard, true)
    }

    /// KRPvKR's build into its file peaked at 153.3 MiB since it builds
    /// two slices at once (97.6 MiB before; docs/guide/src/reference/pawns.md, "Memory"): the
    /// estimate is not below it, and not far above.
    #[test]
    fn a_five_man_estimate_is_near_the_measured_peak() {
        let krpkr = estimate("KRPvKR");
        assert!((153 * MIB..=200 * MIB).contains(&krpkr), "{krpkr}");
        // Its twin is built as it.
        assert_eq!(estimate("KRvKRP"), krpkr);
    }

    /// A pawnless table, or one with pawns built in memory, is held whole.
    #[test]
    fn whole_tables_are_a_byte_a_number_both_sides() {
        for (name, into_file) in [("KQRvKR", true), ("KRPvKR", false)] {
            let material: Material = name.parse().unwrap();
            assert_eq!(
                build_bytes(&material, Variant::Standard, into_file),
                2 * Table::numbers_per_side(&material, Variant::Standard) as u64
            );
        }
    }

    /// A six-man table with pawns reads the six-man tables its promotions
    /// lead into a block at a time: far less than one side of one (7.75 GB
    /// without pawns; 24 GiB for KQRvKRP, which KRPvKRP's promotions lead
    /// into, read a slice of 1 GiB at a time). Both fit this 24 GiB machine.
    #[test]
    fn six_man_estimates_hold_their_promotion_tables() {
        let krrkrp: Material = "KRRvKRP".parse().unwrap();
        let schedule = Schedule::new(&krrkrp, &Tuning::PRODUCTION);
        let promotions = promotion_table_bytes(&krrkrp, &schedule, Color::Black);
        let krrkrq: Material = "KRRvKRQ".parse().unwrap();
        let side = Table::numbers_per_side(&krrkrq, Variant::Standard) as u64;
        assert!(promotions < side / 8, "{promotions}");
        let bytes = estimate("KRRvKRP");
        assert!(promotions < bytes && bytes < 24 * GIB, "{bytes}");
        // Its build peaked at 7 040 408 KB (docs/history/tables.md, "Built:
        // KRRvKRP") when both sides of a kept slice were kept, more than
        // it holds now: the estimate is not below it, nor twice it.
        let peak = 7_040_408 * 1024;
        assert!((peak..2 * peak).contains(&bytes), "{bytes}");
        let krpkrp: Material = "KRPvKRP".parse().unwrap();
        let kqrkrp: Material = "KQRvKRP".parse().unwrap();
        let side = Table::numbers_per_side(&kqrkrp, Variant::Standard) as u64;
        assert!(side >= 24 * GIB);
        let schedule = Schedule::new(&krpkrp, &Tuning::PRODUCTION);
        for color in Color::ALL {
            let promotions = promotion_table_bytes(&krpkrp, &schedule, color);
            assert!(promotions < side / 8, "{promotions}");
        }
        assert!(estimate("KRPvKRP") < 24 * GIB);
    }

    /// A five-man table gathers its promotions to every role at once, and
    /// so does KRRvKRP (the six-man tables it reads a block at a time);
    /// KRPvKRP, whose promotions lead into tables with pawns read a slice
    /// of 1 GiB at a time, a role at a time.
    #[test]
    fn promotions_are_gathered_together_where_their_tables_fit() {
        let batches = |name: &str, color| {
            let material: Material = name.parse().unwrap();
            promotion_batches(&material, color)
        };
        assert_eq!(batches("KRPvKR", Color::White), [Roles::ALL]);
        assert_eq!(batches("KPPvKP", Color::Black), [Roles::ALL]);
        assert_eq!(batches("KRRvKRP", Color::Black), [Roles::ALL]);
        let one_at_a_time: Vec<Roles> = (0..4).map(Roles::one).collect();
        assert_eq!(batches("KRPvKRP", Color::White), one_at_a_time);
    }
}
