//! The five chips in their ring, the keyboard lines and the indicator.

use crate::controller::{Controller, NIBBLES, scans_keyboard};
use crate::display::{Display, Glyph, POSITIONS};
use crate::key::{AngleUnit, Key};
use crate::memory::Memory;
use crate::model::Model;
use crate::rom::{IK1302, IK1303, IK1306};

/// Macro-steps in one display/keyboard frame.
pub(crate) const FRAME: u32 = 560;

/// Consecutive keyboard-scan macro-steps that mark the idle loop.
const IDLE_STEPS: u32 = 64;

/// The whole calculator at a macro-step boundary.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Machine {
    pub(crate) ik1302: Controller,
    pub(crate) ik1303: Controller,
    pub(crate) ik1306: Controller,
    pub(crate) ir2_1: Memory,
    pub(crate) ir2_2: Memory,
    /// What the indicator showed at the last keyboard scan.
    pub(crate) display: Display,
    /// The MK-54 has no ИК1306 in its ring (`ik1306` stays at rest).
    pub(crate) model: Model,
}

impl Machine {
    /// The machine at power-on: every register and memory cell zero.
    pub fn new(model: Model, unit: AngleUnit) -> Machine {
        let mut machine = Machine {
            ik1302: Controller::new(),
            ik1303: Controller::new(),
            ik1306: Controller::new(),
            ir2_1: Memory::new(),
            ir2_2: Memory::new(),
            display: Display::default(),
            model,
        };
        machine.set_switch(unit);
        machine
    }

    /// Sets the Р-ГРД-Г switch.
    pub fn set_switch(&mut self, unit: AngleUnit) {
        self.ik1303.keys.close((unit.strobe(), 1));
    }

    /// Closes the key's contacts (`Some`) or opens all (`None`).
    pub fn hold(&mut self, key: Option<Key>) {
        self.ik1302.keys.close(key.map_or((0, 0), Key::matrix));
    }

    /// One macro-step of all five chips.
    pub fn macro_step(&mut self) {
        let scan = scans_keyboard(self.ik1302.command(&IK1302));
        let mut ring = self.ir2_2.outgoing();
        let mut carries = [false; NIBBLES];
        self.ik1302
            .macro_step(&IK1302, &mut ring, scan.then_some(&mut carries));
        self.ik1303.macro_step(&IK1303, &mut ring, None);
        if self.model.has_ik1306() {
            self.ik1306.macro_step(&IK1306, &mut ring, None);
        }
        self.ir2_1.exchange(&mut ring);
        self.ir2_2.exchange(&mut ring);
        if scan {
            let points = std::array::from_fn(|position| carries[3 * position + 2]);
            self.capture_display(points);
        }
    }

    /// Latches the indicator from ИК1302's R: digit d of the mantissa
    /// (d = 0 is the sign) is R[3(8-d)], the exponent follows.
    fn capture_display(&mut self, points: [bool; POSITIONS]) {
        let r = &self.ik1302.r;
        for position in 0..POSITIONS {
            let index = if position < 9 {
                8 - position
            } else {
                20 - position
            };
            self.display.glyphs[position] = Glyph::from_nibble(r[3 * index]);
            self.display.points[position] = position < 9 && points[8 - position];
        }
    }

    /// The indicator as last shown.
    pub fn display(&self) -> Display {
        self.display
    }

    /// Runs whole frames; `observe` as in [`Machine::run`].
    pub fn run_frames(&mut self, frames: u32, observe: &mut impl FnMut(&Machine, u32)) {
        self.run(frames * FRAME, observe);
    }

    /// Runs one frame; true if it ended in the idle loop: the keyboard
    /// scanned in each of the last [`IDLE_STEPS`] macro-steps. (A running
    /// program also scans, for С/П, but only in single macro-steps.)
    pub fn run_frame_ends_idle(&mut self, observe: &mut impl FnMut(&Machine, u32)) -> bool {
        self.run(FRAME, observe) >= IDLE_STEPS
    }

