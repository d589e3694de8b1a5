//! Tables of endgames with pawns (docs/tables.md, "Pawns").
//!
//! Pawns have a direction, so only the left-right mirror keeps a value: the
//! first pawn of the material is brought onto files a-d. Its square (ranks 2
//! to 7, files a-d: 24 places) is the leading digit of the number, then the
//! squares of the other men in base 64, in material order.
//!
//! These tables are built by the one-byte engine of [`crate::solve`] on the
//! layout [`Pawns`]: the moves inside a table are the pieces' moves and the
//! pawns' single and double steps; a capture or a promotion leaves it for
//! the table of the new material, built first. A table position has no en
//! passant right: a double step after which the opponent may take en
//! passant is valued with those captures, and a position that has the
//! right is valued at probe time from its moves.

use std::sync::Arc;

use shakmaty::{Bitboard, ByColor, Chess, Color, EnPassantMode, Position, Rank, Role, Square};

use crate::{
    error::TableError,
    index::Squares,
    material::{MAX_MEN, Material},
    rules::{Look, Rules},
    solve::{Exits, Layout, Subtables},
    summary::SideSummary,
    table::Table,
    value::Value,
    variant::Variant,
};

/// Places of the first pawn: ranks 2 to 7 on files a to d.
const PAWN_PLACES: usize = 24;

/// What a pawn may promote to, in the order of the exits' slots.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Numbers and placements of a material with pawns.
#[derive(Clone, Debug)]
pub struct PawnIndexer {
    men: usize,
    /// The first pawn in material order.
    pawn: usize,
}

impl PawnIndexer {
    pub fn new(material: &Material) -> PawnIndexer {
        PawnIndexer {
            men: material.len(),
            pawn: material
                .men()
                .iter()
                .position(|p| p.role == Role::Pawn)
                .expect("a material with pawns"),
        }
    }

    /// Numbers for one side to move.
    pub fn size(&self) -> usize {
        PAWN_PLACES << (6 * (self.men - 1))
    }

    /// The number of a placement, `None` when the first pawn stands on the
    /// first or last rank.
    #[inline]
    pub fn encode(&self, squares: &[Square]) -> Option<usize> {
        let pawn = squares[self.pawn];
        let mirror = pawn.file().to_usize() >= 4;
        let image = |sq: Square| if mirror { sq.flip_horizontal() } else { sq };
        let place = Self::place(image(pawn))?;
        Some(
            squares[..self.men]
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != self.pawn)
                .fold(place, |acc, (_, &sq)| acc * 64 + usize::from(image(sq))),
        )
    }

    /// The leading digit of a first pawn on files a-d.
    #[inline]
    fn place(pawn: Square) -> Option<usize> {
        let rank = pawn.rank().to_usize();
        (1..7)
            .contains(&rank)
            .then(|| (rank - 1) * 4 + pawn.file().to_usize())
    }

    /// The placement of a number.
    #[inline]
    pub fn decode(&self, index: usize) -> Squares {
        let mut squares = [Square::A1; MAX_MEN];
        let mut rest = index;
        for i in (0..self.men).rev().filter(|&i| i != self.pawn) {
            squares[i] = Square::new((rest & 63) as u32);
            rest >>= 6;
        }
        squares[self.pawn] = Square::new(((rest / 4 + 1) * 8 + rest % 4) as u32);
        squares
    }

    /// The number of placement `squares` (a decoded one, number `index`)
    /// with man `man` moved to `to` on the same file if it is the first
    /// pawn: one digit changes.
    #[inline(always)]
    fn moved(&self, index: usize, man: usize, to: Square) -> Option<usize> {
        let (digit, value) = if man == self.pawn {
            (self.men - 1, Self::place(to)?)
        } else {
            (
                self.men - 1 - man - usize::from(man < self.pawn),
                usize::from(to),
            )
        };
        let shift = 6 * digit;
        Some(index & !(63 << shift) | value << shift)
    }
}

