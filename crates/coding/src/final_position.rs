//! A final position (mate or stalemate) taken apart the way the code needs:
//! its zone, the mark of every zone square, pins, participating men, and
//! the pure / economical / model / ideal qualities.

use std::fmt;

use shakmaty::{Bitboard, Chess, Color, Piece, Position, Role, Square, attacks};

use crate::code::Code;
use crate::rules::{pawn_push, position_from};
use crate::symbol::{Mark, Symbol};
use crate::zone::{Zone, ZoneShape};

/// Mate or stalemate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinalKind {
    Mate,
    Stalemate,
}

impl FinalKind {
    pub fn name(self) -> &'static str {
        match self {
            FinalKind::Mate => "mate",
            FinalKind::Stalemate => "stalemate",
        }
    }

    /// Whether `position` is a final position of this kind.
    pub fn holds_in(self, position: &Chess) -> bool {
        match self {
            FinalKind::Mate => position.is_checkmate(),
            FinalKind::Stalemate => position.is_stalemate(),
        }
    }
}

/// A man of the attacked side held on a line to its king by an attacking
/// line piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pin {
    pub pinned: Square,
    pub pinner: Square,
}

/// Why a position is not coded: the side to move is neither mated nor
/// stalemated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub struct NotFinal {
    pub side: Color,
    pub in_check: bool,
    pub legal_moves: usize,
}

impl fmt::Display for NotFinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let check = if self.in_check {
            "in check"
        } else {
            "not in check"
        };
        let plural = if self.legal_moves == 1 { "" } else { "s" };
        write!(
            f,
            "neither mate nor stalemate: {} to move is {check} and has {} legal move{plural}",
            self.side, self.legal_moves
        )
    }
}

/// A mate or stalemate, analysed.
#[derive(Clone, Debug)]
pub struct FinalPosition {
    position: Chess,
    kind: FinalKind,
    zone: Zone,
    marks: Vec<Mark>,
    pins: Vec<Pin>,
    participants: Bitboard,
    needed: Bitboard,
    pure: bool,
}

impl FinalPosition {
    /// Analyses `position`; the side to move is the attacked side.
    pub fn analyse(position: Chess) -> Result<FinalPosition, NotFinal> {
        let kind = if position.is_checkmate() {
            FinalKind::Mate
        } else if position.is_stalemate() {
            FinalKind::Stalemate
        } else {
            return Err(NotFinal {
                side: position.turn(),
                in_check: position.is_check(),
                legal_moves: position.legal_moves().len(),
            });
        };
        let view = View::new(&position);
        let zone = Zone::of_king(view.king);
        let pins = view.pins();
        let marks = view.marks(&position, kind, &zone, &pins);
        let pure = view.is_pure(&position, kind, &zone, &pins);
        let participants = view.participants(kind, &zone, &pins);
        let needed = (position.board().by_color(!position.turn())
            & !position.board().kings()
            & !participants)
            .into_iter()
            .filter(|&square| removal_undoes(&position, kind, square))
            .collect();
        Ok(FinalPosition {
            position,
            kind,
            zone,
            marks,
            pins,
            participants,
            needed,
            pure,
        })
    }

    pub fn position(&self) -> &Chess {
        &self.position
    }

    pub fn kind(&self) -> FinalKind {
        self.kind
    }

    /// The mated or stalemated side.
    pub fn attacked(&self) -> Color {
        self.position.turn()
    }

    pub fn zone(&self) -> &Zone {
        &self.zone
    }

    /// The mark of every zone square, in numbering order (part B).
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Every pin against the attacked king.
    pub fn pins(&self) -> &[Pin] {
        &self.pins
    }

    /// The men (of both sides, not the attacked king) that take part in
    /// forming the final position, as part A writes them: they stand in the
    /// zone, control a zone square, pin or are pinned, or (stalemate) block
    /// or are blocked pawns.
    pub fn participants(&self) -> Bitboard {
        self.participants
    }

    /// Attacking men that take no part in that sense but without which the
    /// position would not be final (or legal): shields of a line.
    pub fn needed(&self) -> Bitboard {
        self.needed
    }