    /// Runs `steps` macro-steps with the inputs as they are; returns how
    /// many of the last ones scanned the keyboard in a row. `observe` sees
    /// the machine before each macro-step run, with the number of
    /// macro-steps of this call before it.
    ///
    /// Exact shortcut: the ring returns to its place every
    /// [`Model::period`] macro-steps, so when the whole machine equals itself one period
    /// earlier (idle, or waiting for a key's release) it will keep
    /// repeating, and whole periods are skipped (unobserved: they repeat
    /// what was observed).
    pub fn run(&mut self, steps: u32, observe: &mut impl FnMut(&Machine, u32)) -> u32 {
        let period = self.model.period();
        let mut trailing_scans = 0;
        let mut remaining = steps;
        let mut anchor: Option<Machine> = None;
        let mut since_anchor = 0;
        while remaining > 0 {
            observe(self, steps - remaining);
            let scan = self.is_waiting();
            self.macro_step();
            remaining -= 1;
            trailing_scans = if scan { trailing_scans + 1 } else { 0 };
            since_anchor += 1;
            if since_anchor == period {
                since_anchor = 0;
                if anchor.as_ref() == Some(self) {
                    let skipped = remaining / period * period;
                    remaining -= skipped;
                    if trailing_scans >= period {
                        trailing_scans += skipped;
                    }
                } else {
                    anchor = Some(self.clone());
                }
            }
        }
        trailing_scans
    }

    /// Moves every page of the ring one place on, as a macro-step does,
    /// without running the chips.
    fn turn_ring(&mut self) {
        let mut ring = self.ir2_2.outgoing();
        let mut controllers = vec![&mut self.ik1302, &mut self.ik1303];
        if self.model.has_ik1306() {
            controllers.push(&mut self.ik1306);
        }
        for controller in controllers {
            std::mem::swap(&mut controller.m, &mut ring);
        }
        self.ir2_1.exchange(&mut ring);
        self.ir2_2.exchange(&mut ring);
    }

    /// Whether ИК1302 is about to scan the keyboard: the calculator is
    /// waiting for a key rather than running.
    pub fn is_waiting(&self) -> bool {
        scans_keyboard(self.ik1302.command(&IK1302))
    }
}

/// Physical pages of 42 nibbles: (store, last index). Stores 1 and 2 are
/// the two К745ИР2; 3, 4, 5 the M registers of ИК1302, ИК1303, ИК1306.
const PAGES: [(u8, usize); 15] = [
    (1, 41),
    (1, 83),
    (1, 125),
    (1, 167),
    (1, 209),
    (1, 251),
    (2, 41),
    (2, 83),
    (2, 125),
    (2, 167),
    (2, 209),
    (2, 251),
    (3, 41),
    (4, 41),
    (5, 41),
];

/// Logical page j → physical page, for each phase of the ring (the first
/// memory's read point / 84). From the loader tables of sergev/mk-61.
const PAGE_ORDER: [[usize; 15]; 3] = [
    [1, 2, 3, 4, 5, 14, 13, 12, 6, 7, 8, 9, 10, 11, 0],
    [10, 11, 6, 7, 2, 3, 4, 5, 0, 1, 14, 13, 12, 8, 9],
    [14, 13, 12, 10, 11, 6, 7, 8, 9, 4, 5, 0, 1, 2, 3],
];

impl Machine {
    fn nibble_mut(&mut self, store: u8, index: usize) -> &mut u8 {
        match store {
            1 => &mut self.ir2_1.data[index],
            2 => &mut self.ir2_2.data[index],
            3 => &mut self.ik1302.m[index],
            4 => &mut self.ik1303.m[index],
            _ => &mut self.ik1306.m[index],
        }
    }

    /// Where the two nibbles of program step `step` sit: (store, index of
    /// the high nibble); the low nibble is three cells earlier.
    fn program_cell(&self, step: usize) -> (u8, usize) {
        let phase = usize::from(self.ir2_1.position) / 84;
        let (store, last) = PAGES[PAGE_ORDER[phase][step / 7]];
        let index = match step % 7 {
            0 => last,
            k => last + 6 * k - 42,
        };
        (store, index)
    }

