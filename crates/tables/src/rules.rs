//! Moves and retractions of a placement, from shakmaty's attack tables.
//!
//! A table position is a list of squares in material order, not a shakmaty
//! `Chess`: building a table visits every placement many times, and this
//! keeps each visit to a few bitboard operations.

use shakmaty::{Bitboard, ByColor, Color, Piece, Role, Square, attacks};

use crate::{
    index::Squares,
    material::{MAX_MEN, Material},
    variant::Variant,
};

/// A legal move of a placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Which man moves (its place in the material).
    pub man: usize,
    pub to: Square,
    /// The man taken, if any.
    pub captured: Option<usize>,
}

/// What [`Rules::look`] sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// Men on distinct squares, the side not to move not in check.
    pub legal: bool,
    /// The side to move is in check (meaningful when legal).
    pub in_check: bool,
    /// The side to move attacks an enemy man other than the king.
    pub threatens_capture: bool,
    /// The side to move, not in check, has a king step to an empty square
    /// that no enemy man attacks: a legal move, so no stalemate.
    pub king_steps: bool,
    /// The side to move may have a move other than a capture that leaves
    /// the table (a pawn's step in a slice): set by the layout
    /// (the first pass), false here.
    pub may_step: bool,
}

impl Look {
    pub(crate) const ILLEGAL: Look = Look {
        legal: false,
        in_check: false,
        threatens_capture: false,
        king_steps: false,
        may_step: false,
    };
}

/// [`Rules::look`] of the 64 placements that differ only in the last
/// indexed man's square (a man after the kings), for one side to move:
/// bit s of each mask for the last man on s. A position is legal where
/// `legal` has its bit; the other masks hold only legal positions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RunLooks {
    pub legal: u64,
    pub in_check: u64,
    pub threatens_capture: u64,
    pub king_steps: u64,
}

/// The attacks of the men other than the last of a run, and how the last
/// man's square changes them.
struct RunAttacks<'r> {
    rules: &'r Rules,
    squares: &'r Squares,
    last: usize,
    /// The squares of the other men.
    others: Bitboard,
    /// Each other man's attacks with the last man off the board.
    base: [Bitboard; MAX_MEN],
}

impl RunAttacks<'_> {
    /// The last man's squares from which man `i` (not the last) attacks
    /// `target`: a slider's line is cut where the last man stands between.
    #[inline(always)]
    fn by_other(&self, i: usize, target: Square) -> Bitboard {
        if !self.base[i].contains(target) {
            return Bitboard::EMPTY;
        }
        match self.rules.men[i].role {
            Role::Queen | Role::Rook | Role::Bishop => !attacks::between(self.squares[i], target),
            _ => Bitboard::FULL,
        }
    }

    /// The last man's squares from which it attacks `target`.
    #[inline(always)]
    fn by_last(&self, target: Square) -> Bitboard {
        let man = self.rules.men[self.last];
        match man.role {
            // A pawn on s attacks the target when a pawn of the other
            // colour on the target would attack s.
            Role::Pawn => attacks::pawn_attacks(!man.color, target),
            _ => self.rules.attacks(self.last, target, self.others),
        }
    }

    /// The last man's squares from which `by`'s men attack `target`.
    #[inline(always)]
    fn attacked_by(&self, by: Color, target: Square) -> Bitboard {
        let mut squares = if self.rules.men[self.last].color == by {
            self.by_last(target)
        } else {
            Bitboard::EMPTY
        };
        for i in (0..self.rules.len).filter(|&i| i != self.last) {
            if self.rules.men[i].color == by {
                squares |= self.by_other(i, target);
            }
        }
        squares
    }

    /// The last man's squares from which `turn` attacks an enemy man other
    /// than the king ([`Look::threatens_capture`]).
    #[inline(always)]
    fn threats(&self, turn: Color) -> Bitboard {
        let rules = self.rules;
        let last_is_enemy = rules.men[self.last].color != turn;
        let targets = rules.capturable_except(self.squares, !turn, Some(self.last));
        let mut threats = Bitboard::EMPTY;
        for i in (0..rules.len).filter(|&i| i != self.last) {
            if rules.men[i].color != turn || !rules.moves_at_all(i) {
                continue;
            }
            for target in self.base[i] & targets {
                threats |= self.by_other(i, target);
            }
            if last_is_enemy {
                // The last man is attacked where it stands in the man's way.
                threats |= self.base[i];
            }
        }
        if !last_is_enemy {
            for target in targets {
                threats |= self.by_last(target);
            }
        }
        threats
    }

    /// The last man's squares where the king of `turn`, not in check, has
    /// a step to an empty square no enemy man attacks
    /// ([`Look::king_steps`]).
    #[inline(always)]
    fn king_steps(&self, turn: Color) -> Bitboard {
        let king = Rules::king(turn);
        if !self.rules.moves_at_all(king) {
            return Bitboard::EMPTY;
        }
        let mut steps = Bitboard::EMPTY;
        for to in attacks::king_attacks(self.squares[king]) & !self.others {
            steps |= !self.attacked_by(!turn, to) & !Bitboard::from(to);
        }
        steps
    }
}

