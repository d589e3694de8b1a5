//! The etalon position (ЭП, brochure 3.1 - 3.3): the final position turned,
//! reflected and shifted so that part B is smallest, realised by a legal
//! position.
//!
//! A candidate is a symmetry of the zone and a target square for the king
//! with a zone of the same shape. Its B is the original marks read in the
//! target's numbering. Candidates are tried in increasing order of B from
//! square 2 on, then by the king's square (a8 / a5 / d5 first, then the
//! smallest numeric symbol). The first one a legal position realises is the
//! etalon. A realisation puts the men of the zone on the images of their
//! squares and re-places every other man anywhere outside the zone where it
//! keeps its function; it counts when its code equals the candidate's. Men
//! that take part are searched depth first; men that take no part (and
//! pawns blocked by a man with nothing else to do) are then added greedily,
//! which is fast but could in principle miss a realisation.

use std::fmt;

use shakmaty::{Bitboard, Board, Chess, Color, Piece, Position, Role, Square, attacks};

use crate::Symmetry;
use crate::code::Code;
use crate::final_position::{AnalysedFinal, FinalKind, FinalPosition, FinalRules};
use crate::rules::{may_stand, pawn_push, position_from};
use crate::symbol::{Mark, Symbol};
use crate::zone::{Offset, Zone, numeric_symbol, offset_between, preferred_king_square, shifted};

/// How many squares the search may try, over all candidates, before it
/// gives up. Generous: the brochure's examples and a 30-man game mate
/// need under a thousand.
pub(crate) const SEARCH_LIMIT: u64 = 2_000_000;

/// Why no etalon position was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EtalonError {
    #[error("no legal position realises any image of the zone")]
    NotRealised,
    #[error("the etalon search gave up after {SEARCH_LIMIT} placements")]
    SearchLimit,
}

/// The etalon position of a final position under the rules of `P`
/// (orthodox by default; [`crate::fairy::FairyEtalon`] under fairy rules).
#[derive(Clone, Debug)]
pub struct Etalon<P = Chess> {
    position: AnalysedFinal<P>,
    symmetry: Symmetry,
    code: Code,
}

impl<P: FinalRules> Etalon<P> {
    pub(crate) fn new(position: AnalysedFinal<P>, symmetry: Symmetry, code: Code) -> Etalon<P> {
        Etalon {
            position,
            symmetry,
            code,
        }
    }

    /// The realising position, analysed.
    pub fn position(&self) -> &AnalysedFinal<P> {
        &self.position
    }

    /// The symmetry that carries the final zone onto the etalon zone.
    pub fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    /// The ЭП code: part C omits a8, a5 and d5 (3.3.2).
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The (extended) FEN of the realisation.
    pub fn fen(&self) -> String {
        self.position.position().fen_text()
    }
}

impl<P> fmt::Display for Etalon<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code)
    }
}

/// The marks of a zone read in the numbering of its image: the zone's
/// `offsets` turned by `symmetry` must be the `numbering` of the target
/// zone (in any order); its first mark (the royal's own square) stays
/// first. None when the shapes differ.
pub(crate) fn marks_at_image(
    offsets: &[Offset],
    marks: &[Mark],
    symmetry: Symmetry,
    numbering: &[Offset],
) -> Option<Vec<Mark>> {
    // The offsets of a zone are distinct: the image is the target zone when
    // it has as many squares and each lands in it.
    let same_shape = offsets.len() == numbering.len()
        && offsets
            .iter()
            .all(|&o| numbering.contains(&symmetry.apply_offset(o)));
    if !same_shape {
        return None;
    }
    let mut read = vec![marks[0].clone()];
    read.extend(numbering.iter().map(|&q| {
        let i = offsets
            .iter()
            .position(|&o| symmetry.apply_offset(o) == q)
            .expect("the image covers the target zone");
        marks[i + 1].clone()
    }));
    Some(read)
}

