//! What a front end shows of a session: one serialisable [`GameView`],
//! made here so that the terminal, UCI and the web show the same game and
//! hold no rule of their own.

use std::fmt;

use ajedrecista_tables::Moves;
use shakmaty::{CastlingMode, Color, Move, Position};

use crate::catalog::StrategyName;
use crate::game::{Game, GameEnd, Ply, fen_of};
use crate::session::{IllegalCount, IllegalMove, MachineMove, Session};
use crate::torres::{self, Lamp};

/// The automaton's latest move.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReplyView {
    pub uci: String,
    pub from: String,
    pub to: String,
    pub san: String,
    /// The seed's numeric squares.
    pub numeric: String,
    /// Why the automaton chose it.
    pub reason: &'static str,
    /// A word more on the reason, from the catalog, if it needs one.
    pub reason_note: Option<&'static str>,
    /// The calculator's display.
    pub display: String,
    /// The same, one state after another as the person saw them, each as
    /// the indicator's twelve places.
    pub displays: Vec<DisplayState>,
    /// Why the display's square is not the move's, when it is not (the
    /// turned board's numbering).
    pub display_note: Option<String>,
    pub check: bool,
    pub mate: bool,
    /// The lamps of the 1912 machine that show this move.
    pub lamps: Vec<Lamp>,
}

/// One state of the MK-61's indicator.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DisplayState {
    /// In the seeds' notation: `27.`, `4.2`, `1. 25`, `ЕГГОГ`.
    pub text: String,
    /// The twelve places: the mantissa's sign, eight digits, the
    /// exponent's sign and two digits.
    pub places: Vec<Place>,
    /// What the person did to get the next state (`after С/П`), if there
    /// is one.
    pub then: Option<&'static str>,
}

/// One place of the indicator: a glyph (`0`-`9`, `-`, `L`, `C`, `Г`, `Е`
/// or a space; the web's calculator, read from the emulator, writes `E`)
/// and its point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    pub glyph: char,
    pub point: bool,
}

/// The displays of one turn, in the order the person saw them: "ЕГГОГ,
/// 61." is the error, then (after С/П) 61.; "9------0. x3, then 87." is
/// the refusal, then the answer after the board was turned.
pub fn display_states(text: &str) -> Vec<DisplayState> {
    let mut states = text
        .split(',')
        .map(|state| {
            let state = state.trim();
            let state = state.strip_prefix("then ").unwrap_or(state);
            match state.rsplit_once(" x") {
                Some((shown, count)) if count.bytes().all(|b| b.is_ascii_digit()) => shown,
                _ => state,
            }
            .trim()
        })
        .filter(|state| !state.is_empty())
        .map(|state| DisplayState {
            text: state.to_owned(),
            places: places(state),
            then: None,
        })
        .collect::<Vec<_>>();
    let count = states.len();
    for state in states.iter_mut().take(count.saturating_sub(1)) {
        state.then = Some(match state.text.starts_with('9') {
            true => "with the board turned a quarter and the men keyed in again",
            false => "after С/П",
        });
    }
    states
}

/// The square a display names (`25.`, `4.2`, `1. 25`: file digit, rank
/// digit), if it names one.
fn shown_square(text: &str) -> Option<shakmaty::Square> {
    let number = text.split_whitespace().last()?;
    let digits: Vec<u32> = number.chars().filter_map(|c| c.to_digit(10)).collect();
    match digits[..] {
        [file @ 1..=8, rank @ 1..=8] => Some(shakmaty::Square::from_coords(
            shakmaty::File::new(file - 1),
            shakmaty::Rank::new(rank - 1),
        )),
        _ => None,
    }
}

/// A sentence when the display's square is not the board's: the rook
/// program counts squares on the board as it was last turned.
fn display_note(display: &[DisplayState], to: shakmaty::Square) -> Option<String> {
    let last = display.last()?;
    let shown = shown_square(&last.text)?;
    (shown != to).then(|| {
        format!(
            "The calculator counts squares on the board as the player turned it: its {}{} is {to} on this board.",
            u32::from(shown.file()) + 1,
            u32::from(shown.rank()) + 1
        )
    })
}