/// A kind of move that leaves a table: the table it leads into and where
/// the men go there.
struct Exit<'a> {
    table: &'a Table,
    /// The man of this material that stands on each man's square of the
    /// new one.
    order: [usize; MAX_MEN],
    /// The new material is held as its colour-flipped twin.
    flip: bool,
}

/// The slot of an exit: the man taken, if any, and the promoting man and
/// the place of its new role in [`PROMOTIONS`], if any.
fn exit_slot(captured: Option<usize>, promoted: Option<(usize, usize)>) -> usize {
    captured.unwrap_or(MAX_MEN) * (4 * MAX_MEN + 1) + promoted.map_or(0, |(i, r)| 1 + 4 * i + r)
}

/// The men left after man `captured` is taken and man `promoted` becomes
/// a new role: (this material's man, its piece now).
fn men_after(
    material: &Material,
    captured: Option<usize>,
    promoted: Option<(usize, Role)>,
) -> Vec<(usize, shakmaty::Piece)> {
    material
        .men()
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != captured)
        .map(|(i, &man)| match promoted {
            Some((p, role)) if p == i => (i, role.of(man.color)),
            _ => (i, man),
        })
        .collect()
}

fn material_of(men: &[(usize, shakmaty::Piece)]) -> Material {
    let roles = |color: Color| -> Vec<Role> {
        men.iter()
            .filter(|(_, p)| p.color == color && p.role != Role::King)
            .map(|(_, p)| p.role)
            .collect()
    };
    Material::new(&roles(Color::White), &roles(Color::Black)).expect("no more men")
}

/// Every table a move of `material` may leave it for, under the name it is
/// held by (a material with pawns by its canonical one): captures,
/// promotions, and promotions that capture.
pub(crate) fn exit_materials(material: &Material) -> Vec<Material> {
    let mut found = Vec::new();
    for (captured, promoted) in exit_kinds(material) {
        let next = material_of(&men_after(material, captured, promoted)).table_material();
        if !found.contains(&next) {
            found.push(next);
        }
    }
    found
}

/// A kind of move that leaves a table: the man taken, if any, and the
/// promoting man and its new role, if any.
type ExitKind = (Option<usize>, Option<(usize, Role)>);

/// The kinds of moves that leave a table.
fn exit_kinds(material: &Material) -> Vec<ExitKind> {
    let men = material.men();
    let mut kinds: Vec<_> = (2..men.len()).map(|j| (Some(j), None)).collect();
    for (i, man) in men.iter().enumerate() {
        if man.role != Role::Pawn {
            continue;
        }
        for role in PROMOTIONS {
            kinds.push((None, Some((i, role))));
            for (j, taken) in men.iter().enumerate().skip(2) {
                if taken.color != man.color {
                    kinds.push((Some(j), Some((i, role))));
                }
            }
        }
    }
    kinds
}

/// The layout of a material with pawns for the engine.
pub(crate) struct Pawns<'a> {
    indexer: PawnIndexer,
    rules: Rules,
    /// The pawns of each side, by man.
    pawns: ByColor<Vec<usize>>,
    /// The exits by [`exit_slot`].
    exits: Vec<Option<Exit<'a>>>,
}

/// One step forwards for a pawn of `color`.
#[inline]
fn ahead(sq: Square, color: Color) -> Option<Square> {
    sq.offset(color.fold_wb(8, -8))
}

/// One step back for a pawn of `color`.
#[inline]
fn behind(sq: Square, color: Color) -> Option<Square> {
    sq.offset(color.fold_wb(-8, 8))
}

