//! `ajedrecista audit`: how long an automaton takes against the longest
//! defence, from every start position.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ajedrecista_automata::{
    Audit, AuditOptions, AuditProgress, Cancelled, SquareCell, StartSet, Strategy, StrategyName,
    audit_with_options, excess_over_perfect,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::output::{out, outln};
use crate::tables_args::TablesArgs;
use anyhow::Context;
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, File, Rank, Square};

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

/// One audit for `--json`, in the documented field order.
#[derive(Serialize)]
struct AuditJson {
    strategy: String,
    starts_set: &'static str,
    side_to_move: &'static str,
    starts: usize,
    failures: BTreeMap<&'static str, usize>,
    worst_moves: Option<u16>,
    worst_fen: Option<String>,
    worst_pgn: Option<String>,
    histogram: Vec<(u16, usize)>,
    excess_over_perfect: Option<ExcessJson>,
}

#[derive(Serialize)]
struct ExcessJson {
    max: u16,
    mean: f64,
    histogram: Vec<(u16, usize)>,
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
        .map_err(|Cancelled| anyhow::anyhow!("interrupted: the audit stopped before its end"))?;
    let mut reports = Vec::new();
    for audit in &audits {
        let excess = excess_over_perfect(audit, &tables).context("perfect play from the tables")?;
        reports.push((audit, excess));
    }
    if args.json {
        let objects: Vec<AuditJson> = reports
            .iter()
            .map(|(audit, excess)| to_json(audit, excess.as_ref()))
            .collect();
        let text = match objects.as_slice() {
            [one] => serde_json::to_string_pretty(one)?,
            many => serde_json::to_string_pretty(many)?,
        };
        outln!("{text}");
    } else {
        for (audit, excess) in &reports {
            out!("{}", to_text(audit, excess.as_ref()));
        }
    }
    Ok(())
}

fn fen(position: &shakmaty::Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn to_json(audit: &Audit, excess: Option<&ajedrecista_automata::Excess>) -> AuditJson {
    AuditJson {
        strategy: audit.strategy.to_string(),
        starts_set: audit.starts_set.name(),
        side_to_move: side_name(audit.side_to_move),
        starts: audit.results.len(),
        failures: audit.failures_by_name(),
        worst_moves: audit.worst_moves(),
        worst_fen: audit.worst.as_ref().map(|game| fen(&game.start)),
        worst_pgn: audit.worst.as_ref().map(|game| game.to_pgn()),
        histogram: audit.histogram().into_iter().collect(),
        excess_over_perfect: excess.map(|excess| ExcessJson {
            max: excess.max,
            mean: excess.mean,
            histogram: excess.histogram.clone().into_iter().collect(),
        }),
    }
}

fn to_text(audit: &Audit, excess: Option<&ajedrecista_automata::Excess>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let w = &mut out;
    let side = side_name(audit.side_to_move);
    writeln!(
        w,
        "audit of {}: {} starts, {side} to move",
        audit.strategy,
        audit.starts_set.name()
    )
    .ok();
    writeln!(w, "  starts        {}", audit.results.len()).ok();
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
            fen(&example.start)
        )
        .ok();
    }
    match (&audit.worst, audit.worst_moves()) {
        (Some(game), Some(moves)) => {
            writeln!(w, "  worst case    {moves} moves from {}", fen(&game.start)).ok();
            if let Some(excess) = excess {
                writeln!(
                    w,
                    "                (perfect play mates from there in {})",
                    excess.at_worst_start
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
    fn json_has_the_documented_fields_in_order() {
        let audit = audit(&Torres, StartSet::Machine, Color::White);
        let excess = ajedrecista_automata::Excess {
            max: 3,
            mean: 1.5,
            histogram: [(0, 1), (3, 1)].into(),
            perfect_worst: 16,
            at_worst_start: 13,
        };
        let text = serde_json::to_string(&to_json(&audit, Some(&excess))).unwrap();
        let keys = [
            "\"strategy\":\"torres\"",
            "\"starts_set\":\"machine\"",
            "\"side_to_move\":\"white\"",
            "\"starts\":42",
            "\"failures\":{\"cycle\":0,",
            "\"worst_moves\":",
            "\"worst_fen\":\"",
            "\"worst_pgn\":\"[Event",
            "\"histogram\":[[",
            "\"excess_over_perfect\":{\"max\":3,\"mean\":1.5,\"histogram\":[[0,1],[3,1]]}",
        ];
        let mut from = 0;
        for key in keys {
            let at = text[from..]
                .find(key)
                .unwrap_or_else(|| panic!("{key} after {from} in {text}"));
            from += at + key.len();
        }
    }

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
