//! The ROM tables of the three К745ИК13 controllers, compiled into the
//! binary from `data/rom/` (see `data/PROVENANCE.md`); the
//! micro-instruction ROMs come through build.rs (module `micro`).

use std::sync::LazyLock;

use crate::controller::ChipTables;
use crate::micro;

/// Number of micro-instructions in a controller's micro-instruction ROM.
pub(crate) const MICRO_WORDS: usize = 68;
/// Number of synchro programs, each of nine micro-instruction addresses.
pub(crate) const SYNC_PROGRAMS: usize = 128;

/// The three tables of one controller.
#[derive(Debug)]
pub(crate) struct ChipRom {
    /// Micro-instructions (28 significant bits).
    pub micro: [u32; MICRO_WORDS],
    /// Synchro programs: nine 6-bit micro-instruction addresses each.
    pub sync: [[u8; 9]; SYNC_PROGRAMS],
    /// Commands, indexed by the chip's 8-bit command address.
    pub command: [u32; 256],
}

/// Hex words of a table file, skipping `#` comment lines.
fn words(text: &str) -> impl Iterator<Item = u32> + '_ {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(str::split_whitespace)
        .map(|word| u32::from_str_radix(word, 16).expect("ROM tables are hex"))
}

impl ChipRom {
    /// Parses the three tables; their shape is fixed, so a bad table is a
    /// build defect and panics (checked by the crate's tests).
    fn parse(micro: [u32; MICRO_WORDS], sync: &str, command: &str) -> ChipRom {
        let sync: Vec<u32> = words(sync).collect();
        let command: Vec<u32> = words(command).collect();
        ChipRom {
            micro,
            sync: std::array::from_fn(|p| std::array::from_fn(|k| sync[9 * p + k] as u8)),
            command: command.try_into().expect("256 commands"),
        }
    }
}

macro_rules! chip_rom {
    ($name:literal, $micro:expr) => {
        LazyLock::new(|| {
            ChipRom::parse(
                $micro,
                include_str!(concat!("../data/rom/", $name, "_sync.txt")),
                include_str!(concat!("../data/rom/", $name, "_cmd.txt")),
            )
        })
    };
}

pub(crate) static IK1302: LazyLock<ChipRom> = chip_rom!("ik1302", micro::MICRO_IK1302);
pub(crate) static IK1303: LazyLock<ChipRom> = chip_rom!("ik1303", micro::MICRO_IK1303);
pub(crate) static IK1306: LazyLock<ChipRom> = chip_rom!("ik1306", micro::MICRO_IK1306);

/// The three controllers' tables, unfolded for the emulator.
pub(crate) static TABLES: LazyLock<[ChipTables; 3]> = LazyLock::new(|| {
    [
        ChipTables::new(&IK1302),
        ChipTables::new(&IK1303),
        ChipTables::new(&IK1306),
    ]
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_their_shape() {
        for rom in [&*IK1302, &*IK1303, &*IK1306] {
            assert!(rom.micro.iter().all(|&w| w < 1 << 28));
            assert!(rom.sync.iter().flatten().all(|&a| a < 64));
            assert_eq!(rom.micro[0], 0);
        }
        assert_eq!(IK1302.command[1], 0x0011_7360);
    }
}
