//! The 256 program codes of the MK-61: mnemonic, length, and the keys that
//! enter each in programming mode (data/opcodes.tsv).

use std::sync::LazyLock;

use crate::key::Key;

/// One program code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opcode {
    pub code: u8,
    /// The mnemonic as the manual prints it (`П→X2`, `Кx≥0e`); `-` for
    /// codes without a name.
    pub mnemonic: &'static str,
    /// The key presses that enter the code, `None` if it cannot be keyed.
    pub keys: Option<Vec<Key>>,
    /// 2 for jumps and branches (an address byte follows), else 1.
    pub length: u8,
}

static OPCODES: LazyLock<Vec<Opcode>> = LazyLock::new(|| {
    include_str!("../data/opcodes.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let keys = (!fields[2].starts_with('(')).then(|| {
                fields[2]
                    .split_whitespace()
                    .map(|name| {
                        // `ШГ→(x<0)` names the key ШГ→.
                        let name = name.split('(').next().unwrap_or(name);
                        name.parse().expect("opcode table names real keys")
                    })
                    .collect()
            });
            Opcode {
                code: u8::from_str_radix(fields[0], 16).expect("hex code"),
                mnemonic: fields[1],
                keys,
                length: fields[3].parse().expect("length"),
            }
        })
        .collect()
});

impl Opcode {
    /// The table entry of `code`.
    pub fn get(code: u8) -> &'static Opcode {
        &OPCODES[usize::from(code)]
    }

    /// All 256 codes in order.
    pub fn all() -> &'static [Opcode] {
        &OPCODES
    }
}

/// The key for a register name 0-9, a-e (the letters sit on `.`, `/-/`,
/// `ВП`, `Cx`, `В↑`).
pub fn register_key(register: u8) -> Option<Key> {
    Some(match register {
        0..=9 => Key::Digit(register),
        0xA => Key::Point,
        0xB => Key::Negate,
        0xC => Key::Exponent,
        0xD => Key::Clear,
        0xE => Key::Enter,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_complete_and_ordered() {
        assert_eq!(Opcode::all().len(), 256);
        for (index, opcode) in Opcode::all().iter().enumerate() {
            assert_eq!(usize::from(opcode.code), index);
        }
        assert_eq!(Opcode::get(0x6A).mnemonic, "П→Xa");
        assert_eq!(Opcode::get(0x6A).keys, Some(vec![Key::Recall, Key::Point]));
        assert_eq!(Opcode::get(0x51).length, 2);
        assert_eq!(Opcode::get(0x5F).keys, None);
    }

    #[test]
    fn registers_are_keyed_like_the_table() {
        for register in 0..15 {
            let keys = Opcode::get(0x60 | register).keys.clone().unwrap();
            assert_eq!(keys, vec![Key::Recall, register_key(register).unwrap()]);
        }
    }
}
