//! The two MK-61 chess programs of 1987 played through the emulator exactly
//! as a person plays them on the calculator: the same keys, the same
//! protocol, and the display read back as a typed value. One driver for
//! both programs; what differs (how a square is typed, the protocol's
//! answers, the set-up) is a property of [`ChessProgram`].

use std::fmt;
use std::sync::{Arc, LazyLock};

use ajedrecista_mk61::{
    AngleUnit, Calculator, Display, EntryError, Glyph, Key, PackedCalculator, Program,
    QUEEN_PRESETS, ROOK_PRESETS,
};
use shakmaty::{Role, Square};

use crate::mk61_rook::Answer;
use crate::seed_square::{square_digits, square_of_digits};

/// Frames a game waits for the program to stop before it reports
/// [`Shown::Running`] (about half an hour of the real calculator): the
/// programs answer within about 40 frames, so this is a program that has
/// lost its way, not a slow one.
pub const GAME_RUN_LIMIT: u32 = 2000;

/// Protocol answers in one turn before the driver stops answering (the
/// programs need at most one).
const MAX_ANSWERS: usize = 4;

/// Which of the two programs the calculator runs; named `queen` and
/// `rook` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChessProgram {
    /// Seed 000, "Неприкосновенный король": white king fixed on c3, queen
    /// from g7; the black king's square is typed `file . rank С/П`.
    Queen,
    /// Seed 001, "Мат ладьёй": the white men keyed into R3-R6; the black
    /// king's square is typed `file rank С/П`.
    Rook,
}

/// A chess program on a calculator a person keys by hand: the keys typed
/// since the last С/П, and the black king's square that the keys before
/// the last С/П entered in the program's format
/// ([`ChessProgram::keyed_square`]).
#[derive(Clone, Debug)]
pub struct KeyedProgram {
    program: ChessProgram,
    typed: Vec<Key>,
    keyed: Option<Square>,
}

/// The keys kept between С/П presses: a square takes three.
const MAX_TYPED: usize = 8;

impl KeyedProgram {
    pub fn new(program: ChessProgram) -> KeyedProgram {
        KeyedProgram {
            program,
            typed: Vec::new(),
            keyed: None,
        }
    }

    pub fn program(&self) -> ChessProgram {
        self.program
    }

    /// Notes a key pressed: С/П reads the keys typed before it as a square;
    /// any other key is typed (the first few kept).
    pub fn press(&mut self, key: Key) {
        self.keyed = None;
        if key == Key::RunStop {
            self.keyed = self.program.keyed_square(&self.typed);
            self.typed.clear();
        } else if self.typed.len() < MAX_TYPED {
            self.typed.push(key);
        }
    }

    /// The square the keys before the last С/П entered, if the last key
    /// was С/П and they entered one.
    pub fn keyed(&self) -> Option<Square> {
        self.keyed
    }
}

/// The keys that begin every queen game: П→X0 Cx X→П1 7 X→П2 В/О С/П.
const QUEEN_START: &str = "PX 0 CX XP 1 7 XP 2 VO SP";
/// The keys that begin every rook game: В/О С/П (the display shows 1).
const ROOK_START: &str = "VO SP";

/// Parses a whitespace-separated list of trace key tokens (built-in
/// constants only, so a bad token is a defect).
fn keys(tokens: &str) -> Vec<Key> {
    Key::sequence(tokens).expect("built-in key tokens")
}

/// The key of a digit 1-8 of a square.
fn digit_key(digit: i32) -> Key {
    Key::Digit(digit as u8)
}

impl ChessProgram {
    fn listing(self) -> Program {
        match self {
            ChessProgram::Queen => Program::queen(),
            ChessProgram::Rook => Program::rook(),
        }
    }

