//! A keys file as `mk61 keys` reads it: whitespace-separated key and switch
//! tokens, `#` comments, pressed in turn on a calculator (each press with a
//! short run limit, so that a program that runs forever costs little).
#![no_main]

use std::sync::LazyLock;

use ajedrecista_mk61::{AngleUnit, Calculator, Key};
use libfuzzer_sys::fuzz_target;

/// Keys pressed at most per input; frames a running program may take per
/// key. Each frame is a whole microcode cycle of the ring (about 0.1 ms),
/// so these bound the cost of an input to a few milliseconds.
const MAX_KEYS: usize = 16;
const RUN_LIMIT: u32 = 50;

/// A calculator after power-on (which runs until it settles): cloned for
/// each input rather than powered on again.
static POWERED_ON: LazyLock<Calculator> = LazyLock::new(|| Calculator::new(AngleUnit::Radians));

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut calculator = POWERED_ON.clone();
    let words = text.lines().flat_map(|line| {
        line.split('#')
            .next()
            .unwrap_or_default()
            .split_whitespace()
    });
    for word in words.take(MAX_KEYS) {
        if let Ok(key) = word.parse::<Key>() {
            let press = calculator.press_with_limit(key, RUN_LIMIT);
            let _ = press.display.to_string();
        } else if let Ok(unit) = word.parse::<AngleUnit>() {
            calculator.set_switch(unit);
        } else {
            return;
        }
    }
});
