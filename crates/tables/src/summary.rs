//! Counts over a whole table: legal positions, results, the histogram by
//! distance to mate and the longest mate.
//!
//! Counts are over all placements of the men on the board, as a person
//! would count them: each table number stands for as many placements as
//! the symmetries give it, and men of the same kind are not told apart.

use std::collections::BTreeMap;

use rayon::prelude::*;
use shakmaty::{ByColor, Color};

use crate::{table::Table, value::Value};

/// Counts for one side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    pub legal: u64,
    pub win: u64,
    pub draw: u64,
    pub loss: u64,
    /// Decisive positions by plies to mate (wins odd, losses even).
    pub histogram_plies: BTreeMap<u16, u64>,
    /// The longest mate (win or loss) and the table number of an example:
    /// the lowest number that has it.
    pub longest: Option<(Value, usize)>,
}

impl SideSummary {
    pub(crate) fn merge(mut self, other: SideSummary) -> SideSummary {
        self.legal += other.legal;
        self.win += other.win;
        self.draw += other.draw;
        self.loss += other.loss;
        for (plies, n) in other.histogram_plies {
            *self.histogram_plies.entry(plies).or_default() += n;
        }
        self.longest = match (self.longest, other.longest) {
            (Some(a), Some(b)) => Some(
                if (b.0.plies(), std::cmp::Reverse(b.1)) > (a.0.plies(), std::cmp::Reverse(a.1)) {
                    b
                } else {
                    a
                },
            ),
            (a, b) => a.or(b),
        };
        self
    }

    /// Counts of placements from counts of numbers, where each position
    /// has `orderings` numbers (its like men in every order).
    pub(crate) fn divide(&mut self, orderings: u64) {
        self.legal /= orderings;
        self.win /= orderings;
        self.draw /= orderings;
        self.loss /= orderings;
        for n in self.histogram_plies.values_mut() {
            *n /= orderings;
        }
    }

    pub(crate) fn add(&mut self, value: Value, index: usize, weight: u64) {
        self.legal += weight;
        match value {
            Value::Win(_) => self.win += weight,
            Value::Draw => self.draw += weight,
            Value::Loss(_) => self.loss += weight,
        }
        if let Some(plies) = value.plies() {
            *self.histogram_plies.entry(plies).or_default() += weight;
            if self.longest.is_none_or(|(v, _)| v.plies() < Some(plies)) {
                self.longest = Some((value, index));
            }
        }
    }
}

/// Counts of a table for both sides to move.
pub fn summarize(table: &Table) -> ByColor<SideSummary> {
    let orderings = table.material().identical_orderings();
    ByColor::new_with(|turn: Color| {
        let len = table.bytes(turn).len();
        let mut side = (0..len)
            .into_par_iter()
            .fold(SideSummary::default, |mut acc, index| {
                if let Some(value) = table.value_at(index, turn) {
                    acc.add(value, index, table.numbering().weight(index));
                }
                acc
            })
            .reduce(SideSummary::default, SideSummary::merge);
        side.divide(orderings);
        side
    })
}
