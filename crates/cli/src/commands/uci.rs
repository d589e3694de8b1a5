//! `ajedrecista uci`: the automata as a UCI engine, so that chess GUIs and
//! libraries can play against them. The engine is the automata crate's
//! `UciEngine`; this reads stdin into it and prints what it says.

use std::io::{self, Write};
use std::sync::Arc;

use ajedrecista_automata::UciEngine;
use ajedrecista_input::{Line, LineReader};

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
    for line in LineReader::new(stdin.lock()) {
        // UCI ignores what it cannot read: a line that is not UTF-8, or
        // longer than the limit, is reported and skipped, not the end of
        // the engine.
        let answer = match line? {
            Line::Text(line) => engine.command(&line),
            refused => ajedrecista_automata::UciAnswer {
                lines: vec![format!(
                    "info string {}; it was ignored",
                    refused.refusal().expect("a line without text")
                )],
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