    fn presets(self) -> &'static str {
        match self {
            ChessProgram::Queen => QUEEN_PRESETS,
            ChessProgram::Rook => ROOK_PRESETS,
        }
    }

    /// The keys that enter the black king's square.
    fn king_keys(self, to: Square) -> Vec<Key> {
        let (file, rank) = square_digits(to);
        match self {
            ChessProgram::Queen => vec![digit_key(file), Key::Point, digit_key(rank), Key::RunStop],
            ChessProgram::Rook => vec![digit_key(file), digit_key(rank), Key::RunStop],
        }
    }

    /// The black king's square that `keys`, typed before С/П, enter (the
    /// seed's format: `file . rank` for the queen program, `file rank` for
    /// the rook program); `None` if they enter none.
    pub fn keyed_square(self, keys: &[Key]) -> Option<Square> {
        Square::ALL.into_iter().find(|&square| {
            let typed = self.king_keys(square);
            typed[..typed.len() - 1] == *keys
        })
    }

    /// The white men as the program starts (the rook program's are the
    /// reference trace's, which the web keys in): the king, the other man
    /// and its role.
    pub fn start_men(self) -> (Square, Square, Role) {
        match self {
            ChessProgram::Queen => (Square::C3, Square::G7, Role::Queen),
            ChessProgram::Rook => (Square::E1, Square::A2, Role::Rook),
        }
    }

    /// How a person keys a game in, as the web's calculator view says it.
    pub fn keying_help(self) -> &'static str {
        match self {
            ChessProgram::Queen => {
                "The queen program is keyed in with its presets; the display 77. is the queen on g7, the white king stands on c3 and never moves. Key the black king's square as file, point, rank, then С/П (f4: 6 . 4 С/П). The display gives the queen's new square (file, rank). On ЕГГОГ press С/П; on ЗГГОГ press Cx 2 В/О С/П."
            }
            ChessProgram::Rook => {
                "The rook program is keyed in with its presets and the white men of the seed's reference trace: king e1 (X→П3, X→П4), rook a2 (X→П5, X→П6). Key the black king's square as file and rank, then С/П (e5: 5 5 С/П). X.Y moves the king to X,Y; XY. the rook; 1. XY the rook with check; 9------0. refuses the position."
            }
        }
    }

    /// The square the white king never leaves, if the program fixes it.
    pub fn fixed_king(self) -> Option<Square> {
        match self {
            ChessProgram::Queen => Some(Square::C3),
            ChessProgram::Rook => None,
        }
    }

    /// The seed's answer to an announcement: С/П after ЕГГОГ, Cx 2 В/О С/П
    /// after ЗГГОГ (the queen program); the rook program has none.
    fn protocol_answer(self, shown: &Shown) -> Option<Vec<Key>> {
        match (self, shown) {
            (ChessProgram::Queen, Shown::Error) => Some(vec![Key::RunStop]),
            (ChessProgram::Queen, Shown::MateInTwo) => {
                Some(vec![Key::Clear, Key::Digit(2), Key::Return, Key::RunStop])
            }
            _ => None,
        }
    }
}

/// Something went wrong while setting a game up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("program entry: {0}")]
    Entry(#[from] EntryError),
    #[error("after the start keys the display shows |{0}|, expected |{1}|")]
    Start(Display, &'static str),
}

/// What a display says, read the way the seeds tell the player to read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shown {
    /// `F.R`: the white king moved to this square (rook program).
    King(Square),
    /// `FR.`: the queen or the rook moved to this square.
    Piece(Square),
    /// `1.  FR` (10 to the power FR): the rook moved there with check.
    PieceCheck(Square),
    /// ЕГГОГ: the queen is about to mate on the edge; answered with С/П.
    Error,
    /// ЗГГОГ (`3.ГГ0Г`): mate in two from a1, a2 or b1; answered with
    /// Cx 2 В/О С/П.
    MateInTwo,
    /// `9------0.`: the rook program's bad-position signal.
    BadPosition,
    /// Anything else, as shown.
    Unreadable(Display),
    /// The program did not stop within [`GAME_RUN_LIMIT`].
    Running,
}

/// The digits of the display's mantissa and where its point is.
struct Number {
    negative: bool,
    digits: Vec<u8>,
    /// Digits before the decimal point.
    point_after: usize,
}

/// Reads the mantissa as a plain number: digits only (blanks skipped), an
/// optional minus sign, and a lit point.
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

