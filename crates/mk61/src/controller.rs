//! One К745ИК13 controller: a 4-bit serial processor whose behaviour is
//! entirely in its three ROM tables.
//!
//! Each macro-step is 42 micro-cycles. At cycle 0 the chip fetches the
//! command addressed by its own R[36] (low) and R[39] (high) nibbles; the
//! command names three synchro programs for three spans of cycles, each
//! synchro program names micro-instructions, and each micro-instruction
//! drives a 4-bit adder and the write-backs of the chip's registers.

use crate::rom::{ChipRom, MICRO_WORDS};

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

/// The first micro-cycle of the command's third synchro field.
const THIRD_FIELD: usize = 36;

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

/// A micro-instruction with its fields spelled out (masks of 0 or all
/// ones select the adder inputs without branches).
#[derive(Clone, Copy, Debug, Default)]
struct Micro {
    alpha_r: u8,
    alpha_m: u8,
    alpha_st: u8,
    alpha_not_r: u8,
    alpha_s: u8,
    /// The constant 4 (bit 6), and 10 when the carry is clear (bit 4):
    /// indexed by the carry.
    alpha_constant: [u8; 2],
    beta_s: u8,
    beta_not_s: u8,
    beta_q: u8,
    beta_constant: u8,
    /// The carry-in, indexed by carry << 1 | key latch.
    gamma: [u8; 4],
    /// Bits 15-17: what R[i] receives.
    r_source: u8,
    r_minus1: bool,
    r_minus2: bool,
    /// Any of the rarer write-backs below: R[i-1], R[i-2], M, the stack.
    rare: bool,
    m_from_s: bool,
    carry_from_adder: bool,
    /// Bits 22-23: what S receives.
    s_source: u8,
    q_from_sum: bool,
    /// Bit 25: the key lines are ORed into Q before the adder.
    poll: bool,
    push: bool,
    rotate: bool,
    /// Micro-instruction 0: the chip only passes the ring on.
    idle: bool,
}

impl Micro {
    fn decode(word: u32) -> Micro {
        let bit = |n: u32| word >> n & 1 != 0;
        let mask = |n: u32| if bit(n) { 0xF } else { 0 };
        Micro {
            alpha_r: mask(0),
            alpha_m: mask(1),
            alpha_st: mask(2),
            alpha_not_r: mask(3),
            alpha_s: mask(5),
            alpha_constant: [
                if bit(6) { 4 } else { 0 } | if bit(4) { 0xA } else { 0 },
                if bit(6) { 4 } else { 0 },
            ],
            beta_s: mask(7),
            beta_not_s: mask(8),
            beta_q: mask(9),
            beta_constant: if bit(10) { 6 } else { 0 } | if bit(11) { 1 } else { 0 },
            gamma: std::array::from_fn(|index| {
                let (carry, latch) = (index >> 1 == 1, index & 1 == 1);
                u8::from(bit(12) && carry)
                    | u8::from(bit(13) && !carry)
                    | u8::from(bit(14) && !latch)
            }),
            r_source: (word >> 15 & 7) as u8,
            r_minus1: bit(18),
            r_minus2: bit(19),
            rare: word & (1 << 18 | 1 << 19 | 1 << 20 | 1 << 26 | 1 << 27) != 0,
            m_from_s: bit(20),
            carry_from_adder: bit(21),
            s_source: (word >> 22 & 3) as u8,
            q_from_sum: bit(24),
            poll: bit(25),
            push: bit(26),
            rotate: bit(27),
            idle: word == 0,
        }
    }
}

/// A controller's ROMs unfolded for speed: for every command address, the
/// synchro entry of each micro-cycle.
pub(crate) struct ChipTables {
    commands: [u32; 256],
    /// Per command address and cycle: the 6-bit synchro entry (values 60
    /// and up choose between two micro-instructions by the carry).
    plan: Vec<[u8; NIBBLES]>,
    /// Per command address: every micro-cycle is micro-instruction 0 and
    /// nothing else happens, so the chip only passes the ring on.
    passive: Vec<bool>,
    micro: [Micro; MICRO_WORDS],
}

