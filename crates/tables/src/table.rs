//! A finished table: one byte for every number of the index, for each side
//! to move.

use std::{collections::HashMap, sync::Arc};

use shakmaty::{Board, ByColor, Chess, Color, EnPassantMode, Position, Square, fen::Fen};

use crate::{
    error::TableError,
    index::{Indexer, Squares},
    material::Material,
    overflow::Overflow,
    slices::SliceIndexer,
    value::Value,
    variant::Variant,
};

/// The squares of a board's men in the order of `material`'s table.
pub(crate) fn squares_of(
    material: &Material,
    variant: Variant,
    board: &Board,
) -> Result<Squares, TableError> {
    let found = Material::from_board(board)?;
    if found != *material {
        return Err(TableError::WrongMaterial {
            expected: material.clone(),
            found,
        });
    }
    let squares = material.squares_of(board);
    if let Variant::FixedKing(fixed) = variant
        && squares[0] != fixed
    {
        return Err(TableError::KingNotOnFixedSquare(fixed));
    }
    Ok(squares)
}

/// How a table numbers its placements: by king pair (pawnless material)
/// or slice by slice (material with pawns).
#[derive(Clone, Debug)]
pub(crate) enum Numbering {
    Pieces(Indexer),
    Slices(Arc<SliceIndexer>),
}

impl Numbering {
    pub(crate) fn new(material: &Material, variant: Variant) -> Numbering {
        if material.has_pawns() {
            Numbering::Slices(SliceIndexer::shared(material))
        } else {
            Numbering::Pieces(Indexer::new(material.len(), variant))
        }
    }

    /// Numbers for one side to move.
    pub(crate) fn size(&self) -> usize {
        match self {
            Numbering::Pieces(ix) => ix.size(),
            Numbering::Slices(ix) => ix.size(),
        }
    }

    /// The number of a placement, if it has one.
    #[inline]
    pub(crate) fn encode(&self, squares: &[Square]) -> Option<usize> {
        match self {
            Numbering::Pieces(ix) => ix.encode(squares),
            Numbering::Slices(ix) => ix.encode(squares),
        }
    }

    /// The placement of a number, `None` for a number that stands for no
    /// placement of its own.
    #[inline]
    pub(crate) fn decode(&self, index: usize) -> Option<Squares> {
        match self {
            Numbering::Pieces(ix) => ix.decode(index),
            Numbering::Slices(ix) => Some(ix.decode(index)),
        }
    }

    /// How many placements of the board the number stands for.
    pub(crate) fn weight(&self, index: usize) -> u64 {
        match self {
            Numbering::Pieces(ix) => ix.weight(index),
            Numbering::Slices(ix) => ix.weight(index),
        }
    }

    /// The length of the blocks of numbers that [`Numbering::block_weight`]
    /// speaks of.
    pub(crate) fn weight_block_len(&self) -> usize {
        match self {
            Numbering::Pieces(ix) => ix.king_pair_len(),
            Numbering::Slices(ix) => ix.slice_len(),
        }
    }

    /// The weight of every number of block `block`, `None` when the weight
    /// varies from number to number.
    pub(crate) fn block_weight(&self, block: usize) -> Option<u64> {
        match self {
            Numbering::Pieces(ix) => ix.king_pair_weight(block),
            Numbering::Slices(ix) => Some(ix.weight(block * ix.slice_len())),
        }
    }

    /// How many numbers one position has, its like men in every order:
    /// like pawns are numbered once.
    pub(crate) fn identical_orderings(&self, material: &Material) -> u64 {
        match self {
            Numbering::Pieces(_) => material.identical_orderings(),
            Numbering::Slices(_) => material.without_pawns().identical_orderings(),
        }
    }
}

/// The tables a capture leads into.
pub type Subtables = HashMap<Material, Arc<Table>>;

/// Distance-to-mate values of every position of one material and variant
/// (within the crate, a table may hold one side to move only: it answers
/// `None` for the other).
pub struct Table {
    material: Material,
    variant: Variant,
    numbering: Numbering,
    /// The number of the first byte of `values`: 0 but in a window
    /// ([`Table::window`]).
    first: usize,
    values: ByColor<Vec<u8>>,
    overflow: Overflow,
}

impl Table {
    /// A table from its bytes and overflow list; the caller has checked
    /// their length (a side left empty is a side not read).
    pub(crate) fn from_parts(
        material: Material,
        variant: Variant,
        values: ByColor<Vec<u8>>,
        overflow: Overflow,
    ) -> Table {
        let numbering = Numbering::new(&material, variant);
        debug_assert!(
            values
                .iter()
                .all(|v| v.is_empty() || v.len() == numbering.size())
        );
        Table {
            material,
            variant,
            numbering,
            first: 0,
            values,
            overflow,
        }
    }