/// The men of a material and the rules they move by.
#[derive(Clone, Debug)]
pub struct Rules {
    men: [Piece; MAX_MEN],
    len: usize,
    /// The men the index numbers, first in the list; the men after them
    /// stand still (the pawns of a slice, see `crate::pawns`).
    indexed: usize,
    white_king_fixed: bool,
    /// The men of each side that move where they attack (not pawns, not a
    /// fixed king), last man first, and how many there are.
    steppers: ByColor<([usize; MAX_MEN], usize)>,
}

impl Rules {
    pub fn new(material: &Material, variant: Variant) -> Rules {
        Rules::with_men(
            material.men(),
            material.len(),
            matches!(variant, Variant::FixedKing(_)),
        )
    }

    /// The rules of `men` (kings first), of which the first `indexed` are
    /// numbered by the index and the others stand still.
    pub(crate) fn with_men(men_list: &[Piece], indexed: usize, white_king_fixed: bool) -> Rules {
        let mut men = [Color::White.king(); MAX_MEN];
        men[..men_list.len()].copy_from_slice(men_list);
        let mut steppers = ByColor::<([usize; MAX_MEN], usize)>::default();
        // Last men first: theirs are the index's lowest digits, so their
        // moves stay near in memory, and a verification, which stops at
        // the first move not refuted, tries those first.
        for (i, man) in men_list.iter().enumerate().rev() {
            let fixed = i == 0 && white_king_fixed;
            if man.role != Role::Pawn && !fixed {
                let (list, len) = &mut steppers[man.color];
                list[*len] = i;
                *len += 1;
            }
        }
        Rules {
            men,
            len: men_list.len(),
            indexed,
            white_king_fixed,
            steppers,
        }
    }

    /// How many men there are, those that stand still included.
    #[inline(always)]
    pub fn men(&self) -> usize {
        self.len
    }

    /// The men of `color` that move where they attack.
    #[inline(always)]
    pub fn steppers(&self, color: Color) -> &[usize] {
        let (list, len) = &self.steppers[color];
        &list[..*len]
    }

    /// The squares man `i` attacks from `from`. A direct call per role: the
    /// generic `attacks::attacks` costs a fifth of a build.
    #[inline(always)]
    pub fn attacks(&self, i: usize, from: Square, occupied: Bitboard) -> Bitboard {
        match self.men[i].role {
            Role::King => attacks::king_attacks(from),
            Role::Queen => attacks::queen_attacks(from, occupied),
            Role::Rook => attacks::rook_attacks(from, occupied),
            Role::Bishop => attacks::bishop_attacks(from, occupied),
            Role::Knight => attacks::knight_attacks(from),
            // A pawn attacks diagonally forwards; its pushes are the pawn
            // layout's own (crate::pawns::exits).
            Role::Pawn => attacks::pawn_attacks(self.men[i].color, from),
        }
    }