    /// Writes program step `step` straight into the ring (valid while the
    /// calculator waits for a key).
    pub fn set_program_byte(&mut self, step: usize, code: u8) {
        let (store, index) = self.program_cell(step);
        *self.nibble_mut(store, index) = code >> 4;
        *self.nibble_mut(store, index - 3) = code & 0xF;
    }

    fn nibble_at(&self, store: u8, index: usize) -> u8 {
        match store {
            1 => self.ir2_1.data[index],
            2 => self.ir2_2.data[index],
            3 => self.ik1302.m[index],
            4 => self.ik1303.m[index],
            _ => self.ik1306.m[index],
        }
    }

    /// Program step `step` (0..105) read straight from the memory ring,
    /// without keys. Valid while the calculator waits for a key.
    pub fn program_byte(&self, step: usize) -> u8 {
        let (store, index) = self.program_cell(step);
        self.nibble_at(store, index) << 4 | self.nibble_at(store, index - 3)
    }
}

/// The stack X1, X, Y, Z, T: physical pages (as in [`PAGES`]) for each
/// phase of the ring, at the times [`PAGE_ORDER`] holds for. From the
/// readout tables of sergev/mk-61; checked here by tracing programs whose
/// stack is known (tests/trace.rs).
const STACK_PAGES: [[[usize; 5]; 3]; 2] = [
    [[8, 9, 10, 11, 0], [14, 13, 12, 8, 9], [5, 0, 1, 2, 3]],
    [[8, 9, 10, 11, 0], [10, 11, 6, 7, 2], [6, 7, 8, 9, 4]],
];

/// A stack register's 12 nibbles sit every third cell of its page, from
/// 40 cells below the page's last index.
const NUMBER_OFFSET: usize = 40;

/// The greatest common divisor.
const fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Machine {
    /// Macro-steps between the times the readout tables hold: the key
    /// driver runs whole frames from power-on, so they hold every
    /// gcd(frame, period) macro-steps (10 on the MK-61, 14 on the MK-54).
    fn readout_interval(&self) -> u32 {
        gcd(FRAME, self.model.period())
    }

    /// X1, X, Y, Z, T as stored in the ring, each 12 nibbles in the
    /// indicator's order of ИК1302's R (digits low to high, mantissa
    /// sign, exponent low to high, exponent sign). `since_readout` is the
    /// number of macro-steps since a time the readout tables hold for; the
    /// pages are turned on (on a copy, without running the chips) to the
    /// next such time.
    pub(crate) fn stack(&self, since_readout: u32) -> [[u8; 12]; 5] {
        let interval = self.readout_interval();
        let mut turned = self.clone();
        for _ in 0..(interval - since_readout % interval) % interval {
            turned.turn_ring();
        }
        let phase = usize::from(turned.ir2_1.position) / 84;
        let model = usize::from(!self.model.has_ik1306());
        STACK_PAGES[model][phase].map(|page| {
            let (store, last) = PAGES[page];
            std::array::from_fn(|k| turned.nibble_at(store, last - NUMBER_OFFSET + 3 * k))
        })
    }

    /// ИК1302's command address (R[36], R[39]).
    pub(crate) fn ik1302_command_address(&self) -> usize {
        self.ik1302.command_address()
    }

    /// Whether ИК1303 (and ИК1306) are in the loop where they wait for
    /// work: ИК1303 at command 6E, ИК1306 at 01-04 (as while the
    /// calculator waits for a key).
    pub(crate) fn arithmetic_waits(&self) -> bool {
        self.ik1303.command_address() == 0x6E
            && (!self.model.has_ik1306() || (0x01..=0x04).contains(&self.ik1306.command_address()))
    }

    /// The byte ИК1302 keeps in R[31] (low) and R[34] (high): the program
    /// counter while it shows a program step, other bytes at other times.
    pub(crate) fn ik1302_step_byte(&self) -> u8 {
        self.ik1302.r[34] << 4 | self.ik1302.r[31]
    }
}

