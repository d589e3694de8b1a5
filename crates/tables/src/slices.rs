//! The numbering of a table with pawns ([`SliceIndexer`]): the slice's
//! ordinal, then the squares of the kings and pieces in base 64. Pawns stand
//! on the 48 squares of ranks 2 to 7, like pawns once (in the order of their
//! squares), and of a placement of the pawns and its mirror image (files a-h
//! turned to h-a) only one is a slice, the one with the smaller pawn squares;
//! a number stands for its placement and that mirror image, except in a
//! slice whose pawns are their own mirror image, which holds both.

use std::{
    collections::HashMap,
    fmt,
    ops::Range,
    sync::{Arc, Mutex, OnceLock},
};

use rayon::prelude::*;
use shakmaty::{Bitboard, Color, Piece, Rank, Role, Square};

use crate::{
    index::{Indexer, Squares, digits},
    material::{MAX_MEN, Material},
};

/// The pawns of a slice: their squares in material order, like pawns
/// smallest square first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PawnSquares {
    squares: [Square; MAX_MEN],
    white: u8,
    black: u8,
}

impl PawnSquares {
    pub(crate) fn squares(&self) -> &[Square] {
        &self.squares[..usize::from(self.white + self.black)]
    }

    /// How far the pawns have gone: a step of one square adds 1.
    fn advancement(&self) -> u32 {
        let white = usize::from(self.white);
        self.squares()
            .iter()
            .enumerate()
            .map(|(i, sq)| {
                let rank = sq.rank().to_u32();
                if i < white { rank - 1 } else { 6 - rank }
            })
            .sum()
    }

    /// Whether a pawn of `color` stands on its seventh rank, a step from
    /// promotion.
    pub(crate) fn on_seventh(&self, color: Color) -> bool {
        let white = usize::from(self.white);
        let (of_color, seventh) = match color {
            Color::White => (&self.squares()[..white], Rank::Seventh),
            Color::Black => (&self.squares()[white..], Rank::Second),
        };
        of_color.iter().any(|sq| sq.rank() == seventh)
    }

    /// The same pawns, like pawns in order of their squares.
    fn sorted(mut self) -> PawnSquares {
        let white = usize::from(self.white);
        let len = white + usize::from(self.black);
        self.squares[..white].sort_unstable();
        self.squares[white..len].sort_unstable();
        self
    }

    /// The pawns of the mirror image (files a-h turned to h-a), sorted.
    fn mirrored(mut self) -> PawnSquares {
        let len = usize::from(self.white + self.black);
        for sq in &mut self.squares[..len] {
            *sq = sq.flip_horizontal();
        }
        self.sorted()
    }

    /// Base-64 number of the squares.
    fn key(&self) -> usize {
        self.squares()
            .iter()
            .fold(0, |acc, &sq| acc * 64 + usize::from(sq))
    }
}

