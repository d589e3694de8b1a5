//! `ajedrecista probe`: the value of a position and of each of its moves.

use std::{
    fmt,
    fs::File,
    io::{self, BufReader, BufWriter, IsTerminal, Read, Write},
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use ajedrecista_automata::app::{BuildPolicy, ProbeView, SyzygyView, probe_lines};
use ajedrecista_tables::{Material, Moves, Plies, Tablebase, Value, Variant};
use indicatif::ProgressBar;
use serde::Serialize;
use shakmaty::{Bitboard, Position, Square};

use ajedrecista_input::{Line, LineReader};

use crate::diagram::diagram;
use crate::output::{json_line, outln};
use crate::tables_args::{MemoryArgs, OneBar, SyzygyArgs, TablesArgs, one_bar_for, spinner};

/// The value of a position (win, draw or loss for the side to move, and the
/// distance to mate), every legal move with its value, best first, and the
/// principal variation; or, with `--epd`, the value of every position of a
/// file, one line each.
///
/// A move's value is what the side to move gets by playing it. DTM is in
/// moves of the winning side, mate included, and in plies.
///
/// With `--syzygy DIR` (or $AJEDRECISTA_SYZYGY), a position whose DTM
/// table is not in the cache folder is answered at once from the Syzygy
/// files of DIR: WDL under the fifty-move rule, DTZ (plies to the next
/// capture or pawn move) and the best move by DTZ, no table built. Where
/// the DTM table is there, Syzygy's answer is shown beside the DTM's.
/// Where Syzygy lacks the material too, the DTM table is built as without
/// it. `--epd` ignores Syzygy.
///
/// `--epd FILE` (`-`: stdin) reads one position a line, as FEN (6 fields)
/// or EPD (4 fields, then operations such as `bm Qd5; id "x";`, which are
/// ignored); blank lines and lines starting with `#` are skipped. Each
/// other line is answered in input order: with `--json` one JSON object a
/// line (`line`, `fen`, `result`, `dtm_plies`, `dtm_moves`, or `line` and
/// `error`), else an aligned table. A line longer than 4096 bytes is an
/// error line, as is a line that is not UTF-8; a byte-order mark at the
/// start is skipped. Exit code 0 when every line was answered, 1 when some line
/// was bad (the others are still answered), 2 when the input cannot be
/// read or the output written.
#[derive(clap::Args)]
pub struct Args {
    /// The position, as FEN (3 to 5 men, pawns allowed; six once `solve` has built the table)
    #[arg(required_unless_present = "epd", conflicts_with = "epd")]
    fen: Option<String>,
    /// Probe every FEN or EPD line of FILE (`-` for stdin)
    #[arg(long, value_name = "FILE")]
    epd: Option<PathBuf>,
    /// The fixed-king game: the white king, on this square, never moves
    #[arg(long, value_name = "SQ")]
    fixed_king: Option<Square>,
    /// Print JSON (with --epd: JSON Lines, one object a line)
    #[arg(long)]
    json: bool,
    /// Build what a first probe needs without asking, however long it
    /// takes (asked on a terminal, refused elsewhere, from a minute on)
    #[arg(long)]
    yes: bool,
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    memory: MemoryArgs,
    #[command(flatten)]
    syzygy: SyzygyArgs,
}

/// A first probe whose builds take longer than this, by the plan's
/// estimate, asks before it starts (or needs `--yes`).
const ASK_FROM_SECONDS: f64 = 60.0;

pub fn run(args: Args) -> anyhow::Result<()> {
    let variant = crate::tables_args::variant(args.fixed_king);
    let tb = args.memory.bound(args.tables.open());
    if let Some(path) = &args.epd {
        return run_batch(path, &tb, variant, args.json);
    }
    let fen = args
        .fen
        .as_deref()
        .expect("clap requires a FEN without --epd");
    let pos = crate::fen::parse_fen(fen)?;
    let syzygy = args.syzygy.open()?;
    let one_bar = match &syzygy {
        None => announce_cone(&tb, &pos, variant, args.yes)?,
        Some(_) => None,
    };
    let view = ProbeView::new(
        &tb,
        syzygy.as_ref(),
        &pos,
        variant,
        BuildPolicy::Patient,
        Some(&AtomicBool::new(false)),
    )?;
    drop(one_bar);
    if args.json {
        crate::output::print_json(&view)?;
        return Ok(());
    }
    outln!("{}", diagram(pos.board(), Bitboard::EMPTY));
    outln!("{}", view.fen);
    let turn = format!("{} to move:", pos.turn());
    match view.value {
        Some(value) => outln!("{turn} {value}"),
        None => outln!(
            "{turn} answered from Syzygy: the DTM table of {0} is not built (ajedrecista solve {0}, or probe without --syzygy, gives the distance to mate)",
            view.material
        ),
    }
    if let Some(answer) = &view.syzygy {
        outln!("{:<w$} {}", "Syzygy:", syzygy_line(answer), w = turn.len());
    }
    if let Some(error) = &view.syzygy_error {
        outln!("{:<w$} no answer ({error})", "Syzygy:", w = turn.len());
    }
    if !view.moves.is_empty() {
        outln!();
        outln!(
            "{:<8} {:<6} {:<6} {:>6} {:>6}",
            "move",
            "uci",
            "result",
            "moves",
            "plies"
        );
    }
    for m in &view.moves {
        outln!(
            "{:<8} {:<6} {:<6} {:>6} {:>6}",
            m.san,
            m.uci,
            m.result,
            dash(m.dtm_moves),
            dash(m.dtm_plies)
        );
    }
    if !view.pv.is_empty() {
        outln!();
        outln!("principal variation: {}", view.numbered_pv(&pos));
    }
    if let Some(ply) = view.pv_fifty_moves_ply {
        outln!(
            "fifty-move rule: by ply {ply} of this line, fifty moves pass without a capture or pawn move (from the FEN's halfmove clock), and either side may claim a draw there"
        );
    }
    Ok(())
}

/// Says what a first probe of `pos` builds when it is a cone (a table with
/// pawns not in the cache: the slices its pawns reach and the tables they
/// read), asks first when that takes long (or refuses without `yes` off a
/// terminal), and shows it on one bar.
fn announce_cone(
    tb: &Tablebase,
    pos: &shakmaty::Chess,
    variant: Variant,
    yes: bool,
) -> anyhow::Result<Option<OneBar>> {
    let Some(cone) = BuildPolicy::Patient.cone(tb, pos, variant)? else {
        return Ok(None);
    };
    if cone.is_built() {
        return Ok(None);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let seconds = cone.cpu_seconds() / cores as f64;
    let material = &cone.material;
    let mut parts = Vec::new();
    match cone.plan.to_build().count() {
        0 => {}
        1 => parts.push("1 table".to_owned()),
        tables => parts.push(format!("{tables} tables")),
    }
    if !cone.slices.is_empty() {
        parts.push(format!(
            "{} of {material}'s {} slices",
            cone.slices.len(),
            cone.table_slices
        ));
    }
    let needs = format!(
        "{material}: this needs {}, about {} here",
        parts.join(" and "),
        about(seconds)
    );
    if seconds >= ASK_FROM_SECONDS && !yes {
        if !(io::stdin().is_terminal() && io::stderr().is_terminal()) {
            anyhow::bail!("{needs}; run again with --yes to build them");
        }
        eprint!("{needs}; build now? [y/N] ");
        let mut answer = String::new();
        io::stdin().read_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            anyhow::bail!("nothing built ({material}: not in the cache folder)");
        }
    }
    let mut shares: Vec<(Material, u64)> = cone
        .plan
        .to_build()
        .map(|node| (node.material.clone(), node.numbers))
        .collect();
    shares.push((material.clone(), cone.slice_numbers()));
    Ok(Some(one_bar_for(shares, needs)))
}

/// A duration, rounded as an estimate: `40 s`, `12 min`.
fn about(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{} s", (seconds.round() as u64).max(1))
    } else {
        format!("{} min", (seconds / 60.0).round() as u64)
    }
}

