//! A fairy rules model: the units and conditions of the brochure's
//! examples 5-14, and the code of their final positions.
//!
//! A unit's walk is a list of parts (leaper, rider, hopper, pawn), so a new
//! piece is one more row in [`Kind`]. A condition changes moves (Grid),
//! captures (No-capture, Circe rebirth) or checks (Ingul, armoured kings);
//! each is one branch in `position.rs`. Orthodox positions without
//! conditions keep going through shakmaty ([`crate::FinalPosition`]); this
//! model covers them too, and the tests check that both agree.

mod analysis;
mod etalon;
mod material;
mod popeye;
mod position;

pub use crate::final_position::RoyalZone;
pub use analysis::{FairyFinal, is_orthodox};
pub use etalon::FairyEtalon;
pub use material::{FairyEnumeration, FairyMaterial, enumerate_fairy, fairy_final_positions};
pub use popeye::{PopeyeProblem, parse_popeye, parse_popeye_problems};
pub use position::{FairyMove, FairyPosition, Rules};

use std::fmt;
use std::str::FromStr;

use shakmaty::{Color, Role, Square};

use crate::rules::is_back_rank;
use crate::zone::Offset;

/// One way of moving.
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// Jumps by each offset.
    Leaper(&'static [Offset]),
    /// Slides along each direction up to the first man (included).
    Rider(&'static [Offset]),
    /// Along each direction over the first man (the hurdle) to the square
    /// just beyond it.
    Hopper(&'static [Offset]),
    /// An orthodox pawn of the unit's colour: pushes, double step from the
    /// second rank, captures diagonally forward. On the unit's own first
    /// rank it has no power at all (Popeye's rule), unless
    /// [`Condition::NormalPawn`]: then it steps one square and captures.
    Pawn,
}

const ORTHOGONAL: [Offset; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [Offset; 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const QUEEN_LINES: [Offset; 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];
const KNIGHT: [Offset; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The kinds of unit the model knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    King,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    Grasshopper,
    /// Knight and pawn (Dragon).
    Dragon,
    /// Rides along knight lines.
    Nightrider,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::King,
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::Grasshopper,
        Kind::Dragon,
        Kind::Nightrider,
    ];

    /// The walk.
    pub fn parts(self) -> &'static [Part] {
        match self {
            Kind::King => &[Part::Leaper(&QUEEN_LINES)],
            Kind::Pawn => &[Part::Pawn],
            Kind::Knight => &[Part::Leaper(&KNIGHT)],
            Kind::Bishop => &[Part::Rider(&DIAGONAL)],
            Kind::Rook => &[Part::Rider(&ORTHOGONAL)],
            Kind::Queen => &[Part::Rider(&QUEEN_LINES)],
            Kind::Grasshopper => &[Part::Hopper(&QUEEN_LINES)],
            Kind::Dragon => &[Part::Leaper(&KNIGHT), Part::Pawn],
            Kind::Nightrider => &[Part::Rider(&KNIGHT)],
        }
    }

    /// The letter in the extended FEN (white upper case).
    pub fn fen_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::Grasshopper => 'G',
            Kind::Dragon => 'D',
            Kind::Nightrider => 'S',
        }
    }

    /// Popeye's code of the piece (English input).
    pub fn popeye_code(self) -> &'static str {
        match self {
            Kind::King => "k",
            Kind::Pawn => "p",
            Kind::Knight => "s",
            Kind::Bishop => "b",
            Kind::Rook => "r",
            Kind::Queen => "q",
            Kind::Grasshopper => "g",
            Kind::Dragon => "dr",
            Kind::Nightrider => "n",
        }
    }

    /// The orthodox role, if it is one.
    pub fn role(self) -> Option<Role> {
        match self {
            Kind::King => Some(Role::King),
            Kind::Pawn => Some(Role::Pawn),
            Kind::Knight => Some(Role::Knight),
            Kind::Bishop => Some(Role::Bishop),
            Kind::Rook => Some(Role::Rook),
            Kind::Queen => Some(Role::Queen),
            _ => None,
        }
    }

    /// The full name of a fairy piece, as part C writes it (2.4.9).
    pub fn fairy_name(self) -> Option<&'static str> {
        match self {
            Kind::Grasshopper => Some("Grasshopper"),
            Kind::Dragon => Some("Dragon"),
            Kind::Nightrider => Some("Nightrider"),
            _ => None,
        }
    }

    /// Riders and hoppers: their lines can be blocked or need hurdles.
    pub fn is_line_piece(self) -> bool {
        self.parts()
            .iter()
            .any(|part| matches!(part, Part::Rider(_) | Part::Hopper(_)))
    }

    /// Hoppers need hurdles, so placing more men can give them attacks.
    pub fn is_hopper(self) -> bool {
        self.parts()
            .iter()
            .any(|part| matches!(part, Part::Hopper(_)))
    }

    /// The kind of an extended-FEN letter, in either case.
    fn from_fen_letter(letter: char) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.fen_letter() == letter.to_ascii_uppercase())
    }
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub color: Color,
    pub kind: Kind,
    /// Royal: it can be checked, mated and stalemated. Kings always are.
    pub royal: bool,
    /// An armoured king: in check only when two units attack it (2.3.9).
    pub armoured: bool,
}

