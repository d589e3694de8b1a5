//! `play --as white`: practice giving the mate against the tables' best
//! defence, each move weighed, hints from a method, a summary at the end.
//! The use case is automata's `Practice`; this is its terminal.

use std::{
    io::{self, BufRead, IsTerminal, Write},
    sync::Arc,
};

use ajedrecista_automata::{
    StrategyName,
    app::{Practice, Turn, Verdict},
};
use ajedrecista_input::LineReader;
use shakmaty::{Bitboard, Position};

use crate::{diagram::diagram, fen::parse_fen, input::next_typed, tables_args::TablesArgs};

const HELP: &str = "a move (SAN such as Rb6, or UCI such as a6b6), hint, undo, retry or quit";

pub fn run(
    tables: &TablesArgs,
    fen: Option<&str>,
    method: Option<StrategyName>,
) -> anyhow::Result<()> {
    let start = Practice::start_of(fen.map(parse_fen).transpose()?, method)?;
    let mut practice = Practice::new(Arc::new(tables.open()), start, method)?;
    let stdin = io::stdin();
    let prompt = stdin.is_terminal();
    let mut out = crate::output::stdout_lock();
    practise(&mut practice, stdin.lock(), &mut out, prompt)?;
    Ok(())
}

fn practise(
    practice: &mut Practice,
    input: impl BufRead,
    out: &mut impl Write,
    prompt: bool,
) -> anyhow::Result<()> {
    show(practice, out)?;
    writeln!(out, "You play White; type {HELP}.")?;
    let mut lines = LineReader::new(input);
    loop {
        let Some(text) = next_typed(&mut lines, out, prompt.then_some("white"))? else {
            return Ok(());
        };
        match text.trim() {
            "" => continue,
            "quit" => return Ok(()),
            "hint" => match practice.hint() {
                Ok(hint) => writeln!(
                    out,
                    "Hint ({}): {} ({})",
                    hint.method, hint.san, hint.reason
                )?,
                Err(err) => writeln!(out, "No hint: {err}.")?,
            },
            "undo" => {
                if practice.undo() {
                    show(practice, out)?;
                } else {
                    writeln!(out, "Nothing to take back.")?;
                }
            }
            "retry" => {
                practice.retry();
                show(practice, out)?;
            }
            text => match practice.play(text) {
                Ok(turn) => {
                    say(&turn, out)?;
                    if turn.end.is_some() {
                        return summarize(practice, out);
                    }
                    show(practice, out)?;
                }
                Err(err) => writeln!(out, "{err}; type {HELP}.")?,
            },
        }
    }
}

fn show(practice: &Practice, out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{}",
        diagram(practice.position().board(), Bitboard::EMPTY)
    )?;
    match practice.mate_in()? {
        Some(moves) => writeln!(out, "White to move: mate in {moves}.")?,
        None => writeln!(out, "White to move: the win is gone.")?,
    }
    Ok(())
}

fn say(turn: &Turn, out: &mut impl Write) -> io::Result<()> {
    let weighed = match turn.verdict {
        Verdict::Best => "the best move".to_owned(),
        Verdict::Slower { moves: 1 } => "throws away 1 move".to_owned(),
        Verdict::Slower { moves } => format!("throws away {moves} moves"),
        Verdict::WinLost => "lets the win go: a draw now".to_owned(),
    };
    writeln!(out, "{}: {weighed}.", turn.white)?;
    if let Some(black) = &turn.black {
        writeln!(out, "Black: {black}")?;
    }
    if let Some(end) = turn.end {
        writeln!(out, "The game is over: {end}.")?;
    }
    Ok(())
}

fn summarize(practice: &Practice, out: &mut impl Write) -> anyhow::Result<()> {
    let summary = practice.summary()?;
    writeln!(
        out,
        "You used {} moves; perfect play mates in {} from this start.",
        summary.moves_used, summary.perfect
    )?;
    match summary.method {
        Some((method, Some(moves))) => writeln!(
            out,
            "{method} mates in {moves} moves from it against the same defence."
        )?,
        Some((method, None)) => {
            writeln!(out, "{method} does not mate from it against this defence.")?
        }
        None => {}
    }
    Ok(())
}
