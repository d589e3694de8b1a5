//! The keyboard and the Р-ГРД-Г switch.

use std::fmt;
use std::str::FromStr;

use crate::name::UnknownName;

/// One of the 30 keys of the MK-61.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Digit(u8),
    Plus,
    Minus,
    Times,
    Divide,
    Swap,
    Point,
    Negate,
    Exponent,
    Clear,
    Enter,
    RunStop,
    Goto,
    Return,
    Call,
    Store,
    StepForward,
    Recall,
    StepBack,
    K,
    F,
}

/// Every key with its trace token, its Russian label and its matrix code
/// (strobe << 4 | line).
const KEYS: [(Key, &str, &str, u8); 30] = [
    (Key::Digit(0), "0", "0", 0x21),
    (Key::Digit(1), "1", "1", 0x31),
    (Key::Digit(2), "2", "2", 0x41),
    (Key::Digit(3), "3", "3", 0x51),
    (Key::Digit(4), "4", "4", 0x61),
    (Key::Digit(5), "5", "5", 0x71),
    (Key::Digit(6), "6", "6", 0x81),
    (Key::Digit(7), "7", "7", 0x91),
    (Key::Digit(8), "8", "8", 0xA1),
    (Key::Digit(9), "9", "9", 0xB1),
    (Key::Plus, "+", "+", 0x28),
    (Key::Minus, "-", "−", 0x38),
    (Key::Times, "*", "×", 0x48),
    (Key::Divide, "/", "÷", 0x58),
    (Key::Swap, "XY", "↔", 0x68),
    (Key::Point, ".", ".", 0x78),
    (Key::Negate, "NEG", "/-/", 0x88),
    (Key::Exponent, "VP", "ВП", 0x98),
    (Key::Clear, "CX", "Cx", 0xA8),
    (Key::Enter, "UP", "В↑", 0xB8),
    (Key::RunStop, "SP", "С/П", 0x29),
    (Key::Goto, "BP", "БП", 0x39),
    (Key::Return, "VO", "В/О", 0x49),
    (Key::Call, "PP", "ПП", 0x59),
    (Key::Store, "XP", "X→П", 0x69),
    (Key::StepForward, "SHR", "ШГ→", 0x79),
    (Key::Recall, "PX", "П→X", 0x89),
    (Key::StepBack, "SHL", "←ШГ", 0x99),
    (Key::K, "K", "K", 0xA9),
    (Key::F, "F", "F", 0xB9),
];

impl Key {
    /// Every key, digits first, in the order of the matrix table.
    pub fn all() -> impl Iterator<Item = Key> {
        KEYS.iter().map(|&(key, ..)| key)
    }

    fn entry(self) -> &'static (Key, &'static str, &'static str, u8) {
        KEYS.iter()
            .find(|(key, ..)| *key == self)
            .expect("every key is in the table")
    }

    /// The token of the traces (`SP`, `XP`, `7`, ...).
    pub fn token(self) -> &'static str {
        self.entry().1
    }

    /// The label printed on the calculator (`С/П`, `X→П`, `7`, ...).
    pub fn label(self) -> &'static str {
        self.entry().2
    }

    /// The keys of a line of names separated by white space (trace tokens
    /// or labels, as [`Key::from_str`] reads them): `"2 UP 3 SP"`.
    pub fn sequence(names: &str) -> Result<Vec<Key>, UnknownName> {
        names.split_whitespace().map(str::parse).collect()
    }

    /// The strobe (digit time, 2..11) and line (1, 8 or 9) that close
    /// when the key is held.
    pub(crate) fn matrix(self) -> (u8, u8) {
        let code = self.entry().3;
        (code >> 4, code & 0xF)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

impl FromStr for Key {
    type Err = UnknownName;

    /// Accepts the trace tokens (any case), the Russian labels, and a few
    /// ASCII spellings of the labels (`C/P`, `X->P`, `<->`).
    fn from_str(text: &str) -> Result<Key, UnknownName> {
        let upper = text.to_uppercase();
        let alias = match upper.as_str() {
            "С/П" | "C/P" | "S/P" => Some(Key::RunStop),
            "X->П" | "X->P" | "X→P" | "Х→П" => Some(Key::Store),
            "П->X" | "P->X" | "P→X" | "П→Х" => Some(Key::Recall),
            "<->" | "XY" | "X<->Y" | "↔" => Some(Key::Swap),
            "В^" | "В↑" | "B↑" | "ENTER" => Some(Key::Enter),
            "СX" | "CX" | "СХ" => Some(Key::Clear),
            "×" => Some(Key::Times),
            "÷" | ":" => Some(Key::Divide),
            "−" => Some(Key::Minus),
            "К" => Some(Key::K),
            _ => None,
        };
        alias
            .or_else(|| {
                KEYS.iter()
                    .find(|(_, token, label, _)| *token == upper || *label == upper)
                    .map(|&(key, ..)| key)
            })
            .ok_or_else(|| UnknownName::new("key", text, ""))
    }
}

/// The Р-ГРД-Г switch: the unit of angles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AngleUnit {
    /// Р: radians.
    Radians,
    /// ГРД: grads.
    Grads,
    /// Г: degrees.
    Degrees,
}

impl AngleUnit {
    /// The strobe at which ИК1303 sees the switch (on line 1).
    pub(crate) fn strobe(self) -> u8 {
        match self {
            AngleUnit::Radians => 10,
            AngleUnit::Degrees => 11,
            AngleUnit::Grads => 12,
        }
    }

    /// The trace token that sets the switch.
    pub fn token(self) -> &'static str {
        match self {
            AngleUnit::Radians => "RAD",
            AngleUnit::Grads => "GRD",
            AngleUnit::Degrees => "DEG",
        }
    }
}

impl FromStr for AngleUnit {
    type Err = UnknownName;

    /// `RAD`, `GRD`, `DEG` (any case), or the labels Р, ГРД, Г.
    fn from_str(text: &str) -> Result<AngleUnit, UnknownName> {
        match text.to_uppercase().as_str() {
            "RAD" | "Р" => Ok(AngleUnit::Radians),
            "GRD" | "ГРД" => Ok(AngleUnit::Grads),
            "DEG" | "Г" => Ok(AngleUnit::Degrees),
            _ => Err(UnknownName::new(
                "switch position",
                text,
                " (RAD, GRD or DEG)",
            )),
        }
    }
}
