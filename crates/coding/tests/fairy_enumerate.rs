//! Fairy censuses recomputed by a brute force written here from the rules
//! alone (coordinates, no shared code with the crate's rules model):
//! every mate by king and two grasshoppers, and every KRvK mate on a Grid
//! board, Black to move.

mod common;

use ajedrecista_coding::FinalKind;
use ajedrecista_coding::fairy::{FairyMaterial, fairy_final_positions};

type Xy = (i32, i32);

const LINES: [Xy; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn on_board((x, y): Xy) -> bool {
    (0..8).contains(&x) && (0..8).contains(&y)
}

fn add((x, y): Xy, (dx, dy): Xy) -> Xy {
    (x + dx, y + dy)
}

/// The men of a position: (square, what).
#[derive(Clone, Copy, PartialEq)]
enum Man {
    WhiteKing,
    BlackKing,
    Grasshopper,
    Rook,
}

struct Board {
    men: Vec<(Xy, Man)>,
    grid: bool,
}

impl Board {
    fn at(&self, square: Xy) -> Option<Man> {
        self.men.iter().find(|(s, _)| *s == square).map(|(_, m)| *m)
    }

    fn crosses(&self, from: Xy, to: Xy) -> bool {
        !self.grid || (from.0 / 2, from.1 / 2) != (to.0 / 2, to.1 / 2)
    }

    /// Whether the man on `from` attacks `target`.
    fn attacks(&self, from: Xy, man: Man, target: Xy) -> bool {
        let reaches = match man {
            Man::WhiteKing | Man::BlackKing => {
                from != target && (from.0 - target.0).abs() <= 1 && (from.1 - target.1).abs() <= 1
            }
            Man::Grasshopper => LINES.iter().any(|&d| {
                let mut at = add(from, d);
                while on_board(at) && self.at(at).is_none() {
                    at = add(at, d);
                }
                on_board(at) && add(at, d) == target
            }),
            Man::Rook => LINES.iter().filter(|d| d.0 == 0 || d.1 == 0).any(|&d| {
                let mut at = add(from, d);
                while on_board(at) {
                    if at == target {
                        return true;
                    }
                    if self.at(at).is_some() {
                        return false;
                    }
                    at = add(at, d);
                }
                false
            }),
        };
        reaches && self.crosses(from, target)
    }

    fn attacked_by_white(&self, target: Xy) -> bool {
        self.men
            .iter()
            .any(|&(s, m)| m != Man::BlackKing && self.attacks(s, m, target))
    }

    fn black_king(&self) -> Xy {
        self.men
            .iter()
            .find(|(_, m)| *m == Man::BlackKing)
            .unwrap()
            .0
    }

    /// Black to move is mated (stalemated): the position is legal (the
    /// white king not attacked by the black king), Black is (not) in
    /// check, and no king step (to an empty square or taking a white man)
    /// leaves it unattacked.
    fn black_is(&self, kind: FinalKind) -> bool {
        let king = self.black_king();
        let white_king = self
            .men
            .iter()
            .find(|(_, m)| *m == Man::WhiteKing)
            .unwrap()
            .0;
        let check = kind == FinalKind::Mate;
        if self.attacks(king, Man::BlackKing, white_king) || self.attacked_by_white(king) != check {
            return false;
        }
        !LINES.iter().any(|&d| {
            let to = add(king, d);
            if !on_board(to) || !self.crosses(king, to) || self.at(to) == Some(Man::WhiteKing) {
                return false;
            }
            let after = Board {
                men: self
                    .men
                    .iter()
                    .filter(|(s, _)| *s != to)
                    .map(|&(s, m)| if m == Man::BlackKing { (to, m) } else { (s, m) })
                    .collect(),
                grid: self.grid,
            };
            !after.attacked_by_white(to)
        })
    }
}

/// The number of placements of `men` (identical men counted once) in
/// which Black to move is mated (stalemated), with or without the grid.
fn brute_force(men: &[Man], grid: bool, kind: FinalKind) -> usize {
    fn place(men: &[Man], placed: &mut Vec<(Xy, Man)>, grid: bool, kind: FinalKind) -> usize {
        let Some((&man, rest)) = men.split_first() else {
            let board = Board {
                men: placed.clone(),
                grid,
            };
            return usize::from(board.black_is(kind));
        };
        // Identical men stand in increasing order of their squares.
        let index = |(x, y): Xy| x + 8 * y;
        let after = placed
            .last()
            .filter(|(_, last)| *last == man)
            .map(|&(square, _)| index(square));
        let mut count = 0;
        for square in (0..64).map(|i| (i % 8, i / 8)) {
            if after.is_some_and(|after| index(square) <= after)
                || placed.iter().any(|&(taken, _)| taken == square)
            {
                continue;
            }
            placed.push((square, man));
            count += place(rest, placed, grid, kind);
            placed.pop();
        }
        count
    }
    place(men, &mut Vec::new(), grid, kind)
}

/// The census of `material` under `conditions` equals the brute force
/// over `men` (on a Grid board if `grid`) for mates and for stalemates,
/// and has some positions of kind `some`.
fn census_agrees_with_brute_force(
    material: &str,
    conditions: &str,
    men: &[Man],
    grid: bool,
    some: FinalKind,
) {
    let census = |kind| {
        let material: FairyMaterial = material.parse().unwrap();
        fairy_final_positions(&material, &common::rules(conditions), kind).len()
    };
    for kind in [FinalKind::Mate, FinalKind::Stalemate] {
        assert_eq!(
            census(kind),
            brute_force(men, grid, kind),
            "{material} {}",
            kind.name()
        );
    }
    assert!(census(some) > 0);
}

/// King and two grasshoppers cannot mate a lone king (0 mates, by both
/// counts); they can stalemate it.
#[test]
fn kggvk_finals_agree_with_a_brute_force() {
    let men = [
        Man::WhiteKing,
        Man::BlackKing,
        Man::Grasshopper,
        Man::Grasshopper,
    ];
    census_agrees_with_brute_force("KGGvK", "", &men, false, FinalKind::Stalemate);
}

#[test]
fn krvk_grid_finals_agree_with_a_brute_force() {
    let men = [Man::WhiteKing, Man::BlackKing, Man::Rook];
    census_agrees_with_brute_force("KRvK", "grid", &men, true, FinalKind::Mate);
}

/// Every final position of these censuses has an etalon, which is its own
/// etalon (the search is idempotent) and keeps the kind of final.
#[test]
fn census_positions_have_stable_etalons() {
    use ajedrecista_coding::fairy::FairyFinal;
    for (material, conditions, kind) in [
        ("KGGvK", "", FinalKind::Stalemate),
        ("KRvK", "grid", FinalKind::Mate),
        ("KRv*N", "", FinalKind::Mate),
    ] {
        let material: FairyMaterial = material.parse().unwrap();
        for position in fairy_final_positions(&material, &common::rules(conditions), kind) {
            let etalon = FairyFinal::analyse(position.clone()).unwrap().etalon();
            let etalon = etalon.unwrap_or_else(|e| panic!("{position}: {e}"));
            assert_eq!(etalon.position().kind(), kind);
            let again = FairyFinal::analyse(etalon.position().position().clone())
                .unwrap()
                .etalon()
                .unwrap();
            assert_eq!(again.code(), etalon.code(), "{position}");
        }
    }
}
