//! The two chess programs of 1987 played through the emulator exactly as a
//! person plays them on the calculator: the same keys, the same protocol,
//! and the display read back as a typed reply.
//!
//! Coordinates are those of the seeds: the file as a digit 1-8 (a-h), then
//! the rank.

use std::sync::LazyLock;

use shakmaty::{File, Rank, Square};

use crate::calculator::{Calculator, EntryError};
use crate::display::{Display, Glyph};
use crate::key::{AngleUnit, Key};
use crate::program::Program;

/// Register presets of the queen program (seed 000): R0 = ЗГГОГ, R7 = 64,
/// R8 = 66, R9 = 90, Ra = 0, Rb = 4; keys as in the reference traces.
pub const QUEEN_PRESETS: &str =
    "CX / VP UP UP F . F . F . XP 0 6 4 XP 7 6 6 XP 8 9 0 XP 9 CX XP . 4 XP NEG";
/// The keys that begin every queen game: П→X0 Cx X→П1 7 X→П2 В/О С/П.
pub const QUEEN_START: &str = "PX 0 CX XP 1 7 XP 2 VO SP";
/// Register presets of the rook program (seed 001): R7 = 36, R8 = 3,
/// R9 = 9------0., Ra = 10, Re = 98; keys as in the reference traces.
pub const ROOK_PRESETS: &str =
    "3 6 XP 7 3 XP 8 6 6 5 5 5 5 5 5 K CX K 8 VP 8 XP 9 1 0 XP . 9 8 XP UP";
/// The keys that begin every rook game: В/О С/П (the display shows 1).
pub const ROOK_START: &str = "VO SP";

/// Something went wrong while setting a game up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("program entry: {0}")]
    Entry(#[from] EntryError),
    #[error("after the start keys the display shows |{0}|, expected |{1}|")]
    Start(Display, &'static str),
}

/// Parses a whitespace-separated list of trace key tokens (built-in
/// constants only, so a bad token is a defect).
fn keys(tokens: &str) -> Vec<Key> {
    tokens
        .split_whitespace()
        .map(|token| token.parse().expect("built-in key token"))
        .collect()
}

/// The digit of a file (a = 1) or rank (1 = 1).
fn digit(index: u32) -> Key {
    Key::Digit(index as u8 + 1)
}

/// A square from its file and rank digits, if both are 1-8.
fn square(file: u8, rank: u8) -> Option<Square> {
    ((1..=8).contains(&file) && (1..=8).contains(&rank)).then(|| {
        Square::from_coords(
            File::new(u32::from(file - 1)),
            Rank::new(u32::from(rank - 1)),
        )
    })
}

/// The digits of the display's mantissa and where its point is.
struct Number {
    negative: bool,
    digits: Vec<u8>,
    /// Digits before the decimal point.
    point_after: usize,
}

/// Reads the mantissa as a plain number: digits only (blanks skipped),
/// an optional minus sign, and a lit point.
fn number(display: &Display) -> Option<Number> {
    let negative = match display.glyphs[0] {
        Glyph::Blank => false,
        Glyph::Minus => true,
        _ => return None,
    };
    let mut digits = Vec::new();
    let mut point_after = None;
    for position in 1..9 {
        match display.glyphs[position] {
            Glyph::Digit(d) => digits.push(d),
            Glyph::Blank => {}
            _ => return None,
        }
        if display.points[position] {
            point_after = Some(digits.len());
        }
    }
    Some(Number {
        negative,
        digits,
        point_after: point_after?,
    })
}

fn exponent_blank(display: &Display) -> bool {
    display.glyphs[9..]
        .iter()
        .all(|&glyph| glyph == Glyph::Blank)
}

fn is_egg(display: &Display, first: Glyph, point: bool) -> bool {
    display.glyphs[..6]
        == [
            Glyph::Blank,
            first,
            Glyph::G,
            Glyph::G,
            Glyph::Digit(0),
            Glyph::G,
        ]
        && display.points[1] == point
}

/// What the queen program's display says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueenReply {
    /// Two digits `FR.`: the queen moved to this square.
    Queen(Square),
    /// ЕГГОГ: the queen is about to mate on the edge (or announces a check
    /// along the first rank or file); the protocol answer is С/П.
    Error,
    /// ЗГГОГ (`3.ГГ0Г`): mate in two from a1, a2 or b1; the protocol
    /// answer is Cx 2 В/О С/П.
    MateInTwo,
    /// Anything else, as shown.
    Unreadable(Display),
    /// The program did not stop within the run limit.
    Running,
}

