//! One К745ИК13 controller: a 4-bit serial processor whose behaviour is
//! entirely in its three ROM tables.
//!
//! Each macro-step is 42 micro-cycles. At cycle 0 the chip fetches the
//! command addressed by its own R[36] (low) and R[39] (high) nibbles; the
//! command names three synchro programs for three spans of cycles, each
//! synchro program names micro-instructions, and each micro-instruction
//! drives a 4-bit adder and the write-backs of the chip's registers.

use crate::rom::ChipRom;

/// Nibbles in each circulating register of a controller.
pub(crate) const NIBBLES: usize = 42;

/// Which of the nine entries of the selected synchro program each of the
/// 42 micro-cycles of a macro-step uses.
const SYNC_ENTRY: [u8; NIBBLES] = [
    0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4,
    5, 6, 7, 8, 0, 1, 2, 3, 4, 5,
];

/// The synchro program a command jump runs during cycles 36..41.
const JUMP_SYNC: usize = 0x5F;

/// The state of one controller between macro-steps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    /// Key latch: set when a key line is seen at its strobe.
    pub(crate) key_latch: bool,
    /// Keyboard (or switch) input: strobe number and line, 0 when idle.
    pub(crate) key_x: u8,
    pub(crate) key_y: u8,
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
            key_latch: false,
            key_x: 0,
            key_y: 0,
        }
    }

    /// Whether the Р-ГРД-Г switch closes line 1 at `strobe`: its three
    /// contacts sit at strobes 10-12 and the selected one is open.
    fn switch_line(&self, strobe: usize) -> bool {
        self.key_y != 0 && (10..=12).contains(&strobe) && strobe != usize::from(self.key_x)
    }

    /// The command this chip will execute in its next macro-step.
    pub(crate) fn command(&self, rom: &ChipRom) -> u32 {
        rom.command[usize::from(self.r[36]) | usize::from(self.r[39]) << 4]
    }

    /// Runs micro-cycle `i` of a macro-step executing `command`; `input` is
    /// the nibble arriving from the ring, the return value the one leaving.
    #[inline]
    pub(crate) fn micro_cycle(&mut self, rom: &ChipRom, command: u32, i: usize, input: u8) -> u8 {
        let mut program = match i {
            0..27 => command & 0xFF,
            27..36 => (command >> 8) & 0xFF,
            _ => (command >> 16) & 0xFF,
        } as usize;
        if i >= 36 && program > 0x1F {
            if i == 36 {
                self.r[37] = (program & 0xF) as u8;
                self.r[40] = (program >> 4) as u8;
            }
            program = JUMP_SYNC;
        }
        let mut address = usize::from(rom.sync[program][usize::from(SYNC_ENTRY[i])]);
        if address >= 60 {
            address = 60 + 2 * (address - 60) + usize::from(!self.carry);
        }
        let micro = rom.micro[address];
        let bit = |n: u32| micro >> n & 1 != 0;

        // The key lines are read at the key's strobe (digit time): by a
        // keyboard-scan command (which also sets the key latch), or by a
        // micro-instruction that polls them (ИК1303 reading the switch).
        // The key lines are read at the key's strobe (digit time i/3 + 1):
        // a keyboard-scan command of ИК1302 latches a held key there; a
        // polling micro-instruction of ИК1303 reads the switch lines.
        let strobe = i / 3 + 1;
        if command & 0xFC_0000 == 0 {
            if self.key_y != 0 && strobe == usize::from(self.key_x) {
                self.q |= self.key_y;
                self.key_latch = true;
            }
        } else if bit(25) && self.switch_line(strobe) {
            self.q |= 1;
        }

        let mut alpha = 0u8;
        if bit(0) {
            alpha |= self.r[i];
        }
        if bit(1) {
            alpha |= self.m[i];
        }
        if bit(2) {
            alpha |= self.st[i];
        }
        if bit(3) {
            alpha |= !self.r[i] & 0xF;
        }
        if bit(4) && !self.carry {
            alpha |= 0xA;
        }
        if bit(5) {
            alpha |= self.s;
        }
        if bit(6) {
            alpha |= 4;
        }
        let mut beta = 0u8;
        if bit(7) {
            beta |= self.s;
        }
        if bit(8) {
            beta |= !self.s & 0xF;
        }
        if bit(9) {
            beta |= self.q;
        }
        if bit(10) {
            beta |= 6;
        }
        if bit(11) {
            beta |= 1;
        }
        let mut gamma = 0u8;
        if bit(12) {
            gamma |= u8::from(self.carry);
        }
        if bit(13) {
            gamma |= u8::from(!self.carry);
        }
        if bit(14) {
            gamma |= u8::from(!self.key_latch);
        }
        let total = alpha + beta + gamma;
        let sum = total & 0xF;
        let carry_out = total > 0xF;

        if command >> 24 == 0 || i >= 36 {
            let r = self.r[i];
            match micro >> 15 & 7 {
                1 => self.r[i] = self.r[(i + 3) % NIBBLES],
                2 => self.r[i] = sum,
                3 => self.r[i] = self.s,
                4 => self.r[i] = r | self.s | sum,
                5 => self.r[i] = self.s | sum,
                6 => self.r[i] = r | self.s,
                7 => self.r[i] = r | sum,
                _ => {}
            }
            if bit(18) {
                self.r[(i + NIBBLES - 1) % NIBBLES] = sum;
            }
            if bit(19) {
                self.r[(i + NIBBLES - 2) % NIBBLES] = sum;
            }
        }
        if bit(20) {
            self.m[i] = self.s;
        }
        if bit(21) {
            self.carry = carry_out;
        }
        let old_q = self.q;
        match micro >> 22 & 3 {
            1 => self.s = old_q,
            2 => self.s = sum,
            3 => self.s = old_q | sum,
            _ => {}
        }
        if bit(24) {
            self.q = sum;
        }
        if bit(26) {
            let (a, b) = ((i + 1) % NIBBLES, (i + 2) % NIBBLES);
            self.st[b] = self.st[a];
            self.st[a] = self.st[i];
            self.st[i] = sum;
        }
        if bit(27) {
            let (a, b) = ((i + 1) % NIBBLES, (i + 2) % NIBBLES);
            let top = self.st[i];
            self.st[i] = self.st[a];
            self.st[a] = self.st[b];
            self.st[b] = top;
        }
        let output = self.m[i];
        self.m[i] = input;
        output
    }
}