/// Takes one placement from `budget`, or gives up when none is left.
pub(crate) fn spend(budget: &mut u64) -> Result<(), EtalonError> {
    *budget = budget.checked_sub(1).ok_or(EtalonError::SearchLimit)?;
    Ok(())
}

/// The order in which the search tries squares for a man (3.2.3,
/// cosmetics): line pieces near `king`, men right and down.
pub(crate) fn cosmetic_order(square: Square, king: Square, line_piece: bool) -> impl Ord {
    let distance = if line_piece { square.distance(king) } else { 0 };
    (distance, square.rank(), std::cmp::Reverse(square.file()))
}

/// The part of C the etalon writes for its king's square.
fn etalon_square(king: Square, zone: &Zone) -> Option<Square> {
    (king != preferred_king_square(zone.shape())).then_some(king)
}

/// What a man must do in a realisation.
#[derive(Clone, Debug)]
enum Duty {
    /// Stands on a zone square: on the image of its offset from the king.
    InZone(Offset),
    /// An attacking man outside the zone: attacks (at least, until the
    /// final check) these zone squares, pins the man `pins` and stands in
    /// front of the pawn `blocks` (in a stalemate), if any.
    Attack {
        zone_attacks: Vec<Offset>,
        pins: Option<usize>,
        blocks: Option<usize>,
    },
    /// A man of the attacked side outside the zone, pinned by man `pinner`.
    Pinned { pinner: usize },
    /// A pawn of the attacked side outside the zone, in a stalemate,
    /// blocked by man `blocker`.
    Blocked { blocker: usize },
    /// Anything else: stands outside the zone.
    Free,
}

#[derive(Clone, Debug)]
struct Man {
    piece: Piece,
    /// Where it stands in the final position.
    origin: Square,
    duty: Duty,
    takes_part: bool,
}

impl Man {
    /// Placed after the others, greedily: it takes no part.
    fn is_passive(&self) -> bool {
        !self.takes_part
    }
}

/// One image of the zone.
struct Candidate {
    marks: Vec<Mark>,
    king: Square,
    symmetry: Symmetry,
    priority: (bool, u32),
}

impl FinalPosition {
    /// Searches the etalon position (see the module's doc).
    pub(crate) fn orthodox_etalon(&self) -> Result<Etalon, EtalonError> {
        let men = self.men();
        let pattern = self.code_with_square(None);
        let mut budget = SEARCH_LIMIT;
        for candidate in self.candidates() {
            let plan = Plan::new(&men, candidate.symmetry, self.attacked());
            let mut search = Search {
                men: &men,
                plan: &plan,
                king: candidate.king,
                symmetry: candidate.symmetry,
                zone: Zone::of_king(candidate.king).set(),
                expected: Code {
                    marks: candidate.marks.clone(),
                    ..pattern.clone()
                },
                kind: self.kind(),
                attacked: self.attacked(),
                budget: &mut budget,
                exhausted: false,
            };
            if let Some(found) = search.run() {
                let code = found.code_with_square(etalon_square(candidate.king, found.zone()));
                return Ok(Etalon::new(found, candidate.symmetry, code));
            }
            if search.exhausted {
                return Err(EtalonError::SearchLimit);
            }
        }
        Err(EtalonError::NotRealised)
    }

