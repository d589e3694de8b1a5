//! `ajedrecista solve`: build or load a table and print its counts.

use std::time::Instant;

use ajedrecista_tables::{Material, SideSummary, Table, Tablebase, Value, Variant, summarize};
use anyhow::Context;
use serde::Serialize;
use shakmaty::{Color, Square};

use crate::output::outln;
use crate::tables_args::TablesArgs;

/// Build (or load) the distance-to-mate table of an endgame and print its
/// counts.
///
/// Conventions: a position is legal when the men stand on distinct squares
/// and the side not to move is not in check; counts are over all placements
/// (no symmetry reduction). Win, draw and loss are from the side to move's
/// point of view. DTM is given in moves of the winning side, mate included
/// (white to move and mate in 1 = 1), and in plies in the histogram (wins on
/// odd plies, losses on even; 0 = checkmated now).
#[derive(clap::Args)]
pub struct Args {
    /// Material, white first: KQvK, KRvK, KBNvK, KQvKR, KQRvKR... (3 to 5
    /// men, no pawns)
    material: String,
    /// A white king that never moves, on this square (the game of Brudno and
    /// Landau; black must have a bare king), or `all` for one row per square
    #[arg(long, value_name = "SQ|all")]
    fixed_king: Option<String>,
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArgs,
}

#[derive(Serialize)]
struct SideJson {
    legal: u64,
    win: u64,
    draw: u64,
    loss: u64,
    max_dtm_moves: Option<u16>,
    max_dtm_fen: Option<String>,
    histogram_plies: Vec<(u16, u64)>,
}

impl SideJson {
    fn new(table: &Table, turn: Color, side: &SideSummary) -> SideJson {
        SideJson {
            legal: side.legal,
            win: side.win,
            draw: side.draw,
            loss: side.loss,
            max_dtm_moves: side.longest.and_then(|(v, _)| v.moves()),
            max_dtm_fen: side.longest.and_then(|(_, index)| table.fen(index, turn)),
            histogram_plies: side.histogram_plies.iter().map(|(&p, &n)| (p, n)).collect(),
        }
    }
}

#[derive(Serialize)]
struct SolveJson {
    material: String,
    fixed_king: Option<String>,
    white_to_move: SideJson,
    black_to_move: SideJson,
    seconds: f64,
}

#[derive(Serialize)]
struct SquareJson {
    square: String,
    white_to_move: SideJson,
    black_to_move: SideJson,
}

#[derive(Serialize)]
struct AllSquaresJson {
    material: String,
    squares: Vec<SquareJson>,
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let material: Material = args.material.parse()?;
    if material.len() < 3 {
        anyhow::bail!("{material}: a table needs 3 to 5 men");
    }
    let tb = args.tables.open();
    match args.fixed_king.as_deref() {
        Some("all") => all_squares(&tb, &material, args.json),
        Some(sq) => {
            let sq: Square = sq.parse().with_context(|| {
                format!("bad square {sq:?} for --fixed-king (write it like c3)")
            })?;
            one(&tb, &material, Variant::FixedKing(sq), args.json)
        }
        None => one(&tb, &material, Variant::Standard, args.json),
    }
}

fn one(tb: &Tablebase, material: &Material, variant: Variant, json: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let table = tb.table(material, variant)?;
    let summary = summarize(&table);
    let seconds = start.elapsed().as_secs_f64();
    let out = SolveJson {
        material: material.to_string(),
        fixed_king: match variant {
            Variant::FixedKing(sq) => Some(sq.to_string()),
            Variant::Standard => None,
        },
        white_to_move: SideJson::new(&table, Color::White, &summary.white),
        black_to_move: SideJson::new(&table, Color::Black, &summary.black),
        seconds,
    };
    if json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print_one(&out)?;
    }
    Ok(())
}

