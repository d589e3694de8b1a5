//! Tables with pawns: legal counts against a brute force over all
//! placements, the published longest mates, and minimax consistency on
//! random positions, en passant rights and promotions included.

use std::sync::OnceLock;

use ajedrecista_tables::{Material, Plies, Tablebase, Value, Variant};
use proptest::prelude::*;

mod common;
use common::{board_of, legal, squares};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Square, fen::Fen};

fn tablebase() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(Tablebase::in_memory)
}

/// Legal positions (white to move, black to move) over all placements of
/// the men, shakmaty deciding legality.
fn brute_force(material: &Material) -> (u64, u64) {
    let men = material.men();
    let mut counts = (0, 0);
    let total = 64usize.pow(men.len() as u32);
    for code in 0..total {
        let squares = (0..men.len()).map(|i| Square::new((code >> (6 * i) & 63) as u32));
        let Some(board) = board_of(material, squares) else {
            continue;
        };
        counts.0 += u64::from(legal(&board, Color::White, None).is_some());
        counts.1 += u64::from(legal(&board, Color::Black, None).is_some());
    }
    counts
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn legal_counts_equal_a_brute_force(material: &str) {
    let material: Material = material.parse().unwrap();
    let summary = tablebase().pawn_table(&material).unwrap().summarize();
    let (white, black) = brute_force(&material);
    assert_eq!(summary.white.legal, white);
    assert_eq!(summary.black.legal, black);
}

#[test]
fn kpvk_legal_counts_equal_a_brute_force() {
    legal_counts_equal_a_brute_force("KPvK");
}

#[test]
fn kqvkp_legal_counts_equal_a_brute_force() {
    legal_counts_equal_a_brute_force("KQvKP");
}

#[test]
fn kpvkp_legal_counts_equal_a_brute_force() {
    legal_counts_equal_a_brute_force("KPvKP");
}

/// Published (Helmut Conrady's survey of every Nalimov 3-5-man table,
/// Computer Chess Club, 1 June 2000): the longest 4-man mate is KR-KP's,
/// 85 plies. Here it is the pawn's side, to move, that mates: it promotes.
#[test]
fn krvkp_longest_mate_is_the_published_one() {
    let table = tablebase().pawn_table(&"KRvKP".parse().unwrap()).unwrap();
    let summary = table.summarize();
    assert_eq!(summary.black.longest().unwrap().0, Value::Win(85));
    assert!(summary.white.longest().unwrap().0.plies() < Some(Plies(85)));
}

/// Published (Guido, kirill-kryukov.com forum, "Longest Mate in kqk",
/// from Nalimov's tables): KPK white to move wins in at most 28 moves, from
/// Ka2 Pg2 kb5, Kb2 Pg2 kb5 and Ka3 Pg2 kb5; black to move loses in at most
/// 28 moves, from Ka3 Pg2 ka5 and Ka3 Pg2 ka6. Those are up to the mirror,
/// so each is two placements here.
#[test]
fn kpvk_longest_mates_are_the_published_ones() {
    let tb = tablebase();
    let table = tb.pawn_table(&"KPvK".parse().unwrap()).unwrap();
    let summary = table.summarize();
    assert_eq!(summary.white.longest().unwrap().0, Value::Win(55));
    assert_eq!(summary.white.histogram_plies[&Plies(55)], 3 * 2);
    assert_eq!(summary.black.longest().unwrap().0, Value::Loss(56));
    assert_eq!(summary.black.histogram_plies[&Plies(56)], 2 * 2);
    for fen in [
        "8/8/8/1k6/8/8/K5P1/8 w - - 0 1",
        "8/8/8/1k6/8/8/1K4P1/8 w - - 0 1",
        "8/8/8/1k6/8/K7/6P1/8 w - - 0 1",
    ] {
        assert_eq!(
            tb.probe(&pos(fen), Variant::Standard).unwrap(),
            Value::Win(55)
        );
    }
    for fen in [
        "8/8/8/k7/8/K7/6P1/8 b - - 0 1",
        "8/8/k7/8/8/K7/6P1/8 b - - 0 1",
    ] {
        assert_eq!(
            tb.probe(&pos(fen), Variant::Standard).unwrap(),
            Value::Loss(56)
        );
    }
}

/// A position with an en passant right is valued from its moves: here
/// taking en passant is the only way to stop the pawn (white Kh1, black Ka8,
/// white pawn just arrived on b4 from b2, black pawn on c4).
#[test]
fn en_passant_is_valued_at_probe_time() {
    let tb = tablebase();
    let with_ep = pos("k7/8/8/8/1Pp5/8/8/7K b - b3 0 1");
    let without = pos("k7/8/8/8/1Pp5/8/8/7K b - - 0 1");
    let value = tb.probe(&with_ep, Variant::Standard).unwrap();
    let best = tb.moves(&with_ep, Variant::Standard).unwrap()[0];
    assert_eq!(value, best.1);
    assert!(best.0.is_en_passant() || value == tb.probe(&without, Variant::Standard).unwrap());
    check_consistent(&with_ep).unwrap();
}

#[test]
fn a_colour_flipped_twin_reads_the_same_table() {
    let tb = tablebase();
    let white = pos("8/8/8/1k6/8/8/K5P1/8 w - - 0 1");
    let black = pos("8/k5p1/8/8/1K6/8/8/8 b - - 0 1");
    assert_eq!(
        tb.probe(&white, Variant::Standard).unwrap(),
        tb.probe(&black, Variant::Standard).unwrap()
    );
}

/// A position of `material` from random squares, with black or white to
/// move and, when `ep_file` names a file where the side not to move has
/// just made a double step, that en passant right.
fn position(material: &Material, numbers: &[u8], black: bool, ep_file: u8) -> Option<Chess> {
    let board = board_of(material, squares(numbers))?;
    let turn = if black { Color::Black } else { Color::White };
    let plain = legal(&board, turn, None)?;
    let ep_rank = if black { 2 } else { 5 };
    let with_ep = legal(
        &board,
        turn,
        Some(Square::from_coords(
            shakmaty::File::new(u32::from(ep_file % 8)),
            shakmaty::Rank::new(ep_rank),
        )),
    );
    Some(with_ep.unwrap_or(plain))
}

fn check_consistent(pos: &Chess) -> Result<(), TestCaseError> {
    check_consistent_in(tablebase(), pos)
}

/// A tablebase on the cache folder (`$AJEDRECISTA_TABLES`, else the
/// user's), for the five-man checks: their tables take minutes to build.
fn cached_tablebase() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| Tablebase::new(None))
}

