//! A position under fairy rules: units on squares, the side to move and
//! the conditions; moves, attacks, checks and final positions.

use std::fmt;
use std::ops::ControlFlow;

use shakmaty::{Bitboard, Color, File, Rank, Square};

use super::{Condition, FairyError, Kind, Part, Unit};
use crate::final_position::FinalKind;
use crate::zone::shifted;

/// A move of the model: a unit goes from one square to another, capturing
/// what stands there; a pawn on its last rank becomes `promotion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairyMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Kind>,
}

impl FairyMove {
    fn new(from: Square, to: Square) -> FairyMove {
        FairyMove {
            from,
            to,
            promotion: None,
        }
    }

    fn promoting(from: Square, to: Square, kind: Kind) -> FairyMove {
        FairyMove {
            promotion: Some(kind),
            ..FairyMove::new(from, to)
        }
    }

    /// The square of the distance the unit travels, Maximummer's length.
    pub fn length(self) -> u32 {
        let files = self.from.file().to_u32().abs_diff(self.to.file().to_u32());
        let ranks = self.from.rank().to_u32().abs_diff(self.to.rank().to_u32());
        files * files + ranks * ranks
    }
}

/// The conditions in force, each at most once, in a fixed order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    conditions: Vec<Condition>,
}

impl Rules {
    pub fn new(conditions: impl IntoIterator<Item = Condition>) -> Rules {
        let mut conditions: Vec<Condition> = conditions.into_iter().collect();
        conditions.sort();
        conditions.dedup();
        Rules { conditions }
    }

    pub fn has(&self, condition: Condition) -> bool {
        self.conditions.contains(&condition)
    }

    pub fn conditions(&self) -> &[Condition] {
        &self.conditions
    }

    /// No condition at all.
    pub fn is_orthodox(&self) -> bool {
        self.conditions.is_empty()
    }
}

/// A position: 64 squares, the side to move (the attacked side of a final
/// position) and the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FairyPosition {
    board: [Option<Unit>; 64],
    /// The squares of each colour's units, kept with `board`.
    by_color: [Bitboard; 2],
    turn: Color,
    rules: Rules,
}

/// The 2x2 cell of Grid chess a square lies in.
fn cell(square: Square) -> (u32, u32) {
    (square.file().to_u32() / 2, square.rank().to_u32() / 2)
}

/// Light squares: a1 is dark.
fn is_light(square: Square) -> bool {
    (square.file().to_u32() + square.rank().to_u32()) % 2 == 1
}

impl FairyPosition {
    /// An empty board.
    pub fn empty(turn: Color, rules: Rules) -> FairyPosition {
        FairyPosition {
            board: [None; 64],
            by_color: [Bitboard::EMPTY; 2],
            turn,
            rules,
        }
    }