/// A display text as the twelve places: the mantissa and, after a space,
/// the exponent (`1. 25`: 10^25).
fn places(text: &str) -> Vec<Place> {
    const BLANK: Place = Place {
        glyph: ' ',
        point: false,
    };
    let parts: Vec<&str> = text.split_whitespace().collect();
    let signed = |cells: Vec<Place>| match cells.first() {
        Some(first) if cells.len() > 1 && first.glyph == '-' => cells,
        _ => std::iter::once(BLANK).chain(cells).collect(),
    };
    let mut mantissa = signed(cells(parts.first().copied().unwrap_or("")));
    mantissa.resize(9, BLANK);
    let mut exponent = match parts.len() {
        0 | 1 => Vec::new(),
        n => {
            let cells = signed(cells(parts[n - 1]));
            cells[cells.len().saturating_sub(3)..].to_vec()
        }
    };
    while exponent.len() < 3 {
        exponent.insert(0, BLANK);
    }
    mantissa.extend(exponent);
    mantissa
}

/// Characters as places, a point joining the glyph before; the error
/// words' letters as the indicator shows them (О is 0, З is 3 with its
/// point, the Latin E is Е).
fn cells(text: &str) -> Vec<Place> {
    let mut cells: Vec<Place> = Vec::new();
    for c in text.chars() {
        if c == '.' {
            match cells.last_mut() {
                Some(last) => last.point = true,
                None => cells.push(Place {
                    glyph: ' ',
                    point: true,
                }),
            }
            continue;
        }
        let glyph = match c {
            'E' => 'Е',
            'О' | 'O' => '0',
            'З' => '3',
            c => c,
        };
        cells.push(Place {
            glyph,
            point: c == 'З',
        });
    }
    cells
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EndView {
    /// A stable name ([`GameEnd::kind`]).
    pub kind: &'static str,
    /// The wording ([`GameEnd`]'s Display).
    pub text: String,
    /// The PGN result.
    pub result: &'static str,
}

impl From<&GameEnd> for EndView {
    fn from(end: &GameEnd) -> EndView {
        EndView {
            kind: end.kind(),
            text: end.to_string(),
            result: end.result(),
        }
    }
}

/// The illegal moves so far.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct IllegalView {
    pub count: u32,
    /// 0: no limit.
    pub limit: u32,
    pub stopped: bool,
    /// The limit's rule in words ([`IllegalCount::rule`]).
    pub rule: Option<String>,
}

impl From<IllegalCount> for IllegalView {
    fn from(illegal: IllegalCount) -> IllegalView {
        IllegalView {
            count: illegal.count,
            limit: illegal.limit,
            stopped: illegal.stopped(),
            rule: illegal.rule(),
        }
    }
}

/// The lamp for an illegal move: why, and how many so far.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LampView {
    /// A stable name ([`IllegalMove::kind`]).
    pub kind: &'static str,
    pub reason: String,
    pub count: u32,
    /// 0: no limit.
    pub limit: u32,
    pub stopped: bool,
    /// The limit's rule in words ([`IllegalCount::rule`]).
    pub rule: Option<String>,
}

impl LampView {
    pub fn new(reason: &IllegalMove, illegal: IllegalCount) -> LampView {
        LampView {
            kind: reason.kind(),
            reason: reason.to_string(),
            count: illegal.count,
            limit: illegal.limit,
            stopped: illegal.stopped(),
            rule: illegal.rule(),
        }
    }
}

/// `d7 is attacked by the rook on a7 (illegal move 1 of 3)`.
impl fmt::Display for LampView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = IllegalCount {
            count: self.count,
            limit: self.limit,
        };
        write!(f, "{} ({count})", self.reason)
    }
}

