//! A final position (mate or stalemate) taken apart the way the code needs:
//! its zone, the mark of every zone square, pins, participating men, and
//! the pure / economical / model / ideal qualities. [`AnalysedFinal`] holds
//! what orthodox and fairy analyses share; [`FinalRules`] is what differs,
//! implemented here for shakmaty's `Chess` and in `fairy::analysis` for the
//! fairy rules model.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Piece, Position, Role, Square, attacks};

use crate::code::Code;
use crate::etalon::{Etalon, EtalonError};
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

/// One attacked royal unit (the king, in orthodox chess) and its zone.
#[derive(Clone, Debug)]
pub struct RoyalZone {
    pub zone: Zone,
    /// The mark of every zone square, in numbering order (part B).
    pub marks: Vec<Mark>,
}

/// Every square of the zones.
pub(crate) fn squares_of(zones: &[RoyalZone]) -> Bitboard {
    zones
        .iter()
        .flat_map(|zone| zone.zone.squares().iter().copied())
        .collect()
}

/// The rules a final position is analysed under: shakmaty's orthodox chess
/// ([`FinalPosition`]) or the fairy rules model
/// ([`crate::fairy::FairyFinal`]). What differs between the two is here;
/// what is the same (the qualities, the men needed, the shell of the
/// etalon) is written once, in [`AnalysedFinal`].
pub trait FinalRules: Clone + fmt::Debug + Sized {
    /// Whether the side to move is mated or stalemated.
    fn kind_of_final(&self) -> Option<FinalKind>;

    /// Takes a final position of `kind` apart; the side to move is the
    /// attacked side.
    fn take_apart(&self, kind: FinalKind) -> FinalParts;

    /// The side to move.
    fn attacked_side(&self) -> Color;

    fn is_in_check(&self) -> bool;

    fn legal_move_count(&self) -> usize;

    fn all_men(&self) -> Bitboard;

    fn men_of(&self, color: Color) -> Bitboard;

    /// The royal units (the kings) of both sides.
    fn royal_men(&self) -> Bitboard;

    fn pawn_men(&self) -> Bitboard;

    /// The position with the man on `square` taken off, if the rules still
    /// accept it.
    fn without_man(&self, square: Square) -> Option<Self>;

    fn is_final_of(&self, kind: FinalKind) -> bool;

    /// Whether a man that is not royal has a legal move.
    fn non_royal_can_move(&self) -> bool;

    fn fen_text(&self) -> String;

    /// The FP code.
    fn code_of(fp: &AnalysedFinal<Self>) -> Code;

    /// Searches the etalon position.
    fn etalon_of(fp: &AnalysedFinal<Self>) -> Result<Etalon<Self>, EtalonError>;
}

/// What the rules find in a final position; [`AnalysedFinal`] adds the
/// men needed and the qualities.
#[derive(Clone, Debug)]
pub struct FinalParts {
    /// The attacked royal units, in the order of the FP code.
    pub zones: Vec<RoyalZone>,
    pub pins: Vec<Pin>,
    /// See [`AnalysedFinal::participants`].
    pub participants: Bitboard,
    /// See [`AnalysedFinal::is_pure`].
    pub pure: bool,
}

/// A mate or stalemate under the rules of `P`, analysed.
#[derive(Clone, Debug)]
pub struct AnalysedFinal<P> {
    position: P,
    kind: FinalKind,
    /// The attacked royal units; in the order of the FP code (ascending
    /// numeric symbol, 2.3.7) when there are several.
    zones: Vec<RoyalZone>,
    pins: Vec<Pin>,
    participants: Bitboard,
    needed: Bitboard,
    pure: bool,
}

/// An orthodox mate or stalemate, analysed with shakmaty.
pub type FinalPosition = AnalysedFinal<Chess>;

impl<P: FinalRules> AnalysedFinal<P> {
    /// Analyses `position`; the side to move is the attacked side.
    pub fn analyse(position: P) -> Result<AnalysedFinal<P>, NotFinal> {
        let Some(kind) = position.kind_of_final() else {
            return Err(NotFinal {
                side: position.attacked_side(),
                in_check: position.is_in_check(),
                legal_moves: position.legal_move_count(),
            });
        };
        let FinalParts {
            zones,
            pins,
            participants,
            pure,
        } = position.take_apart(kind);
        let attacking = !position.attacked_side();
        let needed = (position.men_of(attacking) & !position.royal_men() & !participants)
            .into_iter()
            .filter(|&square| removal_undoes(&position, kind, square))
            .collect();
        Ok(AnalysedFinal {
            position,
            kind,
            zones,
            pins,
            participants,
            needed,
            pure,
        })
    }

    pub fn position(&self) -> &P {
        &self.position
    }

    pub fn kind(&self) -> FinalKind {
        self.kind
    }

    /// The mated or stalemated side.
    pub fn attacked(&self) -> Color {
        self.position.attacked_side()
    }

    /// The zones of the attacked royal units (one, in orthodox chess).
    pub fn zones(&self) -> &[RoyalZone] {
        &self.zones
    }

    /// Every pin against an attacked royal unit.
    pub fn pins(&self) -> &[Pin] {
        &self.pins
    }

    /// The men (of both sides, not the attacked royal units) that take
    /// part in forming the final position, as part A writes them: they
    /// stand in a zone, control a zone square, pin or are pinned, or
    /// (stalemate) block or are blocked pawns.
    pub fn participants(&self) -> Bitboard {
        self.participants
    }

    /// Attacking men that take no part in that sense but without which the
    /// position would not be final (or legal): shields of a line, hurdles.
    pub fn needed(&self) -> Bitboard {
        self.needed
    }

