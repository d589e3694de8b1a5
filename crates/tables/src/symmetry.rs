//! The eight symmetries of the board and the canonical placement of the two
//! kings.
//!
//! Without pawns a position and its mirror images and rotations have the same
//! value, so a table stores one of them. The kings decide which: the white
//! king is brought into the triangle a1-d1-d4, and when it stands on the
//! a1-h8 diagonal the black king is brought onto or below that diagonal.
//! That leaves 462 placements of the two kings.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Square};

/// One of the eight symmetries of the square board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Symmetry(u8);

impl Symmetry {
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// The reflection in the a1-h8 diagonal.
    pub const DIAGONAL: Symmetry = Symmetry(4);

    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    #[inline]
    pub fn apply(self, sq: Square) -> Square {
        IMAGES[usize::from(self.0)][usize::from(sq)]
    }

    /// The symmetry that undoes this one.
    #[inline]
    pub fn inverse(self) -> Symmetry {
        match self.0 {
            6 => Symmetry(7),
            7 => Symmetry(6),
            // Reflections and the half turn undo themselves.
            _ => self,
        }
    }

    /// The image of every square of `bb`.
    #[inline]
    pub fn apply_to(self, bb: Bitboard) -> Bitboard {
        match self.0 {
            0 => bb,
            1 => bb.flip_horizontal(),
            2 => bb.flip_vertical(),
            3 => bb.rotate_180(),
            4 => bb.flip_diagonal(),
            5 => bb.flip_anti_diagonal(),
            6 => bb.rotate_90(),
            _ => bb.rotate_270(),
        }
    }

    const fn compute(self, sq: Square) -> Square {
        match self.0 {
            0 => sq,
            1 => sq.flip_horizontal(),
            2 => sq.flip_vertical(),
            3 => sq.rotate_180(),
            4 => sq.flip_diagonal(),
            5 => sq.flip_anti_diagonal(),
            6 => sq.rotate_90(),
            _ => sq.rotate_270(),
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
            images[s][i] = Symmetry(s as u8).compute(Square::new(i as u32));
            i += 1;
        }
        s += 1;
    }
    images
};

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
    fn new() -> KingPairs {
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
                let sym = Symmetry::ALL
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

    use super::*;

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
