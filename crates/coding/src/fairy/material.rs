//! Fairy material (`KGGvK`) and the census of its final positions.

use std::fmt;
use std::str::FromStr;

use rayon::prelude::*;
use shakmaty::{Color, Square};

use super::position::{FairyPosition, Rules};
use super::{FairyError, Kind, Unit};
use crate::enumerate::{Enumeration, Tally};
use crate::final_position::FinalKind;

/// The units of an endgame: White's, then `v`, then Black's, each a letter
/// of the extended FEN ([`Kind::fen_letter`]) with an optional `*` (royal)
/// or `!` (armoured king) before it; each side starts with a royal unit.
/// Case is ignored: `KGGvK`, `KRvK`, `!KQv!K`, `KRv*N`. For orthodox men
/// this is the rule of `ajedrecista_tables::Material` (king first, letters
/// of shakmaty's roles), so `KRvK` reads the same in both and `QKvK` in
/// neither.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FairyMaterial {
    white: Vec<Unit>,
    black: Vec<Unit>,
}

impl FairyMaterial {
    pub fn units(&self, color: Color) -> &[Unit] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl FromStr for FairyMaterial {
    type Err = FairyError;

    fn from_str(text: &str) -> Result<FairyMaterial, FairyError> {
        let bad = |reason: &str| FairyError::BadMaterial {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let (white, black) = text
            .split_once(['v', 'V'])
            .ok_or_else(|| bad("no 'v' between the sides"))?;
        let side = |letters: &str, color: Color| -> Result<Vec<Unit>, FairyError> {
            let mut units = Vec::new();
            let mut prefix = None;
            for c in letters.chars() {
                if c == '*' || c == '!' {
                    prefix = Some(c);
                    continue;
                }
                let kind = Kind::from_fen_letter(c)
                    .ok_or_else(|| FairyError::UnknownPiece(c.to_string()))?;
                let unit = Unit::with_prefix(color, kind, prefix.take())
                    .ok_or_else(|| bad("only a king can be armoured"))?;
                units.push(unit);
            }
            if !units.first().is_some_and(|unit| unit.royal) {
                return Err(bad("each side starts with its king or royal unit"));
            }
            Ok(units)
        };
        let material = FairyMaterial {
            white: side(white, Color::White)?,
            black: side(black, Color::Black)?,
        };
        if material.white.len() + material.black.len() > MAX_MEN {
            return Err(bad("at most six men in all"));
        }
        Ok(material)
    }
}

/// The most men a material may have, as for the orthodox enumeration and
/// the tables: a longer text (`K` and 5 000 grasshoppers) is refused as it
/// is read.
pub const MAX_MEN: usize = 6;

impl fmt::Display for FairyMaterial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |units: &[Unit]| -> String {
            units
                .iter()
                .map(|unit| unit.fen_token().to_ascii_uppercase())
                .collect()
        };
        write!(f, "{}v{}", side(&self.white), side(&self.black))
    }
}

/// The final positions with `material` under `rules`, Black to move, each
/// placement of identical units counted once, no symmetry reduction.
pub fn fairy_final_positions(
    material: &FairyMaterial,
    rules: &Rules,
    kind: FinalKind,
) -> Vec<FairyPosition> {
    let mut units: Vec<Unit> = material.white.clone();
    units.extend(material.black.iter().copied());
    // Identical units next to each other, so that each set is placed once.
    units.sort_by_key(|unit| (unit.color.is_black(), unit.kind, unit.royal, unit.armoured));
    Square::ALL
        .par_iter()
        .flat_map_iter(|&first| {
            let mut found = Vec::new();
            let mut position = FairyPosition::empty(Color::Black, rules.clone());
            position.set(first, Some(units[0]));
            let mut squares = vec![first];
            place(&units, 1, &mut position, &mut squares, kind, &mut found);
            found
        })
        .collect()
}

fn place(
    units: &[Unit],
    index: usize,
    position: &mut FairyPosition,
    squares: &mut Vec<Square>,
    kind: FinalKind,
    found: &mut Vec<FairyPosition>,
) {
    if index == units.len() {
        if position.legality().is_ok() && position.is_final(kind) {
            found.push(position.clone());
        }
        return;
    }
    let unit = units[index];
    let after = (units[index - 1] == unit).then(|| squares[index - 1]);
    for square in Square::ALL {
        if position.unit_at(square).is_some() || after.is_some_and(|last| square <= last) {
            continue;
        }
        position.set(square, Some(unit));
        squares.push(square);
        place(units, index + 1, position, squares, kind, found);
        squares.pop();
        position.set(square, None);
    }
}

/// The census of one fairy endgame.
pub type FairyEnumeration = Enumeration<FairyMaterial>;

/// Every final position of `material` under `rules`, grouped by ЭП code.
pub fn enumerate_fairy(
    material: &FairyMaterial,
    rules: &Rules,
    kind: FinalKind,
) -> FairyEnumeration {
    let tallies: Vec<Tally> = fairy_final_positions(material, rules, kind)
        .into_par_iter()
        .map(|position| {
            let mut tally = Tally::default();
            tally.add(position, |_| true);
            tally
        })
        .collect();
    Tally::sum(tallies).into_enumeration(material.clone(), kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_material() {
        assert!(
            format!("K{}vK", "G".repeat(5000))
                .parse::<FairyMaterial>()
                .unwrap_err()
                .to_string()
                .contains("at most six men")
        );
        assert!("KQQQQQvK".parse::<FairyMaterial>().is_err());
        assert!("KQQQQvK".parse::<FairyMaterial>().is_ok());
        for good in ["KGGvK", "krvk", "KRv*N", "!KQv!K", "KBvKK"] {
            let material: FairyMaterial = good.parse().unwrap();
            assert_eq!(
                material.to_string(),
                good.to_ascii_uppercase().replace('V', "v")
            );
        }
        for bad in ["QKvK", "KQK", "KvQ", "KXvK", "K!QvK"] {
            assert!(bad.parse::<FairyMaterial>().is_err(), "{bad}");
        }
    }
}
