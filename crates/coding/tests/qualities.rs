//! Pure, economical, model and ideal; men that take part and men needed.

use ajedrecista_coding::{FinalPosition, parse_position};
use shakmaty::Square;

fn analyse(fen: &str) -> FinalPosition {
    FinalPosition::analyse(parse_position(fen).unwrap()).unwrap()
}

/// Example 2: a double check is pure when each check could be parried
/// alone (Re5-d5 against the bishop, Qe3-d4 against the rook).
#[test]
fn needed_double_check_is_pure() {
    let fp = analyse("B7/8/8/4rb2/2R1k3/4q3/2K5/8 b - - 0 1");
    assert!(fp.is_pure() && fp.is_ideal());
}

/// Rook and knight check a bare king: the rook's check alone cannot be
/// parried by another man, so the knight's check is not needed.
#[test]
fn needless_double_check_is_impure() {
    let fp = analyse("k7/2K5/1N6/8/8/8/8/R7 b - - 0 1");
    assert_eq!(fp.code().to_string(), "K13-(13)3KK-18");
    assert!(!fp.is_pure() && !fp.is_model());
}

/// A square guarded twice makes a mate impure.
#[test]
fn double_guard_is_impure() {
    // Qh7 is protected by the king on g6, which also guards g7.
    let fp = analyse("7k/7Q/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(fp.code().to_string(), "K4-44(K4)K-88");
    assert!(!fp.is_pure());
}

/// A far king takes no part: model but not ideal, and not written in A.
#[test]
fn far_king_takes_no_part() {
    let fp = analyse("8/8/8/8/8/8/2Q5/k2K4 b - - 0 1");
    assert_eq!(fp.code().to_string(), "4-П444-11");
    assert!(fp.is_model() && !fp.is_ideal());
}

/// The pawn on e7 shields its own bishop's line to the white king: it takes
/// no part in the code but is needed.
#[test]
fn shield_is_needed_but_not_written() {
    let fp = analyse("rnb2b2/4p3/1p3k2/1P1p2p1/1K4P1/3q4/8/8 w - - 1 25");
    assert!(fp.needed().contains(Square::E7));
    assert!(!fp.participants().contains(Square::E7));
    assert!(fp.participants().contains(Square::G5), "blocks the g4 pawn");
    assert!(fp.participants().contains(Square::G4), "blocked by g5");
}