impl<'a> Pawns<'a> {
    /// The layout of `material`; `subtables` must hold every table of
    /// [`exit_materials`].
    pub(crate) fn new(
        material: &Material,
        subtables: &'a Subtables,
    ) -> Result<Pawns<'a>, TableError> {
        let mut exits: Vec<Option<Exit>> = Vec::new();
        exits.resize_with(exit_slot(None, None) + 4 * MAX_MEN + 1, || None);
        for (captured, promoted) in exit_kinds(material) {
            let men = men_after(material, captured, promoted);
            let next = material_of(&men);
            let flip = next.has_pawns() && next.canonical() != next;
            let held = if flip { next.flipped() } else { next };
            let table = subtables
                .get(&held)
                .ok_or_else(|| TableError::MissingSubtable(held.clone()))?;
            let mut order = [0; MAX_MEN];
            let mut used = vec![false; men.len()];
            for (slot, &target) in order.iter_mut().zip(held.men()) {
                let target = if flip {
                    target.role.of(!target.color)
                } else {
                    target
                };
                let k = (0..men.len())
                    .find(|&k| !used[k] && men[k].1 == target)
                    .expect("the same men");
                used[k] = true;
                *slot = men[k].0;
            }
            let slot = exit_slot(
                captured,
                promoted.map(|(i, role)| {
                    (
                        i,
                        PROMOTIONS
                            .iter()
                            .position(|&r| r == role)
                            .expect("a promotion"),
                    )
                }),
            );
            exits[slot] = Some(Exit {
                table: table.as_ref(),
                order,
                flip,
            });
        }
        let mut pawns = ByColor::<Vec<usize>>::default();
        for (i, man) in material.men().iter().enumerate() {
            if man.role == Role::Pawn {
                pawns[man.color].push(i);
            }
        }
        Ok(Pawns {
            indexer: PawnIndexer::new(material),
            rules: Rules::new(material, Variant::Standard),
            pawns,
            exits,
        })
    }

    /// The value, for the side to move after it, of a move of man `man` of
    /// `turn` to `to` that takes man `captured` or promotes to
    /// `PROMOTIONS[promoted]`.
    fn exit_value(
        &self,
        squares: &Squares,
        turn: Color,
        man: usize,
        to: Square,
        captured: Option<usize>,
        promoted: Option<usize>,
    ) -> Value {
        let exit = self.exits[exit_slot(captured, promoted.map(|r| (man, r)))]
            .as_ref()
            .expect("every exit has its table");
        let mut moved = *squares;
        moved[man] = to;
        let mut after = [Square::A1; MAX_MEN];
        for (sq, &from) in after
            .iter_mut()
            .zip(&exit.order[..exit.table.material().len()])
        {
            *sq = if exit.flip {
                moved[from].flip_vertical()
            } else {
                moved[from]
            };
        }
        let turn = if exit.flip { turn } else { !turn };
        exit.table
            .value_of(&after, turn)
            .expect("a legal move leads to a legal position")
    }

    /// Whether a pawn of `turn` stands where it promotes by a step.
    #[inline]
    fn on_seventh(&self, squares: &Squares, turn: Color) -> bool {
        let seventh = turn.fold_wb(Rank::Seventh, Rank::Second);
        self.pawns[turn]
            .iter()
            .any(|&i| squares[i].rank() == seventh)
    }

    /// Whether a pawn of `turn` on its second rank has an enemy pawn on its
    /// fourth rank on a next file: a double step an en passant capture may
    /// answer.
    #[inline]
    fn may_be_taken_en_passant(&self, squares: &Squares, turn: Color) -> bool {
        let (second, fourth) =
            turn.fold_wb((Rank::Second, Rank::Fourth), (Rank::Seventh, Rank::Fifth));
        self.pawns[turn].iter().any(|&i| {
            squares[i].rank() == second
                && self.pawns[!turn].iter().any(|&k| {
                    squares[k].rank() == fourth
                        && squares[k]
                            .file()
                            .to_u32()
                            .abs_diff(squares[i].file().to_u32())
                            == 1
                })
        })
    }

    /// The best value for `turn` of its en passant captures of pawn `pawn`,
    /// which has just made a double step in legal placement `squares`;
    /// `None` when there is no legal one.
    fn en_passant(&self, squares: &Squares, pawn: usize, turn: Color) -> Option<Value> {
        let occupied = self.rules.occupied(squares);
        let passed = behind(squares[pawn], !turn).expect("a double step");
        self.pawns[turn]
            .iter()
            .filter(|&&k| {
                squares[k].rank() == squares[pawn].rank()
                    && squares[k]
                        .file()
                        .to_u32()
                        .abs_diff(squares[pawn].file().to_u32())
                        == 1
                    && self
                        .rules
                        .legal_after(squares, occupied, turn, k, passed, Some(pawn))
            })
            .map(|&k| {
                self.exit_value(squares, turn, k, passed, Some(pawn), None)
                    .parent()
            })
            .min_by_key(|v| v.order_key())
    }
}

