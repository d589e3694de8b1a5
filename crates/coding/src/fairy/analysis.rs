//! A final position under fairy rules taken apart for the code: one zone
//! per attacked royal unit, the marks of spec section 4 (`+`, `(4)`,
//! `(KA)`, blocking kings), pins, the units that take part, and part C.

use shakmaty::{Bitboard, Color, Square};

use super::FairyEtalon;
use super::position::{FairyPosition, Rules};
use super::{Condition, Kind, Unit};
use crate::code::Code;
use crate::condition::SpecialMark;
use crate::etalon::EtalonError;
use crate::final_position::{
    AnalysedFinal, FinalKind, FinalParts, FinalRules, Pin, RoyalZone, check_is_needed, squares_of,
};
use crate::symbol::{Mark, Symbol};
use crate::zone::{Zone, preferred_king_square};

/// A mate or stalemate under fairy rules, analysed.
pub type FairyFinal = AnalysedFinal<FairyPosition>;

/// The zone of a royal unit on `square`: the king's neighbourhood for a
/// king (armoured or not), otherwise the squares its walk reaches on an
/// empty board, read in the spiral of figure 2 (its pawn part reaches
/// nothing from its first rank unless `rules` have NormalPawn).
pub fn zone_of(unit: Unit, square: Square, rules: &Rules) -> Zone {
    if unit.kind == Kind::King {
        return Zone::of_king(square);
    }
    let walk = rules
        .conditions()
        .iter()
        .copied()
        .filter(|&condition| condition == Condition::NormalPawn);
    let probe = FairyPosition::empty(unit.color, Rules::new(walk));
    let reach = probe.attacks(square, unit, Bitboard::EMPTY);
    Zone::spiral(square, reach)
}

impl FinalRules for FairyPosition {
    fn kind_of_final(&self) -> Option<FinalKind> {
        self.final_kind()
    }

    fn take_apart(&self, kind: FinalKind) -> FinalParts {
        let mut royals = self.royals(self.turn());
        royals.sort_by_key(|&square| crate::zone::numeric_symbol(square));
        let pins = pins(self, &royals);
        let zones: Vec<RoyalZone> = royals
            .iter()
            .map(|&royal| {
                let unit = self.unit_at(royal).expect("royal");
                let zone = zone_of(unit, royal, self.rules());
                let marks = marks(self, kind, royal, &zone, &pins);
                RoyalZone { zone, marks }
            })
            .collect();
        FinalParts {
            participants: participants(self, kind, &zones, &pins),
            pure: is_pure(self, kind, &zones, &pins),
            zones,
            pins,
        }
    }

    fn attacked_side(&self) -> Color {
        self.turn()
    }

    fn is_in_check(&self) -> bool {
        self.in_check(self.turn())
    }

    fn legal_move_count(&self) -> usize {
        self.playable_moves().len()
    }

    fn all_men(&self) -> Bitboard {
        self.occupied()
    }

    fn men_of(&self, color: Color) -> Bitboard {
        self.by_color(color)
    }

    fn royal_men(&self) -> Bitboard {
        self.units_where(|unit| unit.royal)
    }

    fn pawn_men(&self) -> Bitboard {
        self.units_where(|unit| unit.kind == Kind::Pawn)
    }

    fn without_man(&self, square: Square) -> Option<FairyPosition> {
        let mut rest = self.clone();
        rest.set(square, None);
        rest.legality().is_ok().then_some(rest)
    }

    fn is_final_of(&self, kind: FinalKind) -> bool {
        self.is_final(kind)
    }

    fn non_royal_can_move(&self) -> bool {
        self.legal_moves()
            .iter()
            .any(|m| !self.unit_at(m.from).is_some_and(|unit| unit.royal))
    }

    fn fen_text(&self) -> String {
        self.fen()
    }

    /// Several B in ascending order of their squares (2.3.7).
    fn code_of(fp: &FairyFinal) -> Code {
        let order: Vec<usize> = (0..fp.zones().len()).collect();
        fp.code_in(&order, false)
    }

    fn etalon_of(fp: &FairyFinal) -> Result<FairyEtalon, EtalonError> {
        fp.fairy_etalon()
    }
}

