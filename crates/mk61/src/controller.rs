//! One К745ИК13 controller: a 4-bit serial processor whose behaviour is
//! entirely in its three ROM tables.
//!
//! Each macro-step is 42 micro-cycles. At cycle 0 the chip fetches the
//! command addressed by its own R[36] (low) and R[39] (high) nibbles; the
//! command names three synchro programs for three spans of cycles, each
//! synchro program names micro-instructions, and each micro-instruction
//! drives a 4-bit adder and the write-backs of the chip's registers.

use crate::rom::Chip;

/// Nibbles in each circulating register of a controller.
pub(crate) const NIBBLES: usize = 42;

/// One command's macro-step, generated from the ROMs (module `micro`):
/// every micro-cycle's micro-instruction, the ring exchange aside. The
/// second argument receives, for a keyboard-scan command, the carry after
/// each micro-cycle (the indicator's points).
pub(crate) type CommandStep = fn(&mut Controller, Option<&mut [bool; NIBBLES]>);

const fn offsets(delta: usize) -> [u8; NIBBLES] {
    let mut table = [0; NIBBLES];
    let mut i = 0;
    while i < NIBBLES {
        table[i] = ((i + delta) % NIBBLES) as u8;
        i += 1;
    }
    table
}

/// Nibble positions i+1, i+2, i+3, i-1 and i-2, around the register.
const PLUS1: [u8; NIBBLES] = offsets(1);
const PLUS2: [u8; NIBBLES] = offsets(2);
const PLUS3: [u8; NIBBLES] = offsets(3);
const MINUS1: [u8; NIBBLES] = offsets(NIBBLES - 1);
const MINUS2: [u8; NIBBLES] = offsets(NIBBLES - 2);

/// Whether bit `n` of a micro-instruction word is set.
const fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 != 0
}

/// A keyboard-scan command (third synchro field below 4): it clears the
/// key latch, latches a held key, and (in ИК1302) drives the indicator.
pub(crate) fn scans_keyboard(command: u32) -> bool {
    command & 0xFC_0000 == 0
}

/// The state of one controller between macro-steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Controller {
    /// Main circulating register; holds the command address too.
    pub(crate) r: [u8; NIBBLES],
    /// The chip's slice of the memory ring.
    pub(crate) m: [u8; NIBBLES],
    /// Three-deep stack, one stack per nibble position.
    pub(crate) st: [u8; NIBBLES],
    pub(crate) s: u8,
    /// The second working nibble (S1, called Q in the field tables).
    pub(crate) q: u8,
    pub(crate) carry: bool,
    pub(crate) keys: KeyLines,
}

/// The keyboard (or switch) contacts as one controller sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct KeyLines {
    /// Set when a key line is seen at its strobe.
    pub(crate) latch: bool,
    /// The closed contact's strobe number and line, 0 when idle.
    pub(crate) strobe: u8,
    pub(crate) line: u8,
}

impl KeyLines {
    /// Closes the contact at `(strobe, line)`; `(0, 0)` opens all.
    pub(crate) fn close(&mut self, (strobe, line): (u8, u8)) {
        self.strobe = strobe;
        self.line = line;
    }

    /// Whether the Р-ГРД-Г switch closes line 1 at `strobe`: its three
    /// contacts sit at strobes 10-12 and the selected one is open.
    fn switch_line(&self, strobe: usize) -> bool {
        self.line != 0 && (10..=12).contains(&strobe) && strobe != usize::from(self.strobe)
    }

    /// The micro-cycles at which a keyboard-scan command sees the held key:
    /// digit time i/3 + 1 equal to the key's strobe (none if no key).
    #[inline(always)]
    pub(crate) fn strobe_cycles(&self) -> std::ops::Range<usize> {
        match self.line {
            0 => 0..0,
            _ => {
                let first = 3 * (usize::from(self.strobe) - 1);
                first..first + 3
            }
        }
    }
}

impl Controller {
    pub(crate) fn new() -> Controller {
        Controller {
            r: [0; NIBBLES],
            m: [0; NIBBLES],
            st: [0; NIBBLES],
            s: 0,
            q: 0,
            carry: false,
            keys: KeyLines::default(),
        }
    }

    pub(crate) fn command_address(&self) -> usize {
        usize::from(self.r[36]) | usize::from(self.r[39]) << 4
    }

    /// The command this chip will execute in its next macro-step.
    pub(crate) fn command(&self, chip: &Chip) -> u32 {
        chip.commands[self.command_address()]
    }