    /// Every zone square is controlled once: a single check (or a double
    /// check whose both checks are needed), every other square either guarded
    /// once, or held by an attacking man protected once, or blocked by a man
    /// of the attacked side that nothing attacks but its pinner.
    pub fn is_pure(&self) -> bool {
        self.pure
    }

    /// Every attacking man takes part or is needed, except perhaps the king
    /// and pawns.
    pub fn is_economical(&self) -> bool {
        let board = self.position.board();
        let pieces = board.by_color(!self.attacked()) & !board.kings() & !board.pawns();
        (pieces & !self.participants & !self.needed).is_empty()
    }

    /// Pure and economical.
    pub fn is_model(&self) -> bool {
        self.pure && self.is_economical()
    }

    /// Pure, and every man on the board takes part or is needed.
    pub fn is_ideal(&self) -> bool {
        let board = self.position.board();
        let men = board.occupied().without(self.zone.king());
        self.pure && (men & !self.participants & !self.needed).is_empty()
    }

    /// The code of this position as a final position (FP).
    pub fn code(&self) -> Code {
        self.code_with_square(Some(self.zone.king()))
    }

    /// The code, with the king's square in part C or not.
    pub(crate) fn code_with_square(&self, square: Option<Square>) -> Code {
        let board = self.position.board();
        let attacking = !self.attacked();
        let symbols_of = |color: Color| {
            let mut symbols: Vec<Symbol> = (self.participants & board.by_color(color))
                .into_iter()
                .map(|square| symbol_at(&self.position, square))
                .collect();
            symbols.sort();
            symbols
        };
        let zone = self.zone.set();
        let mut pins: Vec<Mark> = self
            .pins
            .iter()
            .filter(|pin| !zone.contains(pin.pinned))
            .map(|pin| {
                Mark::Group(vec![
                    symbol_at(&self.position, pin.pinned),
                    symbol_at(&self.position, pin.pinner),
                ])
            })
            .collect();
        pins.sort();
        Code {
            attacking: symbols_of(attacking),
            attacked: symbols_of(self.attacked()),
            marks: self.marks.clone(),
            other_marks: Vec::new(),
            square,
            other_squares: Vec::new(),
            pins,
            conditions: Vec::new(),
        }
    }

    pub fn shape(&self) -> ZoneShape {
        self.zone.shape()
    }
}

/// The symbol of the man on `square` (not the attacked king).
pub(crate) fn symbol_at(position: &Chess, square: Square) -> Symbol {
    let piece = position
        .board()
        .piece_at(square)
        .expect("symbols are taken of occupied squares");
    Symbol::of_piece(piece, !position.turn()).expect("the attacked king has no symbol")
}

/// The board seen from the attacked king: attacks are taken with the king
/// lifted off, so a line piece also controls the squares behind it.
struct View<'a> {
    board: &'a shakmaty::Board,
    king: Square,
    attacked: Color,
    seen: Bitboard,
}