    /// A window of a table: the bytes of side `turn` for the numbers from
    /// `first` on, and no others, with the table's overflow list. A build
    /// reads a large table a block of numbers at a time so
    /// ([`crate::slices`]).
    pub(crate) fn window(
        material: Material,
        variant: Variant,
        turn: Color,
        first: usize,
        bytes: Vec<u8>,
        overflow: Overflow,
    ) -> Table {
        let mut values = ByColor::<Vec<u8>>::default();
        values[turn] = bytes;
        Table::part(material, variant, first, values, overflow)
    }

    /// A part of a table: the bytes of both sides for the numbers from
    /// `first` on (a slice kept in a journal), with the overflow list of
    /// those numbers.
    pub(crate) fn part(
        material: Material,
        variant: Variant,
        first: usize,
        values: ByColor<Vec<u8>>,
        overflow: Overflow,
    ) -> Table {
        Table {
            numbering: Numbering::new(&material, variant),
            material,
            variant,
            first,
            values,
            overflow,
        }
    }

    /// The bytes of side `turn`, taken out of the table: a window's, for
    /// the next window read ([`ChunkedTable::window`](crate::format::ChunkedTable::window)).
    pub(crate) fn into_side(mut self, turn: Color) -> Vec<u8> {
        std::mem::take(&mut self.values[turn])
    }

    /// The table with the byte of number `index`, `turn` to move, replaced
    /// by `byte`: a damaged table, for tests.
    #[cfg(test)]
    pub(crate) fn with_byte(&self, turn: Color, index: usize, byte: u8) -> Table {
        let mut values = self.values.clone();
        values[turn][index] = byte;
        Table::from_parts(
            self.material.clone(),
            self.variant,
            values,
            self.overflow.clone(),
        )
    }

    /// How many numbers a side to move has in the table of `material` in
    /// `variant`: a build holds one byte each for both sides, and so does
    /// a table read whole.
    pub fn numbers_per_side(material: &Material, variant: Variant) -> usize {
        Numbering::new(material, variant).size()
    }

