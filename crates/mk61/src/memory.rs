//! The К745ИР2 serial memory: 252 nibbles that shift one place per
//! micro-cycle, so each nibble comes back out 252 cycles after it went in.

/// Nibbles held by one К745ИР2.
pub(crate) const MEMORY_NIBBLES: usize = 252;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

    /// The nibble at the read point: the one leaving in this micro-cycle.
    #[inline]
    pub(crate) fn output(&self) -> u8 {
        self.data[usize::from(self.position)]
    }

    /// Ends a micro-cycle: `input` takes the place of the nibble that left,
    /// and the read point moves on.
    #[inline]
    pub(crate) fn store(&mut self, input: u8) {
        self.data[usize::from(self.position)] = input;
        self.position += 1;
        if usize::from(self.position) == MEMORY_NIBBLES {
            self.position = 0;
        }
    }
}