impl Unit {
    pub fn new(color: Color, kind: Kind) -> Unit {
        Unit {
            color,
            kind,
            royal: kind == Kind::King,
            armoured: false,
        }
    }

    /// An ordinary king: its zone is the king's neighbourhood and it is not
    /// written in part A.
    pub fn is_ordinary_king(self) -> bool {
        self.kind == Kind::King && !self.armoured
    }

    /// A unit of `kind` and `color` as the extended-FEN `prefix` before its
    /// letter makes it: `*` royal, `!` armoured (a king only). None for an
    /// armoured unit that is not a king.
    fn with_prefix(color: Color, kind: Kind, prefix: Option<char>) -> Option<Unit> {
        let mut unit = Unit::new(color, kind);
        match prefix {
            Some('*') => unit.royal = true,
            Some(_) if kind == Kind::King => unit.armoured = true,
            Some(_) => return None,
            None => {}
        }
        Some(unit)
    }

    /// Pawns never stand on their first or last rank.
    pub(crate) fn may_stand_on(self, square: Square) -> bool {
        self.kind != Kind::Pawn || !is_back_rank(square)
    }

    /// How many attackers make a check on it.
    pub fn checks_needed(self) -> usize {
        if self.armoured { 2 } else { 1 }
    }

    /// The extended FEN token: `*` before a royal non-king, `!` before an
    /// armoured king.
    pub fn fen_token(self) -> String {
        let letter = self.kind.fen_letter();
        let letter = if self.color.is_white() {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        let prefix = if self.armoured {
            "!"
        } else if self.royal && self.kind != Kind::King {
            "*"
        } else {
            ""
        };
        format!("{prefix}{letter}")
    }

    /// The symbol of the code when `attacking` is the attacking colour.
    pub fn symbol(self, attacking: Color) -> crate::Symbol {
        use crate::Symbol;
        use crate::symbol::{FairyPiece, Man};
        let plain = || match self.kind.role().and_then(|role| Man::new(self.color, role)) {
            Some(man) => Symbol::Man(man),
            None => Symbol::Fairy(FairyPiece {
                letter: self.kind.fen_letter(),
                color: self.color,
            }),
        };
        if self.armoured {
            Symbol::FairyKing('A')
        } else if self.kind == Kind::King {
            if self.color == attacking {
                Symbol::AttackingKing
            } else {
                Symbol::BlockingKing
            }
        } else if self.royal {
            let inner = plain().to_string().chars().next().unwrap_or('?');
            Symbol::Royal(inner)
        } else {
            plain()
        }
    }
}

/// A rule of play that changes moves, captures, checks or rebirth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// A captured unit (not a king) is reborn on its game-array square if
    /// that square is empty.
    Circe,
    /// No captures at all.
    NoCapture,
    /// The board is cut into 2x2 cells; a move (and so an attack) must
    /// leave its cell.
    Grid,
    /// A king attacks only the squares no enemy unit other than a king
    /// guards (example 7; kings may stand side by side when protected).
    /// For kings this is Popeye's ShieldedKings, whose name it also takes.
    Ingul,
    /// Black must play one of its longest moves (Popeye's
    /// BlackMaximummer; the brochure's `maximummer`). It never changes
    /// which positions are final, and the code does not write it; it
    /// does change how many moves Black has.
    BlackMaximummer,
    /// White must play one of its longest moves (WhiteMaximummer).
    WhiteMaximummer,
    /// The pawn part of a unit on its own first rank steps one square and
    /// captures, as it does on other ranks (Popeye's NormalPawn). Without
    /// it that part has no power there.
    NormalPawn,
}

