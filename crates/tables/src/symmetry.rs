//! The eight symmetries of the board and the canonical placement of the two
//! kings.
//!
//! Without pawns a position and its mirror images and rotations have the same
//! value, so a table stores one of them. The kings decide which: the white
//! king is brought into the triangle a1-d1-d4, and when it stands on the
//! a1-h8 diagonal the black king is brought onto or below that diagonal.
//! That leaves 462 placements of the two kings.
//!
//! [`Symmetry`] is the one type for the board's symmetries in the
//! workspace: the solver turns squares and bitboards by it, the coding
//! crate turns the vectors between men and names it in codes and etalons,
//! the automata's audit turns whole boards.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Board, Square};

/// A symmetry of the square board: the turns counter-clockwise (White at
/// the bottom) and the four reflections. The order of the variants is the
/// order in which the coding crate prefers one image to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    Identity,
    Rotate90,
    Rotate180,
    Rotate270,
    /// Reflection in the vertical axis: files a..h become h..a. The one
    /// symmetry besides the identity that keeps pawns moving the right way.
    MirrorFiles,
    /// Reflection in the horizontal axis.
    MirrorRanks,
    /// Reflection in the a1-h8 diagonal.
    Diagonal,
    /// Reflection in the a8-h1 diagonal.
    AntiDiagonal,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate 90",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Rotate270 => "rotate 270",
            Symmetry::MirrorFiles => "mirror files",
            Symmetry::MirrorRanks => "mirror ranks",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
        }
    }

    /// Pawns keep their direction only under these.
    pub fn keeps_pawns(self) -> bool {
        matches!(self, Symmetry::Identity | Symmetry::MirrorFiles)
    }

    /// The image of a square (a table look-up: the solver's inner loops
    /// call it).
    #[inline]
    pub fn apply(self, sq: Square) -> Square {
        IMAGES[self as usize][usize::from(sq)]
    }

    /// The symmetry that undoes this one.
    #[inline]
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            // Reflections and the half turn undo themselves.
            _ => self,
        }
    }

    /// The image of every square of `bb`.
    #[inline]
    pub fn apply_to(self, bb: Bitboard) -> Bitboard {
        // shakmaty turns clockwise.
        match self {
            Symmetry::Identity => bb,
            Symmetry::Rotate90 => bb.rotate_270(),
            Symmetry::Rotate180 => bb.rotate_180(),
            Symmetry::Rotate270 => bb.rotate_90(),
            Symmetry::MirrorFiles => bb.flip_horizontal(),
            Symmetry::MirrorRanks => bb.flip_vertical(),
            Symmetry::Diagonal => bb.flip_diagonal(),
            Symmetry::AntiDiagonal => bb.flip_anti_diagonal(),
        }
    }

    /// The image of a vector between two squares (files, ranks).
    pub fn apply_offset(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (-y, x),
            Symmetry::Rotate180 => (-x, -y),
            Symmetry::Rotate270 => (y, -x),
            Symmetry::MirrorFiles => (-x, y),
            Symmetry::MirrorRanks => (x, -y),
            Symmetry::Diagonal => (y, x),
            Symmetry::AntiDiagonal => (-y, -x),
        }
    }

    /// The image of a whole board.
    pub fn apply_board(self, board: &Board) -> Board {
        let mut image = Board::empty();
        for (square, piece) in board {
            image.set_piece_at(self.apply(square), piece);
        }
        image
    }

    const fn compute(self, sq: Square) -> Square {
        match self {
            Symmetry::Identity => sq,
            Symmetry::Rotate90 => sq.rotate_270(),
            Symmetry::Rotate180 => sq.rotate_180(),
            Symmetry::Rotate270 => sq.rotate_90(),
            Symmetry::MirrorFiles => sq.flip_horizontal(),
            Symmetry::MirrorRanks => sq.flip_vertical(),
            Symmetry::Diagonal => sq.flip_diagonal(),
            Symmetry::AntiDiagonal => sq.flip_anti_diagonal(),
        }
    }
}

/// The image of every square under every symmetry, computed at compile time.
const IMAGES: [[Square; 64]; 8] = {
    let mut images = [[Square::A1; 64]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 64 {
            images[s][i] = Symmetry::ALL[s].compute(Square::new(i as u32));
            i += 1;
        }
        s += 1;
    }
    images
};

/// The order in which a placement of the two kings tries the symmetries
/// for its canonical image: the first that gives one is the placement's.
/// Where two do (kings on the diagonal), this order decides how the other
/// men are turned, and so the numbering of every table file on disk.
const KING_PAIR_ORDER: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::MirrorFiles,
    Symmetry::MirrorRanks,
    Symmetry::Rotate180,
    Symmetry::Diagonal,
    Symmetry::AntiDiagonal,
    Symmetry::Rotate270,
    Symmetry::Rotate90,
];
/// Number of canonical placements of the two kings.
pub const KING_PAIRS: usize = 462;

/// The canonical king pairs and, for every placement of two kings, which pair
/// and symmetry it maps to.
#[derive(Debug)]
pub struct KingPairs {
    /// For `wk * 64 + bk`: the pair's number and the symmetry that brings it
    /// there, or `None` when the kings touch or share a square.
    lookup: [Option<(u16, Symmetry)>; 4096],
    /// The canonical pairs, by number.
    pairs: Vec<(Square, Square)>,
    /// How many placements of the two kings map to each pair.
    multiplicity: Vec<u8>,
    /// Whether both kings of each pair stand on the a1-h8 diagonal.
    diagonal: Vec<bool>,
}