    /// Whether man `i` may move at all.
    #[inline]
    fn moves_at_all(&self, i: usize) -> bool {
        !(i == 0 && self.white_king_fixed)
    }

    /// The man of material order `i`.
    #[inline]
    pub fn man(&self, i: usize) -> Piece {
        self.men[i]
    }

    /// The squares man `i` passes and lands on going from `from` to `to`
    /// (the same squares back from `to` to `from`): a man there blocks it.
    #[inline]
    pub fn path(&self, i: usize, from: Square, to: Square) -> Bitboard {
        match self.men[i].role {
            Role::Queen | Role::Rook | Role::Bishop => attacks::between(from, to) | to,
            _ => Bitboard::from(to),
        }
    }

    #[inline]
    fn king(color: Color) -> usize {
        match color {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    #[inline]
    pub fn occupied(&self, sq: &Squares) -> Bitboard {
        sq[..self.len].iter().fold(Bitboard::EMPTY, |bb, &s| bb | s)
    }

    /// True when no two men share a square.
    #[inline]
    pub fn distinct(&self, sq: &Squares) -> bool {
        self.occupied(sq).count() == self.len
    }

    /// Whether the men of `by` (except `skip`, a man just taken) attack
    /// `target` with the board occupied by `occupied`.
    #[inline]
    fn attacked(
        &self,
        sq: &Squares,
        target: Square,
        by: Color,
        occupied: Bitboard,
        skip: Option<usize>,
    ) -> bool {
        (0..self.len).any(|i| {
            Some(i) != skip
                && self.men[i].color == by
                && self.attacks(i, sq[i], occupied).contains(target)
        })
    }

    /// Whether the king of `color` is in check.
    #[inline]
    pub fn in_check(&self, sq: &Squares, color: Color) -> bool {
        self.attacked(sq, sq[Rules::king(color)], !color, self.occupied(sq), None)
    }

    /// Legal with `turn` to move: men on distinct squares and the side not to
    /// move not in check.
    #[inline]
    pub fn is_legal(&self, sq: &Squares, turn: Color) -> bool {
        self.distinct(sq) && !self.in_check(sq, !turn)
    }

    /// Legality, check and capture threat of a placement at once, each
    /// man's attacks computed once: the first look at every number of a
    /// table.
    #[inline]
    pub fn look(&self, sq: &Squares, turn: Color) -> Look {
        let occupied = self.occupied(sq);
        if occupied.count() != self.len {
            return Look::ILLEGAL;
        }
        let mut attacked = ByColor::<Bitboard>::default();
        let mut reach = Bitboard::EMPTY;
        for (i, &from) in sq[..self.len].iter().enumerate() {
            let attacks = self.attacks(i, from, occupied);
            let color = self.men[i].color;
            attacked[color] |= attacks;
            if color == turn && self.moves_at_all(i) {
                reach |= attacks;
            }
        }
        let in_check = attacked[!turn].contains(sq[Rules::king(turn)]);
        Look {
            legal: !attacked[turn].contains(sq[Rules::king(!turn)]),
            in_check,
            threatens_capture: reach.intersects(self.capturable(sq, !turn)),
            king_steps: !in_check && self.king_steps(sq, turn, occupied, attacked[!turn]),
            may_step: false,
        }
    }

    /// Whether the king of `turn`, not in check, may step to an empty
    /// square outside `attacked`. Out of check no enemy line runs through
    /// the king, so the attacks seen with it on its square stand after it
    /// steps.
    #[inline(always)]
    fn king_steps(
        &self,
        sq: &Squares,
        turn: Color,
        occupied: Bitboard,
        attacked: Bitboard,
    ) -> bool {
        let king = Rules::king(turn);
        self.moves_at_all(king) && (attacks::king_attacks(sq[king]) & !occupied & !attacked).any()
    }

    /// [`Rules::look`] of both sides to move of the 64 placements that
    /// differ only in the last indexed man's square (a man after the
    /// kings), as masks: each other man's attacks are computed once, and
    /// the last man's square enters as the squares from which it attacks,
    /// or where it cuts a slider's line.
    pub fn run_looks(&self, sq: &Squares) -> ByColor<RunLooks> {
        let last = self.indexed - 1;
        debug_assert!(last >= 2, "the last man is not a king");
        let mut others = Bitboard::EMPTY;
        let mut distinct = true;
        for (i, &s) in sq[..self.len].iter().enumerate() {
            if i != last {
                distinct &= !others.contains(s);
                others |= s;
            }
        }
        if !distinct {
            return ByColor::default();
        }
        let mut base = [Bitboard::EMPTY; MAX_MEN];
        for i in (0..self.len).filter(|&i| i != last) {
            base[i] = self.attacks(i, sq[i], others);
        }
        let run = RunAttacks {
            rules: self,
            squares: sq,
            last,
            others,
            base,
        };
        let in_check = ByColor::new_with(|color| run.attacked_by(!color, sq[Rules::king(color)]));
        ByColor::new_with(|turn| {
            let legal = !others & !in_check[!turn];
            let out_of_check = legal & !in_check[turn];
            RunLooks {
                legal: legal.0,
                in_check: (legal & in_check[turn]).0,
                threatens_capture: (legal & run.threats(turn)).0,
                king_steps: (out_of_check & run.king_steps(turn)).0,
            }
        })
    }

    /// Whether `turn` attacks an enemy man other than the king: the cheap
    /// test for "may have a capture".
    #[inline]
    pub fn threatens_capture(&self, sq: &Squares, turn: Color) -> bool {
        let occupied = self.occupied(sq);
        let targets = self.capturable(sq, !turn);
        !targets.is_empty()
            && (0..self.len).any(|i| {
                self.men[i].color == turn
                    && self.moves_at_all(i)
                    && self.attacks(i, sq[i], occupied).intersects(targets)
            })
    }

    /// Calls `f` for the legal moves of `turn` to a square of `targets`
    /// until it returns false. Returns false if it was stopped.
    #[inline]
    pub fn moves_while(
        &self,
        sq: &Squares,
        turn: Color,
        targets: Bitboard,
        f: impl FnMut(Move) -> bool,
    ) -> bool {
        self.moves_of_while(sq, turn, 0..self.len, targets, f)
    }

    /// [`Rules::moves_while`] for the moves of the men `movers` alone.
    #[inline]
    pub fn moves_of_while(
        &self,
        sq: &Squares,
        turn: Color,
        movers: impl IntoIterator<Item = usize>,
        targets: Bitboard,
        mut f: impl FnMut(Move) -> bool,
    ) -> bool {
        let occupied = self.occupied(sq);
        let own = (0..self.len)
            .filter(|&i| self.men[i].color == turn)
            .fold(Bitboard::EMPTY, |bb, i| bb | sq[i]);
        let movers = movers.into_iter();
        for i in movers.filter(|&i| self.men[i].color == turn && self.moves_at_all(i)) {
            for to in self.attacks(i, sq[i], occupied) & !own & targets {
                let captured = (2..self.len).find(|&j| sq[j] == to && self.men[j].color != turn);
                if self.legal_after(sq, occupied, turn, i, to, captured)
                    && !f(Move {
                        man: i,
                        to,
                        captured,
                    })
                {
                    return false;
                }
            }
        }
        true
    }

    /// Whether moving man `i` of `turn` to `to`, taking man `captured`
    /// (on `to`, or beside it en passant), leaves `turn`'s king safe;
    /// `occupied` is the board before the move.
    #[inline(always)]
    pub fn legal_after(
        &self,
        sq: &Squares,
        occupied: Bitboard,
        turn: Color,
        i: usize,
        to: Square,
        captured: Option<usize>,
    ) -> bool {
        let king = Rules::king(turn);
        // En passant takes a man off a square other than `to`.
        let taken = captured.map_or(Bitboard::EMPTY, |c| Bitboard::from(sq[c]));
        let after = ((occupied ^ sq[i]) & !taken) | to;
        let king_sq = if i == king { to } else { sq[king] };
        let mut moved = *sq;
        moved[i] = to;
        !self.attacked(&moved, king_sq, !turn, after, captured)
    }

    /// Whether the king of `turn` is safe after it took man `taken`, which
    /// stood where the man that took it stands now in `sq`; `occupied` is
    /// the board after the capture.
    #[inline]
    pub(crate) fn safe_after_capture(
        &self,
        sq: &Squares,
        turn: Color,
        taken: usize,
        occupied: Bitboard,
    ) -> bool {
        !self.attacked(sq, sq[Rules::king(turn)], !turn, occupied, Some(taken))
    }

    /// Whether `turn` has a legal move that takes nothing (pawnless
    /// material: a pawn's attacks are not its moves). In check, a man
    /// other than the king can only step between the king and its one
    /// checker (taking the checker is no quiet move); the king is tried
    /// last, as it is asked most often of a king that cannot step.
    #[inline]
    pub fn has_quiet_move(&self, sq: &Squares, turn: Color) -> bool {
        let occupied = self.occupied(sq);
        let king = Rules::king(turn);
        let mut checkers = (0..self.len)
            .filter(|&i| {
                self.men[i].color != turn && self.attacks(i, sq[i], occupied).contains(sq[king])
            })
            .map(|i| sq[i]);
        let blocks = match (checkers.next(), checkers.next()) {
            (None, _) => !occupied,
            (Some(checker), None) => attacks::between(sq[king], checker),
            (Some(_), Some(_)) => Bitboard::EMPTY,
        };
        self.steppers(turn).iter().any(|&i| {
            let targets = if i == king { !occupied } else { blocks };
            (self.attacks(i, sq[i], occupied) & targets)
                .into_iter()
                .any(|to| self.legal_after(sq, occupied, turn, i, to, None))
        })
    }

    /// The squares of the men of `color` other than the king: what a
    /// capture may take.
    #[inline]
    pub fn capturable(&self, sq: &Squares, color: Color) -> Bitboard {
        self.capturable_except(sq, color, None)
    }

    /// [`Rules::capturable`] without man `except` (a run's last man, whose
    /// square varies).
    #[inline]
    pub fn capturable_except(&self, sq: &Squares, color: Color, except: Option<usize>) -> Bitboard {
        (2..self.len)
            .filter(|&j| Some(j) != except && self.men[j].color == color)
            .fold(Bitboard::EMPTY, |bb, j| bb | sq[j])
    }

    /// Calls `f(man, to)` for the quiet moves of `turn`'s pieces (pawns
    /// aside), legal or not (the mover's king may be left in check), until
    /// it returns false; returns false if it was stopped. A piece's move
    /// can be taken back along the same line, so these are also the
    /// retractions: the man stands on its square now and came from `to`.
    #[inline]
    pub fn quiet_while(
        &self,
        sq: &Squares,
        turn: Color,
        mut f: impl FnMut(usize, Square) -> bool,
    ) -> bool {
        let occupied = self.occupied(sq);
        for &i in self.steppers(turn) {
            for to in self.attacks(i, sq[i], occupied) & !occupied {
                if !f(i, to) {
                    return false;
                }
            }
        }
        true
    }

    /// The squares after capture `mv` (its man on its square, the taken
    /// man gone), in the smaller material's order.
    #[inline]
    pub fn after_capture(&self, sq: &Squares, mv: Move, captured: usize) -> Squares {
        // Built square by square from `sq`: writing the move into a copy
        // and shifting it made the loads after it wait on narrow stores
        // (`exits` fell from 12.5 % to 10.9 % of a KQRvKR build's samples).
        std::array::from_fn(|i| {
            let man = if i < captured {
                i
            } else {
                (i + 1).min(MAX_MEN - 1)
            };
            if man == mv.man { mv.to } else { sq[man] }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_looks_are_its_placements_looks_one_by_one() {
        let material = |text: &str| text.parse::<Material>().unwrap();
        let piece = |c: char| Piece::from_char(c).unwrap();
        // A slice's pawns stand still after the last man.
        let slice = |men: &str, indexed| {
            let men: Vec<Piece> = men.chars().map(piece).collect();
            Rules::with_men(&men, indexed, false)
        };
        let all = [
            Rules::new(&material("KQRvKR"), Variant::Standard),
            Rules::new(&material("KBNvK"), Variant::Standard),
            Rules::new(&material("KRBvK"), Variant::FixedKing(Square::C3)),
            slice("KkRrP", 4),
            slice("KkQnPp", 4),
            slice("KkBbPP", 4),
        ];
        let mut seen = [0; 4];
        for rules in all {
            let len = rules.men();
            for seed in 0..2_000usize {
                let mut placement = placement(seed, len);
                let looks = rules.run_looks(&placement);
                for s in Square::ALL {
                    placement[rules.indexed - 1] = s;
                    let bit = |mask: u64| mask & 1 << usize::from(s) != 0;
                    for turn in Color::ALL {
                        let (got, expected) = (looks[turn], rules.look(&placement, turn));
                        let got = Look {
                            legal: bit(got.legal),
                            in_check: bit(got.in_check),
                            threatens_capture: bit(got.threatens_capture),
                            king_steps: bit(got.king_steps),
                            may_step: false,
                        };
                        if expected.legal {
                            assert_eq!(got, expected, "{placement:?} {turn}");
                            for (count, found) in seen.iter_mut().zip([
                                got.in_check,
                                got.threatens_capture,
                                got.king_steps,
                                !got.king_steps,
                            ]) {
                                *count += usize::from(found);
                            }
                        } else {
                            assert!(!got.legal, "{placement:?} {turn}");
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    /// Placements of `len` men from a seed: men on lines, beside each
    /// other and on one square.
    fn placement(seed: usize, len: usize) -> Squares {
        let mut squares = [Square::A1; MAX_MEN];
        for (i, sq) in squares[..len].iter_mut().enumerate() {
            *sq = Square::new(((seed * 37 + i * 23 + seed / (i + 1)) % 64) as u32);
        }
        squares
    }

    #[test]
    fn quiet_moves_and_king_steps_are_found_as_by_trying_every_move() {
        let (mut stuck, mut in_check) = (0, 0);
        for material in ["KQRvKR", "KBNvK", "KRvKN", "KQvKQ"] {
            let material: Material = material.parse().unwrap();
            let rules = Rules::new(&material, Variant::Standard);
            let len = material.len();
            for seed in 0..20_000 {
                let squares = placement(seed, len);
                for turn in Color::ALL {
                    let look = rules.look(&squares, turn);
                    if !look.legal {
                        continue;
                    }
                    let occupied = rules.occupied(&squares);
                    let legal = |i: usize| {
                        (rules.attacks(i, squares[i], occupied) & !occupied)
                            .into_iter()
                            .any(|to| rules.legal_after(&squares, occupied, turn, i, to, None))
                    };
                    let any = rules.steppers(turn).iter().any(|&i| legal(i));
                    assert_eq!(
                        rules.has_quiet_move(&squares, turn),
                        any,
                        "{squares:?} {turn}"
                    );
                    let king = Rules::king(turn);
                    assert_eq!(
                        look.king_steps,
                        !look.in_check && legal(king),
                        "{squares:?} {turn}"
                    );
                    stuck += usize::from(!any);
                    in_check += usize::from(look.in_check);
                }
            }
        }
        assert!(
            stuck > 0 && in_check > 0,
            "{stuck} without a move, {in_check} in check"
        );
    }
}
