//! The index: a number for every placement of the men, so that a table is a
//! flat array of bytes.

use std::cmp::Ordering;

use shakmaty::{Bitboard, Square};

use crate::{
    material::MAX_MEN,
    symmetry::{KING_PAIRS, KingPairs, Symmetry},
    variant::Variant,
};

/// Squares of the men in material order; entries past the material's length
/// are unused.
pub type Squares = [Square; MAX_MEN];

/// Maps placements to table positions and back.
///
/// In the orthodox game the kings fix one of the eight symmetries (see
/// [`crate::symmetry`]); when both kings stand on the a1-h8 diagonal the
/// reflection in it is decided by the other men, so that every position has
/// exactly one number. With a fixed white king there is no symmetry to use:
/// the number is made of the other men's squares alone. In a slice of a
/// table with pawns the pawns stand still and break every symmetry: the
/// number is the squares of the kings and pieces, and the pawns' squares
/// are the slice's.
#[derive(Clone, Debug)]
pub struct Indexer {
    men: usize,
    kings: Kings,
    pairs: &'static KingPairs,
}

/// How the kings are numbered.
#[derive(Clone, Debug)]
enum Kings {
    /// One of the 462 canonical pairs, the board turned to bring them there.
    Pairs,
    /// The white king on its square; the black king's square is a digit.
    Fixed(Square),
    /// Both kings' squares are digits, as every man's: the kings and pieces
    /// of a pawn slice, whose pawns (after them in the squares) stand
    /// where the slice puts them.
    Free { pawns: Squares, count: usize },
}

/// Where the positions of a run (the last man on s) have their numbers in
/// the run they lead into: bit s of the one is bit `square(s)` of the
/// other.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineMap {
    /// At the symmetry's image of s.
    Turned(Symmetry),
    /// At the smaller of s and its mirror image in the a1-h8 diagonal: both
    /// kings, and the men before the last, are their own mirror images.
    Folded,
}

/// The squares on or below the a1-h8 diagonal (rank at most file): those
/// no larger than their mirror images.
const ON_OR_BELOW_DIAGONAL: Bitboard = Bitboard(0x80c0_e0f0_f8fc_feff);

impl LineMap {
    pub const SAME: LineMap = LineMap::Turned(Symmetry::Identity);

    #[inline(always)]
    pub fn square(self, s: Square) -> Square {
        match self {
            LineMap::Turned(sym) => sym.apply(s),
            LineMap::Folded => s.min(Symmetry::Diagonal.apply(s)),
        }
    }

    /// The squares s whose `square(s)` is in `line`.
    #[inline(always)]
    pub fn pull(self, line: Bitboard) -> Bitboard {
        match self {
            LineMap::Turned(sym) => sym.inverse().apply_to(line),
            LineMap::Folded => {
                let kept = line & ON_OR_BELOW_DIAGONAL;
                kept | kept.flip_diagonal()
            }
        }
    }
}

/// Base-64 number of `squares`, the first the highest digit.
#[inline]
pub(crate) fn digits(squares: &[Square]) -> usize {
    squares
        .iter()
        .fold(0, |acc, &sq| acc * 64 + usize::from(sq))
}

/// Base-64 number of the mirror images of `squares` in the a1-h8 diagonal.
#[inline]
fn mirrored_digits(squares: &[Square]) -> usize {
    squares.iter().fold(0, |acc, &sq| {
        acc * 64 + usize::from(Symmetry::Diagonal.apply(sq))
    })
}

/// How the number of `squares` compares with that of their mirror images.
#[inline]
fn mirror_order(squares: &[Square]) -> Ordering {
    digits(squares).cmp(&mirrored_digits(squares))
}

impl Indexer {
    pub fn new(men: usize, variant: Variant) -> Indexer {
        Indexer {
            men,
            kings: match variant {
                Variant::Standard => Kings::Pairs,
                Variant::FixedKing(sq) => Kings::Fixed(sq),
            },
            pairs: KingPairs::get(),
        }
    }