fn in_triangle(sq: Square) -> bool {
    let (file, rank) = (sq.file().to_u32(), sq.rank().to_u32());
    rank <= file && file <= 3
}

fn on_diagonal(sq: Square) -> bool {
    sq.file().to_u32() == sq.rank().to_u32()
}

fn below_diagonal(sq: Square) -> bool {
    sq.rank().to_u32() <= sq.file().to_u32()
}

fn is_canonical(wk: Square, bk: Square) -> bool {
    in_triangle(wk) && (!on_diagonal(wk) || below_diagonal(bk))
}

impl KingPairs {
    pub(crate) fn new() -> KingPairs {
        let mut pairs = Vec::with_capacity(KING_PAIRS);
        let mut number = [u16::MAX; 4096];
        for wk in Square::ALL {
            for bk in Square::ALL {
                if wk.distance(bk) > 1 && is_canonical(wk, bk) {
                    number[usize::from(wk) * 64 + usize::from(bk)] = pairs.len() as u16;
                    pairs.push((wk, bk));
                }
            }
        }
        assert_eq!(pairs.len(), KING_PAIRS);
        let mut lookup = [None; 4096];
        let mut multiplicity = vec![0u8; KING_PAIRS];
        for wk in Square::ALL {
            for bk in Square::ALL {
                if wk.distance(bk) <= 1 {
                    continue;
                }
                let sym = KING_PAIR_ORDER
                    .into_iter()
                    .find(|s| is_canonical(s.apply(wk), s.apply(bk)))
                    .expect("every pair has a canonical image");
                let n = number[usize::from(sym.apply(wk)) * 64 + usize::from(sym.apply(bk))];
                lookup[usize::from(wk) * 64 + usize::from(bk)] = Some((n, sym));
                multiplicity[usize::from(n)] += 1;
            }
        }
        let diagonal = pairs
            .iter()
            .map(|&(wk, bk)| on_diagonal(wk) && on_diagonal(bk))
            .collect();
        KingPairs {
            lookup,
            pairs,
            multiplicity,
            diagonal,
        }
    }

    /// The shared table, built on first use.
    pub fn get() -> &'static KingPairs {
        static PAIRS: OnceLock<KingPairs> = OnceLock::new();
        PAIRS.get_or_init(KingPairs::new)
    }

    #[inline]
    pub fn lookup(&self, wk: Square, bk: Square) -> Option<(u16, Symmetry)> {
        self.lookup[usize::from(wk) * 64 + usize::from(bk)]
    }

    #[inline]
    pub fn pair(&self, n: u16) -> (Square, Square) {
        self.pairs[usize::from(n)]
    }

    /// True when both kings of pair `n` stand on the a1-h8 diagonal, so that
    /// the reflection in it leaves the kings in place.
    #[inline]
    pub fn is_diagonal(&self, n: u16) -> bool {
        self.diagonal[usize::from(n)]
    }

    /// How many placements of the two kings map to pair `n` (8, or 4 for the
    /// pairs on the diagonal).
    pub fn multiplicity(&self, n: u16) -> u8 {
        self.multiplicity[usize::from(n)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_symmetry_moves_a_set_of_squares_as_it_moves_each_and_its_inverse_undoes_it() {
        for sym in Symmetry::ALL {
            for sq in Square::ALL {
                let image = sym.apply(sq);
                assert_eq!(sym.apply_to(Bitboard::from(sq)), Bitboard::from(image));
                assert_eq!(sym.inverse().apply(image), sq);
            }
        }
    }

    #[test]
    fn squares_and_vectors_agree() {
        let offset = |a: Square, b: Square| {
            (
                b.file() as i32 - a.file() as i32,
                b.rank() as i32 - a.rank() as i32,
            )
        };
        for (index, sym) in Symmetry::ALL.into_iter().enumerate() {
            assert_eq!(sym as usize, index, "ALL is in the order of IMAGES");
            for a in Square::ALL {
                for b in [Square::A1, Square::D5, Square::H7] {
                    let after = offset(sym.apply(a), sym.apply(b));
                    assert_eq!(sym.apply_offset(offset(a, b)), after, "{sym:?}");
                }
            }
        }
        assert_eq!(Symmetry::Rotate90.apply(Square::A1), Square::H1);
        assert_eq!(Symmetry::MirrorFiles.apply(Square::B3), Square::G3);
        assert_eq!(Symmetry::AntiDiagonal.apply(Square::A1), Square::H8);
        assert_eq!(Symmetry::Diagonal.apply(Square::A3), Square::C1);
    }

    #[test]
    fn the_king_pairs_try_every_symmetry_once() {
        let mut order = KING_PAIR_ORDER;
        order.sort();
        assert_eq!(order, Symmetry::ALL);
    }

    #[test]
    fn there_are_462_pairs_covering_all_placements() {
        let kp = KingPairs::get();
        let total: u32 = (0..KING_PAIRS as u16)
            .map(|n| u32::from(kp.multiplicity(n)))
            .sum();
        // 64 squares for the white king, then the squares not next to it.
        let placements: u32 = Square::ALL
            .iter()
            .map(|&wk| {
                Square::ALL
                    .iter()
                    .filter(|&&bk| wk.distance(bk) > 1)
                    .count() as u32
            })
            .sum();
        assert_eq!(total, placements);
        assert_eq!(placements, 3612);
        assert!(
            (0..KING_PAIRS as u16)
                .all(|n| kp.multiplicity(n) == if kp.is_diagonal(n) { 4 } else { 8 })
        );
    }
}
