//! Totals of all mates against a bare king, black to move, every placement.

use ajedrecista_coding::{
    Enumeration, FinalKind, Legality, OrthodoxMaterial, Selection, enumerate,
};

fn mates(material: &str, legality: Legality) -> Enumeration {
    let material: OrthodoxMaterial = material.parse().unwrap();
    enumerate(
        &material,
        FinalKind::Mate,
        legality,
        Selection::Model,
        &|| {},
    )
}

/// The groups by etalon code: code, count, ideal.
fn codes(found: &Enumeration) -> Vec<(&str, u64, bool)> {
    found
        .by_ep_code
        .iter()
        .map(|group| (group.ep_code.as_str(), group.count, group.ideal))
        .collect()
}

/// Luiro & Tiilikainen's counts where the conventions agree; every
/// convention gives the same totals for these three.
#[test]
fn published_totals() {
    for (material, total) in [("KQvK", 364), ("KRvK", 216), ("KNNvK", 120)] {
        for legality in [
            Legality::Board,
            Legality::LastMove,
            Legality::LastMoveInMaterial,
        ] {
            assert_eq!(
                mates(material, legality).total,
                total,
                "{material} {legality:?}"
            );
        }
    }
}

/// Our totals where Luiro & Tiilikainen publish 1008 and 360 (see
/// docs/guide/src/results/enumeration.md for where the difference lies).
#[test]
fn bishop_totals_by_convention() {
    let totals = |material| {
        [
            Legality::Board,
            Legality::LastMove,
            Legality::LastMoveInMaterial,
        ]
        .map(|legality| mates(material, legality).total)
    };
    assert_eq!(totals("KBBvK"), [1552, 1516, 1488]);
    assert_eq!(totals("KBNvK"), [464, 460, 456]);
}

/// Model mates grouped by etalon code: KRvK has the two textbook mates.
#[test]
fn rook_mates_by_etalon() {
    let found = mates("KRvK", Legality::Board);
    assert_eq!((found.pure, found.model, found.ideal), (216, 216, 216));
    let codes = codes(&found);
    assert_eq!(codes, [("K3-33KKK3", 120, true), ("K3-3KK3", 96, true)]);
    assert_eq!(found.without_etalon, 0);
}

#[test]
fn stalemates_and_bad_material() {
    let material: OrthodoxMaterial = "KQvK".parse().unwrap();
    let stalemates = enumerate(
        &material,
        FinalKind::Stalemate,
        Legality::Board,
        Selection::Model,
        &|| {},
    );
    assert_eq!(
        (
            stalemates.total,
            stalemates.pure,
            stalemates.model,
            stalemates.ideal
        ),
        (872, 560, 560, 120)
    );
    let codes = codes(&stalemates);
    // The queen alone: the far king takes no part, so the mate is model but
    // not ideal and `K` is not written.
    assert_eq!(
        codes,
        [
            ("4-П444", 440, false),
            ("K4-ПKK4", 80, true),
            ("K4-П4K444", 40, true)
        ]
    );
    assert_eq!(stalemates.material.to_string(), "KQvK");
    for bad in ["KQK", "QvK", "KQvKK", "KXvK", "KQQQQQvK"] {
        assert!(bad.parse::<OrthodoxMaterial>().is_err(), "{bad}");
    }
}
