//! The ROM tables of the three К745ИК13 controllers, compiled into the
//! binary from `data/rom/` (see `data/PROVENANCE.md`) by build.rs: the
//! command ROMs as tables, and the synchro and micro-instruction ROMs
//! unfolded into one function per command (module `micro`).

use crate::controller::CommandStep;
use crate::micro;

/// One controller's ROMs as the emulator uses them.
pub(crate) struct Chip {
    /// Commands, indexed by the chip's 8-bit command address.
    pub commands: &'static [u32; 256],
    /// The macro-step of each command.
    pub run: &'static [CommandStep; 256],
}

pub(crate) static IK1302: Chip = Chip {
    commands: &micro::COMMANDS_IK1302,
    run: &micro::RUN_IK1302,
};
pub(crate) static IK1303: Chip = Chip {
    commands: &micro::COMMANDS_IK1303,
    run: &micro::RUN_IK1303,
};
pub(crate) static IK1306: Chip = Chip {
    commands: &micro::COMMANDS_IK1306,
    run: &micro::RUN_IK1306,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_tables_are_the_data_files() {
        // Index 1 of ИК1302: the display command the README names.
        assert_eq!(IK1302.commands[1], 0x0011_7360);
        assert_eq!(IK1303.commands.len(), 256);
        assert_eq!(IK1306.run.len(), 256);
    }
}
