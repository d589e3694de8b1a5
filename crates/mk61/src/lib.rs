//! An exact emulation of the Электроника МК-61 programmable calculator at
//! the level of its microcode: the three К745ИК13 controllers and the two
//! К745ИР2 memories in their ring, run macro-step by macro-step from the
//! chips' ROM tables. On top: the keyboard, the Р-ГРД-Г switch and the
//! indicator; a key-press driver; a listing reader; the two chess programs
//! of 1987 and their register presets (played by ajedrecista-automata).
//!
//! The calculator from power-on: 2 В↑ 3 + shows 5.
//!
//! ```
//! use ajedrecista_mk61::{AngleUnit, Calculator, Key};
//!
//! let mut calculator = Calculator::new(AngleUnit::Radians);
//! let press = calculator.press_all(Key::sequence("2 UP 3 +").unwrap()).unwrap();
//! assert!(press.stopped);
//! assert_eq!(press.display.to_string().trim(), "5.");
//! ```

mod calculator;
mod controller;
mod display;
mod key;
mod listing;
mod machine;
mod memory;
mod micro;
mod model;
mod name;
mod opcode;
mod program;
mod rom;
mod trace;

pub use calculator::{
    Calculator, DEFAULT_RUN_LIMIT, EntryError, HOLD_FRAMES, PackedCalculator, Press,
    RUN_THRESHOLD_FRAMES, SETTLE_FRAMES,
};
pub use display::{Display, DisplayParseError, Glyph, ProgramView};
pub use key::{AngleUnit, Key};
pub use listing::{ListingError, code_of, read_listing, read_listing_for};
pub use model::Model;
pub use name::UnknownName;
pub use opcode::{Opcode, register_key};
pub use program::{
    PROGRAM_STEPS, Program, ProgramError, QUEEN_PRESETS, ROOK_PRESETS, address_label,
};
pub use trace::{Number, Stack, Step};
