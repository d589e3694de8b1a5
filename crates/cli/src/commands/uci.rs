//! `ajedrecista uci`: the automata as a UCI engine, so that chess GUIs and
//! libraries can play against them. The engine is the automata crate's
//! `UciEngine`; this reads stdin into it and prints what it says.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use ajedrecista_automata::UciEngine;
use ajedrecista_automata::app::NOT_UTF8;

use crate::tables_args::TablesArgs;

/// A UCI engine on stdin and stdout; White is played by the automaton set
/// with the Strategy option.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut engine = UciEngine::new(Arc::new(args.tables.open()));
    let stdin = io::stdin();
    let mut out = crate::output::stdout_lock();
    for bytes in stdin.lock().split(b'\n') {
        let answer = match String::from_utf8(bytes?) {
            Ok(line) => engine.command(line.trim_end_matches('\r')),
            Err(_) => ajedrecista_automata::UciAnswer {
                lines: vec![NOT_UTF8.to_string()],
                quit: false,
            },
        };
        for line in &answer.lines {
            writeln!(out, "{line}")?;
        }
        if answer.quit {
            break;
        }
        out.flush()?;
    }
    Ok(())
}
