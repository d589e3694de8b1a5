//! The five chips in their ring, the keyboard lines and the indicator.

use crate::controller::{Controller, NIBBLES};
use crate::display::{Display, Glyph, POSITIONS};
use crate::key::{AngleUnit, Key};
use crate::memory::Memory;
use crate::rom::{IK1302, IK1303, IK1306};

/// Macro-steps in one display/keyboard frame.
pub(crate) const FRAME: u32 = 560;

/// Consecutive keyboard-scan macro-steps that mark the idle loop.
const IDLE_STEPS: u32 = 64;

/// The whole calculator at a macro-step boundary.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Machine {
    pub(crate) ik1302: Controller,
    pub(crate) ik1303: Controller,
    pub(crate) ik1306: Controller,
    pub(crate) ir2_1: Memory,
    pub(crate) ir2_2: Memory,
    /// What the indicator showed at the last keyboard scan.
    pub(crate) display: Display,
}

impl Default for Machine {
    fn default() -> Self {
        Machine::new(AngleUnit::Degrees)
    }
}

/// A keyboard-scan command of ИК1302 (its third synchro field below 4):
/// it clears the key latch, latches a held key, and drives the indicator.
fn scans_keyboard(command: u32) -> bool {
    command & 0xFC_0000 == 0
}

impl Machine {
    /// The machine at power-on: every register and memory cell zero.
    pub fn new(unit: AngleUnit) -> Machine {
        let mut machine = Machine {
            ik1302: Controller::new(),
            ik1303: Controller::new(),
            ik1306: Controller::new(),
            ir2_1: Memory::new(),
            ir2_2: Memory::new(),
            display: Display::default(),
        };
        machine.set_switch(unit);
        machine
    }

    /// Sets the Р-ГРД-Г switch.
    pub fn set_switch(&mut self, unit: AngleUnit) {
        self.ik1303.key_x = unit.strobe();
        self.ik1303.key_y = 1;
    }

    /// Closes the key's contacts (`Some`) or opens all (`None`).
    pub fn hold(&mut self, key: Option<Key>) {
        let (x, y) = key.map_or((0, 0), Key::matrix);
        self.ik1302.key_x = x;
        self.ik1302.key_y = y;
    }

    /// One macro-step of all five chips.
    pub fn macro_step(&mut self) {
        let (rom2, rom3, rom6) = (&*IK1302, &*IK1303, &*IK1306);
        let c2 = self.ik1302.command(rom2);
        let c3 = self.ik1303.command(rom3);

        let c6 = self.ik1306.command(rom6);
        let scan = scans_keyboard(c2);
        if scan {
            self.ik1302.key_latch = false;
        }
        let mut points = [false; POSITIONS];
        for i in 0..NIBBLES {
            let mut nibble = self.ir2_2.output();
            nibble = self.ik1302.micro_cycle(rom2, c2, i, nibble);
            if scan && i % 3 == 2 && i / 3 < POSITIONS {
                points[i / 3] = self.ik1302.carry;
            }
            nibble = self.ik1303.micro_cycle(rom3, c3, i, nibble);
            nibble = self.ik1306.micro_cycle(rom6, c6, i, nibble);
            let from_ir2_1 = self.ir2_1.output();
            self.ir2_1.store(nibble);
            self.ir2_2.store(from_ir2_1);
        }
        if scan {
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

    /// Runs whole frames.
    pub fn run_frames(&mut self, frames: u32) {
        for _ in 0..frames * FRAME {
            self.macro_step();
        }
    }

    /// Runs one frame; true if it ended in the idle loop: the keyboard
    /// scanned in each of the last [`IDLE_STEPS`] macro-steps. (A running
    /// program also scans, for С/П, but only in single macro-steps.)
    pub fn run_frame_ends_idle(&mut self) -> bool {
        let mut scanning_run = 0;
        for _ in 0..FRAME {
            scanning_run = if self.is_waiting() {
                scanning_run + 1
            } else {
                0
            };
            self.macro_step();
        }
        scanning_run >= IDLE_STEPS
    }

    /// Whether ИК1302 is about to scan the keyboard: the calculator is
    /// waiting for a key rather than running.
    pub fn is_waiting(&self) -> bool {
        scans_keyboard(self.ik1302.command(&IK1302))
    }
}
