//! `ajedrecista probe`: the value of a position and of each of its moves.

use ajedrecista_tables::Variant;
use serde::Serialize;
use shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, Position, Square,
    fen::Fen,
    san::{San, SanPlus},
};

use crate::output::outln;
use crate::{diagram::diagram, tables_args::TablesArgs};

/// The value of a position (win, draw or loss for the side to move, and the
/// distance to mate), every legal move with its value, best first, and the
/// principal variation.
///
/// A move's value is what the side to move gets by playing it. DTM is in
/// moves of the winning side, mate included, and in plies.
#[derive(clap::Args)]
pub struct Args {
    /// The position, as FEN (pawnless, 3 to 5 men)
    fen: String,
    /// The fixed-king game: the white king, on this square, never moves
    #[arg(long, value_name = "SQ")]
    fixed_king: Option<Square>,
    /// Print JSON
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArgs,
}

#[derive(Serialize)]
struct MoveJson {
    uci: String,
    san: String,
    result: &'static str,
    dtm_plies: Option<u16>,
}

#[derive(Serialize)]
struct ProbeJson {
    fen: String,
    result: &'static str,
    dtm_plies: Option<u16>,
    dtm_moves: Option<u16>,
    moves: Vec<MoveJson>,
    pv: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::fen::parse_fen(&args.fen)?;
    let variant = crate::tables_args::variant(args.fixed_king);
    if let Variant::FixedKing(sq) = variant
        && pos.board().king_of(shakmaty::Color::White) != Some(sq)
    {
        anyhow::bail!("the white king must stand on {sq}, its fixed square");
    }
    let tb = args.tables.open();
    let value = tb.probe(&pos, variant)?;
    let moves = tb.moves(&pos, variant)?;
    let pv = tb.principal_variation(&pos, variant)?;
    let out = ProbeJson {
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        result: value.wdl().as_str(),
        dtm_plies: value.plies(),
        dtm_moves: value.moves(),
        moves: moves
            .iter()
            .map(|&(mv, v)| MoveJson {
                uci: mv.to_uci(CastlingMode::Standard).to_string(),
                san: San::from_move(&pos, mv).to_string(),
                result: v.wdl().as_str(),
                dtm_plies: v.plies(),
            })
            .collect(),
        pv: san_line(&pos, &pv),
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    outln!("{}", diagram(pos.board(), Bitboard::EMPTY));
    outln!("{}", out.fen);
    outln!("{} to move: {}", pos.turn(), value);
    outln!();
    outln!(
        "{:<8} {:<6} {:<6} {:>6} {:>6}",
        "move",
        "uci",
        "result",
        "moves",
        "plies"
    );
    for (m, &(_, v)) in out.moves.iter().zip(&moves) {
        let dash = || "-".to_owned();
        outln!(
            "{:<8} {:<6} {:<6} {:>6} {:>6}",
            m.san,
            m.uci,
            m.result,
            v.moves().map_or_else(dash, |n| n.to_string()),
            v.plies().map_or_else(dash, |n| n.to_string())
        );
    }
    if !out.pv.is_empty() {
        outln!();
        outln!("principal variation: {}", numbered(&pos, &out.pv));
    }
    Ok(())
}

/// SAN of a line of moves from `pos`, with check and mate marks.
pub fn san_line(pos: &Chess, line: &[shakmaty::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&mv| SanPlus::from_move_and_play_unchecked(&mut pos, mv).to_string())
        .collect()
}

/// A line in SAN with move numbers: `1. Qb7+ Kd8 2. ...`.
fn numbered(start: &Chess, sans: &[String]) -> String {
    // u64: the line goes on past a fullmove number of u32::MAX.
    let mut number = u64::from(start.fullmoves().get());
    let mut white = start.turn() == shakmaty::Color::White;
    let mut out = Vec::new();
    for (i, san) in sans.iter().enumerate() {
        if white {
            out.push(format!("{number}. {san}"));
        } else if i == 0 {
            out.push(format!("{number}... {san}"));
        } else {
            out.push(san.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.join(" ")
}
