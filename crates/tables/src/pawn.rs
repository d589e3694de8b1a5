//! Tables of endgames with pawns (docs/tables.md, "Pawns").
//!
//! Pawns have a direction, so only the left-right mirror keeps a value: the
//! first pawn of the material is brought onto files a-d. Its square (ranks 2
//! to 7, files a-d: 24 places) is the leading digit of the number, then the
//! squares of the other men in base 64, in material order.
//!
//! A pawn move cannot be taken back along the same line, and a pawn may
//! promote or take en passant, so these tables are built forwards: ply by
//! ply, each undecided position looks at its moves (shakmaty's legal moves)
//! and the values found so far. A move that changes the material (a capture
//! or a promotion) leads into another table, built first; its value is asked
//! of the caller. A table position has no en passant right: a child with one
//! is valued from its moves, the table's value of the same placement and the
//! en passant captures together.

use rayon::prelude::*;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, EnPassantMode, Move, Position,
    PositionError, Rank, Role, Setup, Square,
};

use crate::{
    error::TableError,
    index::Squares,
    material::{MAX_MEN, Material},
    summary::SideSummary,
    value::{ILLEGAL, MAX_PLIES, UNDECIDED, Value, decode_byte, encode_plies},
};

/// Places of the first pawn: ranks 2 to 7 on files a to d.
const PAWN_PLACES: usize = 24;

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
        let rank = pawn.rank().to_usize();
        if rank == 0 || rank == 7 {
            return None;
        }
        let mirror = pawn.file().to_usize() >= 4;
        let image = |sq: Square| if mirror { sq.flip_horizontal() } else { sq };
        let place = (rank - 1) * 4 + image(pawn).file().to_usize();
        Some(
            squares[..self.men]
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != self.pawn)
                .fold(place, |acc, (_, &sq)| acc * 64 + usize::from(image(sq))),
        )
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
}

/// Distance-to-mate values of every position of one material with pawns.
pub struct PawnTable {
    material: Material,
    indexer: PawnIndexer,
    values: ByColor<Vec<u8>>,
}

/// The shakmaty position of a placement, `None` when it is not legal: men
/// on one square, a pawn on the first or last rank, or the side not to move
/// in check.
fn chess_of(material: &Material, squares: &Squares, turn: Color) -> Option<Chess> {
    let mut board = Board::empty();
    let mut occupied = Bitboard::EMPTY;
    for (&sq, &man) in squares.iter().zip(material.men()) {
        if occupied.contains(sq) {
            return None;
        }
        occupied |= sq;
        board.set_piece_at(sq, man);
    }
    Setup {
        board,
        turn,
        ..Setup::empty()
    }
    .position(CastlingMode::Standard)
    .or_else(PositionError::ignore_impossible_check)
    .ok()
}

/// Whether a position's value may be read from a table: no en passant right.
fn has_en_passant(pos: &Chess) -> bool {
    pos.ep_square(EnPassantMode::Legal).is_some()
}

/// The best of the values of the moves of a position, for the mover.
fn best(values: impl IntoIterator<Item = Value>) -> Option<Value> {
    values.into_iter().min_by_key(|v| v.order_key())
}

impl PawnTable {
    pub fn material(&self) -> &Material {
        &self.material
    }

    pub fn indexer(&self) -> &PawnIndexer {
        &self.indexer
    }

    /// The byte of a position with no en passant right; the board must hold
    /// this table's material.
    fn byte(&self, pos: &Chess) -> u8 {
        let squares = self.material.squares_of(pos.board());
        self.indexer
            .encode(&squares[..self.material.len()])
            .map_or(ILLEGAL, |i| self.values[pos.turn()][i])
    }

