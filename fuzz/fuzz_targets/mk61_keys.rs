//! A keys file as `mk61 keys` reads it: whitespace-separated key and switch
//! tokens, `#` comments. Every token is parsed, as the command parses the
//! whole file before it presses anything (a file with an unknown token is
//! refused); then only the first few keys are pressed on a calculator, each
//! with a short run limit. The parser is the untrusted part and sees every
//! byte; the emulator runs a few frames of microcode a key (some 40 µs a
//! frame here), which would otherwise be almost all of the cost.
#![no_main]

use std::sync::LazyLock;

use ajedrecista_mk61::{AngleUnit, Calculator, Key};
use libfuzzer_sys::fuzz_target;

/// Keys pressed at most per input; frames a running program may take per
/// key (a press also holds the key two frames and settles four).
const MAX_KEYS: usize = 4;
const RUN_LIMIT: u32 = 16;

/// A calculator after power-on (which runs until it settles): cloned for
/// each input rather than powered on again.
static POWERED_ON: LazyLock<Calculator> = LazyLock::new(|| Calculator::new(AngleUnit::Radians));

enum Token {
    Key(Key),
    Switch(AngleUnit),
}

// Bytes that are not UTF-8 end the text (libFuzzer's `&str` input).
fuzz_target!(|text: &str| {
    let mut tokens = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default();
        for word in line.split_whitespace() {
            if let Ok(key) = word.parse::<Key>() {
                tokens.push(Token::Key(key));
            } else if let Ok(unit) = word.parse::<AngleUnit>() {
                tokens.push(Token::Switch(unit));
            } else {
                return;
            }
        }
    }
    let mut calculator = POWERED_ON.clone();
    let mut pressed = 0;
    for token in &tokens {
        match *token {
            Token::Switch(unit) => calculator.set_switch(unit),
            Token::Key(_) if pressed == MAX_KEYS => break,
            Token::Key(key) => {
                let press = calculator.press_with_limit(key, RUN_LIMIT);
                let _ = press.display.to_string();
                pressed += 1;
            }
        }
    }
});
