//! What the integration tests share: the rows of the data files and the
//! orthodox final positions they start from. Each test file uses a part.
#![allow(dead_code)]

use ajedrecista_coding::fairy::{Condition, Rules};
use ajedrecista_coding::{FinalKind, Legality, OrthodoxMaterial, final_positions};
use shakmaty::Chess;

/// The rows of a tab-separated data file, each split into its fields:
/// every line but `#` comments and the header (the first other line).
pub fn rows(text: &'static str) -> Vec<Vec<&'static str>> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .map(|line| line.split('\t').collect())
        .collect()
}

/// The rules of a field that names conditions, separated by white space;
/// `-` (or nothing) for none.
pub fn rules(names: &str) -> Rules {
    Rules::new(
        names
            .split_whitespace()
            .filter(|&name| name != "-")
            .map(|name| name.parse::<Condition>().unwrap()),
    )
}

/// Every final position of `kind` with orthodox `material` (legal as a
/// diagram), Black to move.
pub fn orthodox_finals(material: &str, kind: FinalKind) -> Vec<Chess> {
    let material: OrthodoxMaterial = material.parse().unwrap();
    final_positions(&material, kind, Legality::Board)
}
