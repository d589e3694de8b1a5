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

/// Whether bit `n` of a micro-instruction word is set.
const fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 != 0
}

/// A keyboard-scan command (third synchro field below 4): it clears the
/// key latch, latches a held key, and (in ИК1302) drives the indicator.
pub(crate) fn scans_keyboard(command: u32) -> bool {
    command & 0xFC_0000 == 0
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
    /// Per command address: the micro-cycles that do something (an entry
    /// that is not micro-instruction 0, or a conditional one), in order,
    /// as `(cycle, entry)`; `active_start[a]..active_start[a + 1]`.
    active: Vec<(u8, u8)>,
    active_start: Vec<usize>,
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
                let scan = scans_keyboard(command);
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
        let mut active = Vec::new();
        let mut active_start = vec![0];
        for entries in &plan as &Vec<[u8; NIBBLES]> {
            for (cycle, &entry) in entries.iter().enumerate() {
                if entry >= 60 || rom.micro[usize::from(entry)] != 0 {
                    active.push((cycle as u8, entry));
                }
            }
            active_start.push(active.len());
        }
        ChipTables {
            commands: rom.command,
            plan,
            passive,
            active,
            active_start,
        }
    }
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
    /// chips of the ring can run one after the other; and a micro-cycle
    /// touches only its own cell M[i] of the chip's slice, so the 42
    /// exchanges are done at once at the end.) `execute` runs a
    /// micro-instruction of this chip (the generated dispatch of micro.rs).
    /// `points`, if given, receives the carry after each micro-cycle of a
    /// keyboard-scan command (the indicator's decimal points).
    #[inline]
    pub(crate) fn macro_step(
        &mut self,
        chip: &ChipTables,
        execute: impl Fn(&mut Controller, usize, usize, bool),
        ring: &mut [u8; NIBBLES],
        points: Option<&mut [bool; NIBBLES]>,
    ) {
        let address = self.command_address();
        if chip.passive[address] {
            std::mem::swap(&mut self.m, ring);
            if let Some(points) = points {
                *points = [self.carry; NIBBLES];
            }
            return;
        }
        let command = chip.commands[address];
        let scan = scans_keyboard(command);
        let jump = command >> 16 & 0xFF;
        let r_writable = command >> 24 == 0;
        if scan && (self.key_y != 0 || points.is_some()) {
            self.scan_step(chip, &execute, address, points);
        } else {
            if scan {
                self.key_latch = false;
            }
            let steps = &chip.active[chip.active_start[address]..chip.active_start[address + 1]];
            let split = steps.partition_point(|&(cycle, _)| usize::from(cycle) < THIRD_FIELD);
            for &(cycle, entry) in &steps[..split] {
                self.micro_cycle(&execute, entry, usize::from(cycle), r_writable);
            }
            if jump > 0x1F {
                self.r[37] = (jump & 0xF) as u8;
                self.r[40] = (jump >> 4) as u8;
            }
            for &(cycle, entry) in &steps[split..] {
                self.micro_cycle(&execute, entry, usize::from(cycle), true);
            }
        }
        std::mem::swap(&mut self.m, ring);
    }

    /// A keyboard-scan macro-step, cycle by cycle: it clears the key latch,
    /// latches a held key at its strobe (digit time i/3 + 1, three
    /// micro-cycles), and reports the carry after every cycle.
    fn scan_step(
        &mut self,
        chip: &ChipTables,
        execute: &impl Fn(&mut Controller, usize, usize, bool),
        address: usize,
        mut points: Option<&mut [bool; NIBBLES]>,
    ) {
        let command = chip.commands[address];
        let plan = &chip.plan[address];
        self.key_latch = false;
        let mut strobe = 0..0;
        if self.key_y != 0 {
            let first = 3 * (usize::from(self.key_x) - 1);
            strobe = first..first + 3;
        }
        let r_writable = command >> 24 == 0;
        for (i, &entry) in plan.iter().enumerate() {
            if i == THIRD_FIELD {
                let jump = command >> 16 & 0xFF;
                if jump > 0x1F {
                    self.r[37] = (jump & 0xF) as u8;
                    self.r[40] = (jump >> 4) as u8;
                }
            }
            if strobe.contains(&i) {
                self.q |= self.key_y;
                self.key_latch = true;
            }
            self.micro_cycle(execute, entry, i, r_writable || i >= THIRD_FIELD);
            if let Some(points) = points.as_deref_mut() {
                points[i] = self.carry;
            }
        }
    }

    #[inline(always)]
    fn micro_cycle(
        &mut self,
        execute: &impl Fn(&mut Controller, usize, usize, bool),
        entry: u8,
        i: usize,
        r_writable: bool,
    ) {
        let mut address = usize::from(entry);
        if address >= 60 {
            address = 60 + 2 * (address - 60) + usize::from(!self.carry);
        }
        execute(self, address, i, r_writable);
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
        if bit(WORD, 25) && self.switch_line(i / 3 + 1) {
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
            | u8::from(bit(WORD, 14) && !self.key_latch);
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
