//! Published figures for endgames with pawns (Nalimov's and Gaviota's
//! tables, as surveyed, posted and listed by others), read from
//! `tests/data/published_pawns.tsv` and checked against our tables.
//! Sources and conventions: docs/guide/src/results/published-pawns.md, "Published figures (pawns)".
//!
//! The tables of up to four men are built in memory (25 s of CPU), and
//! KRPvKR into a new cache folder (a minute and a half of two cores). The
//! other five-man ones take as long each: their tests are ignored and read
//! the cache folder (`$AJEDRECISTA_TABLES`), one test a material, e.g.
//! `AJEDRECISTA_TABLES=DIR cargo test -p ajedrecista-tables --release
//! --test published_pawns -- --ignored knnvkp`.

use std::{
    collections::{HashMap, HashSet},
    sync::OnceLock,
};

use ajedrecista_tables::{Material, Plies, SideSummary, SliceIndexer, Tablebase, Value, Variant};
use rayon::prelude::*;
use shakmaty::{ByColor, CastlingMode, Chess, Color, Position, PositionError, fen::Fen};

fn in_memory() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(Tablebase::in_memory)
}

/// The cache folder's tablebase, for the five-man tables.
fn cached() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| Tablebase::new(None))
}

/// One published figure.
struct Figure {
    material: Material,
    turn: String,
    figure: String,
    value: u64,
    fen: String,
    source: String,
}

fn figures() -> Vec<Figure> {
    include_str!("data/published_pawns.tsv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 7, "{line}");
            Figure {
                material: fields[0].parse().expect(fields[0]),
                turn: fields[1].to_string(),
                figure: fields[2].to_string(),
                value: fields[3].parse().expect(fields[3]),
                fen: fields[4].to_string(),
                source: fields[5].to_string(),
            }
        })
        .collect()
}

/// The plies of a longest win or loss of one side's summary, 0 if none.
fn plies(longest: Option<(Value, usize)>) -> u64 {
    longest
        .and_then(|(value, _)| value.plies())
        .map_or(0, |plies| u64::from(plies.0))
}

/// Checks one figure; `summaries` keeps each table's summary (a five-man
/// one takes a quarter of a minute).
fn check(tb: &Tablebase, figure: &Figure, summaries: &mut HashMap<Material, ByColor<SideSummary>>) {
    let what = format!(
        "{} {} {} {} ({})",
        figure.material, figure.turn, figure.figure, figure.value, figure.source
    );
    if figure.figure == "fen_plies" {
        let pos: Chess = figure
            .fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(
            Material::from_board(pos.board()).unwrap().canonical(),
            figure.material,
            "{what}"
        );
        assert_eq!(
            tb.probe(&pos, Variant::Standard).unwrap(),
            Value::decisive(u16::try_from(figure.value).unwrap()),
            "{what}"
        );
        return;
    }
    let summary = summaries.entry(figure.material.clone()).or_insert_with(|| {
        tb.summary(&figure.material, Variant::Standard, &|_, _| {})
            .unwrap()
            .1
    });
    let sides: Vec<&SideSummary> = match figure.turn.as_str() {
        "white" => vec![&summary.white],
        "black" => vec![&summary.black],
        "any" => vec![&summary.white, &summary.black],
        other => panic!("turn {other:?} in {what}"),
    };
    let ours = sides
        .iter()
        .map(|side| plies(side.longest()))
        .max()
        .unwrap();
    match figure.figure.as_str() {
        "longest_plies" => assert_eq!(ours, figure.value, "{what}"),
        "longest_win_plies" => {
            let ours = sides
                .iter()
                .map(|side| plies(side.longest_win))
                .max()
                .unwrap();
            assert_eq!(ours, figure.value, "{what}");
        }
        "at_most_plies" => assert!(ours <= figure.value, "{what}: ours {ours}"),
        // Rounded figures: ours must round to the published one.
        "legal_millions" => {
            let legal: u64 = sides.iter().map(|side| side.legal).sum();
            assert_rounds_to(legal as f64 / 1e6, figure.value, &what);
        }
        "win_per_mille" | "draw_per_mille" | "loss_per_mille" => {
            let [side] = sides[..] else {
                panic!("{what}: one side to move")
            };
            let count = match figure.figure.as_str() {
                "win_per_mille" => side.win,
                "draw_per_mille" => side.draw,
                _ => side.loss,
            };
            assert_rounds_to(
                1000.0 * count as f64 / side.legal as f64,
                figure.value,
                &what,
            );
        }
        // Each published position stands for itself and its mirror image
        // (the pawn is never on the middle line): two placements here.
        "longest_positions" => {
            let [side] = sides[..] else {
                panic!("{what}: one side to move")
            };
            let longest = Plies(u16::try_from(plies(side.longest())).unwrap());
            assert_eq!(side.histogram_plies[&longest], 2 * figure.value, "{what}");
        }
        other => panic!("figure {other:?} in {what}"),
    }
}

/// `ours` rounds to `published` (a figure given to whole units).
fn assert_rounds_to(ours: f64, published: u64, what: &str) {
    assert!(
        (ours - published as f64).abs() <= 0.5,
        "{what}: ours {ours:.3}"
    );
}

fn check_all(tb: &Tablebase, select: impl Fn(&Material) -> bool) {
    let figures: Vec<Figure> = figures()
        .into_iter()
        .filter(|f| select(&f.material))
        .collect();
    assert!(!figures.is_empty());
    let mut summaries = HashMap::new();
    for figure in &figures {
        check(tb, figure, &mut summaries);
    }
}