    /// The value of a position of this table's material. A position with an
    /// en passant right is valued from its moves: `other` gives the value
    /// of a position of another material (after the capture).
    pub fn probe(
        &self,
        pos: &Chess,
        other: &dyn Fn(&Chess) -> Result<Value, TableError>,
    ) -> Result<Value, TableError> {
        let found = Material::from_board(pos.board())?;
        if found != self.material {
            return Err(TableError::WrongMaterial {
                expected: self.material.clone(),
                found,
            });
        }
        let table = decode_byte(self.byte(pos)).ok_or(TableError::NotInTable)?;
        if !has_en_passant(pos) {
            return Ok(table);
        }
        let mut values = vec![table];
        for mv in pos.legal_moves().iter().filter(|m| m.is_en_passant()) {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            values.push(other(&child)?.parent());
        }
        Ok(best(values).expect("the table's value is there"))
    }

    /// The FEN of a number, `None` when it has no legal position.
    pub fn fen(&self, index: usize, turn: Color) -> Option<String> {
        decode_byte(*self.values[turn].get(index)?)?;
        let pos = chess_of(&self.material, &self.indexer.decode(index), turn)?;
        Some(shakmaty::fen::Fen::from_position(&pos, EnPassantMode::Legal).to_string())
    }

    /// Counts over all placements (each number stands for itself and its
    /// mirror image; like men are not told apart).
    pub fn summarize(&self) -> ByColor<SideSummary> {
        let orderings = self.material.identical_orderings();
        ByColor::new_with(|turn: Color| {
            let bytes = &self.values[turn];
            let mut side = (0..bytes.len())
                .into_par_iter()
                .fold(SideSummary::default, |mut acc, index| {
                    if let Some(value) = decode_byte(bytes[index]) {
                        acc.add(value, index, 2);
                    }
                    acc
                })
                .reduce(SideSummary::default, SideSummary::merge);
            side.divide(orderings);
            side
        })
    }
}

/// What a ply pass looks for.
#[derive(Copy, Clone)]
enum Pass {
    /// Positions with a move to a position lost in `n - 1` plies: won in n.
    Win(u16),
    /// Positions whose every move leads to a position won in at most
    /// `n - 1` plies: lost in n.
    Loss(u16),
}

struct Builder<'a> {
    material: &'a Material,
    indexer: PawnIndexer,
    other: &'a (dyn Fn(&Chess) -> Result<Value, TableError> + Sync),
}