/// `ЕГГОГ` (first glyph E) or `3.ГГ0Г` (first glyph 3, point lit).
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

impl Shown {
    /// Reads a display.
    pub fn read(display: Display) -> Shown {
        if is_egg(&display, Glyph::E, false) {
            return Shown::Error;
        }
        if is_egg(&display, Glyph::Digit(3), true) {
            return Shown::MateInTwo;
        }
        let bad: Display = " 9------0.   ".parse().expect("constant display");
        if display == bad {
            return Shown::BadPosition;
        }
        let Some(Number {
            negative: false,
            digits,
            point_after,
        }) = number(&display)
        else {
            return Shown::Unreadable(display);
        };
        let square = |file: u8, rank: u8| square_of_digits(i32::from(file), i32::from(rank));
        let shown = match (digits.as_slice(), point_after, display.exponent()) {
            (&[file, rank], 1, None) if exponent_blank(&display) => {
                square(file, rank).map(Shown::King)
            }
            (&[file, rank], 2, None) if exponent_blank(&display) => {
                square(file, rank).map(Shown::Piece)
            }
            (&[1], 1, Some((false, power))) => {
                square(power / 10, power % 10).map(Shown::PieceCheck)
            }
            _ => None,
        };
        shown.unwrap_or(Shown::Unreadable(display))
    }
}

/// What a display means, for a front end (the web's clickable MK-61
/// follows the program's game with it): `{"kind": "king", "square": "d2"}`,
/// `{"kind": "error"}`, ...
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShownView {
    King { square: String },
    Piece { square: String },
    PieceCheck { square: String },
    Error,
    MateInTwo,
    BadPosition,
    Unreadable,
    Running,
}

impl From<&Shown> for ShownView {
    fn from(shown: &Shown) -> ShownView {
        match *shown {
            Shown::King(square) => ShownView::King {
                square: square.to_string(),
            },
            Shown::Piece(square) => ShownView::Piece {
                square: square.to_string(),
            },
            Shown::PieceCheck(square) => ShownView::PieceCheck {
                square: square.to_string(),
            },
            Shown::Error => ShownView::Error,
            Shown::MateInTwo => ShownView::MateInTwo,
            Shown::BadPosition => ShownView::BadPosition,
            Shown::Unreadable(_) => ShownView::Unreadable,
            Shown::Running => ShownView::Running,
        }
    }
}

/// In the seeds' notation: `4.2`, `25.`, `1. 25`, `ЕГГОГ`, `ЗГГОГ`,
/// `9------0.`; anything else between bars.
impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |square: Square| square_digits(square);
        match *self {
            Shown::King(square) => {
                let (x, y) = at(square);
                Answer::King { x, y }.fmt(f)
            }
            Shown::Piece(square) => {
                let (x, y) = at(square);
                Answer::Rook { x, y }.fmt(f)
            }
            Shown::PieceCheck(square) => {
                let (x, y) = at(square);
                Answer::RookCheck { x, y }.fmt(f)
            }
            Shown::Error => f.write_str("ЕГГОГ"),
            Shown::MateInTwo => f.write_str("ЗГГОГ"),
            Shown::BadPosition => Answer::TurnTheBoard.fmt(f),
            Shown::Unreadable(display) => write!(f, "|{display}|"),
            Shown::Running => f.write_str("(still running)"),
        }
    }
}

/// One black move and everything the calculator showed in answer, the
/// protocol answers included; the last one is the final answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub replies: Vec<Shown>,
}

impl Turn {
    pub fn last(&self) -> Shown {
        *self.replies.last().expect("a turn has a reply")
    }
}

/// The whole turn as the person read it: `ЗГГОГ, 27.`.
impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, shown) in self.replies.iter().enumerate() {
            if index > 0 {
                f.write_str(", ")?;
            }
            shown.fmt(f)?;
        }
        Ok(())
    }
}

/// A game of one of the programs on a calculator: the calculator in its
/// whole state, so two equal games behave identically from here on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CalculatorGame {
    program: ChessProgram,
    calculator: Calculator,
}