    /// Every man but the attacked king, with its duty.
    fn men(&self) -> Vec<Man> {
        let board = self.position().board();
        let king = self.zone().king();
        let zone = self.zone().set();
        let seen = board.occupied().without(king);
        let squares: Vec<Square> = board.occupied().without(king).into_iter().collect();
        let index_of = |square: Square| squares.iter().position(|&s| s == square);
        let stalemate = self.kind() == FinalKind::Stalemate;
        let attacked_pawn = Piece {
            color: self.attacked(),
            role: Role::Pawn,
        };
        squares
            .iter()
            .map(|&square| {
                let piece = board.piece_at(square).expect("occupied");
                let takes_part = self.participants().contains(square);
                let duty = if zone.contains(square) {
                    Duty::InZone(offset_between(king, square))
                } else if !takes_part {
                    Duty::Free
                } else if piece.color != self.attacked() {
                    Duty::Attack {
                        zone_attacks: (attacks::attacks(square, piece, seen) & zone)
                            .into_iter()
                            .map(|target| offset_between(king, target))
                            .collect(),
                        pins: self
                            .pins()
                            .iter()
                            .find(|pin| pin.pinner == square)
                            .and_then(|pin| index_of(pin.pinned)),
                        blocks: squares.iter().position(|&behind| {
                            stalemate
                                && board.piece_at(behind) == Some(attacked_pawn)
                                && pawn_push(self.attacked(), behind) == Some(square)
                        }),
                    }
                } else if let Some(pin) = self.pins().iter().find(|pin| pin.pinned == square) {
                    Duty::Pinned {
                        pinner: index_of(pin.pinner).expect("pinners stand on the board"),
                    }
                } else {
                    let blocker = pawn_push(self.attacked(), square)
                        .filter(|_| stalemate && piece == attacked_pawn)
                        .filter(|&ahead| board.color_at(ahead) == Some(!self.attacked()))
                        .and_then(index_of);
                    match blocker {
                        Some(blocker) => Duty::Blocked { blocker },
                        None => Duty::Free,
                    }
                };
                Man {
                    piece,
                    origin: square,
                    duty,
                    takes_part,
                }
            })
            .collect()
    }

    /// Every image of the zone, best first.
    fn candidates(&self) -> Vec<Candidate> {
        let offsets = self.zone().offsets();
        let mut candidates = Vec::new();
        for symmetry in Symmetry::ALL {
            for king in Square::ALL {
                let target = Zone::of_king(king);
                let Some(marks) =
                    marks_at_image(&offsets, self.marks(), symmetry, &target.offsets())
                else {
                    continue;
                };
                candidates.push(Candidate {
                    marks,
                    king,
                    symmetry,
                    priority: (
                        king != preferred_king_square(target.shape()),
                        numeric_symbol(king),
                    ),
                });
            }
        }
        candidates.sort_by(|a, b| {
            a.marks[1..]
                .cmp(&b.marks[1..])
                .then(a.priority.cmp(&b.priority))
                .then(a.symmetry.cmp(&b.symmetry))
        });
        candidates
    }
}

/// How the men outside the zone are placed.
struct Plan {
    /// Depth first, in this order: pinned men each followed by its pinner,
    /// blocked pawns by their blockers, then the other line pieces, the
    /// other attackers and the other men that take part.
    search: Vec<usize>,
    /// Then greedily: a king that takes no part, the pawns blocked by a man
    /// that has nothing else to do (with their blockers and the pawns of
    /// their side stuck behind them), the rest.
    greedy: Vec<Step>,
}

/// One greedy placement.
enum Step {
    Man(usize),
    /// Men standing one behind the other in a file, from the rearmost:
    /// a blocked pawn (with any pawns stuck behind it) and its blocker;
    /// right in front of the pawn `anchor` of the zone if it stood there.
    Column {
        men: Vec<usize>,
        anchor: Option<usize>,
    },
}

