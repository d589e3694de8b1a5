//! Material: which men are on the board, in the order the index uses.

use std::{fmt, str::FromStr};

use shakmaty::{Bitboard, Board, ByColor, Color, Piece, Role, Square};

/// A material that the solver does not handle.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum MaterialError {
    #[error(
        "cannot read material {0:?}: write it like KQvKR (white men, 'v', black men, each side starting with K)"
    )]
    Syntax(String),
    #[error("each side has exactly one king")]
    ExtraKing,
    #[error("{0} men is too many: the tables hold 3 to 6 men, kings included")]
    TooManyMen(usize),
    #[error("{0} must have exactly one king")]
    KingCount(Color),
}

/// The most men a table holds.
pub const MAX_MEN: usize = 6;

/// The most men a table with pawns holds.
pub const MAX_MEN_WITH_PAWNS: usize = 6;

/// The most men of a table a tablebase builds when a probe, a game or the
/// web needs it and its file is not in the cache folder: a six-man build
/// takes an hour and gigabytes, which only `ajedrecista solve MATERIAL`
/// should start ([`crate::Tablebase::building_up_to`]).
pub const MAX_MEN_BUILT_ON_DEMAND: usize = 5;

/// The men of an endgame, kings included.
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
            if roles.contains(&Role::King) {
                return Err(MaterialError::ExtraKing);
            }
            roles.sort_by_key(|&r| role_rank(r));
            men.extend(roles.into_iter().map(|role| role.of(color)));
        }
        let material = Material { men };
        let most = if material.has_pawns() {
            MAX_MEN_WITH_PAWNS
        } else {
            MAX_MEN
        };
        if material.len() > most {
            return Err(MaterialError::TooManyMen(material.len()));
        }
        Ok(material)
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

    /// The men other than pawns.
    pub(crate) fn without_pawns(&self) -> Material {
        Material {
            men: self
                .men
                .iter()
                .copied()
                .filter(|p| p.role != Role::Pawn)
                .collect(),
        }
    }

    /// The material after man `index`, a pawn, promotes to `role`.
    pub fn promoted(&self, index: usize, role: Role) -> Material {
        let mut roles = ByColor::<Vec<Role>>::default();
        for (i, man) in self.men.iter().enumerate().skip(2) {
            roles[man.color].push(if i == index { role } else { man.role });
        }
        Material::new(&roles.white, &roles.black).expect("same number of men")
    }

    /// True when `color` has nothing but its king.
    pub fn is_bare(&self, color: Color) -> bool {
        self.men[2..].iter().all(|p| p.color != color)
    }

    /// How many orderings of like men one position has in an index that
    /// numbers every man's square (two white knights: 2).
    pub(crate) fn identical_orderings(&self) -> u64 {
        let mut orderings = 1;
        let mut run = 1;
        for pair in self.men.windows(2) {
            if pair[0] == pair[1] {
                run += 1;
                orderings *= run;
            } else {
                run = 1;
            }
        }
        orderings
    }

    /// True when some man is a pawn.
    pub fn has_pawns(&self) -> bool {
        self.men.iter().any(|p| p.role == Role::Pawn)
    }

    /// The material whose table holds this endgame's positions: the
    /// canonical one with pawns (`KvKP` in `KPvK`), itself without (both
    /// colourings of a pawnless material are built).
    pub fn table_material(&self) -> Material {
        if self.has_pawns() {
            self.canonical()
        } else {
            self.clone()
        }
    }

    /// The material whose table holds this endgame: of a material and its
    /// colour-flipped twin, the one where white has more men, or as many
    /// and stronger ones (compared strongest first). `KvKP` is held as
    /// `KPvK`. A pawnless material is its own table (both colourings are
    /// built), so this is meant for materials with pawns.
    pub fn canonical(&self) -> Material {
        let ranks = |color: Color| -> Vec<u8> {
            self.men[2..]
                .iter()
                .filter(|p| p.color == color)
                .map(|p| role_rank(p.role))
                .collect()
        };
        let (white, black) = (ranks(Color::White), ranks(Color::Black));
        // More men first; then the stronger man first (lower rank).
        let weaker = match white.len().cmp(&black.len()) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => white > black,
        };
        if weaker { self.flipped() } else { self.clone() }
    }

    /// Every material of 3 to `max_men` men (kings included), pawns
    /// included, one of each colour-flipped pair (the canonical one; see
    /// [`Material::canonical`]), smallest first: by men, then by pawns (so
    /// that the table a promotion leads into comes before the pawn's), then
    /// by name. Bishops are bishops: their square colours are not told
    /// apart.
    pub fn every(max_men: usize) -> Vec<Material> {
        const ROLES: [Role; 5] = [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        /// The multisets of `size` roles from `ROLES[first..]`.
        fn multisets(size: usize, first: usize) -> Vec<Vec<Role>> {
            if size == 0 {
                return vec![Vec::new()];
            }
            (first..ROLES.len())
                .flat_map(|r| {
                    multisets(size - 1, r).into_iter().map(move |mut rest| {
                        rest.insert(0, ROLES[r]);
                        rest
                    })
                })
                .collect()
        }
        let mut every = Vec::new();
        for others in 1..=max_men.min(MAX_MEN).saturating_sub(2) {
            for white in 0..=others {
                for w in multisets(white, 0) {
                    for b in multisets(others - white, 0) {
                        let material = Material::new(&w, &b)
                            .expect("no king among the men, at most MAX_MEN in all");
                        if material.canonical() == material {
                            every.push(material);
                        }
                    }
                }
            }
        }
        let pawns = |m: &Material| m.men.iter().filter(|p| p.role == Role::Pawn).count();
        every.sort_by_cached_key(|m| (m.len(), pawns(m), m.to_string()));
        every
    }

    /// The squares of a board's men in this material's order. The board
    /// must hold exactly this material.
    pub(crate) fn squares_of(&self, board: &Board) -> [Square; MAX_MEN] {
        let mut squares = [Square::A1; MAX_MEN];
        let mut taken = Bitboard::EMPTY;
        for (slot, &man) in squares.iter_mut().zip(&self.men) {
            let sq = (board.by_piece(man) & !taken)
                .first()
                .expect("material matched");
            taken |= sq;
            *slot = sq;
        }
        squares
    }

    /// Whether the table's name, or its colour-flipped twin's, matches
    /// `pattern`: a name in which `*` stands for any men of one side
    /// (none included) and `?` for one man. `K*R*vK*R*`: a rook a side;
    /// `KQ?vK?`: a queen and one more man against one man.
    pub fn matches(&self, pattern: &str) -> bool {
        /// Glob matching of `name` by `pattern`; `*` and `?` never take
        /// the `v` between the sides.
        fn glob(pattern: &[u8], name: &[u8]) -> bool {
            match (pattern.first(), name.first()) {
                (None, None) => true,
                (Some(b'*'), _) => {
                    glob(&pattern[1..], name)
                        || name.first().is_some_and(|&c| c != b'v') && glob(pattern, &name[1..])
                }
                (Some(b'?'), Some(&c)) => c != b'v' && glob(&pattern[1..], &name[1..]),
                (Some(&p), Some(&c)) => p == c && glob(&pattern[1..], &name[1..]),
                _ => false,
            }
        }
        [self.clone(), self.flipped()]
            .iter()
            .any(|material| glob(pattern.as_bytes(), material.to_string().as_bytes()))
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

    /// Patterns pick tables by name, either colour's; `*` and `?` stay on
    /// one side.
    #[test]
    fn patterns_match_names_of_either_colour() {
        let every_six: Vec<Material> = Material::every(6)
            .into_iter()
            .filter(|m| m.len() == 6)
            .collect();
        let rook_a_side: Vec<&Material> = every_six
            .iter()
            .filter(|m| m.matches("K*R*vK*R*"))
            .collect();
        assert!(rook_a_side.iter().all(|m| {
            let name = m.to_string();
            let (white, black) = name.split_once('v').unwrap();
            white.contains('R') && black.contains('R')
        }));
        let names: Vec<String> = rook_a_side.iter().map(ToString::to_string).collect();
        for name in ["KRRvKRP", "KQRvKRP", "KRPPvKR", "KRPvKRP", "KRRvKRR"] {
            assert!(names.contains(&name.to_string()), "{name}");
        }
        assert!(!names.contains(&"KRRRvKP".to_string()));
        let krpkr: Material = "KRPvKR".parse().unwrap();
        assert!(krpkr.matches("KRvKRP") && krpkr.matches("KR?vKR") && krpkr.matches("*v*"));
        assert!(!krpkr.matches("KRvKR") && !krpkr.matches("K*") && !krpkr.matches("KR?vK"));
    }

    #[test]
    fn pawns_are_last_and_twins_share_one_table() {
        let m: Material = "kpqvkp".parse().unwrap();
        assert_eq!(m.to_string(), "KQPvKP");
        assert!(m.has_pawns());
        for (twin, canonical) in [
            ("KvKP", "KPvK"),
            ("KPvK", "KPvK"),
            ("KPvKQ", "KQvKP"),
            ("KPvKR", "KRvKP"),
            ("KPvKP", "KPvKP"),
            ("KvKQP", "KQPvK"),
            ("KPvKPP", "KPPvKP"),
        ] {
            let m: Material = twin.parse().unwrap();
            assert_eq!(m.canonical().to_string(), canonical, "{twin}");
            assert_eq!(m.flipped().canonical(), m.canonical(), "{twin}");
        }
    }

    /// Every material up to five men: counted by hand, the pairs of
    /// multisets of {Q, R, B, N, P} with one to three men in all, a pair
    /// and its twin counted once (a pair that is its own twin once too).
    #[test]
    fn every_material_is_listed_once_smallest_first() {
        // Multisets of 5 roles: size 1: 5, size 2: 15, size 3: 35.
        // Three men: 5 white-only + 5 black-only; one table a pair: 5.
        // Four men: (2, 0) 15 and (1, 1) 25 ordered pairs, of which 5 are
        // their own twin: 15 + (25 + 5) / 2 = 30.
        // Five men: (3, 0) 35 and (2, 1) 15 * 5 = 75: 110.
        for (men, count) in [(3, 5), (4, 5 + 30), (5, 5 + 30 + 110)] {
            let every = Material::every(men);
            assert_eq!(every.len(), count, "{men} men");
            for (i, m) in every.iter().enumerate() {
                assert_eq!(m.canonical(), *m);
                assert!(!every[..i].contains(m));
            }
            assert!(every.windows(2).all(|w| w[0].len() <= w[1].len()));
        }
        let four: Vec<String> = Material::every(4).iter().map(|m| m.to_string()).collect();
        for name in ["KQvK", "KPvK", "KQvKP", "KRvKP", "KPvKP", "KPPvK", "KBNvK"] {
            assert!(four.contains(&name.to_owned()), "{name}");
        }
        assert!(!four.contains(&"KvKP".to_owned()));
    }

    #[test]
    fn rejects_bad_material() {
        for bad in ["KQK", "QvK", "KQRBNvKN", "KXvK", "KvKK", ""] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn six_men_with_pawns_or_without() {
        for six in [
            "KRRvKRN", "KQRBvKN", "KQQQQvK", "KPPPvKP", "KRRvKRP", "KPPPPvK",
        ] {
            assert_eq!(six.parse::<Material>().map(|m| m.len()), Ok(6), "{six}");
        }
        for seven in ["KRRvKRPP", "KPPPPPvK"] {
            assert_eq!(
                seven.parse::<Material>(),
                Err(MaterialError::TooManyMen(7)),
                "{seven}"
            );
        }
        let six: Vec<Material> = Material::every(6)
            .into_iter()
            .filter(|m| m.len() == 6)
            .collect();
        assert!(six.iter().any(|m| !m.has_pawns()));
        assert!(six.contains(&"KRPvKRP".parse().unwrap()));
    }
}