/// A game packed small ([`Calculator::pack`], about 460 bytes) and shared
/// between its copies: the emulated strategies' memory, of which an audit
/// keeps hundreds of thousands. Equal values are equal games.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedGame(Arc<(ChessProgram, PackedCalculator)>);

impl PackedGame {
    /// The game again.
    pub fn unpack(&self) -> CalculatorGame {
        CalculatorGame {
            program: self.0.0,
            calculator: self.0.1.unpack(),
        }
    }
}

/// Power-on at Р, the program keyed in and read back, the presets keyed in.
fn keyed_in(program: ChessProgram) -> Result<Calculator, SetupError> {
    let mut calculator = Calculator::new(AngleUnit::Radians);
    calculator.enter_program(&program.listing())?;
    calculator.press_all(keys(program.presets()));
    Ok(calculator)
}

/// The keyed-in calculators, once per process.
static QUEEN_SETUP: LazyLock<Result<Calculator, SetupError>> =
    LazyLock::new(|| keyed_in(ChessProgram::Queen));
static ROOK_SETUP: LazyLock<Result<Calculator, SetupError>> =
    LazyLock::new(|| keyed_in(ChessProgram::Rook));

impl CalculatorGame {
    /// A queen game: power-on with the switch at Р, the program keyed in and
    /// read back, the presets keyed in (R0 = ЗГГОГ, R7 = 64, R8 = 66,
    /// R9 = 90, Ra = 0, Rb = 4), then the start keys; the queen stands on
    /// g7 (display 77) and waits for the black king's square.
    pub fn queen() -> Result<CalculatorGame, SetupError> {
        let mut calculator = QUEEN_SETUP.clone()?;
        let display = calculator
            .press_all(keys(QUEEN_START))
            .map(|press| press.display)
            .unwrap_or_default();
        match Shown::read(display) {
            Shown::Piece(Square::G7) => Ok(CalculatorGame {
                program: ChessProgram::Queen,
                calculator,
            }),
            _ => Err(SetupError::Start(display, " 77.         ")),
        }
    }

    /// A rook game: power-on (switch Р), program and presets keyed in
    /// (R7 = 36, R8 = 3, R9 = `9------0.`, Ra = 10, Re = 98), then В/О С/П
    /// (display 1.) and the white men stored as seed 001 says: king file
    /// X→П3, rank X→П4, rook file X→П5, rank X→П6. The black king is not
    /// entered: its first move is.
    pub fn rook(white_king: Square, rook: Square) -> Result<CalculatorGame, SetupError> {
        let mut calculator = ROOK_SETUP.clone()?;
        let display = calculator
            .press_all(keys(ROOK_START))
            .map(|press| press.display)
            .unwrap_or_default();
        if display.mantissa_text() != "1." || !exponent_blank(&display) {
            return Err(SetupError::Start(display, " 1.          "));
        }
        let (king_file, king_rank) = square_digits(white_king);
        let (rook_file, rook_rank) = square_digits(rook);
        for (digit, register) in [
            (king_file, 3),
            (king_rank, 4),
            (rook_file, 5),
            (rook_rank, 6),
        ] {
            calculator.press_all([digit_key(digit), Key::Store, Key::Digit(register)]);
        }
        Ok(CalculatorGame {
            program: ChessProgram::Rook,
            calculator,
        })
    }

    /// A game of `program` as it starts: the queen program's, or the rook
    /// program's from its white men as it starts
    /// ([`ChessProgram::start_men`]).
    pub fn start(program: ChessProgram) -> Result<CalculatorGame, SetupError> {
        match program {
            ChessProgram::Queen => CalculatorGame::queen(),
            ChessProgram::Rook => {
                let (king, rook, _) = program.start_men();
                CalculatorGame::rook(king, rook)
            }
        }
    }

    pub fn program(&self) -> ChessProgram {
        self.program
    }

    /// The calculator, in its whole state.
    pub fn calculator(&self) -> &Calculator {
        &self.calculator
    }