impl fmt::Display for PawnSquares {
    /// `e4 v d5`: white's pawns, then black's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let white = usize::from(self.white);
        let side = |squares: &[Square]| -> String {
            if squares.is_empty() {
                "-".to_owned()
            } else {
                squares
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        write!(
            f,
            "{} v {}",
            side(&self.squares()[..white]),
            side(&self.squares()[white..])
        )
    }
}

/// In [`SliceIndexer`]'s places: not a placement of pawns.
const NO_SLICE: u32 = u32::MAX;
/// In [`SliceIndexer`]'s places: the slice holds the mirror image.
const MIRRORED: u32 = 1 << 31;

/// Numbers and placements of a material with pawns, slice by slice.
#[derive(Debug)]
pub struct SliceIndexer {
    pub(crate) men: usize,
    /// The kings and pieces (their places in the material), then the
    /// pawns: the order of a slice's placements.
    pub(crate) order: [usize; MAX_MEN],
    pub(crate) pieces: usize,
    pub(crate) slices: Vec<PawnSquares>,
    /// For every placement of the pawns (their squares in material order,
    /// base 64): its slice, with [`MIRRORED`] when the slice holds its
    /// mirror image; [`NO_SLICE`] when it is none.
    places: Vec<u32>,
    /// The slices of each advancement, most advanced first: the order of
    /// the build.
    pub(crate) levels: Vec<Range<usize>>,
}

impl SliceIndexer {
    /// The numbering of `material`, made once a process: a table, its file
    /// and every probe share it.
    pub fn shared(material: &Material) -> Arc<SliceIndexer> {
        static MADE: OnceLock<Mutex<HashMap<Material, Arc<SliceIndexer>>>> = OnceLock::new();
        let made = || {
            MADE.get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        if let Some(indexer) = made().get(material) {
            return Arc::clone(indexer);
        }
        // Made with no lock held: `new` runs on rayon's pool, whose workers
        // may be waiting here for another material, and holding the lock
        // through it deadlocked them. Two threads may make the same
        // numbering at once; the first one kept is shared.
        let indexer = Arc::new(SliceIndexer::new(material));
        Arc::clone(made().entry(material.clone()).or_insert(indexer))
    }

    pub fn new(material: &Material) -> SliceIndexer {
        let men = material.men();
        let is_pawn = |i: &usize| men[*i].role == Role::Pawn;
        let mut order = [0; MAX_MEN];
        let pieces: Vec<usize> = (0..men.len()).filter(|i| !is_pawn(i)).collect();
        let pawns: Vec<usize> = (0..men.len()).filter(is_pawn).collect();
        order[..pieces.len()].copy_from_slice(&pieces);
        order[pieces.len()..men.len()].copy_from_slice(&pawns);
        let white = pawns
            .iter()
            .filter(|&&i| men[i].color == Color::White)
            .count();
        let of = |squares: &[Square]| {
            let mut set = PawnSquares {
                squares: [Square::A1; MAX_MEN],
                white: white as u8,
                black: (pawns.len() - white) as u8,
            };
            set.squares[..squares.len()].copy_from_slice(squares);
            set
        };

        // Every placement of the pawns on ranks 2-7, one square each.
        let places_len = 1 << (6 * pawns.len());
        let on_board = |key: usize| -> Option<PawnSquares> {
            let squares: Vec<Square> = (0..pawns.len())
                .rev()
                .map(|i| Square::new(((key >> (6 * i)) & 63) as u32))
                .collect();
            let occupied = squares.iter().fold(Bitboard::EMPTY, |bb, &s| bb | s);
            let inner = !(Bitboard::from(Rank::First) | Bitboard::from(Rank::Eighth));
            (occupied.count() == squares.len() && inner.is_superset(occupied)).then(|| of(&squares))
        };
        let canonical = |set: PawnSquares| -> (PawnSquares, bool) {
            let sorted = set.sorted();
            let mirror = set.mirrored();
            if mirror.key() < sorted.key() {
                (mirror, true)
            } else {
                (sorted, false)
            }
        };
        let mut slices: Vec<PawnSquares> = (0..places_len)
            .filter_map(on_board)
            .filter(|&set| canonical(set) == (set, false))
            .collect();
        slices.sort_by_key(|set| (std::cmp::Reverse(set.advancement()), set.key()));
        let ordinal: HashMap<usize, u32> = slices
            .iter()
            .enumerate()
            .map(|(i, set)| (set.key(), i as u32))
            .collect();
        let places = (0..places_len)
            .into_par_iter()
            .map(|key| match on_board(key) {
                Some(set) => {
                    let (slice, mirrored) = canonical(set);
                    ordinal[&slice.key()] | if mirrored { MIRRORED } else { 0 }
                }
                None => NO_SLICE,
            })
            .collect();
        let mut levels: Vec<Range<usize>> = Vec::new();
        for (i, set) in slices.iter().enumerate() {
            match levels.last_mut() {
                Some(level) if slices[level.start].advancement() == set.advancement() => {
                    level.end = i + 1
                }
                _ => levels.push(i..i + 1),
            }
        }
        SliceIndexer {
            men: men.len(),
            order,
            pieces: pieces.len(),
            slices,
            places,
            levels,
        }
    }

    /// Numbers of one slice.
    pub fn slice_len(&self) -> usize {
        1 << (6 * self.pieces)
    }

    /// Numbers for one side to move.
    pub fn size(&self) -> usize {
        self.slices.len() * self.slice_len()
    }

    /// How many slices there are.
    pub fn slices(&self) -> usize {
        self.slices.len()
    }

    /// The slices of each advancement, most advanced first: the order of
    /// the build.
    pub(crate) fn levels(&self) -> &[Range<usize>] {
        &self.levels
    }

    /// The slice of a number.
    pub fn slice_of(&self, index: usize) -> usize {
        index >> (6 * self.pieces)
    }

    /// The pawns of slice `slice`.
    pub fn pawns(&self, slice: usize) -> PawnSquares {
        self.slices[slice]
    }

    /// Whether the pawns of slice `slice` are their own mirror image.
    pub fn symmetric(&self, slice: usize) -> bool {
        self.slices[slice].mirrored() == self.slices[slice]
    }

    /// The slice and mirroring of the pawns of a placement (material
    /// order), `None` when they stand on no slice's squares.
    #[inline]
    pub(crate) fn place(&self, squares: &[Square]) -> Option<(usize, bool)> {
        let key = self.order[self.pieces..self.men]
            .iter()
            .fold(0, |acc, &i| acc * 64 + usize::from(squares[i]));
        let place = self.places[key];
        (place != NO_SLICE).then_some(((place & !MIRRORED) as usize, place & MIRRORED != 0))
    }

    /// The number of a placement (material order), `None` when its pawns
    /// stand on the first or last rank or share a square.
    #[inline]
    pub fn encode(&self, squares: &[Square]) -> Option<usize> {
        let (slice, mirrored) = self.place(squares)?;
        let image = |sq: Square| if mirrored { sq.flip_horizontal() } else { sq };
        Some(
            self.order[..self.pieces]
                .iter()
                .fold(slice, |acc, &i| acc * 64 + usize::from(image(squares[i]))),
        )
    }

    /// The placement of a number, in material order.
    #[inline]
    pub fn decode(&self, index: usize) -> Squares {
        let mut squares = [Square::A1; MAX_MEN];
        let pawns = self.slices[self.slice_of(index)];
        for (k, &i) in self.order[..self.pieces].iter().enumerate() {
            squares[i] = Square::new(((index >> (6 * (self.pieces - 1 - k))) & 63) as u32);
        }
        for (&i, &sq) in self.order[self.pieces..self.men]
            .iter()
            .zip(pawns.squares())
        {
            squares[i] = sq;
        }
        squares
    }

    /// How many placements of the board number `index` stands for.
    pub fn weight(&self, index: usize) -> u64 {
        if self.symmetric(self.slice_of(index)) {
            1
        } else {
            2
        }
    }

    /// The number inside its slice of a placement in slice order (kings and
    /// pieces first).
    #[inline]
    pub(crate) fn in_slice(&self, squares: &[Square]) -> usize {
        digits(&squares[..self.pieces])
    }

    /// The kings and pieces of each placement of slice `slice`, the
    /// pawns standing still at their squares.
    pub(crate) fn slice_indexer(&self, slice: usize) -> Indexer {
        Indexer::slice(self.pieces, self.slices[slice].squares())
    }

    /// The kings and pieces of the material.
    pub(crate) fn pieces(&self) -> usize {
        self.pieces
    }

    /// The men of the material in slice order.
    pub(crate) fn men_in_order(&self, material: &Material) -> Vec<Piece> {
        self.order[..self.men]
            .iter()
            .map(|&i| material.men()[i])
            .collect()
    }
}

/// Slices of at least this many numbers are large: built a few at a time
/// ([`large_at_once`](crate::pawns::schedule::large_at_once)), each by every core (the engine works by blocks in
/// parallel), so that few are in memory at once, and kept compressed while
/// slices still to build step into them; smaller ones, which would keep
/// one core busy each, a level in parallel.
pub(crate) const LARGE_SLICE_FROM: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        for name in ["KPvK", "KPPvK", "KPvKP", "KRPvKP", "KPPvKP"] {
            let material: Material = name.parse().unwrap();
            let ix = SliceIndexer::new(&material);
            let step = ix.size() / 5000 + 1;
            for index in (0..ix.size()).step_by(step) {
                let squares = ix.decode(index);
                assert_eq!(ix.encode(&squares[..material.len()]), Some(index), "{name}");
                let mirror: Vec<Square> = squares[..material.len()]
                    .iter()
                    .map(|s| s.flip_horizontal())
                    .collect();
                let symmetric = ix.symmetric(ix.slice_of(index));
                assert_eq!(ix.encode(&mirror) == Some(index), !symmetric, "{name}");
            }
        }
    }

