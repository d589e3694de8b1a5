//! The brochure's fairy examples 5-14 (tests/data/gk-examples.tsv with the
//! conditions of tests/data/fairy-examples.tsv): FP and ЭП codes, and the
//! ЭП is a legal final position that codes to itself.

mod common;

use ajedrecista_coding::fairy::{FairyFinal, FairyPosition, Rules, parse_popeye_problems};

struct Example {
    number: u32,
    fen: String,
    printed_fp: String,
    printed_ep: String,
    rules: Rules,
    fp_by_rules: Option<String>,
}

fn examples() -> Vec<Example> {
    let printed = common::rows(include_str!("data/gk-examples.tsv"));
    common::rows(include_str!("data/fairy-examples.tsv"))
        .into_iter()
        .map(|fields| {
            let number: u32 = fields[0].parse().unwrap();
            let row = printed
                .iter()
                .find(|row| row[0] == fields[0])
                .expect("the example is in gk-examples.tsv");
            Example {
                number,
                fen: row[1].to_owned(),
                printed_fp: row[2].to_owned(),
                printed_ep: row[3].to_owned(),
                rules: common::rules(fields[1]),
                fp_by_rules: (fields[2] != "-").then(|| fields[2].to_owned()),
            }
        })
        .collect()
}

/// The code as the OCR copy prints it: the blocking king as K, black
/// fairy pieces without their underline.
fn as_printed(code: &str) -> String {
    code.replace("K'", "K").replace('\u{332}', "")
}

#[test]
fn fp_codes_of_examples_5_to_14() {
    for example in examples() {
        let position = FairyPosition::from_fen(&example.fen, example.rules.clone())
            .unwrap_or_else(|e| panic!("example {}: {e}", example.number));
        let fp = FairyFinal::analyse(position)
            .unwrap_or_else(|e| panic!("example {}: {e}", example.number));
        // The brochure's examples are ideal mates and stalemates.
        assert!(fp.is_ideal(), "example {} is ideal", example.number);
        let expected = example.fp_by_rules.as_ref().unwrap_or(&example.printed_fp);
        assert_eq!(
            as_printed(&fp.code().to_string()),
            *expected,
            "FP of example {}",
            example.number
        );
    }
}

#[test]
fn ep_codes_of_examples_5_to_14() {
    for example in examples() {
        let position = FairyPosition::from_fen(&example.fen, example.rules.clone()).unwrap();
        let fp = FairyFinal::analyse(position).unwrap();
        let etalon = fp
            .etalon()
            .unwrap_or_else(|e| panic!("example {}: {e}", example.number));
        assert_eq!(
            as_printed(&etalon.code().to_string()),
            example.printed_ep,
            "ЭП of example {} ({})",
            example.number,
            etalon.fen()
        );
        // The ЭП FEN is legal under the conditions, final, and its own ЭП.
        let again = FairyPosition::from_fen(&etalon.fen(), example.rules.clone())
            .unwrap_or_else(|e| panic!("ЭП of example {}: {e}", example.number));
        let again = FairyFinal::analyse(again).unwrap();
        assert_eq!(again.kind(), fp.kind());
        assert_eq!(
            again.etalon().unwrap().code(),
            etalon.code(),
            "example {}",
            example.number
        );
    }
}

/// The orthodox examples 1-4 read by the fairy model give the codes the
/// shakmaty path gives (and the brochure prints, but for the FP-4 misprint).
#[test]
fn the_fairy_model_codes_orthodox_examples_like_shakmaty() {
    let rows: Vec<Vec<&str>> = common::rows(include_str!("data/gk-examples.tsv"))
        .into_iter()
        .filter(|fields| fields[4] == "yes")
        .collect();
    assert_eq!(rows.len(), 4);
    for fields in rows {
        let orthodox = ajedrecista_coding::FinalPosition::analyse(
            ajedrecista_coding::parse_position(fields[1]).unwrap(),
        )
        .unwrap();
        let fairy =
            FairyFinal::analyse(FairyPosition::from_fen(fields[1], Rules::default()).unwrap())
                .unwrap();
        assert_eq!(fairy.code(), orthodox.code(), "FP of example {}", fields[0]);
        assert_eq!(
            fairy.etalon().unwrap().code(),
            orthodox.etalon().unwrap().code(),
            "ЭП of example {}",
            fields[0]
        );
    }
}

/// Examples 1-14 as one Popeye file of problems joined by `NextProblem`
/// (tests/data/popeye-examples.txt, each with its printed stipulation):
/// every problem is read apart, its side to play from its stipulation
/// alone, and gives the example's position, conditions and codes.
#[test]
fn examples_1_to_14_read_from_one_popeye_file() {
    let problems = parse_popeye_problems(include_str!("data/popeye-examples.txt"));
    let rows = common::rows(include_str!("data/gk-examples.tsv"));
    assert_eq!(problems.len(), 14);
    let fairy = examples();
    for (problem, fields) in problems.into_iter().zip(rows) {
        let number = fields[0];
        let problem = problem.unwrap_or_else(|e| panic!("example {number}: {e}"));
        let example = fairy.iter().find(|e| e.number.to_string() == number);
        let rules = example.map_or_else(Rules::default, |e| e.rules.clone());
        // The FEN's first two fields: board and side to move.
        let fen: Vec<&str> = fields[1].split_whitespace().take(2).collect();
        assert_eq!(problem.position.fen(), fen.join(" "), "example {number}");
        assert_eq!(problem.position.rules(), &rules, "example {number}");
        let fp = FairyFinal::analyse(problem.position).unwrap();
        let etalon = fp.etalon().unwrap();
        match example {
            // Fairy: the printed codes, as the FEN route gives them above.
            Some(example) => {
                let printed = example.fp_by_rules.as_ref().unwrap_or(&example.printed_fp);
                assert_eq!(
                    as_printed(&fp.code().to_string()),
                    *printed,
                    "example {number}"
                );
                assert_eq!(
                    as_printed(&etalon.code().to_string()),
                    example.printed_ep,
                    "example {number}"
                );
            }
            // Orthodox: the codes of the FEN route.
            None => {
                let position = ajedrecista_coding::parse_position(fields[1]).unwrap();
                let orthodox = ajedrecista_coding::FinalPosition::analyse(position).unwrap();
                assert_eq!(fp.code(), orthodox.code(), "FP of example {number}");
                assert_eq!(
                    etalon.code(),
                    orthodox.etalon().unwrap().code(),
                    "ЭП of example {number}"
                );
            }
        }
    }
}