impl Condition {
    pub const ALL: [Condition; 7] = [
        Condition::Circe,
        Condition::NoCapture,
        Condition::Grid,
        Condition::Ingul,
        Condition::BlackMaximummer,
        Condition::WhiteMaximummer,
        Condition::NormalPawn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Condition::Circe => "circe",
            Condition::NoCapture => "nocapture",
            Condition::Grid => "grid",
            Condition::Ingul => "ingul",
            Condition::BlackMaximummer => "blackmaximummer",
            Condition::WhiteMaximummer => "whitemaximummer",
            Condition::NormalPawn => "normalpawn",
        }
    }

    /// The mark of part C, if the code writes one.
    pub fn mark(self) -> Option<crate::SpecialMark> {
        use crate::SpecialMark;
        match self {
            Condition::Circe => Some(SpecialMark::Circe(None)),
            Condition::NoCapture => Some(SpecialMark::NoCapture),
            Condition::Grid => Some(SpecialMark::Grid),
            Condition::Ingul => Some(SpecialMark::Variant('I')),
            Condition::BlackMaximummer | Condition::WhiteMaximummer | Condition::NormalPawn => None,
        }
    }

    /// The side restricted to its longest moves, under a Maximummer.
    pub fn maximummer_side(self) -> Option<Color> {
        match self {
            Condition::BlackMaximummer => Some(Color::Black),
            Condition::WhiteMaximummer => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Errors of fairy input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairyError {
    #[error(
        "unknown condition {0:?} (known: circe, nocapture, grid, ingul or shieldedkings, \
         maximummer or blackmaximummer, whitemaximummer, normalpawn)"
    )]
    UnknownCondition(String),
    #[error("unknown piece {0:?}")]
    UnknownPiece(String),
    #[error("bad position {text:?}: {reason}")]
    BadPosition { text: String, reason: String },
    #[error("the rules reject the position: {0}")]
    Illegal(String),
    #[error("bad Popeye input: {0}")]
    Popeye(String),
    #[error("bad material {text:?}: {reason}")]
    BadMaterial { text: String, reason: String },
}

impl FromStr for Condition {
    type Err = FairyError;

    /// Our names and Popeye's, case-insensitive: `circe`; `nocapture`;
    /// `grid` or `gridchess`; `ingul` or `shieldedkings`; `maximummer`
    /// or `blackmaximummer`; `whitemaximummer`; `normalpawn`.
    fn from_str(text: &str) -> Result<Condition, FairyError> {
        let lower = text.to_ascii_lowercase();
        let condition = match lower.as_str() {
            "circe" => Condition::Circe,
            "nocapture" | "no-capture" | "nc" => Condition::NoCapture,
            "grid" | "gridchess" => Condition::Grid,
            "ingul" | "shieldedkings" => Condition::Ingul,
            "maximummer" | "max" | "blackmaximummer" => Condition::BlackMaximummer,
            "whitemaximummer" => Condition::WhiteMaximummer,
            "normalpawn" => Condition::NormalPawn,
            _ => return Err(FairyError::UnknownCondition(text.to_owned())),
        };
        Ok(condition)
    }
}
