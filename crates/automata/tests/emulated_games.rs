//! The calculator game driver replays the reference games move by move
//! (crates/mk61/tests/data/traces).

use ajedrecista_automata::{CalculatorGame, Shown};
use shakmaty::Square;

#[test]
fn queen_game_from_a8() {
    let mut game = CalculatorGame::queen().unwrap();
    let expected = [
        (Square::A8, vec![Shown::Piece(Square::D7)]),
        (Square::B8, vec![Shown::Piece(Square::C6)]),
        (Square::A7, vec![Shown::Piece(Square::C8)]),
        (Square::B6, vec![Shown::Piece(Square::D7)]),
        (Square::A5, vec![Shown::Piece(Square::B7)]),
        (Square::A4, vec![Shown::Piece(Square::B6)]),
        (Square::A3, vec![Shown::Error, Shown::Piece(Square::A6)]),
    ];
    for (king, replies) in expected {
        assert_eq!(game.play(king).replies, replies, "black king to {king}");
    }
}

#[test]
fn queen_game_from_a1() {
    let mut game = CalculatorGame::queen().unwrap();
    assert_eq!(
        game.play(Square::A1).replies,
        [Shown::MateInTwo, Shown::Piece(Square::B7)]
    );
    assert_eq!(
        game.play(Square::A2).replies,
        [Shown::MateInTwo, Shown::Piece(Square::B2)]
    );
}

#[test]
fn rook_game_1() {
    let mut game = CalculatorGame::rook(Square::E1, Square::A2).unwrap();
    let expected = [
        (Square::E5, Shown::Piece(Square::A4)),
        (Square::D6, Shown::Piece(Square::A5)),
        (Square::D7, Shown::Piece(Square::A6)),
        (Square::E7, Shown::King(Square::E2)),
        (Square::D7, Shown::King(Square::E3)),
        (Square::E7, Shown::King(Square::E4)),
        (Square::D7, Shown::King(Square::E5)),
        (Square::E7, Shown::PieceCheck(Square::A7)),
        (Square::D8, Shown::King(Square::E6)),
        (Square::E8, Shown::PieceCheck(Square::A8)),
    ];
    for (king, reply) in expected {
        assert_eq!(game.move_king(king), reply, "black king to {king}");
    }
}

#[test]
fn rook_bad_start_is_signalled() {
    // Condition 1 of seed 001: the white king must be at least two ranks
    // below the black king. Kings on e1 and e2 fail it.
    let mut game = CalculatorGame::rook(Square::E1, Square::A5).unwrap();
    assert_eq!(game.move_king(Square::E2), Shown::BadPosition);
}

#[test]
fn games_are_values() {
    let game = CalculatorGame::queen().unwrap();
    let mut one = game.clone();
    let mut two = game.clone();
    assert_eq!(one, two);
    assert_eq!(one.play(Square::A8), two.play(Square::A8));
    assert_eq!(one, two);
    two.play(Square::B8);
    assert_ne!(one, two);
}

/// Waiting before a key turns the idle ring; `canonical` undoes that, and
/// where the ring stands does not change what the programs answer.
#[test]
fn canonical_games_ignore_how_far_the_idle_ring_turned() {
    let moves = [Square::A7, Square::B7, Square::C8, Square::G1, Square::E6];
    for start in [Square::A8, Square::H1, Square::E5, Square::D1] {
        let mut game = CalculatorGame::queen().unwrap();
        game.play(start);
        let canonical = game.canonical();
        let answers: Vec<_> = moves.iter().map(|&to| game.clone().play(to)).collect();
        for wait in [1, 7, 13, 29, 30, 31, 560] {
            let mut waited = game.clone();
            waited.wait(wait);
            assert_eq!(
                waited.canonical(),
                canonical,
                "{start} after waiting {wait}"
            );
            let waited_answers: Vec<_> = moves.iter().map(|&to| waited.clone().play(to)).collect();
            assert_eq!(waited_answers, answers, "{start} after waiting {wait}");
            let canonical_answers: Vec<_> =
                moves.iter().map(|&to| canonical.clone().play(to)).collect();
            assert_eq!(canonical_answers, answers);
        }
    }
}
