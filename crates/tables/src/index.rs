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
    /// Numbers that share the kings' digits (a king pair, a black king
    /// square with a fixed white king, two kings' squares in a slice).
    pair_len: usize,
    /// ⌈2^64 / `pair_len`⌉, to divide by `pair_len` with a multiplication
    /// ([`Indexer::pair_of`]).
    pair_reciprocal: u128,
    /// How much a digit of each man weighs in the number (see
    /// [`Indexer::encode`]); not used for the kings of a pair.
    strides: [usize; MAX_MEN],
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

/// With a king pair, each man between the kings and the last is numbered
/// over the 62 squares the kings leave: a table of five men has
/// 462 * 62^2 * 64 numbers a side instead of 462 * 64^3, 6 % fewer (9 %
/// for six). The last man keeps 64, so that a run is the 64 squares of
/// one man.
const MIDDLE_SQUARES: usize = 62;

/// The squares of the two kings, which the middle men are numbered
/// around ([`MIDDLE_SQUARES`]).
#[derive(Copy, Clone)]
struct KingSquares {
    low: usize,
    high: usize,
}

impl KingSquares {
    #[inline(always)]
    pub(crate) fn new(a: Square, b: Square) -> KingSquares {
        KingSquares {
            low: usize::from(a.min(b)),
            high: usize::from(a.max(b)),
        }
    }

    #[inline(always)]
    fn contains(self, sq: Square) -> bool {
        let sq = usize::from(sq);
        sq == self.low || sq == self.high
    }

    /// The digit of a middle man on `sq` (no king's square): its place
    /// among the squares that no king stands on.
    #[inline(always)]
    fn digit(self, sq: Square) -> usize {
        let sq = usize::from(sq);
        sq - usize::from(sq > self.low) - usize::from(sq > self.high)
    }

