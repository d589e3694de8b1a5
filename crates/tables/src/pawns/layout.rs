//! A slice as the engine sees it ([`SliceLayout`]): the pieces' moves with
//! the pawns standing still, and the pawns' steps valued from the slices
//! already built.

use std::{self, collections::HashMap};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Piece, Rank, Square};

use crate::{
    engine::{
        bytes::atomic,
        layout::{CaptureByte, Captures, Exits, Layout},
        pieces::{Pieces, Run},
    },
    index::Squares,
    material::MAX_MEN,
    packed::{
        Packed, {self},
    },
    pawns::{
        exits::{ExitTables, ahead},
        promotions::Promoted,
    },
    rules::RunLooks,
    slices::{LARGE_SLICE_FROM, SliceIndexer},
    value::{DEEP, Value, decode_byte},
};

/// The slices a build still reads (those its pawn steps lead into), by
/// ordinal, and the positions deeper than a byte holds.
#[derive(Clone, Copy)]
pub(crate) struct Built<'a> {
    pub(crate) slices: &'a [Option<KeptSlice>],
    pub(crate) slice_len: usize,
    pub(crate) deep: &'a ByColor<HashMap<usize, u16>>,
}

impl Built<'_> {
    /// The bytes of side `turn` of a slice built.
    fn side(&self, turn: Color, slice: usize) -> &KeptBytes {
        self.slices[slice]
            .as_ref()
            .and_then(|kept| kept[turn].as_ref())
            .expect("a step leads into a side held")
    }

    /// The value of byte `byte` of number `index` inside slice `slice`,
    /// `None` for an illegal position.
    fn value_of_byte(&self, turn: Color, slice: usize, index: usize, byte: u8) -> Option<Value> {
        match byte {
            DEEP => Some(Value::decisive(
                self.deep[turn][&(slice * self.slice_len + index)],
            )),
            byte => decode_byte(byte),
        }
    }

    /// The value of a legal position of a slice built: number `index`
    /// inside slice `slice`.
    fn value(&self, turn: Color, slice: usize, index: usize) -> Value {
        let byte = self.side(turn, slice).get(index);
        self.value_of_byte(turn, slice, index, byte)
            .expect("a legal position of a slice built")
    }
}

/// A pawn step that leaves a slice for another.
pub(crate) struct Push {
    /// The pawn (its place in the slice's order).
    pawn: usize,
    to: Square,
    /// The squares that must be empty.
    path: Bitboard,
    /// The slice it leads into.
    pub(crate) child: usize,
    /// That slice holds the mirror image.
    mirrored: bool,
    /// A double step, which an en passant capture may answer.
    double: bool,
}

impl Push {
    /// Valued backwards before the first pass, into the positions'
    /// [`CaptureByte`] ([`SliceLayout::value_steps`]): a single step into a
    /// slice not mirrored, where the position after it has the same number.
    fn valued_backwards(&self) -> bool {
        !self.double && !self.mirrored
    }
}

/// The pawn steps of a slice.
pub(crate) struct Steps {
    pub(crate) pushes: ByColor<Vec<Push>>,
    /// The squares a pawn of each side steps to: a position with one of
    /// them empty has a move that leaves the slice.
    targets: ByColor<Bitboard>,
    /// Those of them on the last rank: promotions.
    promotions: ByColor<Bitboard>,
    /// The squares the pawns of each side attack: a position with a man
    /// to take there has a pawn's capture, which
    /// [`ExitTables::value_captures`] leaves to be valued move by move.
    attacks: ByColor<Bitboard>,
}

impl Steps {
    pub(crate) fn of(indexer: &SliceIndexer, men: &[Piece], slice: usize) -> Steps {
        let pawn_squares = indexer.slices[slice].squares();
        let standing = pawn_squares.iter().fold(Bitboard::EMPTY, |bb, &sq| bb | sq);
        let mut steps = Steps {
            pushes: ByColor::default(),
            targets: ByColor::default(),
            promotions: ByColor::default(),
            attacks: ByColor::default(),
        };
        for (k, &from) in pawn_squares.iter().enumerate() {
            let color = men[indexer.pieces + k].color;
            steps.attacks[color] |= shakmaty::attacks::pawn_attacks(color, from);
            let Some(one) = ahead(from, color).filter(|&s| !standing.contains(s)) else {
                continue;
            };
            steps.targets[color] |= one;
            if one.rank() == color.fold_wb(Rank::Eighth, Rank::First) {
                // The exit tables value promotions.
                steps.promotions[color] |= one;
                continue;
            }
            let mut ways = vec![(one, Bitboard::from(one), false)];
            if from.rank() == color.fold_wb(Rank::Second, Rank::Seventh)
                && let Some(two) = ahead(one, color).filter(|&s| !standing.contains(s))
            {
                ways.push((two, Bitboard::from(one) | two, true));
            }
            for (to, path, double) in ways {
                let mut moved = [Square::A1; MAX_MEN];
                for (j, &i) in indexer.order[indexer.pieces..indexer.men]
                    .iter()
                    .enumerate()
                {
                    moved[i] = if j == k { to } else { pawn_squares[j] };
                }
                let (child, mirrored) = indexer.place(&moved).expect("a step stays on the board");
                steps.pushes[color].push(Push {
                    pawn: indexer.pieces + k,
                    to,
                    path,
                    child,
                    mirrored,
                    double,
                });
            }
        }
        steps
    }
}

