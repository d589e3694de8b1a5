//! Tables of endgames with pawns (docs/guide/src/reference/pawns.md, "Pawns"): the moves that
//! leave a table (captures, promotions, and the en passant captures that may
//! answer a double step), valued from the tables they lead into.
//!
//! These tables are built slice by slice ([`crate::slices`]). A table
//! position has no en passant right: a double step after which the opponent
//! may take en passant is valued with those captures, and a position that
//! has the right is valued at probe time from its moves.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;
use shakmaty::{Bitboard, ByColor, Color, Piece, Rank, Role, Square};

use crate::{
    engine::layout::{CaptureByte, Exits},
    error::TableError,
    index::{Squares, digits},
    material::{MAX_MEN, Material},
    rules::{Move, Rules},
    table::{Subtables, Table},
    value::Value,
};

/// What a pawn may promote to, in the order of the exits' slots.
pub(crate) const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A kind of move that leaves a table: the table it leads into and where
/// the men go there.
struct Exit<'a> {
    table: &'a Table,
    /// The man (by its place in the men the exits were made for) that
    /// stands on each man's square of the new material.
    order: [usize; MAX_MEN],
    /// The new material is held as its colour-flipped twin.
    flip: bool,
}

impl Exit<'_> {
    /// The placement in the new table of `moved` (after the move, in the
    /// order the exits were made for).
    fn placement(&self, moved: &Squares) -> Squares {
        let mut after = [Square::A1; MAX_MEN];
        for (sq, &from) in after
            .iter_mut()
            .zip(&self.order[..self.table.material().len()])
        {
            *sq = if self.flip {
                moved[from].flip_vertical()
            } else {
                moved[from]
            };
        }
        after
    }
}

/// The slot of an exit: the man taken, if any, and the promoting man and
/// the place of its new role in [`PROMOTIONS`], if any.
fn exit_slot(captured: Option<usize>, promoted: Option<(usize, usize)>) -> usize {
    captured.unwrap_or(MAX_MEN) * (4 * MAX_MEN + 1) + promoted.map_or(0, |(i, r)| 1 + 4 * i + r)
}

/// The men left of `men` after man `captured` is taken and man `promoted`
/// becomes a new role: (the man's place in `men`, its piece now).
fn men_after(
    men: &[Piece],
    captured: Option<usize>,
    promoted: Option<(usize, Role)>,
) -> Vec<(usize, shakmaty::Piece)> {
    men.iter()
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
/// held by (a material with pawns by its canonical one): captures and
/// promotions (those that capture too).
pub(crate) fn exit_materials(material: &Material) -> Vec<Material> {
    let moves = [
        ExitMoves::Captures,
        ExitMoves::Promotions(Color::White, Roles::ALL),
        ExitMoves::Promotions(Color::Black, Roles::ALL),
    ];
    let mut found = Vec::new();
    for (next, _) in moves.into_iter().flat_map(|m| exit_reads(material, m)) {
        if !found.contains(&next) {
            found.push(next);
        }
    }
    found
}

/// The tables the moves `moves` lead into, each with the sides to move
/// their values are read for: after a move, one side of the new table is
/// read (the opponent's, or the mover's own where the table is held as the
/// colour-flipped twin).
pub(crate) fn exit_reads(material: &Material, moves: ExitMoves) -> Vec<(Material, Vec<Color>)> {
    let mut found: Vec<(Material, Vec<Color>)> = Vec::new();
    let men = material.men();
    for (captured, promoted) in exit_kinds(men, moves) {
        let mover = match promoted {
            Some((i, _)) => men[i].color,
            None => !men[captured.expect("a capture or a promotion")].color,
        };
        let (held, flip) = held_as(material_of(&men_after(men, captured, promoted)));
        let side = side_read(mover, flip);
        match found.iter_mut().find(|(table, _)| *table == held) {
            Some((_, sides)) if sides.contains(&side) => {}
            Some((_, sides)) => sides.push(side),
            None => found.push((held, vec![side])),
        }
    }
    found
}

/// The table a promotion to `promoted` that takes nothing leads into, when
/// `material` has a pawn of that colour (its pawns of a colour are alike,
/// so any of them leads into the same table).
pub(crate) fn quiet_promotion(material: &Material, promoted: Piece) -> Option<Material> {
    let men = material.men();
    let pawn = (0..men.len()).find(|&i| men[i] == Role::Pawn.of(promoted.color))?;
    Some(
        held_as(material_of(&men_after(
            men,
            None,
            Some((pawn, promoted.role)),
        )))
        .0,
    )
}

/// The name a material is held by, and whether that is its colour-flipped
/// twin (a material with pawns is held by its canonical one).
fn held_as(next: Material) -> (Material, bool) {
    let held = next.table_material();
    let flip = held != next;
    (held, flip)
}

/// The side to move read in a table after a move of `mover`: the
/// opponent's, or the mover's own where the table is the flipped twin.
fn side_read(mover: Color, flip: bool) -> Color {
    if flip { mover } else { !mover }
}

/// A kind of move that leaves a table: the man taken, if any, and the
/// promoting man and its new role, if any.
type ExitKind = (Option<usize>, Option<(usize, Role)>);

/// The moves that an [`ExitTables`] values: the captures that do not
/// promote, or the promotions of one side (those that capture included)
/// to some roles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExitMoves {
    Captures,
    /// The promotions of the pawns of this colour to these roles.
    Promotions(Color, Roles),
}