    #[test]
    fn like_pawns_are_numbered_once_and_slices_go_most_advanced_first() {
        let material: Material = "KPPvK".parse().unwrap();
        let ix = SliceIndexer::new(&material);
        // Two like pawns on 48 squares, a placement and its mirror image
        // once: (1128 + 24 symmetric pairs) / 2.
        assert_eq!(ix.slices(), (48 * 47 / 2 + 24) / 2);
        let both = [Square::E1, Square::E8, Square::B2, Square::C7];
        let swapped = [Square::E1, Square::E8, Square::C7, Square::B2];
        assert_eq!(ix.encode(&both), ix.encode(&swapped));
        let advancement: Vec<u32> = ix.slices.iter().map(PawnSquares::advancement).collect();
        assert!(advancement.is_sorted_by(|a, b| a >= b));
        assert_eq!(ix.levels.len(), 11);
        let on_eighth = [Square::E1, Square::E8, Square::B8, Square::C7];
        assert_eq!(ix.encode(&on_eighth), None);
    }

    #[test]
    fn pawns_read_white_then_black() {
        let material: Material = "KPvKP".parse().unwrap();
        let ix = SliceIndexer::new(&material);
        let index = ix
            .encode(&[Square::E1, Square::E8, Square::E4, Square::D5])
            .unwrap();
        assert_eq!(ix.pawns(ix.slice_of(index)).to_string(), "d4 v e5");
    }
}
