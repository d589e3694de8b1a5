//! The value of a position and its one-byte form in a table.

use std::fmt;

/// A distance to mate in plies (half-moves), as the tables count it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Plies(pub u16);

/// A number of one side's moves, as people and the sources count a mate
/// ("mate in 16"): the mating move included.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct Moves(pub u16);

impl Plies {
    /// The winning side's moves to mate, the mating move included, for a
    /// mate this many plies away whoever is to move: the one place a mate
    /// in moves is computed from plies.
    pub fn moves(self) -> Moves {
        Moves(self.0.div_ceil(2))
    }
}

/// How many more moves one count is than another (an automaton's mate
/// over perfect play's).
impl std::ops::Sub for Moves {
    type Output = Moves;

    fn sub(self, other: Moves) -> Moves {
        Moves(self.0 - other.0)
    }
}

impl From<Moves> for u64 {
    fn from(moves: Moves) -> u64 {
        u64::from(moves.0)
    }
}

impl Moves {
    /// One move more.
    pub fn next(self) -> Moves {
        Moves(self.0 + 1)
    }
}

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The value of a position for the side to move, in plies to mate.
///
/// A win is always an odd number of plies (the winner mates on its own move),
/// a loss an even number (`Loss(0)`: checkmated now). The numbers are
/// [`Plies`]; they stay bare here, where the solver packs them into bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

/// Result from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    pub fn as_str(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl Value {
    /// The decisive value `plies` from mate: odd plies win, even lose.
    #[inline]
    pub fn decisive(plies: u16) -> Value {
        if plies % 2 == 1 {
            Value::Win(plies)
        } else {
            Value::Loss(plies)
        }
    }

    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies to mate, for a decisive value.
    pub fn plies(self) -> Option<Plies> {
        match self {
            Value::Win(p) | Value::Loss(p) => Some(Plies(p)),
            Value::Draw => None,
        }
    }

    /// Moves of the winning side to mate, the mating move included: a win in
    /// 1 ply is mate in 1; a loss in 2 plies is mated in 1.
    pub fn moves(self) -> Option<Moves> {
        self.plies().map(Plies::moves)
    }

    /// The value one ply earlier, seen by the other side.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(p) => Value::Loss(p + 1),
            Value::Loss(p) => Value::Win(p + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A key that sorts values best first for the side they belong to:
    /// the fastest win, then a draw, then the slowest loss.
    pub fn order_key(self) -> (u8, i32) {
        match self {
            Value::Win(p) => (0, i32::from(p)),
            Value::Draw => (1, 0),
            Value::Loss(p) => (2, -i32::from(p)),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(p) => write!(f, "win, mate in {} ({p} plies)", Plies(*p).moves()),
            Value::Loss(0) => f.write_str("checkmated"),
            Value::Loss(p) => write!(f, "loss, mated in {} ({p} plies)", Plies(*p).moves()),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// Byte of a position not yet decided; at the end of a build, a draw.
pub const UNDECIDED: u8 = 0;
/// Byte of a number with no legal position behind it.
pub const ILLEGAL: u8 = 255;
/// The longest mate a byte can hold, in plies: the overflow limit of a
/// production build.
pub const MAX_PLIES: u16 = 250;
/// Byte of a decisive position deeper than the table's overflow limit: its
/// plies are in the table's overflow list (the overflow module).
pub const DEEP: u8 = 252;
/// The longest mate the overflow list holds, in plies.
pub const HARD_MAX_PLIES: u16 = 1023;

const _: () = assert!(MAX_PLIES + 1 < DEEP as u16);

/// The byte of a decisive value: plies + 1. The parity of the plies tells a
/// win from a loss.
#[inline]
pub fn encode_plies(plies: u16) -> u8 {
    debug_assert!(plies <= MAX_PLIES);
    (plies + 1) as u8
}

/// The value of a table byte other than [`DEEP`], `None` for [`ILLEGAL`].
#[inline]
pub fn decode_byte(byte: u8) -> Option<Value> {
    debug_assert!(byte != DEEP);
    match byte {
        UNDECIDED => Some(Value::Draw),
        ILLEGAL => None,
        b => Some(Value::decisive(u16::from(b - 1))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for plies in 0..=MAX_PLIES {
            let v = decode_byte(encode_plies(plies)).unwrap();
            assert_eq!(v.plies(), Some(Plies(plies)));
            assert_eq!(v.wdl() == Wdl::Win, plies % 2 == 1);
        }
        assert_eq!(decode_byte(UNDECIDED), Some(Value::Draw));
        assert_eq!(decode_byte(ILLEGAL), None);
    }

    #[test]
    fn moves_follow_the_convention() {
        assert_eq!(Value::Win(1).moves(), Some(Moves(1)));
        assert_eq!(Value::Loss(0).moves(), Some(Moves(0)));
        assert_eq!(Value::Loss(2).moves(), Some(Moves(1)));
        assert_eq!(Value::Win(19).moves(), Some(Moves(10)));
        assert_eq!(Value::Draw.moves(), None);
    }
}

impl Value {
    /// White's moves to mate, the mating move included, when the value
    /// (for `turn`, the side to move) is a win for White: the one formula
    /// for "White mates in N" from plies.
    pub fn white_mates_in(self, turn: shakmaty::Color) -> Option<Moves> {
        match (turn, self) {
            (shakmaty::Color::White, Value::Win(_)) | (shakmaty::Color::Black, Value::Loss(_)) => {
                self.moves()
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod white_mates_in_tests {
    use shakmaty::Color;

    use super::*;

    #[test]
    fn white_mates_in_counts_whites_moves() {
        assert_eq!(Value::Win(1).white_mates_in(Color::White), Some(Moves(1)));
        assert_eq!(Value::Win(3).white_mates_in(Color::White), Some(Moves(2)));
        // Black to move, mated in 2 plies: White mates on his first move.
        assert_eq!(Value::Loss(2).white_mates_in(Color::Black), Some(Moves(1)));
        assert_eq!(Value::Loss(0).white_mates_in(Color::Black), Some(Moves(0)));
        assert_eq!(Value::Win(1).white_mates_in(Color::Black), None);
        assert_eq!(Value::Loss(2).white_mates_in(Color::White), None);
        assert_eq!(Value::Draw.white_mates_in(Color::White), None);
        for plies in 0..=253 {
            let value = if plies % 2 == 1 {
                Value::Win(plies)
            } else {
                Value::Loss(plies)
            };
            assert_eq!(value.moves(), Some(Plies(plies).moves()));
        }
    }
}
