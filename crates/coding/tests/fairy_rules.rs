//! The fairy rules model on small positions (tests/data/fairy-rules.tsv):
//! each unit's moves and each condition's effect, as mate, stalemate, no
//! final position, or a position the rules reject.

mod common;

use ajedrecista_coding::fairy::{Condition, FairyError, FairyPosition, Rules};
use ajedrecista_coding::{FinalKind, parse_position};
use shakmaty::Position;

fn cases() -> Vec<(String, Rules, String, String)> {
    common::rows(include_str!("data/fairy-rules.tsv"))
        .into_iter()
        .map(|fields| {
            (
                fields[0].to_owned(),
                common::rules(fields[1]),
                fields[2].to_owned(),
                fields[3].to_owned(),
            )
        })
        .collect()
}

fn outcome(fen: &str, rules: &Rules) -> String {
    match FairyPosition::from_fen(fen, rules.clone()) {
        Err(FairyError::Illegal(_)) => "illegal".to_owned(),
        Err(error) => panic!("{fen}: {error}"),
        Ok(position) => position
            .final_kind()
            .map_or("none", FinalKind::name)
            .to_owned(),
    }
}

#[test]
fn every_case_has_its_expected_outcome() {
    for (fen, rules, expected, what) in cases() {
        assert_eq!(outcome(&fen, &rules), expected, "{fen} {rules:?}: {what}");
    }
}

/// Where shakmaty can read the case (orthodox men, no condition), the
/// model agrees with it.
#[test]
fn orthodox_cases_agree_with_shakmaty() {
    let mut compared = 0;
    for (fen, rules, expected, _) in cases() {
        let board = fen.split(' ').next().unwrap_or_default();
        let one_king_each = board.matches('K').count() == 1 && board.matches('k').count() == 1;
        if !rules.is_orthodox()
            || !one_king_each
            || board.contains(['G', 'D', 'S', '*', '!', 'g', 'd', 's'])
        {
            continue;
        }
        let shakmaty = match parse_position(&fen) {
            Err(_) => "illegal",
            Ok(position) if position.is_checkmate() => "mate",
            Ok(position) if position.is_stalemate() => "stalemate",
            Ok(_) => "none",
        };
        assert_eq!(shakmaty, expected, "{fen}");
        compared += 1;
    }
    assert!(compared >= 5);
}

#[test]
fn bad_input_is_refused() {
    let rules = Rules::default();
    assert!(matches!(
        FairyPosition::from_fen("k7/8/8/8/8/8/8/X6K b", rules.clone()),
        Err(FairyError::UnknownPiece(_))
    ));
    assert!(matches!(
        "madrasi".parse::<Condition>(),
        Err(FairyError::UnknownCondition(_))
    ));
    assert!(matches!(
        FairyPosition::from_fen("8/8/8/8/8/8/8/7K b", rules.clone()),
        Err(FairyError::Illegal(_))
    ));
    assert!(FairyPosition::from_fen("k7/8/8/8/8/8/8/7K", rules).is_err());
}

/// On orthodox final positions the fairy model judges purity, economy,
/// model and ideal exactly as the orthodox analysis does, and codes them
/// alike.
#[test]
fn qualities_agree_with_the_orthodox_analysis() {
    use ajedrecista_coding::FinalPosition;
    use ajedrecista_coding::fairy::FairyFinal;
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;
    let mut compared = 0;
    for (material, kind) in [
        ("KRvK", FinalKind::Mate),
        ("KBNvK", FinalKind::Mate),
        ("KQvK", FinalKind::Stalemate),
        ("KRvKP", FinalKind::Mate),
        ("KBvKP", FinalKind::Stalemate),
    ] {
        for position in common::orthodox_finals(material, kind) {
            let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
            let orthodox = FinalPosition::analyse(position).unwrap();
            let fairy =
                FairyFinal::analyse(FairyPosition::from_fen(&fen, Rules::default()).unwrap())
                    .unwrap();
            let qualities = |pure, economical, model, ideal| [pure, economical, model, ideal];
            assert_eq!(
                qualities(
                    fairy.is_pure(),
                    fairy.is_economical(),
                    fairy.is_model(),
                    fairy.is_ideal()
                ),
                qualities(
                    orthodox.is_pure(),
                    orthodox.is_economical(),
                    orthodox.is_model(),
                    orthodox.is_ideal()
                ),
                "{fen}"
            );
            assert_eq!(fairy.code(), orthodox.code(), "{fen}");
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}
