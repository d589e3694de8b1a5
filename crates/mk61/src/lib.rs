//! An exact emulation of the Электроника МК-61 programmable calculator at
//! the level of its microcode.

mod calculator;
mod controller;
mod display;
mod key;
mod machine;
mod memory;
mod rom;

pub use calculator::{
    Calculator, DEFAULT_RUN_LIMIT, HOLD_FRAMES, Press, RUN_THRESHOLD_FRAMES, SETTLE_FRAMES,
};
pub use display::{Display, DisplayParseError, Glyph};
pub use key::{AngleUnit, Key, UnknownKey};