    /// Reads the extended FEN: the board field with the letters of
    /// [`Kind::fen_letter`], `*` before a royal unit, `!` before an
    /// armoured king; then the side to move (`w` or `b`). Further fields
    /// (castling, en passant, clocks) are accepted and ignored. The
    /// position must be legal under `rules` ([`FairyPosition::legality`]).
    pub fn from_fen(text: &str, rules: Rules) -> Result<FairyPosition, FairyError> {
        let bad = |reason: String| FairyError::BadPosition {
            text: text.to_owned(),
            reason,
        };
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or_else(|| bad("empty".to_owned()))?;
        let turn = match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => return Err(bad(format!("side to move {other:?} is not w or b"))),
            None => return Err(bad("no side to move".to_owned())),
        };
        let mut position = FairyPosition::empty(turn, rules);
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 8 {
            return Err(bad(format!("{} ranks instead of 8", rows.len())));
        }
        for (row, text_row) in rows.iter().enumerate() {
            let rank = 7 - row as u32;
            let mut file = 0u32;
            let mut prefix = None;
            for c in text_row.chars() {
                if let Some(skip) = c.to_digit(10).filter(|_| prefix.is_none()) {
                    file += skip;
                    continue;
                }
                if c == '*' || c == '!' {
                    if prefix.is_some() {
                        return Err(bad(format!("two prefixes before a piece in {text_row:?}")));
                    }
                    prefix = Some(c);
                    continue;
                }
                let kind = Kind::from_fen_letter(c)
                    .ok_or_else(|| FairyError::UnknownPiece(c.to_string()))?;
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let unit = Unit::with_prefix(color, kind, prefix.take())
                    .ok_or_else(|| bad(format!("only a king can be armoured, not {c}")))?;
                if file >= 8 {
                    return Err(bad(format!("rank {} is too long", rank + 1)));
                }
                position.set(
                    Square::from_coords(File::new(file), Rank::new(rank)),
                    Some(unit),
                );
                file += 1;
            }
            if file != 8 || prefix.is_some() {
                return Err(bad(format!("rank {} does not have 8 squares", rank + 1)));
            }
        }
        position.legality().map_err(FairyError::Illegal)?;
        Ok(position)
    }

    /// The extended FEN: board and side to move.
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    Some(unit) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out += &unit.fen_token();
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.turn.char());
        out
    }

    /// Why the position cannot stand, if it cannot: the side to move has no
    /// royal unit, a pawn stands on its first or last rank, or the side not
    /// to move is in check.
    pub fn legality(&self) -> Result<(), String> {
        if self.royals(self.turn).is_empty() {
            return Err(format!("{} to move has no king or royal unit", self.turn));
        }
        if let Some(square) = self.occupied().into_iter().find(|&square| {
            self.unit_at(square)
                .is_some_and(|unit| !unit.may_stand_on(square))
        }) {
            return Err(format!("a pawn on {square}"));
        }
        if self.in_check(!self.turn) {
            return Err(format!("{} is in check but not to move", !self.turn));
        }
        Ok(())
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The same board with `turn` to move.
    pub fn with_turn(&self, turn: Color) -> FairyPosition {
        FairyPosition {
            turn,
            ..self.clone()
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn unit_at(&self, square: Square) -> Option<Unit> {
        self.board[usize::from(square)]
    }

    pub fn set(&mut self, square: Square, unit: Option<Unit>) {
        for side in &mut self.by_color {
            side.discard(square);
        }
        if let Some(unit) = unit {
            self.by_color[usize::from(unit.color.is_black())].add(square);
        }
        self.board[usize::from(square)] = unit;
    }

    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[usize::from(color.is_black())]
    }

    /// The royal units of `color`, by square.
    pub fn royals(&self, color: Color) -> Vec<Square> {
        self.by_color(color)
            .into_iter()
            .filter(|&square| self.unit_at(square).is_some_and(|unit| unit.royal))
            .collect()
    }

    /// The squares `unit` on `from` attacks (could capture on) with these
    /// men on the board, before conditions other than Grid.
    pub fn attacks(&self, from: Square, unit: Unit, occupied: Bitboard) -> Bitboard {
        self.targets(from, unit, occupied, true)
    }

    /// Squares `unit` could move to without capturing, if empty.
    fn quiet_targets(&self, from: Square, unit: Unit, occupied: Bitboard) -> Bitboard {
        self.targets(from, unit, occupied, false) & !occupied
    }

    fn targets(&self, from: Square, unit: Unit, occupied: Bitboard, capture: bool) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for part in unit.kind.parts() {
            match *part {
                Part::Leaper(offsets) => {
                    targets.extend(offsets.iter().filter_map(|&o| shifted(from, o)));
                }
                Part::Rider(directions) => {
                    for &direction in directions {
                        let mut at = from;
                        while let Some(next) = shifted(at, direction) {
                            targets.add(next);
                            if occupied.contains(next) {
                                break;
                            }
                            at = next;
                        }
                    }
                }
                Part::Hopper(directions) => {
                    for &direction in directions {
                        let mut at = from;
                        while let Some(next) = shifted(at, direction) {
                            if occupied.contains(next) {
                                targets.extend(shifted(next, direction));
                                break;
                            }
                            at = next;
                        }
                    }
                }
                Part::Pawn => {
                    let first = unit.color.fold_wb(Rank::First, Rank::Eighth);
                    if from.rank() == first && !self.rules.has(Condition::NormalPawn) {
                        continue;
                    }
                    let forward = unit.color.fold_wb(1, -1);
                    if capture {
                        targets.extend(shifted(from, (1, forward)));
                        targets.extend(shifted(from, (-1, forward)));
                    } else if let Some(one) = shifted(from, (0, forward)) {
                        targets.add(one);
                        let start = unit.color.fold_wb(Rank::Second, Rank::Seventh);
                        if from.rank() == start && !occupied.contains(one) {
                            targets.extend(shifted(one, (0, forward)));
                        }
                    }
                }
            }
        }
        if self.rules.has(Condition::Grid) {
            targets = targets
                .into_iter()
                .filter(|&to| cell(to) != cell(from))
                .collect();
        }
        targets
    }

    /// The units of `color` that guard `square` (attack it, or protect a
    /// man of their own there) with `occupied` as the men on the board.
    /// Under Ingul a king guards only squares that no enemy unit other than
    /// a king guards.
    pub fn guards(&self, square: Square, color: Color, occupied: Bitboard) -> Vec<Square> {
        let raw = |color: Color, kings: bool| -> Vec<Square> {
            (self.by_color(color) & occupied)
                .into_iter()
                .filter(|&from| {
                    let unit = self.unit_at(from).expect("occupied");
                    (kings || unit.kind != Kind::King)
                        && self.attacks(from, unit, occupied).contains(square)
                })
                .collect()
        };
        let mut guards = raw(color, true);
        if self.rules.has(Condition::Ingul)
            && guards.iter().any(|&from| {
                self.unit_at(from)
                    .is_some_and(|unit| unit.kind == Kind::King)
            })
            && !raw(!color, false).is_empty()
        {
            guards.retain(|&from| {
                self.unit_at(from)
                    .is_some_and(|unit| unit.kind != Kind::King)
            });
        }
        guards
    }

    /// The units checking the royal unit on `royal`.
    pub fn checkers(&self, royal: Square) -> Vec<Square> {
        let unit = self.unit_at(royal).expect("a royal unit stands there");
        self.guards(royal, !unit.color, self.occupied())
    }

    /// Whether a royal unit of `color` is in check.
    pub fn in_check(&self, color: Color) -> bool {
        self.royals(color).into_iter().any(|royal| {
            let unit = self.unit_at(royal).expect("royal");
            self.checkers(royal).len() >= unit.checks_needed()
        })
    }

    /// Where a captured `unit` is reborn under Circe: pawns on their second
    /// rank of the file of capture; knights, bishops and rooks on their
    /// game-array square of the colour of the capture square; queens on
    /// d1/d8; fairy pieces on the promotion square of the file of capture
    /// (rank 8 for White, rank 1 for Black).
    pub fn rebirth_square(unit: Unit, captured_on: Square) -> Option<Square> {
        let home = unit.color.fold_wb(Rank::First, Rank::Eighth);
        let on_home = |file: File| Some(Square::from_coords(file, home));
        // The game-array pair of a kind: (square of a1's colour, the other).
        let by_colour = |dark: File, light: File| {
            let home_light = |file: File| is_light(Square::from_coords(file, home));
            let wanted_light = is_light(captured_on);
            [dark, light]
                .into_iter()
                .find(|&file| home_light(file) == wanted_light)
                .and_then(on_home)
        };
        match unit.kind {
            Kind::King => None,
            Kind::Pawn => Some(Square::from_coords(
                captured_on.file(),
                unit.color.fold_wb(Rank::Second, Rank::Seventh),
            )),
            Kind::Knight => by_colour(File::B, File::G),
            Kind::Bishop => by_colour(File::C, File::F),
            Kind::Rook => by_colour(File::A, File::H),
            Kind::Queen => on_home(File::D),
            _ => Some(Square::from_coords(
                captured_on.file(),
                unit.color.fold_wb(Rank::Eighth, Rank::First),
            )),
        }
    }

    /// The position after `m` (a capture if its target is occupied), with
    /// Circe rebirth and the promotion.
    fn after(&self, m: FairyMove) -> FairyPosition {
        let mut next = self.clone();
        let mut unit = self.unit_at(m.from).expect("a unit moves");
        let captured = self.unit_at(m.to);
        next.set(m.from, None);
        if let Some(kind) = m.promotion {
            unit.kind = kind;
        }
        next.set(m.to, Some(unit));
        if let Some(captured) = captured
            && self.rules.has(Condition::Circe)
            && let Some(rebirth) = FairyPosition::rebirth_square(captured, m.to)
            && next.unit_at(rebirth).is_none()
        {
            next.set(rebirth, Some(captured));
        }
        next.turn = !self.turn;
        next
    }

    /// What a pawn may become: queen, knight, rook, bishop, and the fairy
    /// pieces on the board (as Popeye promotes to the pieces of the
    /// problem).
    fn promotion_kinds(&self) -> Vec<Kind> {
        let present: Vec<Kind> = self
            .occupied()
            .into_iter()
            .filter_map(|square| self.unit_at(square).map(|unit| unit.kind))
            .collect();
        Kind::ALL
            .into_iter()
            .filter(|&kind| {
                matches!(kind, Kind::Queen | Kind::Knight | Kind::Rook | Kind::Bishop)
                    || (kind.fairy_name().is_some() && present.contains(&kind))
            })
            .collect()
    }

    /// Calls `visit` on every move of the side to move that the walks and
    /// conditions allow, whether or not it leaves its own royal in check,
    /// until `visit` breaks.
    fn try_moves(&self, mut visit: impl FnMut(FairyMove) -> ControlFlow<()>) -> ControlFlow<()> {
        let occupied = self.occupied();
        let capturable = if self.rules.has(Condition::NoCapture) {
            Bitboard::EMPTY
        } else {
            self.by_color(!self.turn) & !self.royals(!self.turn).into_iter().collect::<Bitboard>()
        };
        let last = self.turn.fold_wb(Rank::Eighth, Rank::First);
        for from in self.by_color(self.turn) {
            let unit = self.unit_at(from).expect("occupied");
            let targets = self.quiet_targets(from, unit, occupied)
                | (self.attacks(from, unit, occupied) & capturable);
            for to in targets {
                if unit.kind == Kind::Pawn && to.rank() == last {
                    for kind in self.promotion_kinds() {
                        visit(FairyMove::promoting(from, to, kind))?;
                    }
                } else {
                    visit(FairyMove::new(from, to))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether `m` leaves the mover's royal units out of check.
    fn is_legal(&self, m: FairyMove) -> bool {
        !self.after(m).in_check(self.turn)
    }

    /// Every legal move of the side to move, a promotion once for each
    /// piece the pawn may become.
    pub fn legal_moves(&self) -> Vec<FairyMove> {
        let mut moves = Vec::new();
        let _ = self.try_moves(|m| {
            if self.is_legal(m) {
                moves.push(m);
            }
            ControlFlow::Continue(())
        });
        moves
    }

    /// The moves the side to move may play: its legal moves, or under a
    /// Maximummer of its colour the longest of them (by the square of the
    /// distance between the squares, as Popeye measures).
    pub fn playable_moves(&self) -> Vec<FairyMove> {
        let mut moves = self.legal_moves();
        let restricted = self
            .rules
            .conditions()
            .iter()
            .any(|condition| condition.maximummer_side() == Some(self.turn));
        if restricted && let Some(longest) = moves.iter().map(|m| m.length()).max() {
            moves.retain(|m| m.length() == longest);
        }
        moves
    }

    /// Whether the side to move has a legal move (stops at the first). A
    /// Maximummer never changes it: some legal move is the longest.
    pub fn has_legal_move(&self) -> bool {
        self.try_moves(|m| {
            if self.is_legal(m) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
    }

    /// Whether the side to move is mated (or stalemated): the check is
    /// looked at before the moves.
    pub fn is_final(&self, kind: FinalKind) -> bool {
        let wanted_check = kind == FinalKind::Mate;
        self.in_check(self.turn) == wanted_check && !self.has_legal_move()
    }

    /// Mate or stalemate of the side to move, if it is one.
    pub fn final_kind(&self) -> Option<FinalKind> {
        if self.has_legal_move() {
            None
        } else if self.in_check(self.turn) {
            Some(FinalKind::Mate)
        } else {
            Some(FinalKind::Stalemate)
        }
    }

    /// The same men and rules with the board turned or reflected.
    pub fn transformed(&self, map: impl Fn(Square) -> Option<Square>) -> Option<FairyPosition> {
        let mut image = FairyPosition::empty(self.turn, self.rules.clone());
        for square in self.occupied() {
            image.set(map(square)?, self.unit_at(square));
        }
        Some(image)
    }
}

impl fmt::Display for FairyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())?;
        for condition in self.rules.conditions() {
            write!(f, " {condition}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rebirth_squares() {
        for (color, kind, captured_on, reborn_on) in [
            (Color::White, Kind::Queen, Square::D5, Square::D1),
            // h3 is light: a black bishop goes to c8 (light).
            (Color::Black, Kind::Bishop, Square::H3, Square::C8),
            (Color::White, Kind::Knight, Square::G8, Square::B1),
            (Color::White, Kind::Rook, Square::A4, Square::H1),
            (Color::Black, Kind::Pawn, Square::E4, Square::E7),
            (Color::Black, Kind::Grasshopper, Square::E4, Square::E1),
        ] {
            assert_eq!(
                FairyPosition::rebirth_square(Unit::new(color, kind), captured_on),
                Some(reborn_on),
                "{color:?} {kind:?} taken on {captured_on}"
            );
        }
    }

    #[test]
    fn fen_round_trip() {
        let fen = "4R3/8/3r4/2!K!k4/4Q3/5P2/8/8 b";
        let position = FairyPosition::from_fen(fen, Rules::default()).unwrap();
        assert_eq!(position.fen(), fen);
        let fen = "8/8/3N4/8/8/*n7/1K6/8 b";
        assert_eq!(
            FairyPosition::from_fen(fen, Rules::default())
                .unwrap()
                .fen(),
            fen
        );
    }
}