fn is(name: &str) -> impl Fn(&Material) -> bool {
    let wanted: Material = name.parse().unwrap();
    move |material| *material == wanted
}

/// KPvK, and the four-man tables with a man on each side: KPvKP and the
/// tables its promotions lead into (KQvKP, KRvKP, KBvKP, KNvKP).
fn is_versus(material: &Material) -> bool {
    material.len() == 3 || (material.len() == 4 && !material.is_bare(Color::Black))
}

#[test]
fn kpvk_kqvkp_krvkp_kpvkp_match_the_published_figures() {
    check_all(in_memory(), is_versus);
}

/// KQPvK, KRPvK, KBPvK, KNPvK and KPPvK.
#[test]
fn four_men_against_a_bare_king_match_the_published_figures() {
    check_all(in_memory(), |m| m.len() == 4 && m.is_bare(Color::Black));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn knnvkp_matches_the_published_figures() {
    check_all(cached(), is("KNNvKP"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kqpvkq_matches_the_published_figures() {
    check_all(cached(), is("KQPvKQ"));
}

/// The one five-man material built here, in a new cache folder, so that
/// every test run (CI's too) checks a five-man table with pawns: KRPvKR,
/// the rook ending, and the tables its moves lead into take about a
/// minute and a half of two cores (docs/guide/src/results/published-pawns.md, "Published figures
/// (pawns)").
#[test]
fn krpvkr_matches_the_published_figures() {
    let dir = tempfile::tempdir().unwrap();
    check_all(
        &Tablebase::new(Some(dir.path().to_path_buf())),
        is("KRPvKR"),
    );
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn krpvkb_matches_the_published_figures() {
    check_all(cached(), is("KRPvKB"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kbpvkn_matches_the_published_figures() {
    check_all(cached(), is("KBPvKN"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn knpvkn_matches_the_published_figures() {
    check_all(cached(), is("KNPvKN"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kbpvkb_matches_the_published_figures() {
    check_all(cached(), is("KBPvKB"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kbpvkr_matches_the_published_figures() {
    check_all(cached(), is("KBPvKR"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn knpvkb_matches_the_published_figures() {
    check_all(cached(), is("KNPvKB"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kqpvkb_matches_the_published_figures() {
    check_all(cached(), is("KQPvKB"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kqpvkn_matches_the_published_figures() {
    check_all(cached(), is("KQPvKN"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kbbvkp_matches_the_published_figures() {
    check_all(cached(), is("KBBvKP"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn kbnvkp_matches_the_published_figures() {
    check_all(cached(), is("KBNvKP"));
}

#[test]
#[ignore = "five men: the table and its subtables take minutes (AJEDRECISTA_TABLES)"]
fn krpvkn_matches_the_published_figures() {
    check_all(cached(), is("KRPvKN"));
}

#[test]
#[ignore = "needs every five-man pawn table in the cache (its promotions lead into all 49 others): `solve --all 5` first"]
fn kppvkp_matches_the_published_figures() {
    check_all(cached(), is("KPPvKP"));
}

/// KBPvK's longest win is 31 moves here and 32 in one quote of Kryukov's
/// page (docs/guide/src/results/published-pawns.md): every position of the table is checked against
/// its children (the minimax rule), which makes the table the true
/// distance to mate, given the tables its captures and promotions lead
/// into.
#[test]
#[ignore = "exhaustive: every KBPvK position against its children (minutes)"]
fn kbpvk_agrees_with_its_children_everywhere() {
    let tb = in_memory();
    let material: Material = "KBPvK".parse().unwrap();
    let table = tb.pawn_table(&material).unwrap();
    let size = SliceIndexer::shared(&material).size();
    let summary = table.summarize();
    for turn in [Color::White, Color::Black] {
        let checked: usize = (0..size)
            .into_par_iter()
            .filter_map(|index| table.fen(index, turn))
            .map(|fen| {
                let pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .or_else(PositionError::ignore_impossible_check)
                    .unwrap();
                let value = tb.probe(&pos, Variant::Standard).unwrap();
                let moves = tb.moves(&pos, Variant::Standard).unwrap();
                let expected = match moves.first() {
                    Some((_, best)) => *best,
                    None if pos.is_check() => Value::Loss(0),
                    None => Value::Draw,
                };
                assert_eq!(value, expected, "{fen}");
                1
            })
            .sum();
        // Each number stands for a placement and its mirror image.
        assert_eq!(2 * checked as u64, summary.get(turn).legal, "{turn:?}");
    }
}

/// Every five-man material of the data has its own test above.
#[test]
fn each_five_man_material_has_a_test() {
    let source = include_str!("published_pawns.rs");
    for figure in figures().iter().filter(|f| f.material.len() == 5) {
        let name = figure.material.to_string().to_lowercase();
        assert!(
            source.contains(&format!("fn {name}_matches_the_published_figures")),
            "{name}"
        );
    }
}

/// The data file names the endings the issue asks for: KPvK, KQvKP, KRvKP
/// and KPvKP, and at least four five-man pawn endings, each with an exact
/// figure (not a bound).
#[test]
fn the_data_covers_the_asked_endings() {
    let exact: HashSet<Material> = figures()
        .into_iter()
        .filter(|f| f.figure != "at_most_plies")
        .map(|f| f.material)
        .collect();
    for material in ["KPvK", "KQvKP", "KRvKP", "KPvKP"] {
        assert!(exact.contains(&material.parse().unwrap()), "{material}");
    }
    let five = exact.iter().filter(|m| m.len() == 5).count();
    assert!(five >= 4, "{exact:?}");
}
