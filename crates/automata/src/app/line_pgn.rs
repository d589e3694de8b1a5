//! A line played on the analysis board as PGN, each move with its value
//! by the tables as a comment (`{mate in 12}`), for a visitor to download.

use ajedrecista_tables::{Tablebase, Value, Variant};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::probe::{BuildPolicy, ProbeError, check_fixed_king};
use crate::game::pgn_export;

/// The most moves of a line written out (a line of the tables' longest
/// mates is a few hundred plies).
pub const MAX_LINE_PLIES: usize = 1024;

/// Why a line has no PGN.
#[derive(Debug, thiserror::Error)]
pub enum LinePgnError {
    #[error("a line of at most {MAX_LINE_PLIES} moves is written out, this one has {0}")]
    TooLong(usize),
    #[error("move {number} ({text}) is not a legal move in UCI notation there")]
    IllegalMove { number: usize, text: String },
    #[error(transparent)]
    Probe(#[from] ProbeError),
}

/// The comment after a move: what the mover gets by it, counted in moves
/// from the position before it (this move included), as the analysis
/// board's list of moves counts: `mate in 12`, `mated in 3`, `draw`.
fn value_comment(value: Value) -> String {
    match (value, value.moves()) {
        (Value::Win(_), Some(moves)) => format!("mate in {moves}"),
        (Value::Loss(_), Some(moves)) => format!("mated in {moves}"),
        _ => "draw".to_string(),
    }
}

/// The PGN of the line of `ucis` (UCI moves) from `start`, each move with
/// its value by the tables as a comment; the tables had under `policy`.
/// The result is that of the last position where it is over (mate,
/// stalemate), else `*`.
pub fn line_pgn(
    tables: &Tablebase,
    start: &Chess,
    ucis: &[&str],
    variant: Variant,
    policy: BuildPolicy,
) -> Result<String, LinePgnError> {
    if ucis.len() > MAX_LINE_PLIES {
        return Err(LinePgnError::TooLong(ucis.len()));
    }
    check_fixed_king(start, variant)?;
    let mut position = start.clone();
    let mut moves: Vec<Move> = Vec::with_capacity(ucis.len());
    let mut comments = Vec::with_capacity(ucis.len());
    for (i, text) in ucis.iter().enumerate() {
        let illegal = || LinePgnError::IllegalMove {
            number: i + 1,
            text: text.to_string(),
        };
        let mv = text
            .parse::<UciMove>()
            .ok()
            .and_then(|uci| uci.to_move(&position).ok())
            .ok_or_else(illegal)?;
        policy.material(tables, &position, variant)?;
        let value = tables
            .moves(&position, variant)
            .map_err(ProbeError::from)?
            .into_iter()
            .find(|(candidate, _)| *candidate == mv)
            .map(|(_, value)| value)
            // A move the tables do not hold (the fixed king moved).
            .ok_or_else(illegal)?;
        comments.push(value_comment(value));
        position.play_unchecked(mv);
        moves.push(mv);
    }
    let result = position.outcome().as_str();
    let fen = Fen::from_position(start, EnPassantMode::Legal).to_string();
    let plies = moves.len().to_string();
    let variant_name = variant.to_string();
    let tags = [
        ("Event", Some("ajedrecista analysis board")),
        ("Site", Some("?")),
        ("Date", Some("????.??.??")),
        ("Round", Some("-")),
        ("White", Some("?")),
        ("Black", Some("?")),
        ("Result", Some(result)),
        ("SetUp", Some("1")),
        ("FEN", Some(fen.as_str())),
        ("Annotator", Some("ajedrecista tables (DTM)")),
        (
            "Variant",
            (variant != Variant::Standard).then_some(variant_name.as_str()),
        ),
        ("PlyCount", Some(plies.as_str())),
    ];
    Ok(pgn_export(&tags, start, &moves, &comments, None, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, read_fen};

    #[test]
    fn a_line_gets_a_value_after_each_move_and_its_result() {
        let tables = Tablebase::in_memory();
        let start = read_fen("7k/8/6K1/8/8/8/8/R7 w - - 0 1", CastlingRights::Refused).unwrap();
        let pgn = line_pgn(
            &tables,
            &start,
            &["a1a8"],
            Variant::Standard,
            BuildPolicy::Interactive,
        )
        .unwrap();
        assert!(
            pgn.contains("[FEN \"7k/8/6K1/8/8/8/8/R7 w - - 0 1\"]"),
            "{pgn}"
        );
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(pgn.ends_with("1. Ra8# {mate in 1} 1-0\n"), "{pgn}");

        let slow = line_pgn(
            &tables,
            &start,
            &["a1a2", "h8g8"],
            Variant::Standard,
            BuildPolicy::Interactive,
        )
        .unwrap();
        let moves = slow.lines().last().unwrap();
        let first: Vec<&str> = moves.split(" {").collect();
        assert!(first[0] == "1. Ra2", "{slow}");
        assert!(
            moves.contains("{mate in") && moves.contains("Kg8 {mated in"),
            "{slow}"
        );
        assert!(moves.ends_with(" *"), "{slow}");

        let err = line_pgn(
            &tables,
            &start,
            &["a1a2", "a1a3"],
            Variant::Standard,
            BuildPolicy::Interactive,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 2 (a1a3) is not a legal move in UCI notation there"
        );
    }
}
