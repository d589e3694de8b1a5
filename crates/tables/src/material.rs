//! Material: which men are on the board, in the order the index uses.

use std::{fmt, str::FromStr};

use shakmaty::{Board, ByColor, Color, Piece, Role};

use crate::error::MaterialError;

/// The most men a table holds.
pub const MAX_MEN: usize = 5;

/// The men of a pawnless endgame, kings included.
///
/// The order is fixed so that a placement is just a list of squares: the white
/// king, the black king, then the other white men, then the other black men,
/// each side's men from the strongest (queen) to the weakest (knight). That
/// order also keeps a smaller material's order when one man is removed, which
/// is what a capture does.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Material {
    men: Vec<Piece>,
}

/// Order of the men after the kings: strongest first.
fn role_rank(role: Role) -> u8 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

impl Material {
    /// Builds a material from the non-king men of each side.
    pub fn new(white: &[Role], black: &[Role]) -> Result<Material, MaterialError> {
        let mut men = vec![Color::White.king(), Color::Black.king()];
        for (color, roles) in [(Color::White, white), (Color::Black, black)] {
            let mut roles = roles.to_vec();
            if roles.contains(&Role::Pawn) {
                return Err(MaterialError::Pawns);
            }
            if roles.contains(&Role::King) {
                return Err(MaterialError::ExtraKing);
            }
            roles.sort_by_key(|&r| role_rank(r));
            men.extend(roles.into_iter().map(|role| role.of(color)));
        }
        if men.len() > MAX_MEN {
            return Err(MaterialError::TooManyMen(men.len()));
        }
        Ok(Material { men })
    }

    /// The material of a board.
    pub fn from_board(board: &Board) -> Result<Material, MaterialError> {
        let mut sides = ByColor::<Vec<Role>>::default();
        for (_, piece) in board {
            if piece.role != Role::King {
                sides[piece.color].push(piece.role);
            }
        }
        for color in Color::ALL {
            if (board.kings() & board.by_color(color)).count() != 1 {
                return Err(MaterialError::KingCount(color));
            }
        }
        Material::new(&sides.white, &sides.black)
    }

    /// The men in index order.
    pub fn men(&self) -> &[Piece] {
        &self.men
    }

    /// Number of men, kings included.
    pub fn len(&self) -> usize {
        self.men.len()
    }

    /// Always false: there are two kings at least. (Clippy asks for it.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The material left when man `index` (not a king) is captured.
    pub fn without(&self, index: usize) -> Material {
        debug_assert!(index >= 2, "kings are never captured");
        let mut men = self.men.clone();
        men.remove(index);
        Material { men }
    }

    /// True when `color` has nothing but its king.
    pub fn is_bare(&self, color: Color) -> bool {
        self.men[2..].iter().all(|p| p.color != color)
    }

    /// The same endgame with the colours exchanged (`KQvKR` becomes `KRvKQ`).
    pub fn flipped(&self) -> Material {
        let roles = |color: Color| -> Vec<Role> {
            self.men[2..]
                .iter()
                .filter(|p| p.color == color)
                .map(|p| p.role)
                .collect()
        };
        Material::new(&roles(Color::Black), &roles(Color::White)).expect("same size")
    }
}

impl FromStr for Material {
    type Err = MaterialError;

    /// Parses `KQvKR` (case of the letters ignored; `K` first on each side).
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let bad = || MaterialError::Syntax(s.to_owned());
        let (white, black) = s.split_once(['v', 'V']).ok_or_else(bad)?;
        let side = |text: &str| -> Result<Vec<Role>, MaterialError> {
            let mut chars = text.chars();
            if !matches!(chars.next(), Some('K' | 'k')) {
                return Err(bad());
            }
            chars
                .map(|c| match Role::from_char(c.to_ascii_lowercase()) {
                    Some(Role::King) => Err(MaterialError::ExtraKing),
                    Some(role) => Ok(role),
                    None => Err(bad()),
                })
                .collect()
        };
        Material::new(&side(white)?, &side(black)?)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::ALL {
            if color == Color::Black {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for man in self.men[2..].iter().filter(|p| p.color == color) {
                write!(f, "{}", man.role.upper_char())?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_men() {
        let m: Material = "krqvkn".parse().unwrap();
        assert_eq!(m.to_string(), "KQRvKN");
        assert_eq!(m.len(), 5);
        assert_eq!(m.without(3).to_string(), "KQvKN");
        assert_eq!(m.flipped().to_string(), "KNvKQR");
    }

    #[test]
    fn rejects_bad_material() {
        for bad in ["KQK", "QvK", "KPvK", "KQRBvKN", "KXvK", "KvKK", ""] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }
}