impl FairyPosition {
    /// The squares of the units that `holds`.
    fn units_where(&self, holds: impl Fn(Unit) -> bool) -> Bitboard {
        self.occupied()
            .into_iter()
            .filter(|&square| self.unit_at(square).is_some_and(&holds))
            .collect()
    }
}

impl FairyFinal {
    /// The zones in the etalon's order: smallest B first (3.2.4), then
    /// by square.
    pub(crate) fn etalon_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.zones().len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&self.zones()[a], &self.zones()[b]);
            a.marks[1..]
                .cmp(&b.marks[1..])
                .then(a.marks[0].cmp(&b.marks[0]))
                .then(
                    crate::zone::numeric_symbol(a.zone.king())
                        .cmp(&crate::zone::numeric_symbol(b.zone.king())),
                )
        });
        order
    }

    /// The etalon code of this position: zones in the etalon's order and
    /// the square dropped for a single ordinary king on a8, a5 or d5.
    pub fn etalon_code(&self) -> Code {
        self.code_in(&self.etalon_order(), true)
    }

    fn code_in(&self, order: &[usize], etalon: bool) -> Code {
        let attacking = !self.attacked();
        let position = self.position();
        let symbol_at = |square: Square| {
            position
                .unit_at(square)
                .expect("symbols of occupied squares")
                .symbol(attacking)
        };
        let mut attacking_symbols: Vec<Symbol> = (self.participants()
            & position.by_color(attacking))
        .into_iter()
        .map(symbol_at)
        .collect();
        attacking_symbols.sort();
        // The attacked fairy royals first (2.2.2), then the others.
        let royals: Vec<Square> = order.iter().map(|&i| self.zones()[i].zone.king()).collect();
        let mut attacked_symbols: Vec<Symbol> = royals
            .iter()
            .filter(|&&square| !position.unit_at(square).is_some_and(Unit::is_ordinary_king))
            .map(|&square| symbol_at(square))
            .collect();
        let mut others: Vec<Symbol> = (self.participants() & position.by_color(self.attacked()))
            .into_iter()
            .filter(|square| !royals.contains(square))
            .filter(|&square| !position.unit_at(square).is_some_and(|unit| unit.royal))
            .map(symbol_at)
            .collect();
        others.sort();
        attacked_symbols.extend(others);
        let in_zone = squares_of(self.zones());
        let mut pins: Vec<Mark> = self
            .pins()
            .iter()
            .filter(|pin| !in_zone.contains(pin.pinned))
            .map(|pin| Mark::Group(vec![symbol_at(pin.pinned), symbol_at(pin.pinner)]))
            .collect();
        pins.sort();
        pins.dedup();
        let first = &self.zones()[order[0]];
        let single_king = self.zones().len() == 1
            && position
                .unit_at(first.zone.king())
                .is_some_and(Unit::is_ordinary_king);
        let square = first.zone.king();
        let square =
            (!(etalon && single_king && square == preferred_king_square(first.zone.shape())))
                .then_some(square);
        Code {
            attacking: attacking_symbols,
            attacked: attacked_symbols,
            marks: first.marks.clone(),
            other_marks: order[1..]
                .iter()
                .map(|&i| self.zones()[i].marks.clone())
                .collect(),
            square,
            other_squares: order[1..]
                .iter()
                .map(|&i| self.zones()[i].zone.king())
                .collect(),
            pins,
            conditions: special_marks(position),
        }
    }

    /// The square the etalon prefers for the first royal: a8, a5 or d5 by
    /// the shape of a king's zone there (3.2.2).
    pub(crate) fn preferred(square: Square) -> bool {
        square == preferred_king_square(Zone::of_king(square).shape())
    }
}

/// The marks of part C: conditions, then the names of the fairy pieces
/// and royal units in the position (2.4.4 - 2.4.9).
pub(crate) fn special_marks(position: &FairyPosition) -> Vec<SpecialMark> {
    let mut marks: Vec<SpecialMark> = position
        .rules()
        .conditions()
        .iter()
        .filter_map(|condition| condition.mark())
        .collect();
    let attacking = !position.turn();
    for square in position.occupied() {
        let unit = position.unit_at(square).expect("occupied");
        let name = if unit.armoured || (unit.royal && unit.kind != Kind::King) {
            let symbol = unit.symbol(attacking).to_string();
            Some(symbol.trim_matches(['(', ')']).to_owned())
        } else {
            unit.kind.fairy_name().map(str::to_owned)
        };
        if let Some(name) = name {
            marks.push(SpecialMark::FairyPiece(name));
        }
    }
    marks.sort();
    marks.dedup();
    marks
}