impl Builder<'_> {
    /// The value of a child as far as it is known before pass `n`: every
    /// value of fewer than `n` plies is known; `None` is "not known yet".
    fn child(
        &self,
        mv: &Move,
        child: &Chess,
        theirs: &[u8],
        n: u16,
    ) -> Result<Option<Value>, TableError> {
        if mv.is_capture() || mv.is_promotion() {
            return (self.other)(child).map(Some);
        }
        let squares = self.material.squares_of(child.board());
        let index = self
            .indexer
            .encode(&squares[..self.material.len()])
            .expect("a legal child has a number");
        let table = match theirs[index] {
            UNDECIDED => None,
            byte => decode_byte(byte),
        };
        if !has_en_passant(child) {
            return Ok(table);
        }
        let mut captures = Vec::new();
        for mv in child.legal_moves().iter().filter(|m| m.is_en_passant()) {
            let mut after = child.clone();
            after.play_unchecked(*mv);
            captures.push((self.other)(&after)?.parent());
        }
        Ok(match table {
            Some(v) => best(captures.into_iter().chain([v])),
            // The table's own value is a win of n plies or more, a draw or
            // a loss: only a faster win by a capture is known.
            None => best(captures).filter(|v| matches!(v, Value::Win(p) if *p < n)),
        })
    }

    /// Calls `f` with the number of every placement from which `mover`
    /// reaches the position `child` by a move inside this table (no
    /// capture, no promotion): the retractions. Parents may be illegal.
    fn parents(&self, child: usize, mover: Color, mut f: impl FnMut(usize)) {
        let len = self.material.len();
        let squares = self.indexer.decode(child);
        let occupied = squares[..len].iter().fold(Bitboard::EMPTY, |bb, &s| bb | s);
        for (i, &man) in self.material.men().iter().enumerate() {
            if man.color != mover {
                continue;
            }
            let from = squares[i];
            let origins = if man.role == Role::Pawn {
                let back = |sq: Square| match mover {
                    Color::White => sq.offset(-8),
                    Color::Black => sq.offset(8),
                };
                let mut origins = Bitboard::EMPTY;
                if let Some(one) = back(from).filter(|&s| !occupied.contains(s)) {
                    if one.rank() != mover.fold_wb(Rank::First, Rank::Eighth) {
                        origins |= one;
                    }
                    if from.rank() == mover.fold_wb(Rank::Fourth, Rank::Fifth)
                        && let Some(two) = back(one).filter(|&s| !occupied.contains(s))
                    {
                        origins |= two;
                    }
                }
                origins
            } else {
                shakmaty::attacks::attacks(from, man, occupied) & !occupied
            };
            for origin in origins {
                let mut parent = squares;
                parent[i] = origin;
                if let Some(index) = self.indexer.encode(&parent[..len]) {
                    f(index);
                }
            }
        }
    }

    /// The new byte of an undecided legal position in a pass, if any.
    /// `exits` is the best its moves into other tables give (`None`: it
    /// has none); only its moves inside this table are looked at.
    fn visit(
        &self,
        pos: &Chess,
        exits: Option<Value>,
        theirs: &[u8],
        pass: Pass,
    ) -> Result<Option<u8>, TableError> {
        let moves = pos.legal_moves();
        let inside = moves
            .iter()
            .filter(|mv| !(mv.is_capture() || mv.is_promotion()));
        match pass {
            Pass::Win(n) => {
                if exits == Some(Value::Win(n)) {
                    return Ok(Some(encode_plies(n)));
                }
                for mv in inside {
                    let mut child = pos.clone();
                    child.play_unchecked(*mv);
                    if self.child(mv, &child, theirs, n)? == Some(Value::Loss(n - 1)) {
                        return Ok(Some(encode_plies(n)));
                    }
                }
                Ok(None)
            }
            Pass::Loss(n) => {
                if moves.is_empty() || exits.is_some_and(|v| !matches!(v, Value::Loss(p) if p <= n))
                {
                    return Ok(None);
                }
                for mv in inside {
                    let mut child = pos.clone();
                    child.play_unchecked(*mv);
                    match self.child(mv, &child, theirs, n)? {
                        Some(Value::Win(p)) if p < n => {}
                        _ => return Ok(None),
                    }
                }
                Ok(Some(encode_plies(n)))
            }
        }
    }
}

/// The byte of "a move into another table draws" in the exits of a
/// position (a decisive exit has its value's byte, none has 0).
const DRAW_EXIT: u8 = 254;