fn print_one(out: &SolveJson) -> anyhow::Result<()> {
    let game = match &out.fixed_king {
        Some(sq) => format!(", white king fixed on {sq}"),
        None => String::new(),
    };
    outln!("{}{game}: {:.2} s", out.material, out.seconds);
    outln!(
        "(counts over all placements; win/draw/loss for the side to move; DTM in moves, mate included)"
    );
    outln!();
    let sides = [&out.white_to_move, &out.black_to_move];
    outln!("{:<16} {:>16} {:>16}", "", "white to move", "black to move");
    for (name, get) in [
        (
            "legal positions",
            (|s: &SideJson| s.legal) as fn(&SideJson) -> u64,
        ),
        ("wins", |s| s.win),
        ("draws", |s| s.draw),
        ("losses", |s| s.loss),
    ] {
        outln!("{name:<16} {:>16} {:>16}", get(sides[0]), get(sides[1]));
    }
    let longest = |s: &SideJson| s.max_dtm_moves.map_or("-".to_owned(), |m| m.to_string());
    outln!(
        "{:<16} {:>16} {:>16}",
        "longest mate",
        longest(sides[0]),
        longest(sides[1])
    );
    for (name, side) in [("white to move", sides[0]), ("black to move", sides[1])] {
        if let Some(fen) = &side.max_dtm_fen {
            outln!("  longest, {name}: {fen}");
        }
    }
    outln!();
    outln!(
        "{:>6} {:>6} {:>16} {:>16}",
        "plies",
        "moves",
        "white to move",
        "black to move"
    );
    let mut plies: Vec<u16> = sides
        .iter()
        .flat_map(|s| s.histogram_plies.iter().map(|&(p, _)| p))
        .collect();
    plies.sort_unstable();
    plies.dedup();
    for p in plies {
        let count = |s: &SideJson| {
            s.histogram_plies
                .iter()
                .find(|&&(q, _)| q == p)
                .map_or("".to_owned(), |&(_, n)| n.to_string())
        };
        outln!(
            "{p:>6} {:>6} {:>16} {:>16}",
            Value::moves_from_plies(p),
            count(sides[0]),
            count(sides[1])
        );
    }
    Ok(())
}

fn all_squares(tb: &Tablebase, material: &Material, json: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut squares = Vec::new();
    for sq in Square::ALL {
        let table = tb.table(material, Variant::FixedKing(sq))?;
        let summary = summarize(&table);
        squares.push(SquareJson {
            square: sq.to_string(),
            white_to_move: SideJson::new(&table, Color::White, &summary.white),
            black_to_move: SideJson::new(&table, Color::Black, &summary.black),
        });
    }
    let out = AllSquaresJson {
        material: material.to_string(),
        squares,
        seconds: start.elapsed().as_secs_f64(),
    };
    if json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!(
        "{material} with the white king fixed on each square ({:.2} s)",
        out.seconds
    );
    outln!("won = white wins; max = longest mate in moves (white's), '-' where nothing is won");
    outln!();
    outln!(
        "{:<6} | {:^28} | {:^28} |",
        "",
        "white to move",
        "black to move"
    );
    outln!(
        "{:<6} | {:>6} {:>6} {:>7} {:>5} | {:>6} {:>6} {:>7} {:>5} | all won",
        "king",
        "legal",
        "won",
        "not won",
        "max",
        "legal",
        "won",
        "not won",
        "max"
    );
    for row in &out.squares {
        let w = &row.white_to_move;
        let b = &row.black_to_move;
        let max = |s: &SideJson, won: u64| {
            if won == 0 {
                "-".to_owned()
            } else {
                s.max_dtm_moves.map_or("-".to_owned(), |m| m.to_string())
            }
        };
        outln!(
            "{:<6} | {:>6} {:>6} {:>7} {:>5} | {:>6} {:>6} {:>7} {:>5} | {}",
            row.square,
            w.legal,
            w.win,
            w.legal - w.win,
            max(w, w.win),
            b.legal,
            b.loss,
            b.legal - b.loss,
            max(b, b.loss),
            if w.win == w.legal { "yes" } else { "" }
        );
    }
    let all_won: Vec<&str> = out
        .squares
        .iter()
        .filter(|row| {
            row.white_to_move.legal > 0 && row.white_to_move.win == row.white_to_move.legal
        })
        .map(|row| row.square.as_str())
        .collect();
    outln!();
    if all_won.is_empty() {
        outln!("no square of the king wins every start with white to move");
    } else {
        outln!(
            "every start with white to move is won from: {}",
            all_won.join(", ")
        );
    }
    Ok(())
}