/// Some of the roles of [`PROMOTIONS`], a bit a place.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Roles(u8);

impl Roles {
    pub(crate) const ALL: Roles = Roles(0b1111);

    /// `PROMOTIONS[role]` alone.
    pub(crate) fn one(role: usize) -> Roles {
        Roles(1 << role)
    }

    /// The places in [`PROMOTIONS`] of the roles.
    pub(crate) fn places(self) -> impl Iterator<Item = usize> {
        (0..PROMOTIONS.len()).filter(move |&role| self.0 >> role & 1 == 1)
    }
}

/// The kinds of moves of `moves` that leave a table of `men` (kings
/// first).
fn exit_kinds(men: &[Piece], moves: ExitMoves) -> Vec<ExitKind> {
    let ExitMoves::Promotions(color, roles) = moves else {
        return (2..men.len()).map(|j| (Some(j), None)).collect();
    };
    let mut kinds = Vec::new();
    for (i, man) in men.iter().enumerate() {
        if *man != Role::Pawn.of(color) {
            continue;
        }
        for role in roles.places().map(|place| PROMOTIONS[place]) {
            kinds.push((None, Some((i, role))));
            for (j, taken) in men.iter().enumerate().skip(2) {
                if taken.color != color {
                    kinds.push((Some(j), Some((i, role))));
                }
            }
        }
    }
    kinds
}

/// The moves of a material with pawns that leave its table, and the
/// tables they lead into.
pub(crate) struct ExitTables<'a> {
    moves: ExitMoves,
    rules: Rules,
    /// The pawns of each side, by man.
    pawns: ByColor<Vec<usize>>,
    /// The exits by [`exit_slot`].
    exits: Vec<Option<Exit<'a>>>,
}

/// One step forwards for a pawn of `color`.
#[inline]
pub(crate) fn ahead(sq: Square, color: Color) -> Option<Square> {
    sq.offset(color.fold_wb(8, -8))
}

/// One step back for a pawn of `color`.
#[inline]
fn behind(sq: Square, color: Color) -> Option<Square> {
    sq.offset(color.fold_wb(-8, 8))
}

