//! The calculator as a person uses it: press a key, wait, read the display.

use crate::display::Display;
use crate::key::{AngleUnit, Key};
use crate::machine::Machine;
use crate::model::Model;
use crate::program::{Program, ProgramError, address_label};
use crate::trace::{Stack, Step, StepTracer};

/// Frames a key is held down.
pub const HOLD_FRAMES: u32 = 2;
/// Frames run after the calculator stops, before the display is read.
pub const SETTLE_FRAMES: u32 = 4;
/// Frames a run may take before the driver gives up: 5.6 M macro-steps,
/// about 2½ hours of the real calculator (some 650 macro-steps a second)
/// and a few seconds of emulation. A program that never stops is reported
/// (`Press::stopped` false), not waited for.
pub const DEFAULT_RUN_LIMIT: u32 = 10_000;

/// The whole MK-61: every chip's registers and both memories. Two equal
/// values behave identically from here on, so a (position, calculator)
/// pair is a sound node of a game graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Calculator {
    machine: Machine,
}

/// A calculator packed two nibbles to a byte (see
/// [`Calculator::pack`]): about 460 bytes, half a [`Calculator`], for
/// keeping many states, as a graph search over games does. Equal packed
/// values are equal calculators.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedCalculator(Box<[u8]>);

impl PackedCalculator {
    /// The calculator again.
    pub fn unpack(&self) -> Calculator {
        Calculator {
            machine: Machine::unpack(&self.0),
        }
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a key press led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Press {
    /// The display after the calculator stopped (or gave up).
    pub display: Display,
    /// Frames run after the key was released until the calculator was
    /// back in its idle loop (key handling included, so at least 1).
    pub frames: u32,
    /// False if the run limit was reached with the program still running.
    pub stopped: bool,
}

/// Frames after the release beyond which a press counts as having started
/// a program run (see [`Press::ran`]).
pub const RUN_THRESHOLD_FRAMES: u32 = 4;

impl Press {
    /// Whether the key started a program run: the calculator was busy for
    /// more than [`RUN_THRESHOLD_FRAMES`] frames after the release. This
    /// reproduces the `ran` column of every reference trace: the presses
    /// marked there took 9 frames or more, all others at most 4 (short
    /// programs that stop within that time are not marked).
    pub fn ran(&self) -> bool {
        self.frames > RUN_THRESHOLD_FRAMES
    }
}

impl Calculator {
    /// An MK-61 at power-on with the switch at `unit`, then the start-up
    /// settles.
    pub fn new(unit: AngleUnit) -> Calculator {
        Calculator::of_model(Model::Mk61, unit)
    }

    /// [`Calculator::new`] for any model of the family.
    pub fn of_model(model: Model, unit: AngleUnit) -> Calculator {
        let mut calculator = Calculator {
            machine: Machine::new(model, unit),
        };
        calculator.settle(DEFAULT_RUN_LIMIT, &mut |_, _| {});
        calculator
    }

    pub fn model(&self) -> Model {
        self.machine.model
    }

    /// Sets the Р-ГРД-Г switch (not a key press: nothing runs).
    pub fn set_switch(&mut self, unit: AngleUnit) {
        self.machine.set_switch(unit);
    }

    /// The indicator as it is now.
    pub fn display(&self) -> Display {
        self.machine.display()
    }

    /// Presses `key` as the reference traces do: held for
    /// [`HOLD_FRAMES`], released, run until the calculator waits for a key
    /// again (at most [`DEFAULT_RUN_LIMIT`] frames), then [`SETTLE_FRAMES`].
    pub fn press(&mut self, key: Key) -> Press {
        self.press_with_limit(key, DEFAULT_RUN_LIMIT)
    }

    /// [`Calculator::press`] with a run limit in frames.
    pub fn press_with_limit(&mut self, key: Key, run_limit: u32) -> Press {
        self.press_observed(key, run_limit, &mut |_, _| {})
    }

    /// [`Calculator::press_with_limit`], reporting each program step the
    /// key runs (С/П, ПП, БП ... in automatic mode) to `on_step` as the
    /// run goes: its address, code and the stack after it (see
    /// docs/guide/src/reference/mk61.md, "Tracing"). The stack is read from the memory ring
    /// with tables that hold at whole frames from power-on, as `press`
    /// leaves the calculator; after [`Calculator::run_macro_steps`] or
    /// [`Calculator::canonical_idle`] the stacks reported may be wrong
    /// (the addresses not).
    pub fn press_traced(
        &mut self,
        key: Key,
        run_limit: u32,
        on_step: &mut dyn FnMut(&Step),
    ) -> Press {
        if self.display().program_view().is_some() {
            // Programming mode: keys record steps, run none (ИК1302 passes
            // the same display entry as it shows each one).
            return self.press_with_limit(key, run_limit);
        }
        let before = self.clone();
        let read_program = || before.program_memory();
        let mut tracer = StepTracer::new(&read_program, on_step);
        let press = self.press_observed(key, run_limit, &mut |machine, since_frame| {
            tracer.observe(machine, since_frame)
        });
        tracer.finish(&self.machine, 0);
        press
    }

    /// A key press, `observe` seeing the machine before every macro-step
    /// run, with the macro-steps since the last whole frame.
    fn press_observed(
        &mut self,
        key: Key,
        run_limit: u32,
        observe: &mut impl FnMut(&Machine, u32),
    ) -> Press {
        self.machine.hold(Some(key));
        self.machine.run_frames(HOLD_FRAMES, observe);
        self.machine.hold(None);
        let (frames, stopped) = self.settle(run_limit, observe);
        Press {
            display: self.display(),
            frames,
            stopped,
        }
    }

    /// Presses each key in turn; returns the last press.
    pub fn press_all(&mut self, keys: impl IntoIterator<Item = Key>) -> Option<Press> {
        keys.into_iter().map(|key| self.press(key)).last()
    }

    /// Runs frame by frame until a frame ends with the calculator waiting
    /// for a key, then [`SETTLE_FRAMES`] more. Returns the frames run
    /// before it waited, and whether it did.
    fn settle(&mut self, run_limit: u32, observe: &mut impl FnMut(&Machine, u32)) -> (u32, bool) {
        let mut frames = 0;
        loop {
            let idle = self.machine.run_frame_ends_idle(observe);
            frames += 1;
            if idle {
                break;
            }
            if frames >= run_limit {
                return (frames, false);
            }
        }
        self.machine.run_frames(SETTLE_FRAMES, observe);
        (frames, true)
    }

    /// What register `register` (0-14 for 0-e; 0-13 on the MK-54) holds,
    /// as П→X would show it, read on a copy of the calculator so that this
    /// one is untouched. `None` in programming mode (where П→X would record
    /// a step) and for a register the model lacks.
    pub fn peek_register(&self, register: u8) -> Option<Display> {
        if self.display().program_view().is_some() || register >= self.model().registers() {
            return None;
        }
        let mut copy = self.clone();
        copy.press(Key::Recall);
        Some(copy.press(crate::opcode::register_key(register)?).display)
    }

    /// The stack X, Y, Z, T, X1 read straight from the memory ring (no
    /// keys pressed). Valid as [`Calculator::press`] leaves the
    /// calculator (whole frames from power-on); not after
    /// [`Calculator::run_macro_steps`] or [`Calculator::canonical_idle`].
    pub fn stack(&self) -> Stack {
        Stack::read(&self.machine, 0)
    }

    /// Program memory, every step of the model: on the MK-61 read
    /// straight from the ring (no keys pressed, so nothing changes); on the
    /// MK-54, whose page layout the sources do not give, read with the keys
    /// on a copy (empty if the copy cannot be read: a program running).
    pub fn program_memory(&self) -> Vec<u8> {
        let steps = self.model().program_steps();
        match self.model() {
            Model::Mk61 => (0..steps)
                .map(|step| self.machine.program_byte(step))
                .collect(),
            Model::Mk54 => self.clone().read_program(steps).unwrap_or_default(),
        }
    }

    /// Writes program memory straight into the ring of an MK-61, from
    /// address 00 on: not what a person can do, but the way to load codes
    /// that cannot be keyed (such as 1F or 5F). The calculator must be
    /// waiting for a key. On the MK-54 nothing is written (false).
    pub fn load_program_memory(&mut self, bytes: &[u8]) -> bool {
        if self.model() != Model::Mk61 {
            return false;
        }
        for (step, &code) in bytes.iter().take(self.model().program_steps()).enumerate() {
            self.machine.set_program_byte(step, code);
        }
        true
    }

    /// The same calculator as it would stand had the person waited a
    /// little longer before the next key: the least (in a fixed order) of
    /// the 30 states the idle machine cycles through as its ring turns.
    /// Two calculators that differ only in how far the idle ring has turned
    /// get the same value. `None` unless the calculator is idle (waiting,
    /// no key held, repeating every 30 macro-steps).
    ///
    /// This is for graph searches over games, not for replaying traces:
    /// the traces press each key at a fixed time after the last, and
    /// `press` keeps that timing. See docs/guide/src/reference/mk61-keys.md for why the choice of
    /// phase does not change what the programs answer.
    pub fn canonical_idle(&self) -> Option<Calculator> {
        if !self.machine.is_waiting() {
            return None;
        }
        let mut least = self.clone();
        let mut turning = self.clone();
        for _ in 1..self.model().period() {
            turning.machine.macro_step();
            if turning < least {
                least = turning.clone();
            }
        }
        turning.machine.macro_step();
        (turning == *self).then_some(least)
    }

    /// The calculator packed: every nibble of the machine, two to a byte.
    pub fn pack(&self) -> PackedCalculator {
        PackedCalculator(self.machine.pack())
    }

    /// Macro-steps: the raw clock, for benchmarks and tests.
    pub fn run_macro_steps(&mut self, steps: u32) {
        for _ in 0..steps {
            self.machine.macro_step();
        }
    }
}

/// A program that did not go in as keyed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error(transparent)]
    Program(#[from] ProgramError),
    #[error("step {address}: keyed {expected:02X}, read back {found:02X}")]
    ReadBack {
        address: String,
        expected: u8,
        found: u8,
    },
    #[error("the display {0:?} is not the programming-mode display")]
    NotProgramMode(String),
    #[error("step {step}: the {model} holds steps 00-{last}")]
    TooLong {
        step: String,
        model: Model,
        last: String,
    },
}

impl Calculator {
    /// Keys the program in as a person would (В/О, F ПРГ, the steps,
    /// F АВТ), then reads it back step by step and checks every code.
    pub fn enter_program(&mut self, program: &Program) -> Result<(), EntryError> {
        let steps = self.model().program_steps();
        if program.bytes().len() > steps {
            return Err(EntryError::TooLong {
                step: address_label(steps),
                model: self.model(),
                last: address_label(steps - 1),
            });
        }
        for key in program.entry_keys()? {
            self.press(key);
        }
        let read = self.read_program(program.bytes().len())?;
        for (address, (&expected, &found)) in program.bytes().iter().zip(&read).enumerate() {
            if expected != found {
                return Err(EntryError::ReadBack {
                    address: address_label(address),
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// Reads `steps` program steps from address 00 in programming mode
    /// (В/О, F ПРГ, then ШГ→ once a step; the display shows the code
    /// behind the counter), and returns to automatic mode with F АВТ.
    pub fn read_program(&mut self, steps: usize) -> Result<Vec<u8>, EntryError> {
        self.press_all([Key::Return, Key::F, Key::Exponent]);
        let mut codes = Vec::with_capacity(steps);
        for _ in 0..steps {
            let display = self.press(Key::StepForward).display;
            let view = display
                .program_view()
                .ok_or_else(|| EntryError::NotProgramMode(display.to_string()))?;
            codes.push(view.codes[0]);
        }
        self.press_all([Key::F, Key::Negate]);
        Ok(codes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packing keeps every nibble: at rest, with a key held, and with a
    /// program running (the rook program started with its presets).
    #[test]
    fn packed_calculators_unpack_to_themselves() {
        let mut calculator = Calculator::new(AngleUnit::Degrees);
        calculator.enter_program(&Program::rook()).unwrap();
        calculator.press_all(Key::sequence(crate::program::ROOK_PRESETS).unwrap());
        let mut states = vec![calculator.clone()];
        calculator.press(Key::Return);
        calculator.machine.hold(Some(Key::RunStop));
        calculator.run_macro_steps(700);
        states.push(calculator.clone());
        calculator.machine.hold(None);
        for _ in 0..5 {
            calculator.run_macro_steps(997);
            states.push(calculator.clone());
        }
        for state in states {
            let packed = state.pack();
            assert!(packed.len() < 470, "{}", packed.len());
            assert_eq!(packed.unpack(), state);
        }
    }
}