impl QueenReply {
    fn read(display: Display) -> QueenReply {
        if is_egg(&display, Glyph::E, false) {
            return QueenReply::Error;
        }
        if is_egg(&display, Glyph::Digit(3), true) {
            return QueenReply::MateInTwo;
        }
        match number(&display) {
            Some(Number {
                negative: false,
                digits,
                point_after: 2,
            }) if digits.len() == 2 && exponent_blank(&display) => square(digits[0], digits[1])
                .map_or(QueenReply::Unreadable(display), QueenReply::Queen),
            _ => QueenReply::Unreadable(display),
        }
    }
}

/// One black move and everything the calculator showed in answer, the
/// protocol answers included; the last reply is the final one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Turn<R> {
    pub replies: Vec<R>,
}

impl<R: Copy> Turn<R> {
    pub fn last(&self) -> R {
        *self.replies.last().expect("a turn has a reply")
    }
}

/// Frames a game waits for the program to stop before it reports
/// `Running` (about half an hour of the real calculator): the programs
/// answer within about 40 frames, so this is a program that has lost its
/// way, not a slow one.
pub const GAME_RUN_LIMIT: u32 = 2000;

/// Protocol answers in one turn before the driver stops answering (the
/// programs need at most one).
const MAX_ANSWERS: usize = 4;

/// The queen program (seed 000) on a calculator: white king fixed on c3,
/// queen from g7; the person moves the black king.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueenGame {
    calculator: Calculator,
}

static QUEEN_SETUP: LazyLock<Result<QueenGame, SetupError>> = LazyLock::new(|| {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator.enter_program(&Program::queen())?;
    calculator.press_all(keys(QUEEN_PRESETS));
    Ok(QueenGame { calculator })
});

impl QueenGame {
    /// A new game: power-on with the switch at Р, the program keyed in and
    /// read back, the presets keyed in, then the start keys; the queen
    /// stands on g7 (display 77) and waits for the black king's square.
    /// The set-up is done once per process and cloned.
    pub fn new() -> Result<QueenGame, SetupError> {
        let mut game = QUEEN_SETUP.clone()?;
        let display = game
            .calculator
            .press_all(keys(QUEEN_START))
            .map(|press| press.display)
            .unwrap_or_default();
        match QueenReply::read(display) {
            QueenReply::Queen(Square::G7) => Ok(game),
            _ => Err(SetupError::Start(display, " 77.         ")),
        }
    }

    /// The calculator, in its whole state.
    pub fn calculator(&self) -> &Calculator {
        &self.calculator
    }

    /// The game with the idle calculator's ring turned to its canonical
    /// place ([`Calculator::canonical_idle`]): one node per situation in a
    /// graph search. The game itself if the calculator is not idle (after
    /// `Running`).
    pub fn canonical(&self) -> QueenGame {
        self.calculator
            .canonical_idle()
            .map_or_else(|| self.clone(), |calculator| QueenGame { calculator })
    }

    /// The person waits `macro_steps` before the next key (the traces'
    /// timing leaves none); the calculator's idle ring turns meanwhile.
    pub fn wait(&mut self, macro_steps: u32) {
        self.calculator.run_macro_steps(macro_steps);
    }

    /// Types the black king's square as `file . rank С/П` (also how the
    /// king is first placed) and reads the answer.
    pub fn move_king(&mut self, to: Square) -> QueenReply {
        self.type_keys(&[
            digit(to.file().into()),
            Key::Point,
            digit(to.rank().into()),
            Key::RunStop,
        ])
    }

    /// Answers an announcement as seed 000 says: С/П after ЕГГОГ,
    /// Cx 2 В/О С/П after ЗГГОГ. `None` for other replies.
    pub fn answer(&mut self, reply: QueenReply) -> Option<QueenReply> {
        match reply {
            QueenReply::Error => Some(self.type_keys(&[Key::RunStop])),
            QueenReply::MateInTwo => {
                Some(self.type_keys(&[Key::Clear, Key::Digit(2), Key::Return, Key::RunStop]))
            }
            _ => None,
        }
    }

    /// A whole turn: the king's move, then the protocol answers until the
    /// queen's move (or anything the protocol has no answer for).
    pub fn play(&mut self, to: Square) -> Turn<QueenReply> {
        let mut replies = vec![self.move_king(to)];
        while replies.len() <= MAX_ANSWERS {
            match self.answer(replies[replies.len() - 1]) {
                Some(reply) => replies.push(reply),
                None => break,
            }
        }
        Turn { replies }
    }