/// Writes nibbles two to a byte.
#[derive(Default)]
struct NibbleWriter {
    bytes: Vec<u8>,
    half: bool,
}

impl NibbleWriter {
    fn push(&mut self, nibble: u8) {
        debug_assert!(nibble < 16);
        match self.half {
            false => self.bytes.push(nibble),
            true => *self.bytes.last_mut().expect("a byte begun") |= nibble << 4,
        }
        self.half = !self.half;
    }

    fn extend(&mut self, nibbles: &[u8]) {
        for &nibble in nibbles {
            self.push(nibble);
        }
    }
}

/// Reads what a [`NibbleWriter`] wrote, in the same order.
struct NibbleReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl NibbleReader<'_> {
    fn next(&mut self) -> u8 {
        let byte = self.bytes[self.at / 2];
        let nibble = match self.at % 2 {
            0 => byte & 0xF,
            _ => byte >> 4,
        };
        self.at += 1;
        nibble
    }

    fn fill(&mut self, nibbles: &mut [u8]) {
        for nibble in nibbles {
            *nibble = self.next();
        }
    }

    fn flag(&mut self) -> bool {
        self.next() != 0
    }
}

impl Controller {
    fn pack(&self, out: &mut NibbleWriter) {
        out.extend(&self.r);
        out.extend(&self.m);
        out.extend(&self.st);
        out.extend(&[
            self.s,
            self.q,
            u8::from(self.carry),
            u8::from(self.keys.latch),
            self.keys.strobe,
            self.keys.line,
        ]);
    }

    fn unpack(input: &mut NibbleReader<'_>) -> Controller {
        let mut controller = Controller::new();
        input.fill(&mut controller.r);
        input.fill(&mut controller.m);
        input.fill(&mut controller.st);
        controller.s = input.next();
        controller.q = input.next();
        controller.carry = input.flag();
        controller.keys.latch = input.flag();
        controller.keys.strobe = input.next();
        controller.keys.line = input.next();
        controller
    }
}

impl Memory {
    fn pack(&self, out: &mut NibbleWriter) {
        out.extend(&self.data);
        // The read point moves in steps of 42: six places.
        out.push(self.position / NIBBLES as u8);
    }

    fn unpack(input: &mut NibbleReader<'_>) -> Memory {
        let mut memory = Memory::new();
        input.fill(&mut memory.data);
        memory.position = input.next() * NIBBLES as u8;
        memory
    }
}

impl Machine {
    /// The whole machine, two nibbles to a byte (every register and cell
    /// is a nibble; flags and the display's points take a nibble each).
    pub fn pack(&self) -> Box<[u8]> {
        let mut out = NibbleWriter::default();
        for controller in [&self.ik1302, &self.ik1303, &self.ik1306] {
            controller.pack(&mut out);
        }
        self.ir2_1.pack(&mut out);
        self.ir2_2.pack(&mut out);
        for position in 0..POSITIONS {
            out.push(self.display.glyphs[position].nibble());
            out.push(u8::from(self.display.points[position]));
        }
        out.push(u8::from(self.model.has_ik1306()));
        out.bytes.into_boxed_slice()
    }

    /// The machine [`Machine::pack`] packed.
    pub fn unpack(bytes: &[u8]) -> Machine {
        let mut input = NibbleReader { bytes, at: 0 };
        let ik1302 = Controller::unpack(&mut input);
        let ik1303 = Controller::unpack(&mut input);
        let ik1306 = Controller::unpack(&mut input);
        let ir2_1 = Memory::unpack(&mut input);
        let ir2_2 = Memory::unpack(&mut input);
        let mut display = Display::default();
        for position in 0..POSITIONS {
            display.glyphs[position] = Glyph::from_nibble(input.next());
            display.points[position] = input.flag();
        }
        let model = match input.flag() {
            true => Model::Mk61,
            false => Model::Mk54,
        };
        Machine {
            ik1302,
            ik1303,
            ik1306,
            ir2_1,
            ir2_2,
            display,
            model,
        }
    }
}