/// The engine's layout of one slice: the pawnless layout of its kings and
/// pieces, with the pawns standing still, whose steps leave the slice.
pub(crate) struct SliceLayout<'a> {
    pieces: Pieces<'a>,
    indexer: &'a SliceIndexer,
    /// The captures that do not promote.
    exit_tables: &'a ExitTables<'a>,
    /// The best promotion of each position, for each side that has one.
    promoted: ByColor<Option<Promoted>>,
    steps: Steps,
    /// The pawns' squares (after the kings' and pieces', in slice order).
    standing: Squares,
    built: Built<'a>,
}

impl<'a> SliceLayout<'a> {
    pub(crate) fn new(
        indexer: &'a SliceIndexer,
        men: &[Piece],
        exit_tables: &'a ExitTables<'a>,
        (slice, promoted): (usize, ByColor<Option<Promoted>>),
        built: Built<'a>,
    ) -> SliceLayout<'a> {
        let mut standing = [Square::A1; MAX_MEN];
        standing[indexer.pieces..indexer.men].copy_from_slice(indexer.slices[slice].squares());
        SliceLayout {
            pieces: crate::pawns::pieces_of(indexer, men, slice),
            indexer,
            exit_tables,
            promoted,
            steps: Steps::of(indexer, men, slice),
            standing,
            built,
        }
    }

    /// The value for `!turn` of the position after `push`, legal, from
    /// number `index`, placement `squares`: a step keeps the kings and
    /// pieces where they are, so the number in the slice reached is the
    /// same, or its mirror image's.
    fn after_push(&self, index: usize, squares: &Squares, turn: Color, push: &Push) -> Value {
        let index = if push.mirrored {
            let mut mirrored = [Square::A1; MAX_MEN];
            for (to, &sq) in mirrored.iter_mut().zip(&squares[..self.indexer.pieces]) {
                *to = sq.flip_horizontal();
            }
            self.indexer.in_slice(&mirrored)
        } else {
            index
        };
        let value = self.built.value(!turn, push.child, index);
        if !push.double {
            return value;
        }
        let mut after = *squares;
        after[push.pawn] = push.to;
        match self.exit_tables.en_passant(&after, push.pawn, !turn) {
            Some(capture) if capture.order_key() < value.order_key() => capture,
            _ => value,
        }
    }
}

impl SliceLayout<'_> {
    /// Values backwards, into `bytes` (side `turn`'s [`CaptureByte`]s), the
    /// single steps of `turn`'s pawns ([`Push::valued_backwards`]): the
    /// position after such a step has the number of the position before
    /// it, so a line of the slice stepped into values a line of this one.
    /// A step is legal exactly where the position after it is: its square
    /// empty and its side's king safe. A number whose men share a square
    /// gets a byte too; the first pass finds it illegal before reading it.
    fn value_steps(&self, turn: Color, bytes: &mut [u8]) {
        for push in &self.steps.pushes[turn] {
            if !push.valued_backwards() {
                continue;
            }
            let after = self.built.side(!turn, push.child);
            bytes
                .par_chunks_mut(packed::BLOCK)
                .enumerate()
                .for_each_init(Vec::new, |children, (c, parents)| {
                    let start = c * packed::BLOCK;
                    after.read_into(start, parents.len(), children);
                    for (k, (slot, &byte)) in parents.iter_mut().zip(children.iter()).enumerate() {
                        let index = start + k;
                        if let Some(child) =
                            self.built.value_of_byte(!turn, push.child, index, byte)
                        {
                            *slot = CaptureByte::better(*slot, CaptureByte::of(child));
                        }
                    }
                });
        }
    }
}