impl Plan {
    /// Within a rank men go by kind and by the images of their zone
    /// squares, so that the order, and with it the realisation found,
    /// depends only on what the men do and not on where they stood.
    fn new(men: &[Man], symmetry: Symmetry, attacked: Color) -> Plan {
        // A blocker with nothing else to do (and not a king, which every
        // check needs on the board).
        let loose_blocker = |blocker: usize| {
            men[blocker].piece.role != Role::King
                && matches!(&men[blocker].duty, Duty::Attack { zone_attacks, pins: None, blocks: Some(_) }
                    if zone_attacks.is_empty())
        };
        let loose_pawn =
            |man: &Man| matches!(man.duty, Duty::Blocked { blocker } if loose_blocker(blocker));
        // 1-5 depth first, 7-10 greedy.
        let rank = |man: &Man| match man.duty {
            Duty::InZone(_) => 0,
            Duty::Pinned { .. } => 1,
            Duty::Blocked { .. } if loose_pawn(man) => 8,
            Duty::Blocked { .. } => 2,
            Duty::Attack {
                blocks: Some(pawn), ..
            } if loose_pawn(&men[pawn]) => 9,
            Duty::Attack { pins: Some(_), .. }
            | Duty::Attack {
                blocks: Some(_), ..
            } => 3,
            Duty::Attack { .. } if is_line_piece(man.piece.role) => 4,
            Duty::Attack { .. } => 5,
            Duty::Free if man.piece.role == Role::King => 7,
            Duty::Free => 10,
        };
        let mut order: Vec<usize> = (0..men.len()).filter(|&i| rank(&men[i]) > 0).collect();
        order.sort_by_key(|&i| {
            let man = &men[i];
            let mut images: Vec<Offset> = match &man.duty {
                Duty::Attack { zone_attacks, .. } => zone_attacks
                    .iter()
                    .map(|&o| symmetry.apply_offset(o))
                    .collect(),
                _ => Vec::new(),
            };
            images.sort();
            let pinner = match man.duty {
                Duty::Pinned { pinner } => Some(men[pinner].piece.role),
                _ => None,
            };
            (
                rank(man),
                man.piece.color.is_white(),
                man.piece.role,
                pinner,
                images,
            )
        });
        let attacked_pawn = Piece {
            color: attacked,
            role: Role::Pawn,
        };
        let mut plan = Plan {
            search: Vec::new(),
            greedy: Vec::new(),
        };
        let mut taken = vec![false; men.len()];
        for &i in &order {
            if taken[i] {
                continue;
            }
            taken[i] = true;
            let partner = match men[i].duty {
                Duty::Pinned { pinner } => Some(pinner),
                Duty::Blocked { blocker } => Some(blocker),
                _ => None,
            }
            .filter(|&p| !matches!(men[p].duty, Duty::InZone(_)) && !taken[p]);
            if let Some(p) = partner {
                taken[p] = true;
            }
            match rank(&men[i]) {
                ..=5 => {
                    plan.search.push(i);
                    plan.search.extend(partner);
                }
                8 => {
                    let blocker =
                        partner.expect("a loose blocked pawn has its blocker outside the zone");
                    let mut column = vec![i, blocker];
                    let pawn_behind = |q: usize, ahead: usize| {
                        men[q].piece == attacked_pawn
                            && pawn_push(attacked, men[q].origin) == Some(men[ahead].origin)
                    };
                    let stuck_behind =
                        |q: usize, ahead: usize| men[q].is_passive() && pawn_behind(q, ahead);
                    while let Some(q) =
                        (0..men.len()).find(|&q| !taken[q] && stuck_behind(q, column[0]))
                    {
                        taken[q] = true;
                        column.insert(0, q);
                    }
                    let anchor = (0..men.len()).find(|&q| {
                        matches!(men[q].duty, Duty::InZone(_)) && pawn_behind(q, column[0])
                    });
                    plan.greedy.push(Step::Column {
                        men: column,
                        anchor,
                    });
                }
                _ => plan.greedy.push(Step::Man(i)),
            }
        }
        plan
    }
}

fn is_line_piece(role: Role) -> bool {
    matches!(role, Role::Bishop | Role::Rook | Role::Queen)
}

/// A depth-first search for one realisation of one candidate.
struct Search<'a> {
    men: &'a [Man],
    plan: &'a Plan,
    king: Square,
    symmetry: Symmetry,
    zone: Bitboard,
    expected: Code,
    kind: FinalKind,
    attacked: Color,
    budget: &'a mut u64,
    exhausted: bool,
}