    /// The square of middle digit `digit`.
    #[inline(always)]
    fn square(self, digit: usize) -> Square {
        let sq = digit + usize::from(digit >= self.low);
        Square::new((sq + usize::from(sq >= self.high)) as u32)
    }
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
        Indexer::with_kings(
            men,
            match variant {
                Variant::Standard => Kings::Pairs,
                Variant::FixedKing(sq) => Kings::Fixed(sq),
            },
        )
    }

    /// The numbering of the `men` kings and pieces of a pawn slice, whose
    /// `pawns` stand after them in every placement.
    pub fn slice(men: usize, pawns: &[Square]) -> Indexer {
        let mut squares = [Square::A1; MAX_MEN];
        squares[..pawns.len()].copy_from_slice(pawns);
        Indexer::with_kings(
            men,
            Kings::Free {
                pawns: squares,
                count: pawns.len(),
            },
        )
    }

    fn with_kings(men: usize, kings: Kings) -> Indexer {
        let mut indexer = Indexer {
            men,
            kings,
            pairs: KingPairs::get(),
            pair_len: 0,
            pair_reciprocal: 0,
            strides: [0; MAX_MEN],
        };
        let mut stride = 1;
        for man in (0..men).rev() {
            indexer.strides[man] = stride;
            stride *= if indexer.is_middle(man) {
                MIDDLE_SQUARES
            } else {
                64
            };
        }
        indexer.pair_len = indexer.strides[1];
        indexer.pair_reciprocal = (1u128 << 64).div_ceil(indexer.pair_len as u128);
        // With r = (2^64 + e) / d (e < d), n * r / 2^64 = n / d + n * e /
        // (d * 2^64), whose floor is n / d's while n * e < 2^64.
        assert!((indexer.size() as u128) * (indexer.pair_len as u128) < 1 << 64);
        indexer
    }

    /// Whether man `man` is numbered over the squares the kings leave.
    #[inline(always)]
    fn is_middle(&self, man: usize) -> bool {
        matches!(self.kings, Kings::Pairs) && man >= 2 && man + 1 < self.men
    }

    /// The king pair of a number of [`Kings::Pairs`]: `index / pair_len`,
    /// by a multiplication (the engine asks for it a run at a time).
    #[inline(always)]
    fn pair_of(&self, index: usize) -> u16 {
        ((index as u128 * self.pair_reciprocal) >> 64) as u16
    }

    /// The squares of pair `pair`'s kings.
    #[inline(always)]
    fn pair_kings(&self, pair: u16) -> KingSquares {
        let (wk, bk) = self.pairs.pair(pair);
        KingSquares::new(wk, bk)
    }

    /// The number, after the king pair's, of the men from the third on
    /// (`others`, the last included) on their images, beside `kings`:
    /// `None` when a middle man stands on a king.
    #[inline(always)]
    fn others_number(
        others: &[Square],
        kings: KingSquares,
        image: impl Fn(Square) -> Square + Copy,
    ) -> Option<usize> {
        let (&last, middle) = others.split_last().expect("a man after the kings");
        let middle = Self::middle_number(middle, kings, image)?;
        Some(middle * 64 + usize::from(image(last)))
    }

    /// The number of the middle men (between the kings and the last) on
    /// the images of `middle` beside `kings`, over the squares the kings
    /// leave: `None` when one stands on a king.
    #[inline(always)]
    fn middle_number(
        middle: &[Square],
        kings: KingSquares,
        image: impl Fn(Square) -> Square,
    ) -> Option<usize> {
        middle.iter().try_fold(0, |acc, &sq| {
            let sq = image(sq);
            (!kings.contains(sq)).then(|| acc * MIDDLE_SQUARES + kings.digit(sq))
        })
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
        self.pair_len
            * match self.kings {
                Kings::Pairs => KING_PAIRS,
                Kings::Fixed(_) => 64,
                Kings::Free { .. } => 64 * 64,
            }
    }

    /// The number of a placement, or `None` when it has none: the kings
    /// share a square or touch, the white king is off its fixed square, or
    /// with a king pair a man other than the last stands on a king.
    ///
    /// The number is made of digits, the first the highest: each man's
    /// square (base 64), the kings' being the king pair's number (of
    /// [`KING_PAIRS`]) in orthodox chess, and with a king pair the men
    /// between the kings and the last numbered over the 62 squares the
    /// kings leave ([`MIDDLE_SQUARES`]).
    #[inline]
    pub fn encode(&self, squares: &[Square]) -> Option<usize> {
        let n = self.men;
        match self.kings {
            Kings::Fixed(fixed) => (squares[0] == fixed).then(|| digits(&squares[1..n])),
            Kings::Free { .. } => Some(digits(&squares[..n])),
            Kings::Pairs => {
                let (pair, sym) = self.pairs.lookup(squares[0], squares[1])?;
                let base = usize::from(pair) * self.pair_len;
                if n == 2 {
                    return Some(base);
                }
                let kings = self.pair_kings(pair);
                let others = &squares[2..n];
                let rest = Self::others_number(others, kings, |sq| sym.apply(sq))?;
                let rest = if self.pairs.is_diagonal(pair) {
                    // The mirror keeps the kings where they are.
                    let mirror = |sq| Symmetry::Diagonal.apply(sym.apply(sq));
                    rest.min(Self::others_number(others, kings, mirror)?)
                } else {
                    rest
                };
                Some(base + rest)
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
        let base64 = |squares: &mut Squares, digits: usize| {
            for i in 0..digits {
                squares[self.men - 1 - i] = Square::new(((index >> (6 * i)) & 63) as u32);
            }
        };
        match self.kings {
            Kings::Fixed(fixed) => {
                base64(&mut squares, k + 1);
                squares[0] = fixed;
            }
            Kings::Free { pawns, count } => {
                base64(&mut squares, self.men);
                squares[self.men..self.men + count].copy_from_slice(&pawns[..count]);
            }
            Kings::Pairs => {
                let pair = self.pair_of(index);
                (squares[0], squares[1]) = self.pairs.pair(pair);
                if k == 0 {
                    return Some(squares);
                }
                base64(&mut squares, 1);
                let kings = self.pair_kings(pair);
                let mut middle = (index - usize::from(pair) * self.pair_len) >> 6;
                for man in (2..self.men - 1).rev() {
                    squares[man] = kings.square(middle % MIDDLE_SQUARES);
                    middle /= MIDDLE_SQUARES;
                }
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
        let diagonal =
            matches!(self.kings, Kings::Pairs) && self.pairs.is_diagonal(self.pair_of(start));
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
            Kings::Pairs if self.pairs.is_diagonal(self.pair_of(index)) => MAX_MEN,
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
            return self.moved_digit(index, squares, man, to);
        }
        let mut after = *squares;
        after[man] = to;
        self.encode(&after[..self.men])
    }

    /// The number of `squares` (number `index`) with man `man`, whose
    /// digit is its own (see [`Indexer::first_digit_man`]), moved to `to`:
    /// `None` when a middle man moves onto a king.
    #[inline(always)]
    fn moved_digit(
        &self,
        index: usize,
        squares: &Squares,
        man: usize,
        to: Square,
    ) -> Option<usize> {
        let stride = self.strides[man];
        if self.is_middle(man) {
            let kings = KingSquares::new(squares[0], squares[1]);
            if kings.contains(to) {
                return None;
            }
            let from = kings.digit(squares[man]);
            return Some(index - from * stride + kings.digit(to) * stride);
        }
        let shift = stride.trailing_zeros();
        Some(index & !(63 << shift) | usize::from(to) << shift)
    }

    /// For a run decoded by [`Indexer::decode_run`] (its first number
    /// `run`, placement `squares`): the first number of the run reached
    /// when man `man` (not the last) moves to `to`, and where each
    /// placement's child is in it: the child of the placement with the
    /// last man on s is that number plus `square(s)` of the map (a king
    /// move may turn the board; with both kings on the diagonal the child
    /// may be the mirror image). `None` for a king move that brings both
    /// kings onto the diagonal, when the kings would touch, for a fixed
    /// king, or when a king and a middle man would share a square (no
    /// number).
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
            return Some((self.moved_digit(run, squares, man, to)?, LineMap::SAME));
        }
        if !matches!(self.kings, Kings::Pairs) {
            // The fixed king does not move.
            return None;
        }
        // The men between the kings and the last, the last man's digit
        // left at zero.
        let middle = &squares[2..self.men - 1];
        if man >= 2 {
            // Both kings on the diagonal: the child's number is that of
            // the smaller of it and its mirror image.
            let pair = self.pair_of(run);
            let kings = self.pair_kings(pair);
            if kings.contains(to) {
                return None;
            }
            let mut moved = [Square::A1; MAX_MEN];
            let moved = &mut moved[..middle.len()];
            moved.copy_from_slice(middle);
            moved[man - 2] = to;
            let (image, map) = match mirror_order(moved) {
                Ordering::Less => (Symmetry::Identity, LineMap::SAME),
                Ordering::Equal => (Symmetry::Identity, LineMap::Folded),
                Ordering::Greater => (Symmetry::Diagonal, LineMap::Turned(Symmetry::Diagonal)),
            };
            let moved = Self::middle_number(moved, kings, |sq| image.apply(sq))?;
            return Some((usize::from(pair) * self.pair_len + moved * 64, map));
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
        let kings = self.pair_kings(pair);
        // A king moved onto a middle man's square has no number.
        let middle = Self::middle_number(middle, kings, |sq| sym.apply(sq))?;
        Some((
            usize::from(pair) * self.pair_len + middle * 64,
            LineMap::Turned(sym),
        ))
    }

    /// Numbers that share one king pair (one black king square with a
    /// fixed white king).
    pub(crate) fn king_pair_len(&self) -> usize {
        self.pair_len
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
                let pair = self.pair_of(index);
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
impl Indexer {
    /// Numbers a side in the numbering of the ranking solver and of table
    /// files up to format 5: with a king pair, every man after the kings
    /// over 64 squares (else as now).
    pub(crate) fn size_over_64(&self) -> usize {
        match self.kings {
            Kings::Pairs => KING_PAIRS << (6 * self.others()),
            _ => self.size(),
        }
    }

    /// The placement of number `index` of [`Indexer::size_over_64`], `None`
    /// where it was not the canonical number of its placement.
    pub(crate) fn decode_over_64(&self, index: usize) -> Option<Squares> {
        if !matches!(self.kings, Kings::Pairs) {
            return self.decode(index);
        }
        let mut squares = [Square::A1; MAX_MEN];
        let k = self.others();
        for i in 0..k {
            squares[self.men - 1 - i] = Square::new(((index >> (6 * i)) & 63) as u32);
        }
        let pair = (index >> (6 * k)) as u16;
        (squares[0], squares[1]) = self.pairs.pair(pair);
        let mirrored = self.pairs.is_diagonal(pair)
            && mirror_order(&squares[2..self.men]) == Ordering::Greater;
        (!mirrored).then_some(squares)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        for (men, step) in [(3, 1), (4, 1), (5, 7)] {
            let ix = Indexer::new(men, Variant::Standard);
            let mut canonical = 0;
            for index in (0..ix.size()).step_by(step) {
                if let Some(squares) = ix.decode(index) {
                    canonical += 1;
                    assert_eq!(ix.encode(&squares[..men]), Some(index));
                }
            }
            assert!(canonical < ix.size() / step, "{men}");
        }
    }

    /// With a king pair the men between the kings and the last are
    /// numbered over the 62 squares the kings leave.
    #[test]
    fn the_middle_men_are_numbered_over_62_squares() {
        for (men, size) in [
            (2, 462),
            (3, 462 * 64),
            (4, 462 * 62 * 64),
            (5, 462 * 62 * 62 * 64),
            (6, 462 * 62 * 62 * 62 * 64),
        ] {
            assert_eq!(Indexer::new(men, Variant::Standard).size(), size);
        }
        // The fixed king and a slice's kings and pieces keep 64 squares.
        let fixed = Indexer::new(5, Variant::FixedKing(Square::C3));
        assert_eq!(fixed.size(), 64usize.pow(4));
        assert_eq!(Indexer::slice(4, &[Square::E2]).size(), 64usize.pow(4));
        // A middle man on a king's square has no number; the last has.
        let ix = Indexer::new(5, Variant::Standard);
        let on_king = [Square::A1, Square::C3, Square::A1, Square::H8, Square::D4];
        assert_eq!(ix.encode(&on_king), None);
        let last_on_king = [Square::A1, Square::C3, Square::H8, Square::D4, Square::C3];
        assert!(ix.encode(&last_on_king).is_some());
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
        for (men, placements) in [(3, 3612 * 64), (4, 3612 * 62 * 64)] {
            let ix = Indexer::new(men, Variant::Standard);
            let total: u64 = (0..ix.size()).map(|i| ix.weight(i)).sum();
            assert_eq!(total, placements);
        }
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
