//! Programs as program-memory bytes, and how a person keys them in.

use crate::key::Key;
use crate::opcode::Opcode;

/// Program memory: addresses 00..A4.
pub const PROGRAM_STEPS: usize = 105;

/// A program: the bytes from address 00 on (at most [`PROGRAM_STEPS`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    bytes: Vec<u8>,
}

/// A program that cannot be keyed in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("program has {0} steps, the MK-61 holds {PROGRAM_STEPS}")]
    TooLong(usize),
    #[error("step {address}: code {code:02X} cannot be entered from the keyboard")]
    NotKeyable { address: String, code: u8 },
}

/// The address as the calculator shows it: 00..99, then A0..A4.
pub fn address_label(address: usize) -> String {
    if address < 100 {
        format!("{address:02}")
    } else {
        format!("A{}", address - 100)
    }
}

impl Program {
    pub fn new(bytes: Vec<u8>) -> Result<Program, ProgramError> {
        if bytes.len() > PROGRAM_STEPS {
            return Err(ProgramError::TooLong(bytes.len()));
        }
        Ok(Program { bytes })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The keys that enter the program from power-on or any stopped state:
    /// В/О, F ПРГ, each step's keys (an address byte as its two digits),
    /// F АВТ. The same sequence as the reference traces.
    pub fn entry_keys(&self) -> Result<Vec<Key>, ProgramError> {
        let mut keys = vec![Key::Return, Key::F, Key::Exponent];
        let mut operand_next = false;
        for (address, &code) in self.bytes.iter().enumerate() {
            if operand_next {
                keys.extend(operand_keys(code).ok_or(ProgramError::NotKeyable {
                    address: address_label(address),
                    code,
                })?);
                operand_next = false;
                continue;
            }
            let opcode = Opcode::get(code);
            let step_keys = opcode.keys.as_ref().ok_or(ProgramError::NotKeyable {
                address: address_label(address),
                code,
            })?;
            keys.extend(step_keys);
            operand_next = opcode.length == 2;
        }
        keys.extend([Key::F, Key::Negate]);
        Ok(keys)
    }

    /// A listing in the layout of `data/programs/*.hex`: one step a line,
    /// address, code, mnemonic.
    pub fn to_listing(&self) -> String {
        let mut text = String::new();
        let mut operand_next = false;
        for (address, &code) in self.bytes.iter().enumerate() {
            let name = if operand_next {
                format!("(address {})", address_text(code))
            } else {
                Opcode::get(code).mnemonic.to_owned()
            };
            operand_next = !operand_next && Opcode::get(code).length == 2;
            text += &format!("{} {code:02X} {name}\n", address_label(address));
        }
        text
    }
}

/// An address byte as its two keyed digits. Only decimal nibbles are
/// accepted: neither seed program jumps directly to A0..A4, and how the
/// keyboard would enter such an address is not in the sources.
fn operand_keys(code: u8) -> Option<[Key; 2]> {
    let (high, low) = (code >> 4, code & 0xF);
    (high <= 9 && low <= 9).then_some([Key::Digit(high), Key::Digit(low)])
}

/// An address byte as printed: two hex digits (`93`, `A0`).
fn address_text(code: u8) -> String {
    format!("{code:02X}")
}

/// Register presets of the queen program (seed 000): R0 = ЗГГОГ, R7 = 64,
/// R8 = 66, R9 = 90, Ra = 0, Rb = 4; keys as in the reference traces.
pub const QUEEN_PRESETS: &str =
    "CX / VP UP UP F . F . F . XP 0 6 4 XP 7 6 6 XP 8 9 0 XP 9 CX XP . 4 XP NEG";
/// Register presets of the rook program (seed 001): R7 = 36, R8 = 3,
/// R9 = 9------0., Ra = 10, Re = 98; keys as in the reference traces.
pub const ROOK_PRESETS: &str =
    "3 6 XP 7 3 XP 8 6 6 5 5 5 5 5 5 K CX K 8 VP 8 XP 9 1 0 XP . 9 8 XP UP";

impl Program {
    /// The queen program of seed 000 (data/programs/queen.hex).
    pub fn queen() -> Program {
        crate::listing::read_listing(include_str!("../data/programs/queen.hex"))
            .expect("built-in listing")
    }

    /// The rook program of seed 001 (data/programs/rook.hex).
    pub fn rook() -> Program {
        crate::listing::read_listing(include_str!("../data/programs/rook.hex"))
            .expect("built-in listing")
    }
}