impl Layout for SliceLayout<'_> {
    #[inline(always)]
    fn pieces(&self) -> &Pieces<'_> {
        &self.pieces
    }

    /// A pawn's step or promotion.
    #[inline(always)]
    fn may_step(&self, squares: &Squares, turn: Color) -> bool {
        let occupied = self.pieces.rules().occupied(squares);
        (self.steps.targets[turn] & !occupied).any()
    }

    fn exits(&self, index: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits {
        debug_assert_eq!(index, self.indexer.in_slice(squares));
        let rules = self.pieces.rules();
        let occupied = rules.occupied(squares);
        let pawn_takes = || self.steps.attacks[turn].intersects(rules.capturable(squares, !turn));
        // Most positions have a pawn step and nothing to take.
        let (mut found, steps_valued) = match captures {
            Captures::None => (Exits::default(), false),
            Captures::Valued(byte) if byte != CaptureByte::BY_MOVES && !pawn_takes() => {
                (Exits::of_captures(byte), true)
            }
            Captures::ByMoves | Captures::Valued(_) => {
                (self.exit_tables.exits(squares, turn), false)
            }
        };
        if let Some(promoted) = &self.promoted[turn] {
            promoted.add_to(&mut found, index);
        }
        for push in &self.steps.pushes[turn] {
            if steps_valued && push.valued_backwards() {
                // In the byte already.
                continue;
            }
            if !push.path.intersects(occupied)
                && rules.legal_after(squares, occupied, turn, push.pawn, push.to, None)
            {
                found.add(self.after_push(index, squares, turn, push));
            }
        }
        found
    }

    /// All but those where a pawn may take (valued move by move), a step
    /// not valued backwards may be made, or a pawn may promote.
    fn settled_by_byte(&self, run: &Run, turn: Color, _: &RunLooks) -> u64 {
        if self.promoted[turn].is_some() {
            return 0;
        }
        let rules = self.pieces.rules();
        let others_to_take = rules.capturable_except(&run.squares, !turn, Some(run.last));
        let pawn_attacks = self.steps.attacks[turn];
        let mut by_byte = if pawn_attacks.intersects(others_to_take) {
            Bitboard::EMPTY
        } else if rules.man(run.last).color != turn {
            !pawn_attacks
        } else {
            Bitboard::FULL
        };
        for push in &self.steps.pushes[turn] {
            if !push.valued_backwards() && !push.path.intersects(run.others) {
                // Open unless the last man stands in the way.
                by_byte &= push.path;
            }
        }
        by_byte.0
    }

    fn value_captures(&self, mut bytes: ByColor<&mut [u8]>) -> bool {
        for side in bytes.iter_mut() {
            side.par_chunks_mut(1 << 16)
                .for_each(|chunk| chunk.fill(CaptureByte::NONE));
        }
        self.exit_tables.value_captures(
            self.indexer.pieces,
            &self.standing,
            bytes.as_mut().map(|side| atomic(side)),
        );
        for turn in Color::ALL {
            self.value_steps(turn, bytes[turn]);
        }
        true
    }
}

/// The bytes of one side of a slice built, kept for the slices that step
/// into it: a large slice's compressed.
pub(crate) enum KeptBytes {
    Plain(Vec<u8>),
    Packed(Packed),
}

impl KeptBytes {
    pub(crate) fn new(bytes: Vec<u8>) -> KeptBytes {
        if bytes.len() >= LARGE_SLICE_FROM {
            KeptBytes::Packed(Packed::new(&bytes))
        } else {
            KeptBytes::Plain(bytes)
        }
    }

    #[inline]
    pub(crate) fn get(&self, index: usize) -> u8 {
        match self {
            KeptBytes::Plain(bytes) => bytes[index],
            KeptBytes::Packed(packed) => packed.get(index),
        }
    }

    /// The `len` bytes from number `start` (a multiple of
    /// [`packed::BLOCK`], `len` at most that), into `out`.
    pub(crate) fn read_into(&self, start: usize, len: usize, out: &mut Vec<u8>) {
        out.clear();
        match self {
            KeptBytes::Plain(bytes) => out.extend_from_slice(&bytes[start..start + len]),
            KeptBytes::Packed(bytes) => bytes.block_into(start / packed::BLOCK, out),
        }
        debug_assert_eq!(out.len(), len);
    }
}

/// The sides of a slice built that steps read: the side to move after a
/// pawn's step, so a side is kept only when the other side has pawns.
pub(crate) type KeptSlice = ByColor<Option<KeptBytes>>;