fn check_consistent_in(tb: &Tablebase, pos: &Chess) -> Result<(), TestCaseError> {
    let value = tb.probe(pos, Variant::Standard).unwrap();
    let moves = tb.moves(pos, Variant::Standard).unwrap();
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let expected = if moves.is_empty() {
        if pos.is_check() {
            Value::Loss(0)
        } else {
            Value::Draw
        }
    } else {
        moves[0].1
    };
    prop_assert_eq!(value, expected, "{}", fen);
    Ok(())
}

fn consistency(material: &str) -> impl Strategy<Value = Option<Chess>> {
    let material: Material = material.parse().unwrap();
    let n = material.len();
    (prop::collection::vec(0u8..64, n), any::<bool>(), 0u8..8)
        .prop_map(move |(squares, black, ep)| position(&material, &squares, black, ep))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn kpvk_values_agree_with_their_children(pos in consistency("KPvK")) {
        if let Some(pos) = pos {
            check_consistent(&pos)?;
        }
    }

    #[test]
    fn kqvkp_values_agree_with_their_children(pos in consistency("KQvKP")) {
        if let Some(pos) = pos {
            check_consistent(&pos)?;
        }
    }

    #[test]
    fn kpvkp_values_agree_with_their_children(pos in consistency("KPvKP")) {
        if let Some(pos) = pos {
            check_consistent(&pos)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Five men with pawns: KRPvKR and the four five-man pawnless tables
    /// its promotions lead into take minutes to build, so this runs on
    /// demand, on the cache folder:
    /// `cargo test -p ajedrecista-tables --test pawns -- --ignored`.
    #[test]
    #[ignore = "builds or reads five-man tables (minutes to build)"]
    fn krpvkr_values_agree_with_their_children(pos in consistency("KRPvKR")) {
        if let Some(pos) = pos {
            check_consistent_in(cached_tablebase(), &pos)?;
        }
    }

    /// As KRPvKR, for KQPvKQ.
    #[test]
    #[ignore = "builds or reads five-man tables (minutes to build)"]
    fn kqpvkq_values_agree_with_their_children(pos in consistency("KQPvKQ")) {
        if let Some(pos) = pos {
            check_consistent_in(cached_tablebase(), &pos)?;
        }
    }
}