/// Builds the table of a material with pawns. `other` gives the value of a
/// position of any smaller material or promoted material (a capture or a
/// promotion leads there); those tables must be ready.
pub fn build(
    material: &Material,
    other: &(dyn Fn(&Chess) -> Result<Value, TableError> + Sync),
) -> Result<PawnTable, TableError> {
    let indexer = PawnIndexer::new(material);
    let size = indexer.size();
    // First pass: illegal numbers and checkmates; the best value each
    // position's moves into other tables give (its exits); and the longest
    // mate such a move leads to, which bounds the passes.
    let mut deepest_other = 0u16;
    let mut values = ByColor::new_with(|_| vec![UNDECIDED; size]);
    let mut exits = ByColor::new_with(|_| vec![UNDECIDED; size]);
    let mut ep_parent = ByColor::new_with(|_| vec![false; size]);
    for turn in Color::ALL {
        let other_depth = values[turn]
            .par_iter_mut()
            .zip(exits[turn].par_iter_mut())
            .zip(ep_parent[turn].par_iter_mut())
            .enumerate()
            .map(
                |(index, ((byte, exit), ep_parent))| -> Result<u16, TableError> {
                    let Some(pos) = chess_of(material, &indexer.decode(index), turn) else {
                        *byte = ILLEGAL;
                        return Ok(0);
                    };
                    let moves = pos.legal_moves();
                    if moves.is_empty() && pos.is_check() {
                        *byte = encode_plies(0);
                    }
                    let mut values = Vec::new();
                    // En passant captures of a child lead into other tables too;
                    // they count for the bound on the passes only.
                    let mut deepest = 0;
                    for mv in &moves {
                        let mut child = pos.clone();
                        child.play_unchecked(*mv);
                        if mv.is_capture() || mv.is_promotion() {
                            values.push(other(&child)?.parent());
                        } else if has_en_passant(&child) {
                            *ep_parent = true;
                            for ep in child.legal_moves().iter().filter(|m| m.is_en_passant()) {
                                let mut after = child.clone();
                                after.play_unchecked(*ep);
                                deepest = deepest.max(other(&after)?.plies().unwrap_or(0) + 1);
                            }
                        }
                    }
                    *exit = match best(values.iter().copied()) {
                        None => UNDECIDED,
                        Some(Value::Draw) => DRAW_EXIT,
                        Some(v) => encode_plies(v.plies().expect("decisive")),
                    };
                    Ok(values
                        .iter()
                        .filter_map(|v| v.plies())
                        .fold(deepest, u16::max))
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a.max(b)))?;
        deepest_other = deepest_other.max(other_depth);
    }
    let builder = Builder {
        material,
        indexer: indexer.clone(),
        other,
    };
    let mut idle_passes = 0;
    let mut n = 1u16;
    while idle_passes < 2 || n <= deepest_other + 3 {
        if n > MAX_PLIES {
            return Err(TableError::TooDeep(material.clone()));
        }
        let pass = if n % 2 == 1 {
            Pass::Win(n)
        } else {
            Pass::Loss(n)
        };
        let mut found = 0;
        for turn in Color::ALL {
            let ByColor { white, black } = &mut values;
            let (mine, theirs) = match turn {
                Color::White => (white, &*black),
                Color::Black => (black, &*white),
            };
            // Candidates: the parents of the positions decided in the last
            // pass, the positions a move into another table decides now,
            // and those with a double step that gives an en passant right.
            let target = encode_plies(n - 1);
            let mut candidates: Vec<usize> = theirs
                .par_iter()
                .enumerate()
                .filter(|&(_, &b)| b == target)
                .flat_map_iter(|(child, _)| {
                    let mut parents = Vec::new();
                    builder.parents(child, turn, |p| parents.push(p));
                    parents
                })
                .chain(
                    exits[turn]
                        .par_iter()
                        .zip(ep_parent[turn].par_iter())
                        .enumerate()
                        .filter(|&(_, (&e, &ep))| ep || e == encode_plies(n))
                        .map(|(index, _)| index),
                )
                .filter(|&index| mine[index] == UNDECIDED)
                .collect();
            candidates.par_sort_unstable();
            candidates.dedup();
            let decided: Vec<(usize, u8)> = candidates
                .into_par_iter()
                .filter_map(|index| {
                    let pos = chess_of(material, &indexer.decode(index), turn)
                        .expect("legal numbers only");
                    let exit = match exits[turn][index] {
                        UNDECIDED => None,
                        DRAW_EXIT => Some(Value::Draw),
                        b => decode_byte(b),
                    };
                    builder
                        .visit(&pos, exit, theirs, pass)
                        .map(|new| new.map(|byte| (index, byte)))
                        .transpose()
                })
                .collect::<Result<_, _>>()?;
            found += decided.len();
            for (index, byte) in decided {
                mine[index] = byte;
            }
        }
        idle_passes = if found == 0 { idle_passes + 1 } else { 0 };
        n += 1;
    }
    Ok(PawnTable {
        material: material.clone(),
        indexer,
        values,
    })
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
}