    /// Runs one macro-step. `ring` holds the 42 nibbles arriving from the
    /// ring, one per micro-cycle, and receives the 42 leaving. (Within a
    /// macro-step a chip reads only its own state and its input, so the
    /// chips of the ring can run one after the other; and a micro-cycle
    /// touches only its own cell M[i] of the chip's slice, so the 42
    /// exchanges are done at once at the end.) `points`, if given,
    /// receives the carry after each micro-cycle of a keyboard-scan
    /// command.
    #[inline]
    pub(crate) fn macro_step(
        &mut self,
        chip: &Chip,
        ring: &mut [u8; NIBBLES],
        points: Option<&mut [bool; NIBBLES]>,
    ) {
        (chip.run[self.command_address()])(self, points);
        std::mem::swap(&mut self.m, ring);
    }

    /// At a strobe: the key's line goes into Q (before the adder), and
    /// the key latch is set.
    #[inline(always)]
    pub(crate) fn latch_key(&mut self) {
        self.q |= self.keys.line;
        self.keys.latch = true;
    }

    /// Runs micro-instruction `WORD` at micro-cycle `i`: the adder, then
    /// the write-backs, all from the values before the cycle. The word is
    /// a constant, so each micro-instruction compiles to only the work it
    /// does.
    #[inline(always)]
    pub(crate) fn execute<const WORD: u32>(&mut self, i: usize, r_writable: bool) {
        if WORD != 0 {
            self.compute::<WORD>(i, r_writable);
        }
    }

    #[inline(always)]
    fn compute<const WORD: u32>(&mut self, i: usize, r_writable: bool) {
        // A polling micro-instruction of ИК1303 reads the switch lines.
        if bit(WORD, 25) && self.keys.switch_line(i / 3 + 1) {
            self.q |= 1;
        }
        let r = self.r[i];
        let mut alpha = 0;
        if bit(WORD, 0) {
            alpha |= r;
        }
        if bit(WORD, 1) {
            alpha |= self.m[i];
        }
        if bit(WORD, 2) {
            alpha |= self.st[i];
        }
        if bit(WORD, 3) {
            alpha |= !r & 0xF;
        }
        if bit(WORD, 4) && !self.carry {
            alpha |= 0xA;
        }
        if bit(WORD, 5) {
            alpha |= self.s;
        }
        if bit(WORD, 6) {
            alpha |= 4;
        }
        let mut beta = 0;
        if bit(WORD, 7) {
            beta |= self.s;
        }
        if bit(WORD, 8) {
            beta |= !self.s & 0xF;
        }
        if bit(WORD, 9) {
            beta |= self.q;
        }
        if bit(WORD, 10) {
            beta |= 6;
        }
        if bit(WORD, 11) {
            beta |= 1;
        }
        let gamma = u8::from(bit(WORD, 12) && self.carry)
            | u8::from(bit(WORD, 13) && !self.carry)
            | u8::from(bit(WORD, 14) && !self.keys.latch);
        let total = alpha + beta + gamma;
        let sum = total & 0xF;

        if r_writable {
            match WORD >> 15 & 7 {
                1 => self.r[i] = self.r[usize::from(PLUS3[i])],
                2 => self.r[i] = sum,
                3 => self.r[i] = self.s,
                4 => self.r[i] = r | self.s | sum,
                5 => self.r[i] = self.s | sum,
                6 => self.r[i] = r | self.s,
                7 => self.r[i] = r | sum,
                _ => {}
            }
            if bit(WORD, 18) {
                self.r[usize::from(MINUS1[i])] = sum;
            }
            if bit(WORD, 19) {
                self.r[usize::from(MINUS2[i])] = sum;
            }
        }
        if bit(WORD, 20) {
            self.m[i] = self.s;
        }
        if bit(WORD, 21) {
            self.carry = total > 0xF;
        }
        let old_q = self.q;
        match WORD >> 22 & 3 {
            1 => self.s = old_q,
            2 => self.s = sum,
            3 => self.s = old_q | sum,
            _ => {}
        }
        if bit(WORD, 24) {
            self.q = sum;
        }
        if bit(WORD, 26) {
            let (a, b) = (usize::from(PLUS1[i]), usize::from(PLUS2[i]));
            self.st[b] = self.st[a];
            self.st[a] = self.st[i];
            self.st[i] = sum;
        }
        if bit(WORD, 27) {
            let (a, b) = (usize::from(PLUS1[i]), usize::from(PLUS2[i]));
            let top = self.st[i];
            self.st[i] = self.st[a];
            self.st[a] = self.st[b];
            self.st[b] = top;
        }
    }
}