impl Layout for Pawns<'_> {
    const EN_PASSANT: bool = true;

    fn size(&self) -> usize {
        self.indexer.size()
    }

    #[inline]
    fn decode(&self, index: usize) -> Option<Squares> {
        Some(self.indexer.decode(index))
    }

    #[inline]
    fn look(&self, squares: &Squares, turn: Color) -> Look {
        let back_ranks = Bitboard::from(Rank::First) | Bitboard::from(Rank::Eighth);
        if Color::ALL
            .iter()
            .flat_map(|&c| &self.pawns[c])
            .any(|&i| back_ranks.contains(squares[i]))
        {
            return Look::ILLEGAL;
        }
        let mut look = self.rules.look(squares, turn);
        look.threatens_capture |=
            self.on_seventh(squares, turn) || self.may_be_taken_en_passant(squares, turn);
        look
    }

    #[inline]
    fn may_exit(&self, squares: &Squares, turn: Color) -> bool {
        self.on_seventh(squares, turn) || self.rules.threatens_capture(squares, turn)
    }

    fn exits(&self, squares: &Squares, turn: Color) -> Exits {
        let mut found = Exits::default();
        let last = turn.fold_wb(Rank::Eighth, Rank::First);
        let targets = self.rules.capturable(squares, !turn);
        self.rules.moves_while(squares, turn, targets, |mv| {
            if self.rules.man(mv.man).role == Role::Pawn && mv.to.rank() == last {
                for r in 0..PROMOTIONS.len() {
                    found.add(self.exit_value(squares, turn, mv.man, mv.to, mv.captured, Some(r)));
                }
            } else {
                found.add(self.exit_value(squares, turn, mv.man, mv.to, mv.captured, None));
            }
            true
        });
        let occupied = self.rules.occupied(squares);
        for &i in &self.pawns[turn] {
            let Some(to) = ahead(squares[i], turn) else {
                continue;
            };
            if to.rank() == last
                && !occupied.contains(to)
                && self.rules.legal_after(squares, occupied, turn, i, to, None)
            {
                for r in 0..PROMOTIONS.len() {
                    found.add(self.exit_value(squares, turn, i, to, None, Some(r)));
                }
            }
        }
        found
    }

    fn has_inside_move(&self, squares: &Squares, turn: Color) -> bool {
        let occupied = self.rules.occupied(squares);
        let legal = |man: usize, to: Square| {
            self.rules
                .legal_after(squares, occupied, turn, man, to, None)
        };
        !self
            .rules
            .quiet_while(squares, turn, |man, to| !legal(man, to))
            || !self.pushes_while(squares, turn, occupied, |man, to| !legal(man, to))
    }

    #[inline(always)]
    fn retractions(
        &self,
        index: usize,
        squares: &Squares,
        turn: Color,
        mut f: impl FnMut(usize, Option<Value>),
    ) {
        let mover = !turn;
        self.rules.quiet_while(squares, mover, |man, from| {
            if let Some(parent) = self.indexer.moved(index, man, from) {
                f(parent, None);
            }
            true
        });
        let occupied = self.rules.occupied(squares);
        let (second, fourth) =
            mover.fold_wb((Rank::Second, Rank::Fourth), (Rank::Seventh, Rank::Fifth));
        for &i in &self.pawns[mover] {
            let Some(one) = behind(squares[i], mover).filter(|&s| !occupied.contains(s)) else {
                continue;
            };
            // A pawn never stood on its first rank.
            if let Some(parent) = self
                .indexer
                .moved(index, i, one)
                .filter(|_| one.rank() != mover.fold_wb(Rank::First, Rank::Eighth))
            {
                f(parent, None);
            }
            if squares[i].rank() == fourth
                && let Some(two) =
                    behind(one, mover).filter(|&s| !occupied.contains(s) && s.rank() == second)
                && let Some(parent) = self.indexer.moved(index, i, two)
            {
                match self.en_passant(squares, i, turn) {
                    Some(value) => f(parent, Some(value)),
                    None => f(parent, None),
                }
            }
        }
    }

    #[inline(always)]
    fn inside_moves_while(
        &self,
        index: usize,
        squares: &Squares,
        turn: Color,
        mut f: impl FnMut(Option<usize>, Option<Value>) -> bool,
    ) -> bool {
        if !self.rules.quiet_while(squares, turn, |man, to| {
            f(self.indexer.moved(index, man, to), None)
        }) {
            return false;
        }
        let occupied = self.rules.occupied(squares);
        let second = turn.fold_wb(Rank::Second, Rank::Seventh);
        self.pushes_while(squares, turn, occupied, |man, to| {
            let child = self.indexer.moved(index, man, to);
            // After a legal double step the opponent may take en passant.
            let en_passant = if squares[man].rank() == second
                && to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth)
                && self
                    .rules
                    .legal_after(squares, occupied, turn, man, to, None)
            {
                let mut after = *squares;
                after[man] = to;
                self.en_passant(&after, man, !turn)
            } else {
                None
            };
            f(child, en_passant)
        })
    }
}

