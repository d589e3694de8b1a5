//! `ajedrecista audit`: how long an automaton takes against the longest
//! defence, from every start position.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ajedrecista_automata::app::{AuditView, AuditViewError, ExcessView};
use ajedrecista_automata::{
    Audit, AuditOptions, AuditProgress, Cancelled, SquareCell, StartSet, Strategy, StrategyName,
    audit_with_options, color_name, fen_of,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::out;
use crate::tables_args::TablesArgs;
use anyhow::Context;
use shakmaty::{Color, File, Rank, Square};

/// How many moves an automaton needs from every start position against a
/// defender who knows it and holds out longest (exact), where it fails, and
/// how that compares with perfect play.
///
/// Moves are White's moves, mate included. A start fails when the defender
/// can force a cycle, a stalemate, the loss of the rook, an illegal move, a
/// refusal of the automaton or a position outside its rules.
#[derive(clap::Args)]
pub struct Args {
    /// The automaton, by its name in the catalog (torres, perfect, ...; an
    /// unknown name gets the list).
    strategy: StrategyName,
    /// Every position meeting the automaton's preconditions, or only its own
    /// historic start positions.
    #[arg(long, value_enum, default_value_t = Starts::All)]
    starts: Starts,
    /// Who moves first in the start positions.
    #[arg(long, value_enum, default_value_t = Side::White)]
    side: Side,
    /// Print JSON for programs instead of tables for people.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Starts {
    All,
    Machine,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    White,
    Black,
    Both,
}

/// Set by Ctrl-C: the audit stops at its next progress point.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C stops the audit cleanly (the bar cleared, a one-line error); a
/// second Ctrl-C ends the process at once.
fn stop_on_ctrl_c() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .context("installing the Ctrl-C handler")
}

/// The audits of `strategy` over `set`, one per side to move.
fn run_audits<S: Strategy>(
    strategy: &S,
    set: StartSet,
    sides: &[Color],
) -> Result<Vec<Audit>, Cancelled> {
    sides
        .iter()
        .map(|side| {
            let mut bar = LateBar::new(format!("audit {} ({side} to move)", strategy.name()));
            let mut progress = |done: AuditProgress| bar.update(done);
            let mut options = AuditOptions {
                progress: Some(&mut progress),
                cancel: Some(&INTERRUPTED),
            };
            let audit = audit_with_options(strategy, set, *side, &mut options);
            bar.finish();
            audit
        })
        .collect()
}

/// A progress bar on stderr that appears only once the work has taken a
/// second (and only on a terminal: indicatif hides it otherwise). While
/// the answers of a costly automaton (the emulated calculator) are computed
/// ahead it counts nodes and answers and shows answers per second; then it
/// counts the starts solved.
struct LateBar {
    label: String,
    started: Instant,
    bar: Option<ProgressBar>,
    solving: bool,
}

impl LateBar {
    fn new(label: String) -> LateBar {
        LateBar {
            label,
            started: Instant::now(),
            bar: None,
            solving: false,
        }
    }