    /// The numbering of the `men` kings and pieces of a pawn slice, whose
    /// `pawns` stand after them in every placement.
    pub fn slice(men: usize, pawns: &[Square]) -> Indexer {
        let mut squares = [Square::A1; MAX_MEN];
        squares[..pawns.len()].copy_from_slice(pawns);
        Indexer {
            men,
            kings: Kings::Free {
                pawns: squares,
                count: pawns.len(),
            },
            pairs: KingPairs::get(),
        }
    }

    /// Number of men.
    pub fn men(&self) -> usize {
        self.men
    }

    /// Number of men after the kings.
    fn others(&self) -> usize {
        self.men - 2
    }

    /// Number of table positions for one side to move.
    pub fn size(&self) -> usize {
        match self.kings {
            Kings::Pairs => KING_PAIRS << (6 * self.others()),
            Kings::Fixed(_) => 64 << (6 * self.others()),
            Kings::Free { .. } => 1 << (6 * self.men),
        }
    }

    /// The number of a placement, or `None` when it has none: the kings
    /// share a square or touch, or the white king is off its fixed square.
    #[inline]
    pub fn encode(&self, squares: &[Square]) -> Option<usize> {
        let n = self.men;
        match self.kings {
            Kings::Fixed(fixed) => (squares[0] == fixed).then(|| digits(&squares[1..n])),
            Kings::Free { .. } => Some(digits(&squares[..n])),
            Kings::Pairs => {
                let (pair, sym) = self.pairs.lookup(squares[0], squares[1])?;
                let k = self.others();
                let others = &squares[2..n];
                let rest = others
                    .iter()
                    .fold(0, |acc, &sq| acc * 64 + usize::from(sym.apply(sq)));
                let rest = if self.pairs.is_diagonal(pair) {
                    let mirrored = others.iter().fold(0, |acc, &sq| {
                        acc * 64 + usize::from(Symmetry::Diagonal.apply(sym.apply(sq)))
                    });
                    rest.min(mirrored)
                } else {
                    rest
                };
                Some((usize::from(pair) << (6 * k)) | rest)
            }
        }
    }

    /// The placement of a number, or `None` for a number that is not the
    /// canonical one of its position (the mirror image of another number
    /// when both kings are on the diagonal).
    #[inline]
    pub fn decode(&self, index: usize) -> Option<Squares> {
        let mut squares = [Square::A1; MAX_MEN];
        let k = self.others();
        for i in 0..k {
            squares[self.men - 1 - i] = Square::new(((index >> (6 * i)) & 63) as u32);
        }
        match self.kings {
            Kings::Fixed(fixed) => {
                squares[0] = fixed;
                squares[1] = Square::new((index >> (6 * k)) as u32);
            }
            Kings::Free { pawns, count } => {
                squares[0] = Square::new(((index >> (6 * (k + 1))) & 63) as u32);
                squares[1] = Square::new(((index >> (6 * k)) & 63) as u32);
                squares[self.men..self.men + count].copy_from_slice(&pawns[..count]);
            }
            Kings::Pairs => {
                let pair = (index >> (6 * k)) as u16;
                (squares[0], squares[1]) = self.pairs.pair(pair);
                if self.pairs.is_diagonal(pair)
                    && mirror_order(&squares[2..self.men]) == Ordering::Greater
                {
                    return None;
                }
            }
        }
        Some(squares)
    }

    /// The placement of the 64 numbers from `start` (a multiple of 64),
    /// which differ only in the last man's square (set to a1 here), and
    /// where each placement's number is (see [`LineMap`]): `start + s`,
    /// except when both kings stand on the diagonal and the men before the
    /// last are their own mirror images, where half the numbers are the
    /// mirror images of the others. `None` when no number of the run is
    /// canonical.
    #[inline]
    pub fn decode_run(&self, start: usize) -> Option<(Squares, LineMap)> {
        debug_assert_eq!(start % 64, 0);
        let squares = self.decode(start)?;
        let diagonal = matches!(self.kings, Kings::Pairs)
            && self
                .pairs
                .is_diagonal((start >> (6 * self.others())) as u16);
        let map = if diagonal && mirror_order(&squares[2..self.men - 1]) == Ordering::Equal {
            LineMap::Folded
        } else {
            LineMap::SAME
        };
        Some((squares, map))
    }

