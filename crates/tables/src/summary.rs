//! Counts over a whole table: legal positions, results, the histogram by
//! distance to mate and the longest mate.
//!
//! Counts are over all placements of the men on the board, as a person
//! would count them: each table number stands for as many placements as
//! the symmetries give it, and men of the same kind are not told apart.

use std::collections::BTreeMap;

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{
    material::Material,
    overflow::Overflow,
    table::{Numbering, Table},
    value::{DEEP, ILLEGAL, Plies, Value, decode_byte, encode_plies},
};

/// Counts for one side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    pub legal: u64,
    pub win: u64,
    pub draw: u64,
    pub loss: u64,
    /// Decisive positions by plies to mate (wins odd, losses even).
    pub histogram_plies: BTreeMap<Plies, u64>,
    /// The longest win and the table number of an example: the lowest
    /// number that has it.
    pub longest_win: Option<(Value, usize)>,
    /// The longest loss, as [`SideSummary::longest_win`].
    pub longest_loss: Option<(Value, usize)>,
}

impl SideSummary {
    /// The longer of the longest win and the longest loss: the longest
    /// mate.
    pub fn longest(&self) -> Option<(Value, usize)> {
        self.longest_win
            .into_iter()
            .chain(self.longest_loss)
            .max_by_key(|(value, _)| value.plies())
    }

    /// Adds `count` placements of `value`.
    pub(crate) fn add(&mut self, value: Value, count: u64) {
        self.legal += count;
        match value {
            Value::Win(_) => self.win += count,
            Value::Draw => self.draw += count,
            Value::Loss(_) => self.loss += count,
        }
        if let Some(plies) = value.plies() {
            *self.histogram_plies.entry(plies).or_default() += count;
        }
    }

    /// Counts of placements from counts of numbers, where each position
    /// has `orderings` numbers (its like men in every order).
    fn divide(&mut self, orderings: u64) {
        self.legal /= orderings;
        self.win /= orderings;
        self.draw /= orderings;
        self.loss /= orderings;
        for n in self.histogram_plies.values_mut() {
            *n /= orderings;
        }
    }
}

/// The most numbers counted on one core at a time: a slice of a table
/// with pawns, one weight block, is millions.
const SPAN: usize = 1 << 16;

/// A number stands for 1, 2, 4 or 8 placements: its weight is `1 << slot`.
const WEIGHT_SLOTS: usize = 4;

/// How many numbers have each byte, by weight slot.
type ByteCounts = [[u64; 256]; WEIGHT_SLOTS];

/// The slot of a weight; `None` for 0, the weight of a number that stands
/// for no placement (a byte there is a damaged table's, and not counted).
fn weight_slot(weight: u64) -> Option<usize> {
    debug_assert!(weight == 0 || weight.is_power_of_two() && weight < 1 << WEIGHT_SLOTS);
    (weight > 0).then(|| weight.trailing_zeros() as usize)
}

/// Counts of one side's numbers by byte and weight, and the lowest number
/// of each byte, taken a range of numbers at a time (a table read chunk by
/// chunk, or built level by level). The numbers are taken in blocks whose
/// placements have one weight (a king pair's, or every number of a table
/// with pawns or a fixed king), so that most numbers are counted without
/// being decoded; only the blocks of the kings on the diagonal are weighed
/// number by number.
pub(crate) struct SideCounter {
    counts: Box<ByteCounts>,
    first: Box<[usize; 256]>,
}

impl SideCounter {
    pub(crate) fn new() -> SideCounter {
        SideCounter {
            counts: Box::new([[0; 256]; WEIGHT_SLOTS]),
            first: Box::new([usize::MAX; 256]),
        }
    }

    /// Adds the counts of `other`.
    pub(crate) fn merge(&mut self, other: SideCounter) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            for (a, b) in a.iter_mut().zip(b) {
                *a += b;
            }
        }
        for (a, &b) in self.first.iter_mut().zip(other.first.iter()) {
            *a = (*a).min(b);
        }
    }

    /// Counts `bytes`, the bytes of the numbers from `start` on, a span
    /// of at most [`SPAN`] numbers of one weight block to a core.
    pub(crate) fn add(&mut self, numbering: &Numbering, start: usize, bytes: &[u8]) {
        let block = numbering.weight_block_len();
        let end = start + bytes.len();
        let counted = (start / block..end.div_ceil(block))
            .into_par_iter()
            .flat_map_iter(|n| {
                let from = (n * block).max(start);
                let to = ((n + 1) * block).min(end);
                (from..to)
                    .step_by(SPAN)
                    .map(move |at| (n, at..to.min(at + SPAN)))
            })
            .fold(SideCounter::new, |mut counter, (n, span)| {
                let part = &bytes[span.start - start..span.end - start];
                // How often each byte comes in the span, and where first.
                let mut here = [0u64; 256];
                let mut first = [usize::MAX; 256];
                for (index, &byte) in span.clone().zip(part) {
                    let byte = usize::from(byte);
                    if here[byte] == 0 {
                        first[byte] = index;
                    }
                    here[byte] += 1;
                }
                match numbering.block_weight(n) {
                    Some(weight) => {
                        let slot = weight_slot(weight).expect("a block's weight is not 0");
                        for (total, count) in counter.counts[slot].iter_mut().zip(here) {
                            *total += count;
                        }
                    }
                    None => {
                        for (index, &byte) in span.zip(part) {
                            if byte != ILLEGAL
                                && let Some(slot) = weight_slot(numbering.weight(index))
                            {
                                counter.counts[slot][usize::from(byte)] += 1;
                            }
                        }
                    }
                }
                for (lowest, index) in counter.first.iter_mut().zip(first) {
                    *lowest = (*lowest).min(index);
                }
                counter
            })
            .reduce(SideCounter::new, |mut a, b| {
                a.merge(b);
                a
            });
        self.merge(counted);
    }

    /// The counts over placements of side `turn`, with the positions
    /// deeper than a byte from `overflow`; each position has `orderings`
    /// numbers.
    fn finish(
        self,
        numbering: &Numbering,
        orderings: u64,
        overflow: &Overflow,
        turn: Color,
    ) -> SideSummary {
        let mut side = SideSummary::default();
        for (slot, counts) in self.counts.iter().enumerate() {
            for (byte, &count) in (0u8..=255).zip(counts) {
                if count > 0
                    && byte != DEEP
                    && let Some(value) = decode_byte(byte)
                {
                    side.add(value, count << slot);
                }
            }
        }
        let listed = overflow.side(turn);
        for &(index, plies) in listed {
            let weight = numbering.weight(index);
            if weight > 0 {
                side.add(Value::decisive(plies), weight);
            }
        }
        // Wins are odd plies, losses even.
        let longest = |parity: u16| {
            let &Plies(plies) = side
                .histogram_plies
                .keys()
                .rev()
                .find(|&&Plies(plies)| plies % 2 == parity)?;
            let index = if plies <= overflow.limit() {
                Some(self.first[usize::from(encode_plies(plies))])
            } else {
                listed.iter().find(|&&(_, p)| p == plies).map(|&(i, _)| i)
            };
            index.map(|index| (Value::decisive(plies), index))
        };
        side.longest_win = longest(1);
        side.longest_loss = longest(0);
        side.divide(orderings);
        side
    }
}