    fn update(&mut self, progress: AuditProgress) {
        let elapsed = self.started.elapsed().as_secs_f64();
        if self.bar.is_none() && elapsed > 1.0 {
            let bar = ProgressBar::new(progress.starts as u64);
            bar.set_style(
                ProgressStyle::with_template("{msg} {spinner}")
                    .expect("valid template")
                    .tick_chars("/-\\| "),
            );
            self.bar = Some(bar);
        }
        let Some(bar) = &self.bar else {
            return;
        };
        let exploring = progress.starts_done == 0 && progress.answers > 0 && !self.solving;
        if exploring {
            let rate = progress.answers as f64 / elapsed.max(1e-3);
            bar.set_message(format!(
                "{}: {} nodes explored, {} answers computed, {rate:.0} answers/s",
                self.label, progress.nodes, progress.answers
            ));
            bar.tick();
        } else {
            if !self.solving {
                self.solving = true;
                bar.set_style(
                    ProgressStyle::with_template(
                        "{msg:<36} [{bar:40}] {pos}/{len} starts, {prefix}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar.set_message(self.label.clone());
            }
            bar.set_prefix(format!("{} nodes", progress.nodes));
            bar.set_position(progress.starts_done as u64);
        }
    }

    fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let tables = Arc::new(args.tables.open());
    let set = match args.starts {
        Starts::All => StartSet::All,
        Starts::Machine => StartSet::Machine,
    };
    let sides = match args.side {
        Side::White => vec![Color::White],
        Side::Black => vec![Color::Black],
        Side::Both => vec![Color::White, Color::Black],
    };
    stop_on_ctrl_c()?;
    let audits = run_audits(&args.strategy.build(&tables), set, &sides)
        .map_err(|Cancelled| interrupted())?;
    let mut reports = Vec::new();
    for audit in &audits {
        let view = AuditView::new(audit, &tables, || INTERRUPTED.load(Ordering::Relaxed)).map_err(
            |err| match err {
                AuditViewError::Stopped => interrupted(),
                err => anyhow::Error::new(err).context("perfect play from the tables"),
            },
        )?;
        reports.push((audit, view));
    }
    if args.json {
        let views: Vec<&AuditView> = reports.iter().map(|(_, view)| view).collect();
        match views.as_slice() {
            [one] => crate::output::print_json(one)?,
            many => crate::output::print_json(&many)?,
        }
    } else {
        for (audit, view) in &reports {
            out!("{}", to_text(audit, view.excess_over_perfect.as_ref()));
        }
    }
    Ok(())
}

fn interrupted() -> anyhow::Error {
    anyhow::anyhow!("interrupted: the audit stopped before its end")
}

fn to_text(audit: &Audit, excess: Option<&ExcessView>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let w = &mut out;
    let side = color_name(audit.side_to_move);
    writeln!(
        w,
        "audit of {}: {} starts, {side} to move",
        audit.strategy,
        audit.starts_set.name()
    )
    .ok();
    match audit.positions == audit.results.len() {
        true => writeln!(w, "  starts        {}", audit.results.len()),
        false => writeln!(
            w,
            "  starts        {} (one per class of turned and reflected boards: {} positions)",
            audit.results.len(),
            audit.positions
        ),
    }
    .ok();
    writeln!(w, "  graph nodes   {}", audit.nodes).ok();
    let failures = audit.failures();
    let failed: usize = failures.values().sum();
    writeln!(w, "  failures      {failed}").ok();
    for (kind, count) in failures.iter().filter(|(_, count)| **count > 0) {
        let example = &audit.failure_examples[kind];
        writeln!(
            w,
            "    {:<14}{count:>7}   e.g. {}",
            kind.name(),
            fen_of(&example.start)
        )
        .ok();
    }
    match (&audit.worst, audit.worst_moves()) {
        (Some(game), Some(moves)) => {
            writeln!(
                w,
                "  worst case    {moves} moves from {}",
                fen_of(&game.start)
            )
            .ok();
            if let Some(excess) = excess {
                writeln!(
                    w,
                    "                (perfect play mates from there in {})",
                    excess.perfect_at_worst_start
                )
                .ok();
            }
        }
        _ => {
            writeln!(w, "  worst case    no start is mated").ok();
        }
    }
    writeln!(
        w,
        "  over 50 moves {} starts (a 50-move-rule draw claim comes first)",
        audit.beyond_fifty_moves()
    )
    .ok();
    if let Some(excess) = excess {
        writeln!(
            w,
            "  perfect play  longest mate {} moves; excess over it: max {}, mean {:.2}",
            excess.perfect_worst, excess.max, excess.mean
        )
        .ok();
        let excesses: Vec<String> = excess
            .histogram
            .iter()
            .map(|(over, count)| format!("+{over}: {count}"))
            .collect();
        writeln!(w, "  excess        {}", excesses.join(", ")).ok();
    }

    let histogram = audit.histogram();
    if let Some(largest) = histogram.values().max().copied() {
        writeln!(w, "\n  moves  starts").ok();
        for (moves, count) in &histogram {
            let bar = "#".repeat((count * 40).div_ceil(largest));
            writeln!(w, "  {moves:>5}  {count:>6}  {bar}").ok();
        }
    }

    if audit.starts_set == StartSet::Machine {
        writeln!(
            w,
            "\n  black king's start square: worst moves to mate (F: a failure, .: no start)"
        )
        .ok();
        writeln!(w, "       a   b   c   d   e   f   g   h").ok();
        let cells = audit.per_square();
        for rank in Rank::ALL.into_iter().rev() {
            write!(w, "  {} ", rank.char()).ok();
            for file in File::ALL {
                let cell = match cells[Square::from_coords(file, rank).to_usize()] {
                    SquareCell::NoStart => ".".to_string(),
                    SquareCell::Failure => "F".to_string(),
                    SquareCell::Mate(moves) => moves.to_string(),
                };
                write!(w, "{cell:>4}").ok();
            }
            writeln!(w).ok();
        }
    }

    if let Some(game) = &audit.worst {
        writeln!(w, "\nthe longest game:\n{}", game.to_pgn()).ok();
    }
    for (kind, game) in &audit.failure_examples {
        writeln!(w, "a {} failure:\n{}", kind.name(), game.to_pgn()).ok();
    }
    out
}

#[cfg(test)]
mod tests {
    use ajedrecista_automata::{Torres, audit};

    use super::*;

    #[test]
    fn text_report_shows_the_board_of_black_king_starts() {
        let audit = audit(&Torres, StartSet::Machine, Color::White);
        let text = to_text(&audit, None);
        assert!(text.contains("       a   b   c   d   e   f   g   h"));
        // Rank 7 holds the rook and the white king's neighbours: no starts.
        assert!(text.contains("  7    .   .   .   .   .   .   .   ."));
        assert!(text.contains("the longest game:\n[Event"));
    }
}