    /// The first man whose move changes only its own digit of `index`:
    /// moving a man other than a king keeps the kings' symmetry, unless
    /// both kings stand on the diagonal, where the mirror may flip (then
    /// no man: [`MAX_MEN`]). With a fixed white king, every man from the
    /// black king on; in a slice, every man.
    #[inline(always)]
    pub fn first_digit_man(&self, index: usize) -> usize {
        match self.kings {
            Kings::Free { .. } => 0,
            Kings::Fixed(_) => 1,
            Kings::Pairs
                if self
                    .pairs
                    .is_diagonal((index >> (6 * self.others())) as u16) =>
            {
                MAX_MEN
            }
            Kings::Pairs => 2,
        }
    }

    /// The number of the placement `squares` (whose number is `index`) with
    /// man `man` moved to `to`; `first_digit_man` is the
    /// [`Indexer::first_digit_man`] of `index`, found once for all the
    /// moves of a placement.
    #[inline(always)]
    pub fn moved(
        &self,
        index: usize,
        first_digit_man: usize,
        squares: &Squares,
        man: usize,
        to: Square,
    ) -> Option<usize> {
        if man >= first_digit_man {
            let shift = 6 * (self.men - 1 - man);
            return Some(index & !(63 << shift) | usize::from(to) << shift);
        }
        if matches!(self.kings, Kings::Pairs) && man < 2 {
            // A king move that keeps the kings canonical as they stand
            // changes the king pair only.
            let (wk, bk) = if man == 0 {
                (to, squares[1])
            } else {
                (squares[0], to)
            };
            let (pair, sym) = self.pairs.lookup(wk, bk)?;
            if sym == Symmetry::Identity && !self.pairs.is_diagonal(pair) {
                let rest = 6 * self.others();
                return Some(usize::from(pair) << rest | index & ((1 << rest) - 1));
            }
        }
        let mut after = *squares;
        after[man] = to;
        self.encode(&after[..self.men])
    }

    /// For a run decoded by [`Indexer::decode_run`] (its first number
    /// `run`, placement `squares`): the first number of the run reached
    /// when man `man` (not the last) moves to `to`, and where each
    /// placement's child is in it: the child of the placement with the
    /// last man on s is that number plus `square(s)` of the map (a king
    /// move may turn the board; with both kings on the diagonal the child
    /// may be the mirror image). `None` for a king move that brings both
    /// kings onto the diagonal, when the kings would touch, or for a fixed
    /// king.
    #[inline(always)]
    pub fn moved_run(
        &self,
        run: usize,
        first_digit_man: usize,
        squares: &Squares,
        man: usize,
        to: Square,
    ) -> Option<(usize, LineMap)> {
        debug_assert!(man < self.men - 1);
        if man >= first_digit_man {
            let shift = 6 * (self.men - 1 - man);
            return Some((
                run & !(63 << shift) | usize::from(to) << shift,
                LineMap::SAME,
            ));
        }
        if !matches!(self.kings, Kings::Pairs) {
            // The fixed king does not move.
            return None;
        }
        let rest = 6 * self.others();
        let pair_bits = run & !((1 << rest) - 1);
        if man >= 2 {
            // Both kings on the diagonal: the child's number is that of
            // the smaller of it and its mirror image.
            let mut middle = [Square::A1; MAX_MEN];
            let middle = &mut middle[..self.men - 3];
            middle.copy_from_slice(&squares[2..self.men - 1]);
            middle[man - 2] = to;
            let (middle, map) = match mirror_order(middle) {
                Ordering::Less => (digits(middle), LineMap::SAME),
                Ordering::Equal => (digits(middle), LineMap::Folded),
                Ordering::Greater => (mirrored_digits(middle), LineMap::Turned(Symmetry::Diagonal)),
            };
            return Some((pair_bits | middle << 6, map));
        }
        let (wk, bk) = if man == 0 {
            (to, squares[1])
        } else {
            (squares[0], to)
        };
        let (pair, sym) = self.pairs.lookup(wk, bk)?;
        if self.pairs.is_diagonal(pair) {
            return None;
        }
        let others = if sym == Symmetry::Identity {
            run & ((1 << rest) - 1)
        } else {
            // The men between the kings and the last, in their images; the
            // last man's digit is left at zero.
            let middle = &squares[2..self.men - 1];
            middle
                .iter()
                .fold(0, |acc, &sq| acc * 64 + usize::from(sym.apply(sq)))
                << 6
        };
        Some((usize::from(pair) << rest | others, LineMap::Turned(sym)))
    }

