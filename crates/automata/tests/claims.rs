//! The claims data (data/claims.json): every row's figures re-measured by
//! the domain call of its command, and the tables of README and
//! the guide (docs/guide/src/results/claims.md) made of the rows.

use std::sync::{Arc, LazyLock};

use ajedrecista_automata::app::CLAIMS;
use ajedrecista_tables::Tablebase;

static TABLES: LazyLock<Arc<Tablebase>> = LazyLock::new(|| Arc::new(Tablebase::in_memory()));

/// Measures row `index` and compares every figure it states.
fn row(index: usize) {
    let claim = &CLAIMS[index];
    let measured = claim
        .measure(&TABLES)
        .unwrap_or_else(|err| panic!("{}: {err}", claim.claim));
    assert!(!claim.figures.is_empty(), "{}: no figures", claim.claim);
    for (name, expected) in &claim.figures {
        assert_eq!(
            measured.get(name),
            Some(expected),
            "{}: {name} (measured {measured:?})",
            claim.claim
        );
    }
}

#[test]
fn every_row_has_a_test() {
    assert_eq!(
        CLAIMS.len(),
        11,
        "a row added to claims.json needs its test here"
    );
}

#[test]
fn torres_mates_in_66_not_63() {
    row(0);
}

#[test]
fn the_longest_krk_mate_is_16() {
    row(1);
}

#[test]
fn torres_lasts_beyond_move_50_from_28_starts() {
    row(2);
}

#[test]
fn the_box_method_mates_from_every_start_in_35() {
    row(3);
}

#[test]
fn the_queen_method_mates_from_every_start_in_19() {
    row(4);
}

/// The four-men audits take about a minute together on the shared 2-core
/// machine: run with `--ignored`, as the long emulator audits are.
#[test]
#[ignore = "about a minute: the whole KBBK audit; run with --ignored"]
fn the_bishops_method_mates_from_every_start_white_wins_312951_of_313016() {
    row(5);
}

#[test]
#[ignore = "about a minute: the whole KBNK audit; run with --ignored"]
fn deletangs_method_mates_from_every_start_white_wins_1352913_of_1359578() {
    row(6);
}

#[test]
fn the_rook_program_shows_a_wrong_position_from_1620_starts() {
    row(7);
}

#[test]
fn the_queen_program_moves_illegally_from_4_placements() {
    row(8);
}

#[test]
fn a_king_fixed_on_c3_mates_within_23() {
    row(9);
}

#[test]
fn only_c3_and_its_mirrors_win_every_start() {
    row(10);
}

/// The claims table of `text` (README, the guide's Results): the data's rows,
/// in order, and nothing else.
fn assert_table_is_the_data(text: &str, what: &str) {
    let header = "| claim (source) | finding | command |\n|---|---|---|\n";
    let start = text
        .find(header)
        .unwrap_or_else(|| panic!("{what} has no claims table"))
        + header.len();
    let table: Vec<&str> = text[start..]
        .lines()
        .take_while(|line| line.starts_with('|'))
        .collect();
    let rows: Vec<String> = CLAIMS.iter().map(|claim| claim.readme_row()).collect();
    assert_eq!(table, rows, "{what}");
}

#[test]
fn the_readme_table_is_the_claims_data() {
    assert_table_is_the_data(include_str!("../../../README.md"), "README.md");
}

#[test]
fn the_guides_table_is_the_claims_data() {
    assert_table_is_the_data(
        include_str!("../../../docs/guide/src/results/claims.md"),
        "docs/guide/src/results/claims.md",
    );
}