/// The occupancy seen from the royal on `royal`: the royal lifted off, so
/// line pieces reach behind it.
fn lifted(position: &FairyPosition, royal: Square) -> Bitboard {
    position.occupied().without(royal)
}

/// The guards written for a square: with an armoured king attacked, the
/// attacking armoured king beside one other guard is not written (2.3.9).
fn written_guards(position: &FairyPosition, royal: Square, guards: Vec<Square>) -> Vec<Symbol> {
    let attacking = !position.turn();
    let armoured = position.unit_at(royal).is_some_and(|unit| unit.armoured);
    let mut guards = guards;
    if armoured && guards.len() == 2 {
        guards.retain(|&square| !position.unit_at(square).is_some_and(|unit| unit.armoured));
    }
    guards
        .into_iter()
        .map(|square| position.unit_at(square).expect("guard").symbol(attacking))
        .collect()
}

/// Whether the royal on `royal` may not step to `square` by the rules
/// alone (Grid: the same cell), whatever stands there.
fn forbidden(position: &FairyPosition, royal: Square, square: Square) -> bool {
    let unit = position.unit_at(royal).expect("royal");
    !position
        .attacks(royal, unit, Bitboard::EMPTY)
        .contains(square)
}

fn marks(
    position: &FairyPosition,
    kind: FinalKind,
    royal: Square,
    zone: &Zone,
    pins: &[Pin],
) -> Vec<Mark> {
    let attacking = !position.turn();
    let seen = lifted(position, royal);
    let first = match kind {
        FinalKind::Stalemate => Mark::Stalemate,
        FinalKind::Mate => Mark::guards(written_guards(
            position,
            royal,
            position.guards(royal, attacking, position.occupied()),
        )),
    };
    let rest = zone.squares()[1..].iter().map(|&square| {
        if forbidden(position, royal, square) {
            return Mark::Single(Symbol::Forbidden);
        }
        match position.unit_at(square) {
            Some(unit) if unit.color != attacking => {
                let blocker = unit.symbol(attacking);
                match pins
                    .iter()
                    .find(|pin| pin.pinned == square && is_pin_of(position, pin, royal))
                {
                    Some(pin) => Mark::Group(vec![
                        blocker,
                        position
                            .unit_at(pin.pinner)
                            .expect("pinner")
                            .symbol(attacking),
                    ]),
                    None => Mark::Single(blocker),
                }
            }
            Some(unit) if unit.armoured => Mark::Single(unit.symbol(attacking)),
            occupant => {
                let guards =
                    written_guards(position, royal, position.guards(square, attacking, seen));
                match occupant {
                    // Unprotected, yet the king cannot take it: Circe
                    // rebirth or No-capture (2.3.4).
                    Some(unit) if guards.is_empty() => Mark::Group(vec![unit.symbol(attacking)]),
                    _ => Mark::guards(guards),
                }
            }
        }
    });
    std::iter::once(first).chain(rest).collect()
}

/// Whether `pin` holds its man against the royal on `royal`.
fn is_pin_of(position: &FairyPosition, pin: &Pin, royal: Square) -> bool {
    let mut occupied = position.occupied();
    occupied.discard(pin.pinned);
    let unit = position.unit_at(pin.pinner).expect("pinner");
    position.attacks(pin.pinner, unit, occupied).contains(royal)
}