    pub fn material(&self) -> &Material {
        &self.material
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub(crate) fn numbering(&self) -> &Numbering {
        &self.numbering
    }

    /// The bytes for one side to move.
    pub(crate) fn bytes(&self, turn: Color) -> &[u8] {
        debug_assert_eq!(self.first, 0, "the bytes of a whole table");
        &self.values[turn]
    }

    /// The bytes of values it holds, both sides.
    pub(crate) fn held_bytes(&self) -> usize {
        self.values.iter().map(Vec::len).sum()
    }

    /// Whether the table holds the values of side `turn` to move: a table
    /// read for some sides ([`crate::format::read_sides`]) holds no others.
    pub(crate) fn has_side(&self, turn: Color) -> bool {
        !self.values[turn].is_empty()
    }

    /// The overflow list of the positions deeper than a byte holds.
    pub(crate) fn overflow(&self) -> &Overflow {
        &self.overflow
    }

    /// The value of a number, `None` for an illegal one.
    #[inline]
    pub(crate) fn value_at(&self, index: usize, turn: Color) -> Option<Value> {
        let byte = self.values[turn].get(index.wrapping_sub(self.first))?;
        self.overflow.value(turn, index, *byte)
    }

    /// The value of a placement, `None` when it is not a legal position of
    /// this table.
    #[inline]
    pub fn value_of(&self, squares: &Squares, turn: Color) -> Option<Value> {
        let index = self.numbering.encode(&squares[..self.material.len()])?;
        self.value_at(index, turn)
    }

    /// The value of a position. The position's material and, for the
    /// fixed-king game, its white king must match the table.
    pub fn probe(&self, pos: &Chess) -> Result<Value, TableError> {
        let squares = self.squares_of(pos.board())?;
        self.value_of(&squares, pos.turn())
            .ok_or(TableError::NotInTable)
    }

    /// The squares of a board's men in this table's order.
    pub fn squares_of(&self, board: &Board) -> Result<Squares, TableError> {
        squares_of(&self.material, self.variant, board)
    }

    /// The position of a table number, `None` for numbers with no legal
    /// position.
    pub fn position(&self, index: usize, turn: Color) -> Option<Chess> {
        let squares = self.numbering.decode(index)?;
        self.value_at(index, turn)?;
        Some(
            legal_position(&self.material, &squares, turn)
                .expect("a legal table position is a legal chess position"),
        )
    }

    /// FEN of a table number.
    pub fn fen(&self, index: usize, turn: Color) -> Option<String> {
        self.position(index, turn).map(|pos| fen_of(&pos))
    }
}

/// The shakmaty position of a placement, `None` when it is not legal: men
/// on one square, a pawn on the first or last rank, or the side not to move
/// in check.
pub(crate) fn legal_position(material: &Material, squares: &Squares, turn: Color) -> Option<Chess> {
    let mut board = shakmaty::Board::empty();
    for (&sq, &man) in squares.iter().zip(material.men()) {
        if board.piece_at(sq).is_some() {
            return None;
        }
        board.set_piece_at(sq, man);
    }
    shakmaty::Setup {
        board,
        turn,
        ..shakmaty::Setup::empty()
    }
    .position(shakmaty::CastlingMode::Standard)
    .or_else(shakmaty::PositionError::ignore_impossible_check)
    .ok()
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The position of number `index` of the table of `material` in
/// `variant`, read from the numbering alone (no table in memory): `None`
/// when the number stands for no legal position.
pub fn number_position(
    material: &Material,
    variant: Variant,
    index: usize,
    turn: Color,
) -> Option<Chess> {
    let numbering = Numbering::new(material, variant);
    if index >= numbering.size() {
        return None;
    }
    let squares = numbering.decode(index)?;
    legal_position(material, &squares, turn)
}

/// FEN of the position of number `index`, as [`number_position`] finds it.
pub fn number_fen(
    material: &Material,
    variant: Variant,
    index: usize,
    turn: Color,
) -> Option<String> {
    number_position(material, variant, index, turn).map(|pos| fen_of(&pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` placements of `men` men, each man on a pseudo-random square
    /// (the same every run).
    fn random_placements(count: usize, men: usize) -> impl Iterator<Item = Vec<Square>> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        (0..count).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (0..men)
                .map(|man| Square::new(((state >> (6 * man)) & 63) as u32))
                .collect()
        })
    }

    /// Six men without pawns are numbered like five: 462 king pairs, 62
    /// squares for each man but the last and 64 for the last, each
    /// placement's number decoding to a placement of the same number.
    #[test]
    fn six_men_are_numbered() {
        let material: Material = "KRRvKRN".parse().unwrap();
        let numbering = Numbering::new(&material, Variant::Standard);
        assert_eq!(numbering.size(), 462 * 62usize.pow(3) * 64);
        let mut numbered = 0;
        for squares in random_placements(100_000, 6) {
            let Some(index) = numbering.encode(&squares) else {
                continue;
            };
            assert!(index < numbering.size());
            let back = numbering.decode(index).expect("a number decodes");
            assert_eq!(numbering.encode(&back[..6]), Some(index));
            numbered += 1;
        }
        // Kings apart and no man but the last on a king: 100 000 * 3612 /
        // 4096 * (62 / 64)^3, about 80 000.
        assert!(numbered > 78_000, "{numbered}");
    }

    /// Six men with pawns are numbered slice by slice, past 2^32 numbers a
    /// side with one pawn (24 slices of 64^5): a random placement's number
    /// decodes to the same placement or its mirror image, which has that
    /// number too. Nothing is built.
    #[test]
    fn six_men_with_pawns_are_numbered() {
        for (name, size) in [
            ("KRRvKRP", Some(24 << 30)),
            ("KRPvKRP", None),
            ("KPPPPvK", None),
        ] {
            let material: Material = name.parse().unwrap();
            let numbering = Numbering::new(&material, Variant::Standard);
            if let Some(size) = size {
                assert_eq!(numbering.size(), size, "{name}");
                assert!(numbering.size() > 1 << 32);
            }
            let (mut numbered, mut largest) = (0, 0);
            for squares in random_placements(100_000, 6) {
                let Some(index) = numbering.encode(&squares) else {
                    continue;
                };
                assert!(index < numbering.size(), "{name}");
                let back = numbering.decode(index).expect("a number decodes");
                // Like pawns may come back in the other order.
                let men = |squares: &[Square]| {
                    let mut men: Vec<(char, Square)> = material
                        .men()
                        .iter()
                        .zip(squares)
                        .map(|(man, &sq)| (man.char(), sq))
                        .collect();
                    men.sort_unstable();
                    men
                };
                let mirror: Vec<Square> = squares.iter().map(|sq| sq.flip_horizontal()).collect();
                assert!(
                    [men(&squares), men(&mirror)].contains(&men(&back[..6])),
                    "{name}"
                );
                assert_eq!(numbering.encode(&back[..6]), Some(index), "{name}");
                numbered += 1;
                largest = largest.max(index);
            }
            assert!(numbered > 10_000, "{name}: {numbered}");
            if size.is_some() {
                assert!(largest > 1 << 32, "{name}: {largest}");
            }
        }
    }
}