    /// Numbers that share one king pair (one black king square with a
    /// fixed white king).
    pub(crate) fn king_pair_len(&self) -> usize {
        1 << (6 * self.others())
    }

    /// The weight of every number of king pair `pair` (see
    /// [`Indexer::king_pair_len`]), `None` for a pair on the diagonal, where
    /// it depends on the other men.
    pub(crate) fn king_pair_weight(&self, pair: usize) -> Option<u64> {
        match self.kings {
            Kings::Fixed(_) | Kings::Free { .. } => Some(1),
            Kings::Pairs => {
                let pair = pair as u16;
                (!self.pairs.is_diagonal(pair)).then(|| u64::from(self.pairs.multiplicity(pair)))
            }
        }
    }

    /// How many placements of the board the number stands for.
    pub fn weight(&self, index: usize) -> u64 {
        let Some(squares) = self.decode(index) else {
            return 0;
        };
        match self.kings {
            Kings::Fixed(_) | Kings::Free { .. } => 1,
            Kings::Pairs => {
                let pair = (index >> (6 * self.others())) as u16;
                let kp = KingPairs::get();
                if kp.is_diagonal(pair) {
                    let symmetric = squares[2..self.men]
                        .iter()
                        .all(|&sq| Symmetry::Diagonal.apply(sq) == sq);
                    if symmetric { 4 } else { 8 }
                } else {
                    u64::from(kp.multiplicity(pair))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        let ix = Indexer::new(3, Variant::Standard);
        let mut canonical = 0;
        for index in 0..ix.size() {
            if let Some(squares) = ix.decode(index) {
                canonical += 1;
                assert_eq!(ix.encode(&squares), Some(index));
            }
        }
        assert!(canonical < ix.size());
    }

    /// The indexers of four men in both games.
    fn four_men_indexers() -> [(Variant, Indexer); 2] {
        [Variant::Standard, Variant::FixedKing(Square::E1)]
            .map(|variant| (variant, Indexer::new(4, variant)))
    }

    /// A sample of `ix`'s runs: (first number, placement, map) of those
    /// that start at every 832nd number.
    fn sampled_runs(ix: &Indexer) -> impl Iterator<Item = (usize, Squares, LineMap)> + '_ {
        (0..ix.size())
            .step_by(64 * 13)
            .filter_map(|start| ix.decode_run(start).map(|(run, map)| (start, run, map)))
    }

    #[test]
    fn a_moved_number_is_the_number_of_the_moved_placement() {
        for (_, ix) in four_men_indexers() {
            // Every 97th number: all king pairs, on and off the diagonal.
            for index in (0..ix.size()).step_by(97) {
                let Some(squares) = ix.decode(index) else {
                    continue;
                };
                let first_digit_man = ix.first_digit_man(index);
                for man in 0..4 {
                    for to in Square::ALL {
                        let after = with(squares, man, to);
                        assert_eq!(
                            ix.moved(index, first_digit_man, &squares, man, to),
                            ix.encode(&after[..4]),
                            "{squares:?} {man} {to}"
                        );
                    }
                }
            }
        }
    }

    /// The placement with man `man` on `sq`.
    fn with(squares: Squares, man: usize, sq: Square) -> Squares {
        let mut placement = squares;
        placement[man] = sq;
        placement
    }

    #[test]
    fn a_run_decodes_as_its_numbers() {
        for (variant, ix) in four_men_indexers() {
            let mut maps = Vec::new();
            for (start, run, map) in sampled_runs(&ix) {
                maps.push(map);
                for s in Square::ALL {
                    let placement = with(run, 3, s);
                    if run[..3].contains(&s) {
                        continue;
                    }
                    let number = start + usize::from(map.square(s));
                    assert_eq!(ix.encode(&placement[..4]), Some(number));
                    if map.square(s) == s {
                        assert_eq!(ix.decode(number), Some(placement));
                    }
                }
            }
            assert!(maps.contains(&LineMap::SAME));
            // Kings and the third man on the diagonal, in orthodox chess.
            let folded = maps.contains(&LineMap::Folded);
            assert_eq!(folded, variant == Variant::Standard);
        }
    }

    #[test]
    fn a_moved_run_gives_the_moved_numbers_of_its_placements() {
        for (variant, ix) in four_men_indexers() {
            let mut maps = Vec::new();
            for (run, squares, _) in sampled_runs(&ix) {
                let first_digit_man = ix.first_digit_man(run);
                for man in 0..3 {
                    for to in Square::ALL {
                        let moved = ix.moved_run(run, first_digit_man, &squares, man, to);
                        let Some((child, map)) = moved else {
                            continue;
                        };
                        if !maps.contains(&map) {
                            maps.push(map);
                        }
                        for s in Square::ALL {
                            let after = with(with(squares, 3, s), man, to);
                            if after[..3].contains(&s) {
                                continue;
                            }
                            let number = child + usize::from(map.square(s));
                            assert_eq!(ix.encode(&after[..4]), Some(number), "{after:?}");
                        }
                    }
                }
            }
            // King moves that turn the board, men moved with both kings on
            // the diagonal into a mirror image or onto it, in orthodox chess.
            let kinds = match variant {
                Variant::Standard => 8 + 1,
                Variant::FixedKing(_) => 1,
            };
            assert_eq!(maps.len(), kinds, "{maps:?}");
        }
    }

    #[test]
    fn a_line_map_pulls_the_squares_it_maps_into_a_line() {
        let maps = Symmetry::ALL.map(LineMap::Turned);
        for map in maps.into_iter().chain([LineMap::Folded]) {
            for line in [
                Bitboard(0x0123_4567_89ab_cdef),
                Bitboard::FULL,
                Bitboard::EMPTY,
            ] {
                let pulled = Bitboard::from_iter(
                    Square::ALL
                        .into_iter()
                        .filter(|&s| line.contains(map.square(s))),
                );
                assert_eq!(map.pull(line), pulled, "{map:?}");
            }
        }
        let below = Bitboard::from_iter(
            Square::ALL
                .into_iter()
                .filter(|s| s.rank() as u32 <= s.file() as u32),
        );
        assert_eq!(ON_OR_BELOW_DIAGONAL, below);
    }

    #[test]
    fn weights_cover_every_placement() {
        let ix = Indexer::new(3, Variant::Standard);
        let total: u64 = (0..ix.size()).map(|i| ix.weight(i)).sum();
        assert_eq!(total, 3612 * 64);
    }

    #[test]
    fn every_image_of_a_placement_has_the_same_number() {
        let ix = Indexer::new(4, Variant::Standard);
        let placement = [Square::C3, Square::F6, Square::B7, Square::G2, Square::A1];
        let number = ix.encode(&placement).unwrap();
        for sym in Symmetry::ALL {
            let image: Vec<Square> = placement.iter().map(|&s| sym.apply(s)).collect();
            assert_eq!(ix.encode(&image), Some(number));
        }
    }
}