    fn type_keys(&mut self, keys: &[Key]) -> QueenReply {
        let mut last = None;
        for &key in keys {
            last = Some(self.calculator.press_with_limit(key, GAME_RUN_LIMIT));
        }
        let press = last.expect("at least one key");
        if press.stopped {
            QueenReply::read(press.display)
        } else {
            QueenReply::Running
        }
    }
}

/// What the rook program's display says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RookReply {
    /// `F.R`: the white king moved to this square.
    King(Square),
    /// `FR.`: the rook moved to this square.
    Rook(Square),
    /// `1.  FR` (10 to the power FR): the rook moved there with check.
    RookCheck(Square),
    /// `9------0.`: the start position fails the program's own check.
    BadPosition,
    /// Anything else, as shown.
    Unreadable(Display),
    /// The program did not stop within the run limit.
    Running,
}

impl RookReply {
    fn read(display: Display) -> RookReply {
        let bad: Display = " 9------0.   ".parse().expect("constant display");
        if display == bad {
            return RookReply::BadPosition;
        }
        let Some(Number {
            negative: false,
            digits,
            point_after,
        }) = number(&display)
        else {
            return RookReply::Unreadable(display);
        };
        let reply = match (digits.as_slice(), point_after, display.exponent()) {
            (&[file, rank], 1, None) if exponent_blank(&display) => {
                square(file, rank).map(RookReply::King)
            }
            (&[file, rank], 2, None) if exponent_blank(&display) => {
                square(file, rank).map(RookReply::Rook)
            }
            (&[1], 1, Some((false, power))) => {
                square(power / 10, power % 10).map(RookReply::RookCheck)
            }
            _ => None,
        };
        reply.unwrap_or(RookReply::Unreadable(display))
    }
}

/// The rook program (seed 001) on a calculator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RookGame {
    calculator: Calculator,
}

static ROOK_SETUP: LazyLock<Result<RookGame, SetupError>> = LazyLock::new(|| {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator.enter_program(&Program::rook())?;
    calculator.press_all(keys(ROOK_PRESETS));
    Ok(RookGame { calculator })
});

impl RookGame {
    /// A new game: power-on (switch Р), program and presets keyed in, then
    /// В/О С/П (display 1.) and the white pieces stored as seed 001 says:
    /// king file X→П3, rank X→П4, rook file X→П5, rank X→П6. The black
    /// king is not entered: its first move is.
    pub fn new(white_king: Square, rook: Square) -> Result<RookGame, SetupError> {
        let mut game = ROOK_SETUP.clone()?;
        let display = game
            .calculator
            .press_all(keys(ROOK_START))
            .map(|press| press.display)
            .unwrap_or_default();
        if display.mantissa_text() != "1." || !exponent_blank(&display) {
            return Err(SetupError::Start(display, " 1.          "));
        }
        for (coordinate, register) in [
            (u32::from(white_king.file()), 3),
            (u32::from(white_king.rank()), 4),
            (u32::from(rook.file()), 5),
            (u32::from(rook.rank()), 6),
        ] {
            game.calculator
                .press_all([digit(coordinate), Key::Store, Key::Digit(register)]);
        }
        Ok(game)
    }

    pub fn calculator(&self) -> &Calculator {
        &self.calculator
    }

    /// The game with the idle calculator's ring turned to its canonical
    /// place; see [`QueenGame::canonical`].
    pub fn canonical(&self) -> RookGame {
        self.calculator
            .canonical_idle()
            .map_or_else(|| self.clone(), |calculator| RookGame { calculator })
    }

    /// The person waits `macro_steps` before the next key.
    pub fn wait(&mut self, macro_steps: u32) {
        self.calculator.run_macro_steps(macro_steps);
    }

    /// Types the black king's move as `FR С/П` and reads the answer.
    pub fn move_king(&mut self, to: Square) -> RookReply {
        let mut last = None;
        for key in [
            digit(to.file().into()),
            digit(to.rank().into()),
            Key::RunStop,
        ] {
            last = Some(self.calculator.press_with_limit(key, GAME_RUN_LIMIT));
        }
        let press = last.expect("three keys");
        if press.stopped {
            RookReply::read(press.display)
        } else {
            RookReply::Running
        }
    }
}