/// Counts of both sides of a table, taken a range of numbers at a time.
pub(crate) struct TableCounter {
    numbering: Numbering,
    orderings: u64,
    sides: ByColor<SideCounter>,
}

impl TableCounter {
    pub(crate) fn new(material: &Material, numbering: Numbering) -> TableCounter {
        TableCounter {
            orderings: numbering.identical_orderings(material),
            numbering,
            sides: ByColor::new_with(|_| SideCounter::new()),
        }
    }

    pub(crate) fn numbering(&self) -> &Numbering {
        &self.numbering
    }

    /// Counts `bytes`, side `turn`'s bytes of the numbers from `start` on.
    pub(crate) fn add(&mut self, turn: Color, start: usize, bytes: &[u8]) {
        self.sides[turn].add(&self.numbering, start, bytes);
    }

    /// Adds `counter`, side `turn`'s counts of a range of numbers.
    pub(crate) fn merge(&mut self, turn: Color, counter: SideCounter) {
        self.sides[turn].merge(counter);
    }

    /// The counts of both sides, the positions deeper than a byte from
    /// `overflow`.
    pub(crate) fn finish(self, overflow: &Overflow) -> ByColor<SideSummary> {
        let TableCounter {
            numbering,
            orderings,
            sides,
        } = self;
        let ByColor { white, black } = sides;
        ByColor {
            white: white.finish(&numbering, orderings, overflow, Color::White),
            black: black.finish(&numbering, orderings, overflow, Color::Black),
        }
    }
}

/// Counts of a table for both sides to move.
pub fn summarize(table: &Table) -> ByColor<SideSummary> {
    let mut counter = TableCounter::new(table.material(), table.numbering().clone());
    for turn in Color::ALL {
        counter.add(turn, 0, table.bytes(turn));
    }
    counter.finish(table.overflow())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Material, Tablebase, Variant};

    /// The counts by definition: every number decoded and weighed alone.
    fn number_by_number(table: &Table) -> ByColor<SideSummary> {
        ByColor::new_with(|turn: Color| {
            let mut side = SideSummary::default();
            for index in 0..table.bytes(turn).len() {
                if let Some(value) = table.value_at(index, turn) {
                    side.add(value, table.numbering().weight(index));
                    let longest = match value {
                        Value::Win(_) => &mut side.longest_win,
                        Value::Loss(_) => &mut side.longest_loss,
                        Value::Draw => continue,
                    };
                    if value.plies() > longest.and_then(|(v, _)| v.plies()) {
                        *longest = Some((value, index));
                    }
                }
            }
            side.divide(table.numbering().identical_orderings(table.material()));
            side
        })
    }

    #[test]
    fn counting_by_blocks_equals_counting_number_by_number() {
        let tb = Tablebase::in_memory();
        let krk: Material = "KRvK".parse().unwrap();
        let kbbk: Material = "KBBvK".parse().unwrap();
        let kpk: Material = "KPvK".parse().unwrap();
        let tables = [
            tb.table(&krk, Variant::Standard).unwrap(),
            tb.table(&kbbk, Variant::Standard).unwrap(),
            tb.table(&krk, Variant::FixedKing(shakmaty::Square::C3))
                .unwrap(),
            std::sync::Arc::clone(tb.pawn_table(&kpk).unwrap().table()),
        ];
        for table in tables {
            let summary = summarize(&table);
            assert!(summary.white.longest().is_some(), "{}", table.material());
            assert_eq!(summary, number_by_number(&table), "{}", table.material());
        }
    }

    /// A damaged table may give a value to a number that stands for no
    /// placement (found by the `table_file` fuzzer): it is not counted.
    #[test]
    fn a_value_at_a_number_without_placement_is_not_counted() {
        let tb = Tablebase::in_memory();
        let table = tb
            .table(&"KBBvK".parse().unwrap(), Variant::Standard)
            .unwrap();
        let placeless = (0..table.bytes(Color::White).len())
            .find(|&i| table.numbering().decode(i).is_none())
            .expect("a number of the kings on the diagonal without placement");
        let damaged = table.with_byte(Color::White, placeless, encode_plies(3));
        assert_eq!(
            summarize(&damaged).white.legal,
            summarize(&table).white.legal
        );
    }
}
