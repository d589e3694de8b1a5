//! The overflow list: the plies of the decisive positions deeper than a
//! table byte holds (see docs/guide/src/reference/table-file.md, "Overflow"). Such a position's
//! byte is [`DEEP`]; its plies are found here by number.

use shakmaty::{ByColor, Color};

use crate::value::{DEEP, HARD_MAX_PLIES, MAX_PLIES, Value, decode_byte};

/// The deep positions of a table, sorted by number for each side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Overflow {
    /// The deepest plies stored in a byte; deeper ones are listed.
    limit: u16,
    sides: ByColor<Vec<(usize, u16)>>,
}

impl Overflow {
    /// A list from entries already sorted by number, each deeper than
    /// `limit` and within [`HARD_MAX_PLIES`].
    pub(crate) fn new(limit: u16, sides: ByColor<Vec<(usize, u16)>>) -> Overflow {
        debug_assert!(limit <= MAX_PLIES);
        debug_assert!(sides.iter().all(|side| {
            side.windows(2).all(|w| w[0].0 < w[1].0)
                && side.iter().all(|&(_, p)| p > limit && p <= HARD_MAX_PLIES)
        }));
        Overflow { limit, sides }
    }

    /// The list with every number moved up by `first`: a slice's list
    /// (numbers inside the slice) as its table numbers it.
    pub(crate) fn shifted(mut self, first: usize) -> Overflow {
        for side in self.sides.iter_mut() {
            for (index, _) in side.iter_mut() {
                *index += first;
            }
        }
        self
    }

    pub(crate) fn limit(&self) -> u16 {
        self.limit
    }

    /// The entries of one side to move.
    pub(crate) fn side(&self, turn: Color) -> &[(usize, u16)] {
        &self.sides[turn]
    }

    /// The plies of a listed number.
    pub(crate) fn plies(&self, turn: Color, index: usize) -> Option<u16> {
        let side = &self.sides[turn];
        side.binary_search_by_key(&index, |&(i, _)| i)
            .ok()
            .map(|at| side[at].1)
    }

    /// The value of a number's byte, `None` for an illegal number (or a
    /// [`DEEP`] byte with no entry, which a checked table does not have).
    #[inline]
    pub(crate) fn value(&self, turn: Color, index: usize, byte: u8) -> Option<Value> {
        if byte == DEEP {
            self.deep_value(turn, index)
        } else {
            decode_byte(byte)
        }
    }

    /// The value of a listed number; kept out of the probes' hot path.
    #[cold]
    #[inline(never)]
    fn deep_value(&self, turn: Color, index: usize) -> Option<Value> {
        self.plies(turn, index).map(Value::decisive)
    }
}