impl Pawns<'_> {
    /// Calls `f(man, to)` for the single and double steps of `turn`'s pawns
    /// that do not promote, legal or not, until it returns false; returns
    /// false if it was stopped.
    #[inline(always)]
    fn pushes_while(
        &self,
        squares: &Squares,
        turn: Color,
        occupied: Bitboard,
        mut f: impl FnMut(usize, Square) -> bool,
    ) -> bool {
        let last = turn.fold_wb(Rank::Eighth, Rank::First);
        let second = turn.fold_wb(Rank::Second, Rank::Seventh);
        for &i in &self.pawns[turn] {
            let Some(one) =
                ahead(squares[i], turn).filter(|&s| !occupied.contains(s) && s.rank() != last)
            else {
                continue;
            };
            if !f(i, one) {
                return false;
            }
            if squares[i].rank() == second
                && let Some(two) = ahead(one, turn).filter(|&s| !occupied.contains(s))
                && !f(i, two)
            {
                return false;
            }
        }
        true
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
/// a [`Table`] numbered by [`PawnIndexer`].
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        let m: Material = "KPvKP".parse().unwrap();
        let ix = PawnIndexer::new(&m);
        assert_eq!(ix.size(), 24 * 64 * 64 * 64);
        for index in (0..ix.size()).step_by(97) {
            let squares = ix.decode(index);
            assert!(!matches!(squares[2].rank(), Rank::First | Rank::Eighth));
            assert!(squares[2].file().to_usize() < 4);
            assert_eq!(ix.encode(&squares[..4]), Some(index));
        }
        let placement = [Square::C3, Square::F6, Square::G2, Square::A7];
        let mirror: Vec<Square> = placement.iter().map(|s| s.flip_horizontal()).collect();
        assert_eq!(ix.encode(&placement), ix.encode(&mirror));
    }

    #[test]
    fn a_moved_man_changes_one_digit() {
        let m: Material = "KRPvKP".parse().unwrap();
        let ix = PawnIndexer::new(&m);
        for index in (0..ix.size()).step_by(9973) {
            let squares = ix.decode(index);
            for man in 0..m.len() {
                let to = if man == 3 {
                    Square::from_coords(squares[3].file(), Rank::Fifth)
                } else {
                    Square::H8
                };
                let mut moved = squares;
                moved[man] = to;
                assert_eq!(ix.moved(index, man, to), ix.encode(&moved[..m.len()]));
            }
        }
    }
}