/// Units of the attacked side whose removal would let an attacking unit
/// reach a royal it does not reach now.
fn pins(position: &FairyPosition, royals: &[Square]) -> Vec<Pin> {
    let attacked = position.turn();
    let occupied = position.occupied();
    let mut pins = Vec::new();
    for pinned in position.by_color(attacked) {
        if royals.contains(&pinned) {
            continue;
        }
        let without = occupied.without(pinned);
        for pinner in position.by_color(!attacked) {
            let unit = position.unit_at(pinner).expect("occupied");
            if !unit.kind.is_line_piece() || unit.kind.is_hopper() {
                continue;
            }
            let now = position.attacks(pinner, unit, occupied);
            let then = position.attacks(pinner, unit, without);
            if royals
                .iter()
                .any(|&royal| then.contains(royal) && !now.contains(royal))
            {
                pins.push(Pin { pinned, pinner });
            }
        }
    }
    pins
}

fn participants(
    position: &FairyPosition,
    kind: FinalKind,
    zones: &[RoyalZone],
    pins: &[Pin],
) -> Bitboard {
    let attacked = position.turn();
    let stalemate = kind == FinalKind::Stalemate;
    let royals: Vec<Square> = zones.iter().map(|zone| zone.zone.king()).collect();
    let mut seen = position.occupied();
    for &royal in &royals {
        seen.discard(royal);
    }
    let zone_set = squares_of(zones);
    let pawn_ahead = |square: Square, color: Color| square.offset(color.fold_wb(8, -8));
    let mut participants = Bitboard::EMPTY;
    for square in position.occupied() {
        if royals.contains(&square) {
            continue;
        }
        let unit = position.unit_at(square).expect("occupied");
        let in_zone = zone_set.contains(square);
        let takes_part = if unit.color != attacked {
            in_zone
                || (position.attacks(square, unit, seen) & zone_set).any()
                || pins.iter().any(|pin| pin.pinner == square)
                || (stalemate
                    && position.by_color(attacked).into_iter().any(|behind| {
                        position
                            .unit_at(behind)
                            .is_some_and(|pawn| pawn.kind == Kind::Pawn)
                            && pawn_ahead(behind, attacked) == Some(square)
                    }))
        } else {
            in_zone
                || pins.iter().any(|pin| pin.pinned == square)
                || (stalemate
                    && unit.kind == Kind::Pawn
                    && pawn_ahead(square, attacked).is_some_and(|ahead| {
                        position
                            .unit_at(ahead)
                            .is_some_and(|blocker| blocker.color != attacked)
                    }))
        };
        if takes_part {
            participants.add(square);
        }
    }
    participants
}

fn is_pure(position: &FairyPosition, kind: FinalKind, zones: &[RoyalZone], pins: &[Pin]) -> bool {
    let attacking = !position.turn();
    zones.iter().all(|royal_zone| {
        let royal = royal_zone.zone.king();
        let need = position.unit_at(royal).expect("royal").checks_needed();
        let checks_pure = match kind {
            FinalKind::Stalemate => true,
            FinalKind::Mate => {
                let checkers = position.checkers(royal);
                checkers.len() <= need
                    || checkers
                        .iter()
                        .all(|&checker| check_is_needed(position, checker))
            }
        };
        let seen = lifted(position, royal);
        checks_pure
            && royal_zone.zone.squares()[1..].iter().all(|&square| {
                if forbidden(position, royal, square) {
                    return true;
                }
                let mut guards = position.guards(square, attacking, seen);
                match position.unit_at(square) {
                    Some(unit) if unit.color != attacking => {
                        guards.retain(|&guard| {
                            !pins
                                .iter()
                                .any(|pin| pin.pinned == square && pin.pinner == guard)
                        });
                        // Attacked fewer times than a check needs: not
                        // controlled (an armoured royal's self-block may
                        // be attacked once).
                        guards.len() < need
                    }
                    Some(unit) if unit.armoured => true,
                    Some(_) => guards.len() <= need,
                    None => guards.len() == need,
                }
            })
    })
}

/// Whether shakmaty could take the position: no condition (a Maximummer
/// changes the number of moves), orthodox men, one king a side.
pub fn is_orthodox(position: &FairyPosition) -> bool {
    position.rules().is_orthodox()
        && position.occupied().into_iter().all(|square| {
            let unit = position.unit_at(square).expect("occupied");
            unit.kind.role().is_some() && unit.royal == (unit.kind == Kind::King) && !unit.armoured
        })
        && position.royals(Color::White).len() == 1
        && position.royals(Color::Black).len() == 1
}
