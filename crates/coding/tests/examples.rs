//! The worked examples of the brochure (../shared/specs/gk-examples.tsv,
//! copied to tests/data/gk-examples.tsv): codes of the orthodox ones.

mod common;

use ajedrecista_coding::{FinalPosition, parse_position};
use shakmaty::Position;

struct Example {
    number: u32,
    fen: String,
    fp_code: String,
    ep_code: String,
    orthodox: bool,
}

fn examples() -> Vec<Example> {
    common::rows(include_str!("data/gk-examples.tsv"))
        .into_iter()
        .map(|fields| Example {
            number: fields[0].parse().unwrap(),
            fen: fields[1].to_owned(),
            fp_code: fields[2].to_owned(),
            ep_code: fields[3].to_owned(),
            orthodox: fields[4] == "yes",
        })
        .collect()
}

fn orthodox() -> Vec<Example> {
    let all: Vec<Example> = examples().into_iter().filter(|e| e.orthodox).collect();
    assert_eq!(all.len(), 4, "examples 1-4 are the orthodox ones");
    all
}

/// FP-4 is printed `...207212K...`; the tsv carries the corrected code.
#[test]
fn final_position_codes() {
    for example in orthodox() {
        let position = parse_position(&example.fen).unwrap();
        let fp = FinalPosition::analyse(position).unwrap();
        assert_eq!(
            fp.code().to_string(),
            example.fp_code,
            "example {}",
            example.number
        );
    }
}

/// The etalon of each orthodox example has the printed ЭП code; its FEN is
/// legal, final of the same kind, and codes to the same ЭП code.
#[test]
fn etalon_codes() {
    for example in orthodox() {
        let fp = FinalPosition::analyse(parse_position(&example.fen).unwrap()).unwrap();
        let etalon = fp.etalon().unwrap();
        assert_eq!(
            etalon.code().to_string(),
            example.ep_code,
            "example {}",
            example.number
        );
        let again = FinalPosition::analyse(parse_position(&etalon.fen()).unwrap())
            .unwrap_or_else(|e| panic!("example {}: ЭП {} {e}", example.number, etalon.fen()));
        assert_eq!(again.kind(), fp.kind());
        let again_etalon = again.etalon().unwrap();
        assert_eq!(
            again_etalon.code(),
            etalon.code(),
            "example {}",
            example.number
        );
        assert_eq!(
            again_etalon.fen(),
            etalon.fen(),
            "example {}",
            example.number
        );
    }
}

/// Mates from games, full of men that take no part: the far king is not
/// written, the etalon keeps all the material and is its own etalon.
#[test]
fn game_mates() {
    for (fen, fp_code) in [
        // Fool's mate: White is mated.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "9/0024-929004-51",
        ),
        // Scholar's mate: impure (Qf7 also attacks the bishop on f8).
        (
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
            "24/579-495427-58",
        ),
    ] {
        let fp = FinalPosition::analyse(parse_position(fen).unwrap()).unwrap();
        assert_eq!(fp.code().to_string(), fp_code);
        let etalon = fp.etalon().unwrap();
        let realised = etalon.position().position().board();
        assert_eq!(realised.material(), fp.position().board().material());
        let again = FinalPosition::analyse(parse_position(&etalon.fen()).unwrap()).unwrap();
        assert_eq!(again.etalon().unwrap().fen(), etalon.fen());
    }
}

/// Stalemates from random games, with pawns blocked by pawns, pawns stuck
/// behind their own, a shielding pawn and far kings: each has an etalon,
/// which is its own etalon.
#[test]
fn game_stalemates() {
    for (fen, ep_code) in [
        (
            "8/1p5k/n7/8/2p1p3/2P1q3/2P5/3K4 w - - 0 30",
            "59/00-П90999-21",
        ),
        (
            "8/r2r4/4K3/p1p4n/P2p1k2/P7/8/8 w - - 7 59",
            "K5688/0-ПKK688888",
        ),
        (
            "8/1p6/2k2p1p/2P1p3/2Pr2b1/4K1p1/8/8 w - - 0 33",
            "K5578/0-П757(58)8588",
        ),
        ("5b2/4k3/b3P3/8/q7/4p3/8/4K3 w - - 6 39", "K579/0-П75759-41"),
        (
            "rnb2b2/4p3/1p3k2/1P1p2p1/1K4P1/3q4/8/8 w - - 1 25",
            "55589/00-П9(89)8(58)05(59)9",
        ),
        ("8/7R/2k5/2P5/PB6/1Q6/8/4K1R1 b - - 0 37", "00234-П20033304"),
    ] {
        let fp = FinalPosition::analyse(parse_position(fen).unwrap()).unwrap();
        let etalon = fp.etalon().unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(etalon.code().to_string(), ep_code, "{fen}");
        let again = FinalPosition::analyse(parse_position(&etalon.fen()).unwrap()).unwrap();
        assert!(again.position().is_stalemate());
        assert_eq!(again.etalon().unwrap().fen(), etalon.fen(), "{fen}");
    }
}