impl<'a> View<'a> {
    fn new(position: &'a Chess) -> View<'a> {
        let board = position.board();
        let attacked = position.turn();
        let king = board
            .king_of(attacked)
            .expect("a legal position has one king per side");
        View {
            board,
            king,
            attacked,
            seen: board.occupied().without(king),
        }
    }

    fn attacking(&self) -> Color {
        !self.attacked
    }

    fn guards(&self, square: Square) -> Bitboard {
        self.board.attacks_to(square, self.attacking(), self.seen)
    }

    fn pins(&self) -> Vec<Pin> {
        let line_pieces = self.board.by_color(self.attacking()) & self.board.sliders();
        line_pieces
            .into_iter()
            .filter_map(|pinner| {
                let piece = self.board.piece_at(pinner)?;
                if !attacks::attacks(pinner, piece, Bitboard::EMPTY).contains(self.king) {
                    return None;
                }
                let pinned = (attacks::between(pinner, self.king) & self.board.occupied())
                    .single_square()?;
                (self.board.color_at(pinned) == Some(self.attacked))
                    .then_some(Pin { pinned, pinner })
            })
            .collect()
    }

    fn symbols(&self, position: &Chess, squares: Bitboard) -> Vec<Symbol> {
        squares
            .into_iter()
            .map(|square| symbol_at(position, square))
            .collect()
    }

    fn marks(&self, position: &Chess, kind: FinalKind, zone: &Zone, pins: &[Pin]) -> Vec<Mark> {
        let first = match kind {
            FinalKind::Mate => Mark::guards(self.symbols(position, position.checkers())),
            FinalKind::Stalemate => Mark::Stalemate,
        };
        let rest = zone.squares()[1..].iter().map(|&square| {
            if self.board.color_at(square) == Some(self.attacked) {
                let blocker = symbol_at(position, square);
                match pins.iter().find(|pin| pin.pinned == square) {
                    Some(pin) => Mark::Group(vec![blocker, symbol_at(position, pin.pinner)]),
                    None => Mark::Single(blocker),
                }
            } else {
                Mark::guards(self.symbols(position, self.guards(square)))
            }
        });
        std::iter::once(first).chain(rest).collect()
    }

    fn is_pure(&self, position: &Chess, kind: FinalKind, zone: &Zone, pins: &[Pin]) -> bool {
        let checks_pure = match kind {
            FinalKind::Stalemate => true,
            FinalKind::Mate => {
                let checkers = position.checkers();
                checkers.count() == 1
                    || checkers
                        .into_iter()
                        .all(|checker| check_is_needed(position, checker))
            }
        };
        checks_pure
            && zone.squares()[1..].iter().all(|&square| {
                if self.board.color_at(square) == Some(self.attacked) {
                    let pinner = pins
                        .iter()
                        .find(|pin| pin.pinned == square)
                        .map(|pin| pin.pinner);
                    let mut attackers = self.guards(square);
                    if let Some(pinner) = pinner {
                        attackers.discard(pinner);
                    }
                    attackers.is_empty()
                } else {
                    self.guards(square).count() == 1
                }
            })
    }

    fn participants(&self, kind: FinalKind, zone: &Zone, pins: &[Pin]) -> Bitboard {
        let zone_set = zone.set();
        let stalemate = kind == FinalKind::Stalemate;
        let mut participants = Bitboard::EMPTY;
        for (square, piece) in self.board {
            if square == self.king {
                continue;
            }
            let in_zone = zone_set.contains(square);
            let takes_part = if piece.color == self.attacking() {
                in_zone
                    || (attacks::attacks(square, piece, self.seen) & zone_set).any()
                    || pins.iter().any(|pin| pin.pinner == square)
                    || (stalemate && self.blocks_a_pawn(square))
            } else {
                in_zone
                    || pins.iter().any(|pin| pin.pinned == square)
                    || (stalemate && piece.role == Role::Pawn && self.pawn_is_blocked(square))
            };
            if takes_part {
                participants.add(square);
            }
        }
        participants
    }

    fn pawn_is_blocked(&self, square: Square) -> bool {
        pawn_push(self.attacked, square)
            .is_some_and(|ahead| self.board.color_at(ahead) == Some(self.attacking()))
    }

    fn blocks_a_pawn(&self, square: Square) -> bool {
        let pawn = Piece {
            color: self.attacked,
            role: Role::Pawn,
        };
        self.board
            .by_piece(pawn)
            .into_iter()
            .any(|behind| pawn_push(self.attacked, behind) == Some(square))
    }
}

/// In a double check, the check of `checker` is needed when the other check
/// alone could be parried by a man other than the king.
fn check_is_needed(position: &Chess, checker: Square) -> bool {
    without(position, checker)
        .is_some_and(|single| single.legal_moves().iter().any(|m| m.role() != Role::King))
}

/// `position` with the man on `square` taken off, if still legal.
fn without(position: &Chess, square: Square) -> Option<Chess> {
    let mut board = position.board().clone();
    board.discard_piece_at(square);
    position_from(board, position.turn())
}

/// Whether taking the man on `square` off the board undoes the final
/// position (or leaves an illegal one): a man that shields a line, for one.
fn removal_undoes(position: &Chess, kind: FinalKind, square: Square) -> bool {
    without(position, square).is_none_or(|rest| !kind.holds_in(&rest))
}