impl Search<'_> {
    fn run(&mut self) -> Option<FinalPosition> {
        let mut board = Board::empty();
        board.set_piece_at(
            self.king,
            Piece {
                color: self.attacked,
                role: Role::King,
            },
        );
        let mut placed = vec![None; self.men.len()];
        for (i, man) in self.men.iter().enumerate() {
            if let Duty::InZone(offset) = man.duty {
                let square = self.image(offset);
                if !may_stand(man.piece, square) {
                    return None;
                }
                board.set_piece_at(square, man.piece);
                placed[i] = Some(square);
            }
        }
        self.place(0, &mut board, &mut placed)
    }

    fn image(&self, offset: Offset) -> Square {
        shifted(self.king, self.symmetry.apply_offset(offset))
            .expect("zone images stay on the board")
    }

    /// Takes one placement from the budget; false, and the search
    /// exhausted, when none is left.
    fn spend(&mut self) -> bool {
        if spend(self.budget).is_err() {
            self.exhausted = true;
        }
        !self.exhausted
    }

    fn place(
        &mut self,
        step: usize,
        board: &mut Board,
        placed: &mut [Option<Square>],
    ) -> Option<FinalPosition> {
        if step == self.plan.search.len() {
            return self.place_greedy(board, placed);
        }
        let index = self.plan.search[step];
        let men = self.men;
        let man = &men[index];
        for square in self.squares_for(index, board, placed) {
            if !self.spend() {
                return None;
            }
            board.set_piece_at(square, man.piece);
            placed[index] = Some(square);
            if self.duties_still_possible(board, placed)
                && let Some(found) = self.place(step + 1, board, placed)
            {
                return Some(found);
            }
            board.discard_piece_at(square);
            placed[index] = None;
            if self.exhausted {
                return None;
            }
        }
        None
    }

    /// Places the men of the greedy steps, each on the first square where
    /// the position keeps its code (the symbols of the pawns and blockers
    /// still to come left out of A). They cannot be what makes the mate, so
    /// no backtracking is needed among them; a man with no such square fails
    /// the candidate. Columns in front of a zone pawn have one place and go
    /// first, unchecked (the pawn behind could move without them); then a
    /// king that takes no part, so that every check sees both kings.
    fn place_greedy(
        &mut self,
        board: &mut Board,
        placed: &mut [Option<Square>],
    ) -> Option<FinalPosition> {
        let steps = &self.plan.greedy;
        let mut pending: Vec<usize> = steps
            .iter()
            .flat_map(|step| match step {
                Step::Column { men, .. } => men.clone(),
                Step::Man(_) => Vec::new(),
            })
            .filter(|&index| self.men[index].takes_part)
            .collect();
        let anchored = |step: &Step| {
            matches!(
                step,
                Step::Column {
                    anchor: Some(_),
                    ..
                }
            )
        };
        let mut realised = None;
        let mut standing = steps.iter().filter(|step| anchored(step)).all(|step| {
            let Step::Column {
                men,
                anchor: Some(anchor),
            } = step
            else {
                unreachable!("filtered to anchored columns")
            };
            pending.retain(|index| !men.contains(index));
            self.put_anchored_column(men, *anchor, board, placed)
        });
        let mut rest = steps.iter().filter(|step| !anchored(step)).peekable();
        let king_next =
            matches!(rest.peek(), Some(&&Step::Man(i)) if self.men[i].piece.role == Role::King);
        if standing && !king_next {
            realised = self.check(board, &pending);
            standing = realised.is_some();
        }
        if standing {
            for step in rest {
                realised = match step {
                    Step::Man(index) => self.place_one_passive(*index, board, placed, &pending),
                    Step::Column { men, .. } => {
                        pending.retain(|index| !men.contains(index));
                        self.place_column(men, board, placed, &pending)
                    }
                };
                if realised.is_none() {
                    break;
                }
            }
        }
        if realised.is_none() {
            for step in steps {
                let men = match step {
                    Step::Man(index) => vec![*index],
                    Step::Column { men, .. } => men.clone(),
                };
                for index in men {
                    if let Some(square) = placed[index].take() {
                        board.discard_piece_at(square);
                    }
                }
            }
        }
        realised
    }

    /// The squares of a column from `base` up the file, if all are free.
    fn column_squares(&self, column: &[usize], base: Square, board: &Board) -> Option<Vec<Square>> {
        let free = !board.occupied() & !self.zone;
        let mut next = Some(base);
        column
            .iter()
            .map(|&index| {
                let square = next.filter(|&square| {
                    free.contains(square) && may_stand(self.men[index].piece, square)
                })?;
                next = pawn_push(self.attacked, square);
                Some(square)
            })
            .collect()
    }

    fn put_column(&self, column: &[usize], squares: &[Square], board: &mut Board) {
        for (&index, &square) in column.iter().zip(squares) {
            board.set_piece_at(square, self.men[index].piece);
        }
    }

    /// Puts a column right in front of its zone pawn.
    fn put_anchored_column(
        &self,
        column: &[usize],
        anchor: usize,
        board: &mut Board,
        placed: &mut [Option<Square>],
    ) -> bool {
        let squares = placed[anchor]
            .and_then(|square| pawn_push(self.attacked, square))
            .and_then(|base| self.column_squares(column, base, board));
        let Some(squares) = squares else {
            return false;
        };
        self.put_column(column, &squares, board);
        for (&index, &square) in column.iter().zip(&squares) {
            placed[index] = Some(square);
        }
        true
    }

    /// Puts a column of men (see [`Step::Column`]) on the first file
    /// squares where the position keeps its code.
    fn place_column(
        &mut self,
        column: &[usize],
        board: &mut Board,
        placed: &mut [Option<Square>],
        pending: &[usize],
    ) -> Option<FinalPosition> {
        let mut bases = Square::ALL.to_vec();
        bases.sort_by_key(|&square| (square.rank(), std::cmp::Reverse(square.file())));
        for base in bases {
            let Some(squares) = self.column_squares(column, base, board) else {
                continue;
            };
            if !self.spend() {
                return None;
            }
            self.put_column(column, &squares, board);
            if self.duties_still_possible(board, placed)
                && let Some(realised) = self.check(board, pending)
            {
                for (&index, &square) in column.iter().zip(&squares) {
                    placed[index] = Some(square);
                }
                return Some(realised);
            }
            for &square in &squares {
                board.discard_piece_at(square);
            }
        }
        None
    }

    /// Puts man `index` on the first square where the position keeps its
    /// code. A king that takes no part and keeps clear of the zone, of the
    /// attackers' lines and of pawns can only help: once it stands legally
    /// and the position still fails, no other square will do.
    fn place_one_passive(
        &mut self,
        index: usize,
        board: &mut Board,
        placed: &mut [Option<Square>],
        pending: &[usize],
    ) -> Option<FinalPosition> {
        let piece = self.men[index].piece;
        for square in self.squares_for(index, board, placed) {
            if !self.spend() {
                return None;
            }
            board.set_piece_at(square, piece);
            if self.duties_still_possible(board, placed) {
                if let Some(realised) = self.check(board, pending) {
                    placed[index] = Some(square);
                    return Some(realised);
                }
                if piece.role == Role::King && position_from(board.clone(), self.attacked).is_some()
                {
                    board.discard_piece_at(square);
                    return None;
                }
            }
            board.discard_piece_at(square);
        }
        None
    }

    /// The squares where man `index` may go now, best first.
    fn squares_for(&self, index: usize, board: &Board, placed: &[Option<Square>]) -> Vec<Square> {
        let man = &self.men[index];
        let seen = board.occupied().without(self.king);
        let free = !board.occupied() & !self.zone;
        let mut squares: Vec<Square> = free
            .into_iter()
            .filter(|&square| may_stand(man.piece, square))
            .filter(|&square| match &man.duty {
                Duty::InZone(_) => false,
                Duty::Attack {
                    zone_attacks,
                    pins,
                    blocks,
                } => {
                    let attacked = attacks::attacks(square, man.piece, seen) & self.zone;
                    zone_attacks
                        .iter()
                        .all(|&offset| attacked.contains(self.image(offset)))
                        && pins.is_none_or(|pinned| {
                            placed[pinned]
                                .is_some_and(|pinned| self.pins(square, man.piece, pinned, board))
                        })
                        && blocks.is_none_or(|pawn| {
                            placed[pawn].and_then(|pawn| pawn_push(self.attacked, pawn))
                                == Some(square)
                        })
                }
                Duty::Blocked { blocker } => match placed[*blocker] {
                    Some(blocker) => pawn_push(self.attacked, square) == Some(blocker),
                    None => pawn_push(self.attacked, square).is_some_and(|ahead| {
                        free.contains(ahead) && may_stand(self.men[*blocker].piece, ahead)
                    }),
                },
                Duty::Pinned { pinner } => {
                    attacks::attacks(self.king, self.men[*pinner].piece, Bitboard::EMPTY)
                        .contains(square)
                        && (attacks::between(self.king, square) & board.occupied()).is_empty()
                }
                Duty::Free if man.piece.color != self.attacked && !man.takes_part => {
                    // Keeps clear of the zone, and blocks no pawn (which
                    // would make both take part).
                    (attacks::attacks(square, man.piece, seen) & self.zone).is_empty()
                        && !board
                            .by_piece(Piece {
                                color: self.attacked,
                                role: Role::Pawn,
                            })
                            .into_iter()
                            .any(|pawn| pawn_push(self.attacked, pawn) == Some(square))
                }
                Duty::Free => true,
            })
            .collect();
        let line_piece = is_line_piece(man.piece.role);
        squares.sort_by_key(|&square| cosmetic_order(square, self.king, line_piece));
        squares
    }

    fn pins(&self, pinner: Square, piece: Piece, pinned: Square, board: &Board) -> bool {
        attacks::attacks(pinner, piece, Bitboard::EMPTY).contains(self.king)
            && attacks::between(pinner, self.king) & board.occupied() == Bitboard::from(pinned)
    }

    /// Placing more men only blocks lines: every attacker placed must still
    /// reach its zone squares.
    fn duties_still_possible(&self, board: &Board, placed: &[Option<Square>]) -> bool {
        let seen = board.occupied().without(self.king);
        self.men
            .iter()
            .zip(placed)
            .all(|(man, square)| match (&man.duty, square) {
                (Duty::Attack { zone_attacks, .. }, Some(square)) => {
                    let attacked = attacks::attacks(*square, man.piece, seen);
                    zone_attacks
                        .iter()
                        .all(|&offset| attacked.contains(self.image(offset)))
                }
                _ => true,
            })
    }

    /// The position on `board` if it is legal, final of the same kind, and
    /// has the expected code, but for the men `pending` (not yet placed)
    /// in part A.
    fn check(&self, board: &Board, pending: &[usize]) -> Option<FinalPosition> {
        let position = position_from(board.clone(), self.attacked)?;
        if !self.kind.holds_in(&position) {
            return None;
        }
        let analysed = FinalPosition::analyse(position).ok()?;
        let mut expected = self.expected.clone();
        for &index in pending {
            let piece = self.men[index].piece;
            let side = if piece.color == self.attacked {
                &mut expected.attacked
            } else {
                &mut expected.attacking
            };
            if let Some(symbol) = Symbol::of_piece(piece, !self.attacked)
                && let Some(at) = side.iter().position(|&s| s == symbol)
            {
                side.remove(at);
            }
        }
        analysed
            .code_with_square(None)
            .same_pattern(&expected)
            .then_some(analysed)
    }
}
