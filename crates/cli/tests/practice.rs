//! `play --as white` through a pipe: practice giving the mate against the
//! tables' best defence.

use ajedrecista_tables::{Tablebase, Variant};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

mod common;

const START: &str = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";

/// White's moves of perfect play from `start` against the best defence,
/// as UCI, and the move that keeps the win but loses the most time.
fn perfect_line_and_a_slow_move(start: &Chess) -> (Vec<String>, String) {
    let tables = Tablebase::in_memory();
    let uci = |mv: shakmaty::Move| mv.to_uci(CastlingMode::Standard).to_string();
    let first = tables.moves(start, Variant::Standard).unwrap();
    let slow = first
        .iter()
        .rev()
        .find(|(_, value)| value.white_mates_in(shakmaty::Color::White).is_some())
        .unwrap()
        .0;
    let mut line = Vec::new();
    let mut pos = start.clone();
    while !pos.is_checkmate() {
        let best = tables.moves(&pos, Variant::Standard).unwrap()[0].0;
        line.push(uci(best));
        pos.play_unchecked(best);
        if pos.is_checkmate() {
            break;
        }
        let reply = tables.moves(&pos, Variant::Standard).unwrap()[0].0;
        pos.play_unchecked(reply);
    }
    (line, uci(slow))
}

#[test]
fn practice_as_white_weighs_each_move_hints_and_sums_up() {
    let start: Chess = START
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let (line, slow) = perfect_line_and_a_slow_move(&start);
    let input = format!("{slow}\nundo\nhint\nRz9\n{}\n", line.join("\n"));
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "play", "--as", "white", "--method", "rook-box", "--fen", START,
    ];
    let text = common::plain_stdout(&common::run_with_input(&args, input.as_bytes(), dir.path()));
    assert!(
        text.contains(&format!("White to move: mate in {}.", line.len())),
        "{text}"
    );
    assert!(text.contains(": throws away "), "{text}");
    assert!(text.contains("Hint (rook-box): "), "{text}");
    assert!(text.contains("\"Rz9\" is not a move"), "{text}");
    assert_eq!(
        text.matches(": the best move.").count(),
        line.len(),
        "{text}"
    );
    assert!(text.contains("The game is over: checkmate."), "{text}");
    assert!(
        text.contains(&format!(
            "You used {0} moves; perfect play mates in {0} from this start.",
            line.len()
        )),
        "{text}"
    );
    assert!(text.contains("rook-box mates in "), "{text}");
}

#[test]
fn practice_needs_a_start_white_can_win() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str]| {
        let out = common::run_with_input(args, b"", dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr
    };
    assert!(refused(&["play", "--as", "white"]).contains("needs a start"));
    let draw = refused(&[
        "play",
        "--as",
        "white",
        "--fen",
        "8/8/8/3k4/8/8/8/4K3 w - - 0 1",
    ]);
    assert!(draw.contains("does not win"), "{draw}");
    let black = refused(&[
        "play",
        "--as",
        "white",
        "--fen",
        "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
    ]);
    assert!(black.contains("White to move"), "{black}");
    let hints = refused(&["play", "--method", "rook-box"]);
    assert!(hints.contains("--as white"), "{hints}");
}