    /// The game with the idle calculator's ring turned to its canonical
    /// place ([`Calculator::canonical_idle`]): one node per situation in a
    /// graph search. The game itself if the calculator is not idle (after
    /// [`Shown::Running`]).
    pub fn canonical(&self) -> CalculatorGame {
        self.calculator.canonical_idle().map_or_else(
            || self.clone(),
            |calculator| CalculatorGame {
                program: self.program,
                calculator,
            },
        )
    }

    /// The game packed; see [`PackedGame`].
    pub fn pack(&self) -> PackedGame {
        PackedGame(Arc::new((self.program, self.calculator.pack())))
    }

    /// The person waits `macro_steps` before the next key (the traces'
    /// timing leaves none); the calculator's idle ring turns meanwhile.
    pub fn wait(&mut self, macro_steps: u32) {
        self.calculator.run_macro_steps(macro_steps);
    }

    /// Types the black king's square (also how the queen program's king is
    /// first placed) and reads the answer.
    pub fn move_king(&mut self, to: Square) -> Shown {
        let keys = self.program.king_keys(to);
        self.type_keys(&keys)
    }

    /// Answers an announcement as the seed says; `None` if the program
    /// asks for no answer.
    pub fn answer(&mut self, shown: &Shown) -> Option<Shown> {
        let keys = self.program.protocol_answer(shown)?;
        Some(self.type_keys(&keys))
    }

    /// A whole turn: the king's move, then the protocol answers until a
    /// display that asks for none.
    pub fn play(&mut self, to: Square) -> Turn {
        let mut replies = vec![self.move_king(to)];
        while replies.len() <= MAX_ANSWERS {
            match self.answer(&replies[replies.len() - 1]) {
                Some(reply) => replies.push(reply),
                None => break,
            }
        }
        Turn { replies }
    }

    fn type_keys(&mut self, keys: &[Key]) -> Shown {
        let mut last = None;
        for &key in keys {
            last = Some(self.calculator.press_with_limit(key, GAME_RUN_LIMIT));
        }
        let press = last.expect("at least one key");
        match press.stopped {
            true => Shown::read(press.display),
            false => Shown::Running,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Shown {
        Shown::read(text.parse().unwrap())
    }

    #[test]
    fn the_keys_before_run_stop_enter_a_square_in_the_programs_format() {
        let press = |program, tokens: &str| {
            let mut keyed = KeyedProgram::new(program);
            for key in keys(tokens) {
                keyed.press(key);
            }
            keyed.keyed()
        };
        assert_eq!(press(ChessProgram::Rook, "5 5 SP"), Some(Square::E5));
        assert_eq!(press(ChessProgram::Queen, "6 . 4 SP"), Some(Square::F4));
        // The other program's format, a key after С/П, or too many keys.
        assert_eq!(press(ChessProgram::Queen, "5 5 SP"), None);
        assert_eq!(press(ChessProgram::Rook, "5 5 SP 1"), None);
        assert_eq!(press(ChessProgram::Rook, "1 2 3 4 5 6 7 8 9 5 5 SP"), None);
    }

    #[test]
    fn displays_read_in_the_seeds_notation() {
        assert_eq!(shown(" 4.2         "), Shown::King(Square::D2));
        assert_eq!(shown(" 25.         "), Shown::Piece(Square::B5));
        assert_eq!(shown(" 1.        25"), Shown::PieceCheck(Square::B5));
        assert_eq!(shown(" EГГ0Г      "), Shown::Error);
        assert_eq!(shown(" 3.ГГ0Г      "), Shown::MateInTwo);
        assert_eq!(shown(" 9------0.   "), Shown::BadPosition);
        for odd in [
            " 29.         ",
            "-25.         ",
            " 1.       -25",
            " 125.        ",
        ] {
            assert!(matches!(shown(odd), Shown::Unreadable(_)), "{odd}");
        }
        assert_eq!(shown(" 1.        25").to_string(), "1. 25");
        assert_eq!(shown(" 4.2         ").to_string(), "4.2");
        let turn = Turn {
            replies: vec![Shown::MateInTwo, Shown::Piece(Square::B7)],
        };
        assert_eq!(turn.to_string(), "ЗГГОГ, 27.");
    }
}