    /// Every zone square is controlled once: a single check (or a multiple
    /// check whose checks are all needed), every other square either
    /// guarded once, or held by an attacking man protected once, or blocked
    /// by a man of the attacked side that nothing attacks but its pinner
    /// (the fairy rules count what their conditions do; see
    /// [`crate::fairy::FairyFinal`]).
    pub fn is_pure(&self) -> bool {
        self.pure
    }

    /// Every attacking man takes part or is needed, except perhaps royal
    /// units and pawns.
    pub fn is_economical(&self) -> bool {
        let position = &self.position;
        let pieces =
            position.men_of(!self.attacked()) & !position.royal_men() & !position.pawn_men();
        (pieces & !self.participants & !self.needed).is_empty()
    }

    /// Pure and economical.
    pub fn is_model(&self) -> bool {
        self.pure && self.is_economical()
    }

    /// Pure, and every man but the attacked royal units takes part or is
    /// needed.
    pub fn is_ideal(&self) -> bool {
        let royals: Bitboard = self.zones.iter().map(|zone| zone.zone.king()).collect();
        self.pure
            && (self.position.all_men() & !royals & !self.participants & !self.needed).is_empty()
    }

    /// The code of this position as a final position (FP).
    pub fn code(&self) -> Code {
        P::code_of(self)
    }

    /// Searches the etalon position.
    pub fn etalon(&self) -> Result<Etalon<P>, EtalonError> {
        P::etalon_of(self)
    }
}

/// Whether taking the man on `square` off the board undoes the final
/// position (or leaves one the rules reject): a man that shields a line,
/// for one.
fn removal_undoes<P: FinalRules>(position: &P, kind: FinalKind, square: Square) -> bool {
    position
        .without_man(square)
        .is_none_or(|rest| !rest.is_final_of(kind))
}

/// In a check by more men than the royal unit needs, the check of
/// `checker` is needed when without it the remaining check could be
/// parried by a man other than a royal one.
pub(crate) fn check_is_needed<P: FinalRules>(position: &P, checker: Square) -> bool {
    position
        .without_man(checker)
        .is_some_and(|rest| rest.non_royal_can_move())
}

impl FinalRules for Chess {
    fn kind_of_final(&self) -> Option<FinalKind> {
        [FinalKind::Mate, FinalKind::Stalemate]
            .into_iter()
            .find(|kind| kind.holds_in(self))
    }

    fn take_apart(&self, kind: FinalKind) -> FinalParts {
        let view = View::new(self);
        let zone = Zone::of_king(view.king);
        let pins = view.pins();
        let marks = view.marks(self, kind, &zone, &pins);
        let pure = view.is_pure(self, kind, &zone, &pins);
        let participants = view.participants(kind, &zone, &pins);
        FinalParts {
            zones: vec![RoyalZone { zone, marks }],
            pins,
            participants,
            pure,
        }
    }

    fn attacked_side(&self) -> Color {
        self.turn()
    }

    fn is_in_check(&self) -> bool {
        self.is_check()
    }

    fn legal_move_count(&self) -> usize {
        self.legal_moves().len()
    }

    fn all_men(&self) -> Bitboard {
        self.board().occupied()
    }

    fn men_of(&self, color: Color) -> Bitboard {
        self.board().by_color(color)
    }

    fn royal_men(&self) -> Bitboard {
        self.board().kings()
    }

    fn pawn_men(&self) -> Bitboard {
        self.board().pawns()
    }

    fn without_man(&self, square: Square) -> Option<Chess> {
        let mut board = self.board().clone();
        board.discard_piece_at(square);
        position_from(board, self.turn())
    }

    fn is_final_of(&self, kind: FinalKind) -> bool {
        kind.holds_in(self)
    }

    fn non_royal_can_move(&self) -> bool {
        self.legal_moves().iter().any(|m| m.role() != Role::King)
    }

    fn fen_text(&self) -> String {
        Fen::from_position(self, EnPassantMode::Legal).to_string()
    }

    fn code_of(fp: &FinalPosition) -> Code {
        fp.code_with_square(Some(fp.zone().king()))
    }

    fn etalon_of(fp: &FinalPosition) -> Result<Etalon, EtalonError> {
        fp.orthodox_etalon()
    }
}

impl FinalPosition {
    /// The king's zone.
    pub fn zone(&self) -> &Zone {
        &self.zones[0].zone
    }

    /// The mark of every zone square, in numbering order (part B).
    pub fn marks(&self) -> &[Mark] {
        &self.zones[0].marks
    }

    /// The code, with the king's square in part C or not.
    pub(crate) fn code_with_square(&self, square: Option<Square>) -> Code {
        let position = self.position();
        let board = position.board();
        let attacking = !self.attacked();
        let symbols_of = |color: Color| {
            let mut symbols: Vec<Symbol> = (self.participants() & board.by_color(color))
                .into_iter()
                .map(|square| symbol_at(position, square))
                .collect();
            symbols.sort();
            symbols
        };
        let zone = self.zone().set();
        let mut pins: Vec<Mark> = self
            .pins()
            .iter()
            .filter(|pin| !zone.contains(pin.pinned))
            .map(|pin| {
                Mark::Group(vec![
                    symbol_at(position, pin.pinned),
                    symbol_at(position, pin.pinner),
                ])
            })
            .collect();
        pins.sort();
        Code {
            attacking: symbols_of(attacking),
            attacked: symbols_of(self.attacked()),
            marks: self.marks().to_vec(),
            other_marks: Vec::new(),
            square,
            other_squares: Vec::new(),
            pins,
            conditions: Vec::new(),
        }
    }

    pub fn shape(&self) -> ZoneShape {
        self.zone().shape()
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