impl ChipTables {
    pub(crate) fn new(rom: &ChipRom) -> ChipTables {
        let plan = rom
            .command
            .iter()
            .map(|&command| {
                std::array::from_fn(|i| {
                    let mut program = match i {
                        0..27 => command & 0xFF,
                        27..THIRD_FIELD => command >> 8 & 0xFF,
                        _ => command >> 16 & 0xFF,
                    } as usize;
                    if i >= THIRD_FIELD && program > 0x1F {
                        program = JUMP_SYNC;
                    }
                    rom.sync[program][usize::from(SYNC_ENTRY[i])]
                })
            })
            .collect();
        let passive = rom
            .command
            .iter()
            .zip(&plan)
            .map(|(&command, entries): (&u32, &[u8; NIBBLES])| {
                let scan = command & 0xFC_0000 == 0;
                let jump = command >> 16 & 0xFF > 0x1F;
                let idle = |address: usize| rom.micro[address] == 0;
                !scan
                    && !jump
                    && entries.iter().all(|&entry| match usize::from(entry) {
                        conditional @ 60.. => {
                            let first = 60 + 2 * (conditional - 60);
                            idle(first) && idle(first + 1)
                        }
                        address => idle(address),
                    })
            })
            .collect();
        ChipTables {
            commands: rom.command,
            plan,
            passive,
            micro: rom.micro.map(Micro::decode),
        }
    }
}

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

    fn command_address(&self) -> usize {
        usize::from(self.r[36]) | usize::from(self.r[39]) << 4
    }

    /// The command this chip will execute in its next macro-step.
    pub(crate) fn command(&self, chip: &ChipTables) -> u32 {
        chip.commands[self.command_address()]
    }

    /// Runs one macro-step. `ring` holds the 42 nibbles arriving from the
    /// ring, one per micro-cycle, and receives the 42 leaving. (Within a
    /// macro-step a chip reads only its own state and its input, so the
    /// chips of the ring can run one after the other.) Calls
    /// `after_cycle(i, carry)` after each micro-cycle.
    #[inline]
    pub(crate) fn macro_step(
        &mut self,
        chip: &ChipTables,
        ring: &mut [u8; NIBBLES],
        mut after_cycle: impl FnMut(usize, bool),
    ) {
        let address = self.command_address();
        if chip.passive[address] {
            std::mem::swap(&mut self.m, ring);
            for i in 0..NIBBLES {
                after_cycle(i, self.carry);
            }
            return;
        }
        let command = chip.commands[address];
        let plan = &chip.plan[address];
        // A keyboard-scan command clears the key latch, and latches a held
        // key at its strobe (digit time i/3 + 1, three micro-cycles).
        let scan = command & 0xFC_0000 == 0;
        let mut strobe = 0..0;
        if scan {
            self.key_latch = false;
            if self.key_y != 0 {
                let first = 3 * (usize::from(self.key_x) - 1);
                strobe = first..first + 3;
            }
        }
        let r_writable = command >> 24 == 0;
        for (i, &entry) in plan.iter().enumerate().take(THIRD_FIELD) {
            self.micro_cycle(chip, entry, i, ring, r_writable, strobe.contains(&i));
            after_cycle(i, self.carry);
        }
        let jump = command >> 16 & 0xFF;
        if jump > 0x1F {
            self.r[37] = (jump & 0xF) as u8;
            self.r[40] = (jump >> 4) as u8;
        }
        for (i, &entry) in plan.iter().enumerate().skip(THIRD_FIELD) {
            self.micro_cycle(chip, entry, i, ring, true, strobe.contains(&i));
            after_cycle(i, self.carry);
        }
    }

    #[inline(always)]
    fn micro_cycle(
        &mut self,
        chip: &ChipTables,
        entry: u8,
        i: usize,
        ring: &mut [u8; NIBBLES],
        r_writable: bool,
        at_strobe: bool,
    ) {
        let mut entry = usize::from(entry);
        if entry >= 60 {
            entry = 60 + 2 * (entry - 60) + usize::from(!self.carry);
        }
        let micro = &chip.micro[entry];
        if at_strobe {
            self.q |= self.key_y;
            self.key_latch = true;
        }
        if micro.idle {
            std::mem::swap(&mut self.m[i], &mut ring[i]);
            return;
        }
        // A polling micro-instruction of ИК1303 reads the switch lines.
        if micro.poll && self.switch_line(i / 3 + 1) {
            self.q |= 1;
        }
        let r = self.r[i];
        let alpha = (r & micro.alpha_r)
            | (self.m[i] & micro.alpha_m)
            | (self.st[i] & micro.alpha_st)
            | (!r & micro.alpha_not_r)
            | (self.s & micro.alpha_s)
            | micro.alpha_constant[usize::from(self.carry)];
        let beta = (self.s & micro.beta_s)
            | (!self.s & micro.beta_not_s)
            | (self.q & micro.beta_q)
            | micro.beta_constant;
        let gamma = micro.gamma[usize::from(self.carry) << 1 | usize::from(self.key_latch)];
        let total = alpha + beta + gamma;
        let sum = total & 0xF;

        if r_writable {
            match micro.r_source {
                1 => self.r[i] = self.r[usize::from(PLUS3[i])],
                2 => self.r[i] = sum,
                3 => self.r[i] = self.s,
                4 => self.r[i] = r | self.s | sum,
                5 => self.r[i] = self.s | sum,
                6 => self.r[i] = r | self.s,
                7 => self.r[i] = r | sum,
                _ => {}
            }
        }
        if micro.rare {
            self.rare_writes(micro, i, sum, r_writable);
        }
        if micro.carry_from_adder {
            self.carry = total > 0xF;
        }
        let old_q = self.q;
        match micro.s_source {
            1 => self.s = old_q,
            2 => self.s = sum,
            3 => self.s = old_q | sum,
            _ => {}
        }
        if micro.q_from_sum {
            self.q = sum;
        }
        std::mem::swap(&mut self.m[i], &mut ring[i]);
    }

    /// The write-backs few micro-instructions make. They read S before the
    /// main write-backs change it.
    #[inline(never)]
    fn rare_writes(&mut self, micro: &Micro, i: usize, sum: u8, r_writable: bool) {
        if r_writable && micro.r_minus1 {
            self.r[usize::from(MINUS1[i])] = sum;
        }
        if r_writable && micro.r_minus2 {
            self.r[usize::from(MINUS2[i])] = sum;
        }
        if micro.m_from_s {
            self.m[i] = self.s;
        }
        if micro.push {
            let (a, b) = (usize::from(PLUS1[i]), usize::from(PLUS2[i]));
            self.st[b] = self.st[a];
            self.st[a] = self.st[i];
            self.st[i] = sum;
        }
        if micro.rotate {
            let (a, b) = (usize::from(PLUS1[i]), usize::from(PLUS2[i]));
            let top = self.st[i];
            self.st[i] = self.st[a];
            self.st[a] = self.st[b];
            self.st[b] = top;
        }
    }
}
