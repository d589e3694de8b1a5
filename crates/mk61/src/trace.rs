//! A program run step by step: the address, the code and the stack after
//! each executed program step, for people debugging their own listings.
//!
//! Nothing here changes what the machine does; the trace watches ИК1302
//! between macro-steps. Two moments of ИК1302's run loop mark a step
//! (found by watching the command addresses while known programs ran; the
//! test `tests/trace.rs` checks them): its display command (address 01)
//! entered from command 66, when R[31], R[34] hold the address of the
//! step being fetched, and the same display command entered from command
//! 05, after the fetch, when the steps before it have been carried out
//! (ИК1303 finishes a step's arithmetic while ИК1302 fetches the next
//! one). The display command runs at other moments too, with other bytes
//! in R[31], R[34]: those are not steps. A two-byte step's address byte
//! is fetched the same way and is not a step of its own.

use std::fmt;

use crate::machine::Machine;
use crate::opcode::Opcode;

/// ИК1302's display command, run once as each program step is fetched
/// and once after.
const STEP_DISPLAY: usize = 0x01;
/// The command before [`STEP_DISPLAY`] when the step address is shown.
const BEFORE_FETCH: usize = 0x66;
/// The command before [`STEP_DISPLAY`] once the step is fetched.
const AFTER_FETCH: usize = 0x05;

/// A step address from its byte: two decimal digits, A0-A4 for 100-104.
fn address(byte: u8) -> usize {
    usize::from(byte >> 4) * 10 + usize::from(byte & 0xF)
}

/// A number as the calculator stores it: 8 mantissa digits, the
/// mantissa's sign, 3 exponent digits (tens' complement: 998 is -2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Number {
    /// Low digit first, as in ИК1302's R: digits 0-7 (7 the first), the
    /// mantissa sign (9 negative), exponent units, tens, hundreds.
    nibbles: [u8; 12],
}

impl Number {
    pub(crate) fn new(nibbles: [u8; 12]) -> Number {
        Number { nibbles }
    }

    /// The mantissa's digits, first digit first; `None` if a nibble is
    /// not a decimal digit (as in ЕГГОГ states the program left).
    fn digits(&self) -> Option<[u8; 8]> {
        let digits: [u8; 8] = std::array::from_fn(|k| self.nibbles[7 - k]);
        digits.iter().all(|&digit| digit <= 9).then_some(digits)
    }

    /// The decimal exponent.
    fn exponent(&self) -> Option<i32> {
        let [units, tens, hundreds] = [self.nibbles[9], self.nibbles[10], self.nibbles[11]];
        if units > 9 || tens > 9 || hundreds > 9 {
            return None;
        }
        let value = i32::from(hundreds) * 100 + i32::from(tens) * 10 + i32::from(units);
        Some(if value >= 500 { value - 1000 } else { value })
    }

    fn negative(&self) -> bool {
        self.nibbles[8] == 9
    }
}

/// Plain decimal for exponents -7 to 7 (`91`, `-0.05`, `7.3890557`),
/// else mantissa and exponent (`1.5e-12`); the raw nibbles in brackets,
/// high first, if they are not a decimal number.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (Some(digits), Some(exponent)) = (self.digits(), self.exponent()) else {
            let raw: String = self
                .nibbles
                .iter()
                .rev()
                .map(|&nibble| char::from_digit(u32::from(nibble), 16).unwrap_or('?'))
                .collect();
            return write!(f, "[{raw}]");
        };
        let sign = if self.negative() { "-" } else { "" };
        let text: String = digits
            .iter()
            .map(|&digit| char::from(b'0' + digit))
            .collect();
        if digits.iter().all(|&digit| digit == 0) {
            return match exponent {
                0 => write!(f, "{sign}0"),
                _ => write!(f, "{sign}0e{exponent}"),
            };
        }
        let (whole, fraction) = match exponent {
            0..=7 => {
                let split = exponent as usize + 1;
                (text[..split].to_owned(), text[split..].to_owned())
            }
            -7..=-1 => ("0".to_owned(), "0".repeat((-exponent - 1) as usize) + &text),
            _ => {
                let fraction = text[1..].trim_end_matches('0');
                let point = if fraction.is_empty() { "" } else { "." };
                return write!(f, "{sign}{}{point}{fraction}e{exponent}", &text[..1]);
            }
        };
        let fraction = fraction.trim_end_matches('0');
        match fraction {
            "" => write!(f, "{sign}{whole}"),
            _ => write!(f, "{sign}{whole}.{fraction}"),
        }
    }
}