impl<'a> ExitTables<'a> {
    /// The exits by `moves` of a material whose men, kings first, are
    /// `men`, in the order its placements are given in; `subtables` must
    /// hold every table they lead into.
    pub(crate) fn new(
        men: &[Piece],
        subtables: &'a Subtables,
        moves: ExitMoves,
    ) -> Result<ExitTables<'a>, TableError> {
        let mut exits: Vec<Option<Exit>> = Vec::new();
        exits.resize_with(exit_slot(None, None) + 4 * MAX_MEN + 1, || None);
        for (captured, promoted) in exit_kinds(men, moves) {
            let left = men_after(men, captured, promoted);
            let (held, flip) = held_as(material_of(&left));
            let table = subtables
                .get(&held)
                .ok_or_else(|| TableError::MissingSubtable(held.clone()))?;
            let mut order = [0; MAX_MEN];
            let mut used = vec![false; left.len()];
            for (slot, &target) in order.iter_mut().zip(held.men()) {
                let target = if flip {
                    target.role.of(!target.color)
                } else {
                    target
                };
                let k = (0..left.len())
                    .find(|&k| !used[k] && left[k].1 == target)
                    .expect("the same men");
                used[k] = true;
                *slot = left[k].0;
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
        for (i, man) in men.iter().enumerate() {
            if man.role == Role::Pawn {
                pawns[man.color].push(i);
            }
        }
        Ok(ExitTables {
            moves,
            rules: Rules::with_men(men, men.len(), false),
            pawns,
            exits,
        })
    }

    /// Where move `mv` of `turn`, promoting to `PROMOTIONS[promoted]` if
    /// it promotes, leads: the table, the placement there and the side to
    /// move there read.
    pub(crate) fn child(
        &self,
        squares: &Squares,
        turn: Color,
        mv: Move,
        promoted: Option<usize>,
    ) -> (&Table, Squares, Color) {
        let exit = self.exits[exit_slot(mv.captured, promoted.map(|r| (mv.man, r)))]
            .as_ref()
            .expect("every exit has its table");
        let mut moved = *squares;
        moved[mv.man] = mv.to;
        (
            exit.table,
            exit.placement(&moved),
            side_read(turn, exit.flip),
        )
    }

    /// The value, for the side to move after it, of move `mv` of `turn`,
    /// promoting to `PROMOTIONS[promoted]` if it promotes.
    fn exit_value(
        &self,
        squares: &Squares,
        turn: Color,
        mv: Move,
        promoted: Option<usize>,
    ) -> Value {
        let (table, after, turn) = self.child(squares, turn, mv, promoted);
        table
            .value_of(&after, turn)
            .expect("a legal move leads to a legal position")
    }

    /// The number, in the table it leads into, of the promotion to
    /// `PROMOTIONS[role]` of pawn `pawn` of `turn` straight ahead from
    /// `squares`, for promotions' exits; `None` when that placement has no
    /// number there.
    pub(crate) fn promotion_number(
        &self,
        squares: &Squares,
        turn: Color,
        pawn: usize,
        role: usize,
    ) -> Option<usize> {
        if self.moves == ExitMoves::Captures {
            return None;
        }
        let to = ahead(squares[pawn], turn)?;
        let promotion = Move {
            man: pawn,
            to,
            captured: None,
        };
        let (table, after, _) = self.child(squares, turn, promotion, Some(role));
        table.numbering().encode(&after[..table.material().len()])
    }

    /// The best value for `turn` of its en passant captures of pawn `pawn`,
    /// which has just made a double step in legal placement `squares`;
    /// `None` when there is no legal one.
    pub(crate) fn en_passant(&self, squares: &Squares, pawn: usize, turn: Color) -> Option<Value> {
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
                self.exit_value(
                    squares,
                    turn,
                    Move {
                        man: k,
                        to: passed,
                        captured: Some(pawn),
                    },
                    None,
                )
                .parent()
            })
            .min_by_key(|v| v.order_key())
    }

    /// Values backwards, into `bytes` ([`CaptureByte`]; each starts at
    /// [`CaptureByte::NONE`]), the captures that the kings and pieces make
    /// in every placement numbered by the first `indexed` men's squares in
    /// base 64 (the first man's the highest digit), the pawns standing
    /// still on `standing[indexed..]`. A pawn's captures are not valued
    /// here. Each placement after a capture is valued once, from the
    /// table it is in, and that value is given to every placement the
    /// capturing man may have come from: one lookup serves up to 27
    /// placements (a queen's), where [`ExitTables::exits`] looks up each
    /// capture of each placement.
    pub(crate) fn value_captures(
        &self,
        indexed: usize,
        standing: &Squares,
        bytes: ByColor<&[AtomicU8]>,
    ) {
        debug_assert_eq!(self.moves, ExitMoves::Captures);
        for turn in Color::ALL {
            for taken in 2..self.rules.men() {
                if self.rules.man(taken).color == turn {
                    continue;
                }
                for mover in 0..indexed {
                    if self.rules.man(mover).color == turn {
                        self.take_back(indexed, standing, turn, mover, taken, bytes[turn]);
                    }
                }
            }
        }
    }

    /// [`ExitTables::value_captures`] for the captures of man `taken` by
    /// man `mover` of `turn`.
    fn take_back(
        &self,
        indexed: usize,
        standing: &Squares,
        turn: Color,
        mover: usize,
        taken: usize,
        bytes: &[AtomicU8],
    ) {
        let exit = self.exits[exit_slot(Some(taken), None)]
            .as_ref()
            .expect("every exit has its table");
        // The men whose squares vary after the capture: a pawn taken
        // stood still, so the man that took it is on its square.
        let free: Vec<usize> = (0..indexed)
            .filter(|&i| i != taken && !(taken >= indexed && i == mover))
            .collect();
        let placements = 1usize << (6 * free.len());
        let side = side_read(turn, exit.flip);
        let men = self.rules.men();
        (0..placements)
            .into_par_iter()
            .with_min_len(1 << 12)
            .for_each(|number| {
                let mut sq = *standing;
                for (k, &i) in free.iter().enumerate() {
                    let digit = number >> (6 * (free.len() - 1 - k)) & 63;
                    sq[i] = Square::new(digit as u32);
                }
                if taken >= indexed {
                    sq[mover] = standing[taken];
                }
                let to = sq[mover];
                sq[taken] = to;
                let occupied = self.rules.occupied(&sq);
                if occupied.count() != men - 1
                    || !self.rules.safe_after_capture(&sq, turn, taken, occupied)
                {
                    return;
                }
                let child = exit
                    .table
                    .value_of(&exit.placement(&sq), side)
                    .expect("a legal move leads to a legal position");
                let byte = CaptureByte::of(child);
                for from in self.rules.attacks(mover, to, occupied) & !occupied {
                    sq[mover] = from;
                    let slot = &bytes[digits(&sq[..indexed])];
                    let old = slot.load(Ordering::Relaxed);
                    let best = CaptureByte::better(old, byte);
                    if best != old {
                        slot.store(best, Ordering::Relaxed);
                    }
                }
            });
    }

    /// The values of the legal moves of `turn` in `squares` (the men in
    /// the order the exits were made for) that these tables value
    /// ([`ExitMoves`]): a promotion once for each of its roles.
    pub(crate) fn exits(&self, squares: &Squares, turn: Color) -> Exits {
        let mut found = Exits::default();
        let last = turn.fold_wb(Rank::Eighth, Rank::First);
        let promotions = match self.moves {
            ExitMoves::Captures => None,
            ExitMoves::Promotions(color, roles) => {
                debug_assert_eq!(color, turn, "the promotions of the side to move");
                Some(roles)
            }
        };
        let add_move = |found: &mut Exits, mv: Move| match promotions {
            Some(roles) => {
                for role in roles.places() {
                    found.add(self.exit_value(squares, turn, mv, Some(role)));
                }
            }
            None => found.add(self.exit_value(squares, turn, mv, None)),
        };
        let targets = self.rules.capturable(squares, !turn);
        let mut add = |mv: Move| {
            let promotes = self.rules.man(mv.man).role == Role::Pawn && mv.to.rank() == last;
            if promotes == promotions.is_some() {
                add_move(&mut found, mv);
            }
            true
        };
        if promotions.is_none() {
            self.rules.moves_while(squares, turn, targets, &mut add);
            return found;
        }
        // A promotion that takes is a pawn's, and takes on the last rank.
        self.rules.moves_of_while(
            squares,
            turn,
            self.pawns[turn].iter().copied(),
            targets & Bitboard::from_rank(last),
            &mut add,
        );
        let occupied = self.rules.occupied(squares);
        for &i in &self.pawns[turn] {
            let Some(to) = ahead(squares[i], turn) else {
                continue;
            };
            if to.rank() == last
                && !occupied.contains(to)
                && self.rules.legal_after(squares, occupied, turn, i, to, None)
            {
                let promotion = Move {
                    man: i,
                    to,
                    captured: None,
                };
                add_move(&mut found, promotion);
            }
        }
        found
    }
}