/// Syzygy's answer in one line: `win, DTZ 13 plies (to a capture, pawn
/// move or mate); best move by DTZ: Rc5+ (c3c5)`.
fn syzygy_line(answer: &SyzygyView) -> String {
    let mut line = format!("{}, DTZ {}", answer.value.wdl, answer.dtz);
    if answer.dtz != 0 {
        let plies = if answer.dtz.abs() == 1 {
            "ply"
        } else {
            "plies"
        };
        line.push_str(&format!(" {plies} (to a capture, pawn move or mate)"));
    }
    if answer.dtz_rounded {
        line.push_str(", rounded: maybe one less");
    }
    match (&answer.best_move, &answer.best_move_missing) {
        (Some(best), _) => {
            line.push_str(&format!("; best move by DTZ: {} ({})", best.san, best.uci));
        }
        (None, Some(missing)) => line.push_str(&format!("; no best move ({missing})")),
        (None, None) => {}
    }
    line
}

/// Some lines of an `--epd` run were bad: the command exits with code 1.
#[derive(Debug)]
pub struct BadLines(pub u64);

impl fmt::Display for BadLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => write!(f, "1 line could not be probed"),
            n => write!(f, "{n} lines could not be probed"),
        }
    }
}

impl std::error::Error for BadLines {}

