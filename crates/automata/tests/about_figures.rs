//! The figures the catalog's About texts (and audit notes) quote are the
//! claims data's (data/claims.json, re-measured by tests/claims.rs), so
//! that a text cannot drift from what the audit and the tables measure.
//! A number in a text is either a figure of a claim about that machine or
//! listed below as no figure, with the reason.

use ajedrecista_automata::app::{CLAIMS, Check};
use ajedrecista_automata::{CATALOG, CatalogEntry, StrategyName};
use ajedrecista_tables::Material;
use shakmaty::{Board, Color, Role, Square};

/// Numbers in the texts that are no measured figure: (machine, numbers,
/// why).
const NOT_FIGURES: &[(&str, &[u64], &str)] = &[
    ("torres", &[1912, 4], "the year; the rules' numbering"),
    (
        "mk61-queen",
        &[1987, 54],
        "the year; its starts with Black to move (counted in tests/emulated_queen.rs)",
    ),
    (
        "mk61-rook",
        &[1987, 11, 88, 9],
        "the year; squares as the calculator writes them; its signal 9------0.",
    ),
    (
        "mk61-rook-native",
        &[1987, 11, 88, 9],
        "the year; squares as the calculator writes them; its signal 9------0.",
    ),
    (
        "mk61-rook-native-turning",
        &[1987, 11, 88, 9],
        "the year; squares as the calculator writes them; its signal 9------0.",
    ),
    ("bishop-knight", &[1923], "the year"),
    (
        "perfect",
        &[15],
        "an example of the wording \"mates in 15\"",
    ),
];

/// The numbers a text states: digit runs not part of a word or a square
/// (`d6`, `MK-61`, the `0` of `9------0.`), a run of up to three digits
/// taking the groups of three that follow it after a space (`1 359 578`).
fn numbers(text: &str) -> Vec<u64> {
    let chars: Vec<char> = text.chars().collect();
    let digits_at = |from: usize| {
        chars[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let after_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '-');
        let run = digits_at(i);
        if run == 0 || after_word {
            i += run.max(1);
            continue;
        }
        let mut number: String = chars[i..i + run].iter().collect();
        i += run;
        while run <= 3 && chars.get(i) == Some(&' ') && i + 1 < chars.len() && digits_at(i + 1) == 3
        {
            number.extend(&chars[i + 1..i + 4]);
            i += 4;
        }
        found.push(number.parse().expect("digits"));
    }
    found
}

/// The material of the machine's game: its white men against the lone
/// king.
fn material(entry: &CatalogEntry) -> Material {
    let board: Board = entry.white_men.parse().expect("the white men");
    let mut name = String::from("K");
    for role in [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        let count = (board.by_color(Color::White) & board.by_role(role)).count();
        name.extend(std::iter::repeat_n(role.upper_char(), count));
    }
    name.push_str("vK");
    name.parse().expect("a material")
}

/// The figures the claims give about a machine: those of its audits (and
/// the starts it mates from, its starts less its failures), and those of
/// the tables of its game (its material, its fixed king if it has one).
fn figures_about(entry: &CatalogEntry) -> Vec<u64> {
    let name = StrategyName::named(entry.name).expect("a catalog name");
    let fixed_king: Option<Square> = entry.calculator.and_then(|program| program.fixed_king());
    let mut figures = Vec::new();
    for claim in CLAIMS.iter() {
        let about_it = match &claim.check {
            Check::Audit { strategy, .. } => *strategy == name,
            Check::Longest {
                material: of,
                fixed_king: king,
                ..
            } => of.parse::<Material>().ok() == Some(material(entry)) && *king == fixed_king,
            Check::WinningSquares { .. } => false,
        };
        if about_it {
            figures.extend(claim.figures.values());
            if let (Some(starts), Some(failures)) =
                (claim.figures.get("starts"), claim.figures.get("failures"))
            {
                figures.push(starts - failures);
            }
        }
    }
    figures
}

fn texts(entry: &CatalogEntry) -> impl Iterator<Item = &'static str> {
    entry.about.text.into_iter().chain(entry.audit_note)
}

fn not_figures(entry: &CatalogEntry) -> &'static [u64] {
    NOT_FIGURES
        .iter()
        .find(|(name, _, _)| *name == entry.name)
        .map_or(&[], |(_, numbers, _)| numbers)
}

#[test]
fn numbers_are_read_as_a_reader_reads_them() {
    assert_eq!(
        numbers("of 1 359 578 starts, 4 446 mate; rule 4: tempo, 1912, in 15 moves"),
        [1_359_578, 4446, 4, 1912, 15]
    );
    assert_eq!(numbers("king d6, MK-61, 9------0. and 11 = a1"), [9, 11]);
}

#[test]
fn every_figure_an_about_text_quotes_is_the_claims_data() {
    let mut quoted = 0;
    for entry in CATALOG {
        let figures = figures_about(entry);
        for text in texts(entry) {
            for number in numbers(text) {
                if figures.contains(&number) {
                    quoted += 1;
                } else {
                    assert!(
                        not_figures(entry).contains(&number),
                        "{}: {number} in {text:?} is no figure of its claims ({figures:?})",
                        entry.name
                    );
                }
            }
        }
    }
    // The machines with claims quote them: torres 66 and 15, the methods
    // their worst cases, the queen program its 23 and 35.
    assert!(quoted >= 14, "only {quoted} figures quoted");
}

#[test]
fn every_number_listed_as_no_figure_stands_in_its_text() {
    for (name, listed, _) in NOT_FIGURES {
        let entry = CATALOG
            .iter()
            .find(|entry| entry.name == *name)
            .unwrap_or_else(|| panic!("{name} is not in the catalog"));
        let found: Vec<u64> = texts(entry).flat_map(numbers).collect();
        for number in *listed {
            assert!(found.contains(number), "{name}: {number} is in no text");
        }
    }
}
