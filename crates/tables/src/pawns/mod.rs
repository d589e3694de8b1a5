//! Tables with pawns, slice by slice (docs/guide/src/reference/pawns.md, "Pawns").
//!
//! A pawn move cannot be taken back, so the positions of a material with
//! pawns fall into *slices*, one for each placement of the pawns. Inside a
//! slice only the kings and pieces move; a pawn's step leads into a more
//! advanced slice, a capture or a promotion into a smaller table. The
//! slices are built most advanced first, each by the engine of
//! [`crate::engine`] on the pawnless layout with the pawns standing still
//! ([`SliceLayout`](layout::SliceLayout)), whose pawn steps are valued, like captures, from the
//! slices already built.
//!
//! The numbering ([`SliceIndexer`]): the slice's ordinal, then the squares
//! of the kings and pieces in base 64. Pawns stand on the 48 squares of
//! ranks 2 to 7, like pawns once (in the order of their squares), and of a
//! placement of the pawns and its mirror image (files a-h turned to h-a)
//! only one is a slice, the one with the smaller pawn squares; a number
//! stands for its placement and that mirror image, except in a slice whose
//! pawns are their own mirror image, which holds both.

use crate::{engine::pieces::Pieces, rules::Rules, slices::SliceIndexer};
pub(crate) mod build;
pub(crate) mod cone;
pub(crate) mod exits;
pub(crate) mod journal;
pub(crate) mod layout;
pub(crate) mod promotions;
pub(crate) mod schedule;

use std::sync::Arc;

use shakmaty::{ByColor, Chess, Color, EnPassantMode, Piece, Position};

use crate::{
    error::TableError, material::Material, summary::SideSummary, table::Table, value::Value,
};

/// The value of a position whose table (no en passant right) gives
/// `table`: a position with an en passant right is worth the best of that
/// and its en passant captures; `other` gives the value after a capture.
pub(crate) fn with_en_passant(
    pos: &Chess,
    table: Value,
    other: &dyn Fn(&Chess) -> Result<Value, TableError>,
) -> Result<Value, TableError> {
    let mut best = table;
    if pos.ep_square(EnPassantMode::Legal).is_none() {
        return Ok(best);
    }
    for mv in pos.legal_moves().iter().filter(|m| m.is_en_passant()) {
        let mut child = pos.clone();
        child.play_unchecked(*mv);
        let value = other(&child)?.parent();
        if value.order_key() < best.order_key() {
            best = value;
        }
    }
    Ok(best)
}

/// Distance-to-mate values of every position of one material with pawns:
/// a [`Table`] numbered slice by slice ([`crate::slices::SliceIndexer`]).
pub struct PawnTable {
    table: Arc<Table>,
}

impl PawnTable {
    pub(crate) fn new(table: Arc<Table>) -> PawnTable {
        PawnTable { table }
    }

    pub fn material(&self) -> &Material {
        self.table.material()
    }

    /// The table's bytes and numbering.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The value of a position of this table's material. A position with an
    /// en passant right is valued from its moves: `other` gives the value
    /// of a position of another material (after the capture).
    pub fn probe(
        &self,
        pos: &Chess,
        other: &dyn Fn(&Chess) -> Result<Value, TableError>,
    ) -> Result<Value, TableError> {
        with_en_passant(pos, self.table.probe(pos)?, other)
    }

    /// The FEN of a number, `None` when it has no legal position.
    pub fn fen(&self, index: usize, turn: Color) -> Option<String> {
        self.table.fen(index, turn)
    }

    /// Counts over all placements (each number stands for itself and its
    /// mirror image; like men are not told apart).
    pub fn summarize(&self) -> ByColor<SideSummary> {
        crate::summarize(&self.table)
    }
}

/// The pawnless layout of the kings and pieces of slice `slice`, the pawns
/// standing still.
pub(crate) fn pieces_of(indexer: &SliceIndexer, men: &[Piece], slice: usize) -> Pieces<'static> {
    Pieces::new(
        indexer.slice_indexer(slice),
        Rules::with_men(men, indexer.pieces(), false),
        Vec::new(),
    )
}