/// The answer to one line.
#[derive(Serialize)]
struct LineJson<'a> {
    line: u64,
    fen: &'a str,
    result: &'static str,
    dtm_plies: Option<Plies>,
    dtm_moves: Option<Moves>,
}

#[derive(Serialize)]
struct LineError<'a> {
    line: u64,
    error: &'a str,
}

/// `probe --epd`: every line of `path` (`-`: stdin), answered in order.
fn run_batch(path: &Path, tb: &Tablebase, variant: Variant, json: bool) -> anyhow::Result<()> {
    let input: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        Box::new(
            File::open(path)
                .map_err(|err| anyhow::anyhow!("cannot open {}: {err}", path.display()))?,
        )
    };
    let mut reader = LineReader::new(BufReader::with_capacity(1 << 16, input));
    let mut out = BufWriter::with_capacity(1 << 16, crate::output::stdout_lock());
    if !json {
        writeln!(
            out,
            "{:>6}  {:<6} {:>5} {:>5}  fen",
            "line", "result", "moves", "plies"
        )?;
    }
    let mut number = 0u64;
    let mut bad = 0u64;
    let mut ended = false;
    // Output sent elsewhere than a terminal gets a count of the lines on a
    // terminal's stderr.
    let counter = if io::stdout().is_terminal() {
        ProgressBar::hidden()
    } else {
        spinner("probe --epd: line 0".to_string())
    };
    while !ended {
        // The lines at hand, up to a window: probed in the order the
        // tables' files hold them, answered in theirs. The answers go out
        // before the reader waits for more input, so a program feeding
        // lines one at a time gets each answer at once.
        let mut window: Vec<(u64, Line)> = Vec::new();
        while window.len() < WINDOW {
            if !window.is_empty() && reader.get_ref().buffer().is_empty() {
                break;
            }
            match reader
                .next_line()
                .map_err(|err| anyhow::anyhow!("cannot read {}: {err}", path.display()))?
            {
                Some(line) => {
                    number += 1;
                    window.push((number, line));
                }
                None => {
                    ended = true;
                    break;
                }
            }
        }
        let texts: Vec<&str> = window
            .iter()
            .filter_map(|(_, line)| match line {
                Line::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        let mut answers = probe_lines(tb, &texts, variant, BuildPolicy::Patient).into_iter();
        for (number, line) in &window {
            let answer = match line {
                Line::Text(_) => match answers.next().flatten() {
                    None => continue,
                    Some(answer) => answer.map_err(|err| format!("{:#}", anyhow::Error::new(err))),
                },
                refused => Err(refused.refusal().expect("a line without text")),
            };
            bad += u64::from(answer.is_err());
            write_answer(&mut out, *number, answer, json)?;
        }
        out.flush()?;
        counter.set_message(format!("probe --epd: line {number}"));
    }
    counter.finish_and_clear();
    out.flush()?;
    if bad > 0 {
        return Err(BadLines(bad).into());
    }
    Ok(())
}

/// The most lines probed together: their answers are held until the
/// last is probed.
const WINDOW: usize = 1 << 15;

/// One line's answer, as a table row or a JSON line.
fn write_answer(
    out: &mut impl Write,
    number: u64,
    answer: Result<(String, Value), String>,
    json: bool,
) -> anyhow::Result<()> {
    match answer {
        Ok((fen, value)) if json => {
            let row = LineJson {
                line: number,
                fen: &fen,
                result: value.wdl().as_str(),
                dtm_plies: value.plies(),
                dtm_moves: value.moves(),
            };
            json_line(out, &row)?;
        }
        Ok((fen, value)) => {
            writeln!(
                out,
                "{number:>6}  {:<6} {:>5} {:>5}  {fen}",
                value.wdl().as_str(),
                dash(value.moves()),
                dash(value.plies()),
            )?;
        }
        Err(error) if json => {
            let row = LineError {
                line: number,
                error: &error,
            };
            json_line(out, &row)?;
        }
        Err(error) => writeln!(out, "{number:>6}  error  {error}")?,
    }
    Ok(())
}

/// A distance, or `-` for none.
fn dash(n: Option<impl ToString>) -> String {
    n.map_or_else(|| "-".to_owned(), |n| n.to_string())
}
