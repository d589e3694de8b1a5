//! The К745ИР2 serial memory: 252 nibbles that shift one place per
//! micro-cycle, so each nibble comes back out 252 cycles after it went in.

/// Nibbles held by one К745ИР2.
pub(crate) const MEMORY_NIBBLES: usize = 252;

use crate::controller::NIBBLES;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Memory {
    pub(crate) data: [u8; MEMORY_NIBBLES],
    /// The cell at the read/write point.
    pub(crate) position: u8,
}

impl Memory {
    pub(crate) fn new() -> Memory {
        Memory {
            data: [0; MEMORY_NIBBLES],
            position: 0,
        }
    }

    /// The 42 nibbles that leave in the next macro-step.
    #[inline]
    pub(crate) fn outgoing(&self) -> [u8; NIBBLES] {
        let start = usize::from(self.position);
        // 252 is a multiple of 42, so the 42 cells never wrap.
        self.data[start..start + NIBBLES]
            .try_into()
            .expect("42 cells")
    }

    /// One macro-step: the 42 nibbles at the read point leave (into
    /// `ring`) as the 42 from `ring` take their places; the read point
    /// moves on by 42.
    #[inline]
    pub(crate) fn exchange(&mut self, ring: &mut [u8; NIBBLES]) {
        let start = usize::from(self.position);
        // 252 is a multiple of 42, so the 42 cells never wrap.
        self.data[start..start + NIBBLES].swap_with_slice(ring);
        self.position = ((start + NIBBLES) % MEMORY_NIBBLES) as u8;
    }
}
