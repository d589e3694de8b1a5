//! What the engine needs to know of a table ([`Layout`]), and the values of
//! the moves that leave it ([`Exits`], [`CaptureByte`]).

use shakmaty::{ByColor, Color};

use crate::{
    engine::pieces::{Pieces, Run},
    index::Squares,
    rules::RunLooks,
    value::Value,
};

/// What the moves of a position that leave the table (captures,
/// promotions) lead to, seen by the side that plays them.
#[derive(Default)]
pub(crate) struct Exits {
    /// Plies of the fastest win by such a move.
    pub(crate) win: Option<u16>,
    /// Plies of the slowest loss by such a move.
    pub(crate) loss: u16,
    /// Some such move leads to a draw.
    pub(crate) draw: bool,
    /// There is such a move at all.
    pub(crate) any: bool,
}

impl Exits {
    /// The value, for the opponent, of the best of the moves taken in:
    /// taking in that move alone leaves the same verdict.
    pub(crate) fn best(&self) -> Option<Value> {
        match (self.win, self.draw, self.any) {
            (Some(win), _, _) => Some(Value::Loss(win - 1)),
            (None, true, _) => Some(Value::Draw),
            (None, false, true) => Some(Value::Win(self.loss - 1)),
            (None, false, false) => None,
        }
    }

    /// The best capture of a position valued before the first pass
    /// ([`CaptureByte`]), taken in as a move.
    pub(crate) fn of_captures(byte: u8) -> Exits {
        let mut exits = Exits::default();
        if let Some(child) = CaptureByte::child(byte) {
            exits.add(child);
        }
        exits
    }

    /// Takes in a move whose position has `child` for the opponent.
    pub(crate) fn add(&mut self, child: Value) {
        self.any = true;
        match child {
            Value::Loss(p) => self.win = Some(self.win.map_or(p + 1, |w| w.min(p + 1))),
            Value::Win(p) => self.loss = self.loss.max(p + 1),
            Value::Draw => self.draw = true,
        }
    }
}

/// How [`Layout::exits`] values a position's captures (in a slice, and
/// the pawn steps the layout values with them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Captures {
    /// The side to move threatens none.
    None,
    /// Each is looked at, move by move.
    ByMoves,
    /// Valued before the first pass ([`Layout::value_captures`]): the
    /// position's [`CaptureByte`].
    Valued(u8),
}

/// The best capture of a position, valued before the first pass into the
/// position's own byte ([`Layout::value_captures`]): the value of the
/// position it leads to, for the opponent, as plies + 1 (the parity tells
/// a win from a loss), [`CaptureByte::DRAW`], [`CaptureByte::NONE`], or
/// [`CaptureByte::BY_MOVES`] for a value no byte holds.
pub(crate) struct CaptureByte;

impl CaptureByte {
    pub(crate) const NONE: u8 = 0;
    const DRAW: u8 = 254;
    pub(crate) const BY_MOVES: u8 = 255;

    /// The byte of a capture whose position has `child` for the opponent.
    pub(crate) fn of(child: Value) -> u8 {
        match child {
            Value::Draw => CaptureByte::DRAW,
            Value::Win(plies) | Value::Loss(plies) if plies + 1 < u16::from(CaptureByte::DRAW) => {
                (plies + 1) as u8
            }
            _ => CaptureByte::BY_MOVES,
        }
    }

    pub(crate) fn child(byte: u8) -> Option<Value> {
        match byte {
            CaptureByte::NONE => None,
            CaptureByte::DRAW => Some(Value::Draw),
            _ => {
                debug_assert_ne!(byte, CaptureByte::BY_MOVES);
                Some(Value::decisive(u16::from(byte - 1)))
            }
        }
    }

    /// The better of two captures for the side that plays them.
    pub(crate) fn better(a: u8, b: u8) -> u8 {
        // Most positions have no capture: nothing to decode.
        if a == CaptureByte::NONE {
            return b;
        }
        if a == CaptureByte::BY_MOVES || b == CaptureByte::BY_MOVES {
            return CaptureByte::BY_MOVES;
        }
        let key = |byte| CaptureByte::child(byte).map(|child| child.parent().order_key());
        match (key(a), key(b)) {
            (Some(ka), Some(kb)) if kb < ka => b,
            (Some(_), _) => a,
            (None, _) => b,
        }
    }
}

/// What the engine needs to know of a table: its kings and pieces (the
/// numbering, the moves inside the table and their retractions, a slice's
/// pawns standing still), and the moves that leave it.
pub(crate) trait Layout: Sync {
    /// The numbering and the moves of the kings and pieces.
    fn pieces(&self) -> &Pieces<'_>;

    /// Whether `turn` may have a move that leaves the table other than a
    /// capture (in a pawn slice, a pawn's step).
    fn may_step(&self, squares: &Squares, turn: Color) -> bool;

    /// The values of the legal moves of `turn` that leave the table from
    /// number `index`, placement `squares`, its captures valued as
    /// `captures` says.
    fn exits(&self, index: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits;

    /// Values the captures of every number of both sides into `bytes`
    /// ([`CaptureByte`]) before the first pass, backwards from the
    /// positions they lead to (a slice: and the pawns' single steps);
    /// false when the layout values them move by move instead, and
    /// leaves `bytes` as they are.
    fn value_captures(&self, _bytes: ByColor<&mut [u8]>) -> bool {
        false
    }

    /// Numbers for one side to move.
    #[inline(always)]
    fn size(&self) -> usize {
        self.pieces().indexer.size()
    }

    /// Of a whole run's legal positions of `turn` to move out of check
    /// (`looks`), those whose moves out of the table are all in their
    /// [`CaptureByte`] (valued before the pass), or which have none; bit s
    /// for the last man on s. The first pass settles them from that byte
    /// and their moves inside.
    fn settled_by_byte(&self, run: &Run, turn: Color, looks: &RunLooks) -> u64;
}

impl Layout for Pieces<'_> {
    #[inline(always)]
    fn pieces(&self) -> &Pieces<'_> {
        self
    }

    /// Pawnless material has no steps out.
    #[inline(always)]
    fn may_step(&self, _: &Squares, _: Color) -> bool {
        false
    }

    fn exits(&self, _: usize, squares: &Squares, turn: Color, captures: Captures) -> Exits {
        let mut found = Exits::default();
        if captures == Captures::None {
            return found;
        }
        let targets = self.rules.capturable(squares, !turn);
        self.rules.moves_while(squares, turn, targets, |mv| {
            found.add(self.value_of_capture(squares, mv, turn));
            true
        });
        found
    }

    /// Captures are valued move by move: the positions that threaten none.
    #[inline(always)]
    fn settled_by_byte(&self, _: &Run, _: Color, looks: &RunLooks) -> u64 {
        !looks.threatens_capture
    }
}
