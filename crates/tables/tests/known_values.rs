//! The longest mates of the classical endgames, as published.

use ajedrecista_tables::{
    Material, Moves, Plies, SideSummary, Tablebase, Value, Variant, summarize,
};
use shakmaty::ByColor;

/// The summary of the orthodox table of `material`, built in memory.
fn summary(material: &str) -> ByColor<SideSummary> {
    let tb = Tablebase::in_memory();
    let table = tb
        .table(&material.parse::<Material>().unwrap(), Variant::Standard)
        .unwrap();
    summarize(&table)
}

fn longest_moves(material: &str) -> (Moves, Moves) {
    let s = summary(material);
    let moves = |side: &SideSummary| side.longest().unwrap().0.moves().unwrap();
    (moves(&s.white), moves(&s.black))
}

#[test]
fn kqk_longest_mate_is_10() {
    assert_eq!(longest_moves("KQvK"), (Moves(10), Moves(10)));
}

#[test]
fn krk_longest_mate_is_16() {
    assert_eq!(longest_moves("KRvK"), (Moves(16), Moves(16)));
}

#[test]
fn kbbk_longest_mate_is_19() {
    assert_eq!(longest_moves("KBBvK").0, Moves(19));
}

#[test]
fn kbnk_longest_mate_is_33() {
    assert_eq!(longest_moves("KBNvK").0, Moves(33));
}

#[test]
fn knnk_has_no_forced_mate_beyond_one_move() {
    let s = summary("KNNvK");
    // White can mate only when black walks into it: a mate in one with
    // white to move, never a forced mate from further away.
    assert_eq!(s.white.longest().unwrap().0, Value::Win(1));
    assert_eq!(s.black.loss, s.black.histogram_plies[&Plies(0)]);
    // The checkmates themselves (Luiro and Tiilikainen count 120).
    assert_eq!(s.black.histogram_plies[&Plies(0)], 120);
}

#[test]
fn kqkr_longest_mate_is_35() {
    assert_eq!(longest_moves("KQvKR").0, Moves(35));
}

#[test]
fn exchanging_colours_exchanges_the_sides_to_move() {
    let tb = Tablebase::in_memory();
    for material in ["KRvK", "KQvKR", "KBvKN"] {
        let m: Material = material.parse().unwrap();
        let a = summarize(&tb.table(&m, Variant::Standard).unwrap());
        let b = summarize(&tb.table(&m.flipped(), Variant::Standard).unwrap());
        assert_eq!(a.white.legal, b.black.legal, "{material}");
        assert_eq!(
            a.white.histogram_plies, b.black.histogram_plies,
            "{material}"
        );
        assert_eq!(
            a.black.histogram_plies, b.white.histogram_plies,
            "{material}"
        );
        assert_eq!(
            (a.white.win, a.white.draw, a.white.loss),
            (b.black.win, b.black.draw, b.black.loss)
        );
    }
}
