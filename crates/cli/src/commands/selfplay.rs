//! `ajedrecista selfplay`: one game of an automaton against a defence, as
//! PGN.

use std::sync::Arc;

use ajedrecista_automata::{DefenceKind, StrategyName, selfplay};

use crate::output::out;
use crate::tables_args::TablesArgs;

/// One game of an automaton against a defence, printed as PGN.
#[derive(clap::Args)]
pub struct Args {
    /// The automaton, by its name in the catalog (torres, perfect, ...; an
    /// unknown name gets the list).
    strategy: StrategyName,
    /// The start position (default: the automaton's demonstration game).
    #[arg(long)]
    fen: Option<String>,
    /// Black's play: perfect (delays mate longest by the tables), longest
    /// (the audit's defender against this automaton), random or random:SEED.
    #[arg(long, default_value = "perfect")]
    defence: DefenceKind,
    #[command(flatten)]
    tables: TablesArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let fen_text = args.fen.as_deref().unwrap_or(args.strategy.demo_fen());
    let start = crate::fen::parse_fen(fen_text)?;
    let tables = Arc::new(args.tables.open());
    // A method's own table takes seconds of every core before its first
    // move: said on a terminal while it is calculated.
    if let Some(table) = args.strategy.entry().method_table
        && !table.is_ready()
    {
        let spinner = crate::tables_args::spinner(format!(
            "{}: calculating its method's table",
            args.strategy
        ));
        table.calculate();
        spinner.finish_and_clear();
    }
    let game = selfplay(args.strategy, &start, args.defence, &tables)?;
    out!("{}", game.to_pgn());
    Ok(())
}
