//! The solver's counts of legal positions equal a brute-force count over all
//! placements, with shakmaty deciding legality.

use ajedrecista_tables::{Material, Tablebase, Variant, summarize};
use shakmaty::{Board, CastlingMode, Chess, Color, PositionError, Setup, Square};

/// Legal positions with white and with black to move, counting each
/// placement of identical men once.
fn brute_force(material: &Material, fixed_king: Option<Square>) -> (u64, u64) {
    let men = material.men();
    let mut counts = (0, 0);
    let mut squares = vec![Square::A1; men.len()];
    fn place(
        i: usize,
        men: &[shakmaty::Piece],
        squares: &mut [Square],
        fixed: Option<Square>,
        counts: &mut (u64, u64),
    ) {
        if i == men.len() {
            let mut board = Board::empty();
            for (&sq, &man) in squares.iter().zip(men) {
                if board.piece_at(sq).is_some() {
                    return;
                }
                board.set_piece_at(sq, man);
            }
            for turn in Color::ALL {
                let setup = Setup {
                    board: board.clone(),
                    turn,
                    ..Setup::empty()
                };
                let legal = setup
                    .position::<Chess>(CastlingMode::Standard)
                    .or_else(PositionError::ignore_impossible_check)
                    .is_ok();
                if legal {
                    match turn {
                        Color::White => counts.0 += 1,
                        Color::Black => counts.1 += 1,
                    }
                }
            }
            return;
        }
        for sq in Square::ALL {
            if i == 0 && fixed.is_some_and(|f| f != sq) {
                continue;
            }
            // Identical men: count each set of squares once.
            if i > 0 && men[i] == men[i - 1] && sq <= squares[i - 1] {
                continue;
            }
            squares[i] = sq;
            place(i + 1, men, squares, fixed, counts);
        }
    }
    place(0, men, &mut squares, fixed_king, &mut counts);
    counts
}

fn check(material: &str, variant: Variant) {
    let material: Material = material.parse().unwrap();
    let tb = Tablebase::in_memory();
    let s = summarize(&tb.table(&material, variant).unwrap());
    let fixed = match variant {
        Variant::FixedKing(sq) => Some(sq),
        Variant::Standard => None,
    };
    assert_eq!(
        (s.white.legal, s.black.legal),
        brute_force(&material, fixed),
        "{material} {variant}"
    );
    assert_eq!(s.white.legal, s.white.win + s.white.draw + s.white.loss);
    assert_eq!(s.black.legal, s.black.win + s.black.draw + s.black.loss);
}

#[test]
fn three_men() {
    for m in ["KQvK", "KRvK", "KBvK", "KNvK", "KvKR"] {
        check(m, Variant::Standard);
    }
}

#[test]
fn four_men() {
    for m in ["KQvKR", "KBBvK", "KBNvK"] {
        check(m, Variant::Standard);
    }
}

#[test]
fn fixed_king() {
    for sq in [Square::C3, Square::A1, Square::D4, Square::H5] {
        check("KQvK", Variant::FixedKing(sq));
    }
    check("KRBvK", Variant::FixedKing(Square::C3));
}