/// The stack: X, Y, Z, T, and X1 (the X before the last operation, F Вx).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    pub x: Number,
    pub y: Number,
    pub z: Number,
    pub t: Number,
    pub x1: Number,
}

impl Stack {
    pub(crate) fn read(machine: &Machine, since_readout: u32) -> Stack {
        let [x1, x, y, z, t] = machine.stack(since_readout).map(Number::new);
        Stack { x, y, z, t, x1 }
    }
}

/// One executed program step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The step's address as the counter holds it: 0..104 (100 is A0);
    /// past the last step it runs on (105 is A5) over the cells from 00.
    pub address: usize,
    /// The code at that address, `None` where program memory could not
    /// be read.
    pub code: Option<u8>,
    /// The stack after the step (for the last step of a run, after the
    /// run).
    pub stack: Stack,
}

impl Step {
    /// The code's mnemonic (data/opcodes.tsv), `?` if the code is unknown.
    pub fn mnemonic(&self) -> &'static str {
        self.code.map_or("?", |code| Opcode::get(code).mnemonic)
    }
}

/// A step fetched, its stack not yet known.
#[derive(Clone, Copy)]
struct Fetched {
    address: usize,
    code: Option<u8>,
}

/// Watches the machine macro-step by macro-step and reports each step.
pub(crate) struct StepTracer<'a> {
    /// Program memory, read when the first step is seen.
    program: Option<Vec<u8>>,
    read_program: &'a dyn Fn() -> Vec<u8>,
    on_step: &'a mut dyn FnMut(&Step),
    previous_command: usize,
    /// The step fetched last (a two-byte step's address byte aside).
    current: Option<Fetched>,
    /// The step before it, to be reported once `current` is fetched.
    finishing: Option<Fetched>,
    /// That step once `current` is fetched: reported as soon as ИК1303
    /// (and ИК1306) have finished its arithmetic.
    settling: Option<Fetched>,
}

impl<'a> StepTracer<'a> {
    pub(crate) fn new(
        read_program: &'a dyn Fn() -> Vec<u8>,
        on_step: &'a mut dyn FnMut(&Step),
    ) -> StepTracer<'a> {
        StepTracer {
            program: None,
            read_program,
            on_step,
            previous_command: 0,
            current: None,
            finishing: None,
            settling: None,
        }
    }

    /// Sees the machine before a macro-step; `since_readout` as in
    /// `Machine::stack`.
    pub(crate) fn observe(&mut self, machine: &Machine, since_readout: u32) {
        let command = machine.ik1302_command_address();
        let previous = std::mem::replace(&mut self.previous_command, command);
        if command == STEP_DISPLAY && previous == BEFORE_FETCH {
            self.fetch(machine, since_readout);
        }
        if command == STEP_DISPLAY && previous == AFTER_FETCH {
            self.settling = self.finishing.take();
        }
        if machine.arithmetic_waits()
            && let Some(done) = self.settling.take()
        {
            self.report(done, Stack::read(machine, since_readout));
        }
    }

    fn fetch(&mut self, machine: &Machine, since_readout: u32) {
        let address = address(machine.ik1302_step_byte());
        // A step still waiting for its stack at the next fetch (not seen in
        // the tests) is reported with the stack as it stands.
        for waiting in [self.settling.take(), self.finishing.take()]
            .into_iter()
            .flatten()
        {
            self.report(waiting, Stack::read(machine, since_readout));
        }
        if let Some(Fetched {
            address: last,
            code: Some(code),
        }) = self.current
            && Opcode::get(code).length == 2
            && address == last + 1
        {
            // The address byte of a two-byte step.
            return;
        }
        let program = self.program.get_or_insert_with(self.read_program);
        // Past the last step the counter runs on (A5 ...) over the cells
        // from 00 again (tested with the seed programs, which run into A5).
        let code = (!program.is_empty()).then(|| program[address % program.len()]);
        self.finishing = self.current.replace(Fetched { address, code });
    }

    fn report(&mut self, fetched: Fetched, stack: Stack) {
        (self.on_step)(&Step {
            address: fetched.address,
            code: fetched.code,
            stack,
        });
    }

    /// The run is over: the steps not yet reported get the stack as it
    /// stands.
    pub(crate) fn finish(mut self, machine: &Machine, since_readout: u32) {
        let stack = Stack::read(machine, since_readout);
        for fetched in [
            self.settling.take(),
            self.finishing.take(),
            self.current.take(),
        ]
        .into_iter()
        .flatten()
        {
            self.report(fetched, stack);
        }
    }
}