/// A game as front ends show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct GameView {
    pub strategy: StrategyName,
    pub variant: String,
    /// The black king is still to be placed on one of `start_squares`.
    pub placing: bool,
    pub start_squares: Vec<String>,
    /// The board part of a FEN (the white men alone while placing).
    pub board: String,
    pub fen: Option<String>,
    pub start_fen: Option<String>,
    /// `white` or `black`, once the black king is on the board.
    pub turn: Option<&'static str>,
    /// The black king's legal moves, UCI.
    pub black_moves: Vec<String>,
    pub last_move: Option<String>,
    pub moves: Vec<Ply>,
    pub last_reply: Option<ReplyView>,
    pub end: Option<EndView>,
    pub illegal: IllegalView,
    /// White's moves to mate with perfect play, from now and from the start.
    pub dtm: Option<Moves>,
    pub start_dtm: Option<Moves>,
    pub white_moves: usize,
    pub can_undo: bool,
    pub pgn: Option<String>,
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// `white` or `black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn reply_view(reply: &MachineMove, session: &Session) -> ReplyView {
    let mate = session.end() == Some(GameEnd::Checkmate) && session.last_move() == Some(reply.mv);
    ReplyView {
        uci: uci(reply.mv),
        from: reply.mv.from().map(|s| s.to_string()).unwrap_or_default(),
        to: reply.mv.to().to_string(),
        san: reply.san.clone(),
        numeric: reply.numeric.clone(),
        reason: reply.reason,
        reason_note: session
            .strategy()
            .entry()
            .reason_notes
            .iter()
            .find(|(reason, _)| *reason == reply.reason)
            .map(|(_, note)| *note),
        display: reply.display.clone(),
        displays: display_states(&reply.display),
        display_note: display_note(&display_states(&reply.display), reply.mv.to()),
        check: reply.check,
        mate,
        lamps: torres::lamps(reply.mv, &session.board()),
    }
}

impl Session {
    /// The game as front ends show it.
    pub fn view(&self) -> GameView {
        let position = self.position();
        let game = self.game();
        GameView {
            strategy: self.strategy(),
            variant: self.variant().to_string(),
            placing: self.placing().is_some(),
            start_squares: self.start_squares().iter().map(|s| s.to_string()).collect(),
            board: self.board().to_string(),
            fen: game.as_ref().map(Game::final_fen),
            start_fen: self.start().map(fen_of),
            turn: position.map(|p| color_name(p.turn())),
            black_moves: self.black_moves().into_iter().map(uci).collect(),
            last_move: self.last_move().map(uci),
            moves: game.as_ref().map(|game| game.plies()).unwrap_or_default(),
            last_reply: self.last_reply().map(|reply| reply_view(reply, self)),
            end: self.end().as_ref().map(EndView::from),
            illegal: self.illegal().into(),
            dtm: self.dtm(),
            start_dtm: self.start_dtm(),
            white_moves: self.white_moves(),
            can_undo: self.can_undo(),
            pgn: game.map(|game| game.to_pgn()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(states: &[DisplayState]) -> Vec<String> {
        let glyphs = |state: &DisplayState| -> String {
            state
                .places
                .iter()
                .map(|place| match place.point {
                    true => format!("{}.", place.glyph),
                    false => place.glyph.to_string(),
                })
                .collect()
        };
        states.iter().map(glyphs).collect()
    }

    #[test]
    fn a_turn_reads_as_its_states_in_twelve_places() {
        let states = display_states("9------0. x3, then 87.");
        assert_eq!(states.len(), 2);
        assert_eq!(states[0].text, "9------0.");
        assert_eq!(shown(&states), [" 9------0.   ", " 87.         "]);
        let states = display_states("ЕГГОГ, 61.");
        assert_eq!(shown(&states), [" ЕГГ0Г      ", " 61.         "]);
        assert_eq!(shown(&display_states("1. 25")), [" 1.        25"]);
        assert_eq!(shown(&display_states("ЗГГОГ")), [" 3.ГГ0Г      "]);
        assert!(display_states("").is_empty());
        for state in display_states("4.2, 25., 1. 25") {
            assert_eq!(state.places.len(), 12);
        }
        let turned = display_states("9------0. x1, then 74.");
        assert_eq!(
            turned[0].then.unwrap(),
            "with the board turned a quarter and the men keyed in again"
        );
        assert_eq!(turned[1].then, None);
        assert_eq!(display_states("ЕГГОГ, 61.")[0].then, Some("after С/П"));
        // 74. on the turned board is b5 on this one; 25. is b5 itself.
        let note = display_note(&turned, shakmaty::Square::B5).unwrap();
        assert!(note.contains("its 74 is b5"), "{note}");
        assert_eq!(
            display_note(&display_states("25."), shakmaty::Square::B5),
            None
        );
        assert_eq!(
            display_note(&display_states("1. 25"), shakmaty::Square::B5),
            None
        );
        assert_eq!(
            display_note(&display_states("4.2"), shakmaty::Square::D2),
            None
        );
    }
}
