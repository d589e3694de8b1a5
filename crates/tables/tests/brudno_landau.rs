//! Brudno and Landau's claims for the queen and the king that never moves
//! (seed 000): from c3 every start with white to move is won within 23
//! moves, and c3, c6, f6, f3 are the squares from which every start is won.

use ajedrecista_tables::{Material, Moves, Tablebase, Variant, summarize};
use shakmaty::Square;

#[test]
fn queen_mates_within_23_moves_from_c3_and_its_mirrors_only() {
    let tb = Tablebase::in_memory();
    let kqk: Material = "KQvK".parse().unwrap();
    let mut all_won = Vec::new();
    for sq in Square::ALL {
        let s = summarize(&tb.table(&kqk, Variant::FixedKing(sq)).unwrap());
        if s.white.win == s.white.legal {
            all_won.push(sq);
            let longest = s.white.longest().unwrap().0.moves().unwrap();
            assert!(longest <= Moves(23), "{sq}: {longest}");
        }
    }
    assert_eq!(all_won, [Square::C3, Square::F3, Square::C6, Square::F6]);
    let c3 = summarize(&tb.table(&kqk, Variant::FixedKing(Square::C3)).unwrap());
    assert_eq!(c3.white.longest().unwrap().0.moves(), Some(Moves(23)));
}
