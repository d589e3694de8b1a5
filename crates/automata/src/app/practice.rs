//! Practice as White: the student gives the mate against the tables' best
//! defence. Each move is weighed against perfect play ("throws away 3
//! moves", "lets the win go"), a method of the catalog gives hints in its
//! own words, and the end compares the student's count with perfect play's
//! and the method's from the same start. `play --as white` and the web's
//! practice view ask here.

use std::sync::Arc;

use ajedrecista_tables::{Moves, Tablebase, Value, Variant};
use serde::Serialize;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use super::probe::{BuildPolicy, ProbeError};
use super::selfplay::{SelfplayError, selfplay};
use crate::catalog::StrategyName;
use crate::defence::DefenceKind;
use crate::game::GameEnd;
use crate::strategy::{Refusal, Strategy};

/// Why a practice cannot start or a move is not taken.
#[derive(Debug, thiserror::Error)]
pub enum PracticeError {
    #[error("practice starts with White to move")]
    NotWhiteToMove,
    #[error("White does not win this position ({0}): practice needs a mate to give")]
    NotAWin(String),
    #[error("{method} does not play this position: {refusal}")]
    MethodRefuses {
        method: StrategyName,
        refusal: Refusal,
    },
    #[error("{0:?} is not a move (SAN such as Rb6, or UCI such as a6b6)")]
    NotAMove(String),
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
    #[error("the game is over")]
    GameOver,
    #[error("no method chosen for hints (--method)")]
    NoMethod,
    #[error("a practice needs a start: a position, or a method (its own start)")]
    NoStart,
    #[error(transparent)]
    Probe(#[from] ProbeError),
    #[error(transparent)]
    Selfplay(#[from] SelfplayError),
}

impl From<ajedrecista_tables::TableError> for PracticeError {
    fn from(err: ajedrecista_tables::TableError) -> PracticeError {
        PracticeError::Probe(ProbeError::Table(err))
    }
}

/// What a student's move cost, by the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// A fastest mate still.
    Best,
    /// Still a win, this many moves slower.
    Slower { moves: u16 },
    /// The win is gone: a draw now.
    WinLost,
}

/// One move of the student and the defence's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Turn {
    /// The student's move, SAN with `+` or `#`.
    pub white: String,
    pub verdict: Verdict,
    /// The defence's reply, if the game goes on.
    pub black: Option<String>,
    /// Set when the game is over: checkmate, stalemate, or a man lost.
    pub end: Option<&'static str>,
}

/// A method's move for the position, and its rule.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    pub method: &'static str,
    pub san: String,
    /// The method's own reason ("rule 4: tempo").
    pub reason: &'static str,
}

/// The end of a practice: the student's count beside perfect play's and
/// the method's, each from the same start against the same defence.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub moves_used: usize,
    pub perfect: Moves,
    /// The method's moves to mate against the tables' defence, if one was
    /// chosen and it mates.
    pub method: Option<(&'static str, Option<usize>)>,
}

/// A practice as a front end shows it.
#[derive(Debug, Clone, Serialize)]
pub struct PracticeView {
    /// The start, and the position now (White to move unless over).
    pub start_fen: String,
    pub fen: String,
    /// White's mate from here, if still a win.
    pub mate_in: Option<Moves>,
    /// The student's moves so far.
    pub moves_used: usize,
    /// The method that gives hints, by catalog name.
    pub method: Option<&'static str>,
    /// White's legal moves here, in UCI, for a board to offer.
    pub legal: Vec<String>,
    pub can_undo: bool,
    /// Set when the game is over.
    pub end: Option<&'static str>,
    /// The counts, once the game is over.
    pub summary: Option<Summary>,
}

/// A practice game: the student plays White.
pub struct Practice {
    start: Chess,
    /// The positions before each of the student's moves, the last the
    /// position now.
    positions: Vec<Chess>,
    /// The student's moves.
    moves: usize,
    method: Option<StrategyName>,
    ended: Option<&'static str>,
    tables: Arc<Tablebase>,
}

impl Practice {
    /// Where a practice starts: `start` if given, else `method`'s own
    /// start (its demo position).
    pub fn start_of(
        start: Option<Chess>,
        method: Option<StrategyName>,
    ) -> Result<Chess, PracticeError> {
        match (start, method) {
            (Some(start), _) => Ok(start),
            (None, Some(method)) => Ok(method.demo_position()),
            (None, None) => Err(PracticeError::NoStart),
        }
    }

    /// A practice from `start` (White to move and winning, up to five
    /// men), hints from `method` if given (it must accept the start).
    pub fn new(
        tables: Arc<Tablebase>,
        start: Chess,
        method: Option<StrategyName>,
    ) -> Result<Practice, PracticeError> {
        if start.turn() != Color::White {
            return Err(PracticeError::NotWhiteToMove);
        }
        BuildPolicy::Patient.material(&tables, &start, Variant::Standard)?;
        let value = tables.probe(&start, Variant::Standard)?;
        if value.white_mates_in(Color::White).is_none() {
            return Err(PracticeError::NotAWin(value.to_string()));
        }
        if let Some(method) = method {
            method
                .build(&tables)
                .precondition(start.board())
                .map_err(|refusal| PracticeError::MethodRefuses { method, refusal })?;
        }
        Ok(Practice {
            positions: vec![start.clone()],
            start,
            moves: 0,
            method,
            ended: None,
            tables,
        })
    }

    /// The practice as a front end shows it; the summary, which plays the
    /// method's game, once it is over.
    pub fn view(&self) -> Result<PracticeView, PracticeError> {
        let position = self.position();
        let fen = |position: &Chess| {
            shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string()
        };
        let legal = match self.ended {
            Some(_) => Vec::new(),
            None => position
                .legal_moves()
                .iter()
                .map(|mv| mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
                .collect(),
        };
        Ok(PracticeView {
            start_fen: fen(&self.start),
            fen: fen(position),
            mate_in: self.mate_in()?,
            moves_used: self.moves,
            method: self.method.map(StrategyName::as_str),
            legal,
            can_undo: self.positions.len() > 1,
            end: self.ended,
            summary: self.ended.map(|_| self.summary()).transpose()?,
        })
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        self.positions.last().expect("the start at least")
    }

    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// White's mate from the position now, if still a win.
    pub fn mate_in(&self) -> Result<Option<Moves>, PracticeError> {
        let value = self.tables.probe(self.position(), Variant::Standard)?;
        Ok(value.white_mates_in(self.position().turn()))
    }

    /// Plays the student's move (`text`: SAN or UCI), weighs it, and plays
    /// the defence's best reply (the slowest loss, else the best result).
    pub fn play(&mut self, text: &str) -> Result<Turn, PracticeError> {
        if self.is_over() {
            return Err(PracticeError::GameOver);
        }
        let position = self.position().clone();
        let mv = read_move(&position, text)?;
        let before = self.tables.probe(&position, Variant::Standard)?;
        let mut after = position.clone();
        after.play_unchecked(mv);
        let white = SanPlus::from_move(position.clone(), mv).to_string();
        let value = self.tables.probe(&after, Variant::Standard)?;
        let verdict = verdict(before, value);
        self.moves += 1;
        let mut turn = Turn {
            white,
            verdict,
            black: None,
            end: None,
        };
        if let Some(end) = end_of(&after) {
            self.ended = Some(end);
            turn.end = Some(end);
            self.positions.push(after);
            return Ok(turn);
        }
        let reply = self.tables.moves(&after, Variant::Standard)?[0].0;
        turn.black = Some(SanPlus::from_move(after.clone(), reply).to_string());
        let mut next = after;
        next.play_unchecked(reply);
        let end = GameEnd::after_black_move(reply, &next)
            .map(|_| "White has no mate left")
            .or_else(|| end_of(&next));
        self.ended = end;
        turn.end = end;
        self.positions.push(next);
        Ok(turn)
    }

    /// The chosen method's move here and its rule (the method starts
    /// afresh from the position: the teaching methods remember nothing).
    pub fn hint(&self) -> Result<Hint, PracticeError> {
        let method = self.method.ok_or(PracticeError::NoMethod)?;
        if self.is_over() {
            return Err(PracticeError::GameOver);
        }
        let automaton = method.build(&self.tables);
        let position = self.position();
        let refuses = |refusal| PracticeError::MethodRefuses { method, refusal };
        automaton.precondition(position.board()).map_err(refuses)?;
        let (reply, _) = automaton
            .reply(position, &automaton.start(position))
            .map_err(refuses)?;
        Ok(Hint {
            method: method.as_str(),
            san: San::from_move(position, reply.mv).to_string(),
            reason: reply.reason,
        })
    }

    /// Takes back the student's last move and the reply; `false` at the
    /// start.
    pub fn undo(&mut self) -> bool {
        if self.positions.len() < 2 {
            return false;
        }
        self.positions.pop();
        self.moves -= 1;
        self.ended = None;
        true
    }

    /// Back to the start.
    pub fn retry(&mut self) {
        self.positions.truncate(1);
        self.moves = 0;
        self.ended = None;
    }

    /// The counts: the student's moves, perfect play's from the start,
    /// and the method's against the same defence.
    pub fn summary(&self) -> Result<Summary, PracticeError> {
        let perfect = self
            .tables
            .probe(&self.start, Variant::Standard)?
            .white_mates_in(Color::White)
            .expect("a practice starts from a win");
        let method = match self.method {
            None => None,
            Some(method) => {
                let game = selfplay(method, &self.start, DefenceKind::Perfect, &self.tables)?;
                let mated = game.end == GameEnd::Checkmate;
                Some((method.as_str(), mated.then(|| game.white_moves())))
            }
        };
        Ok(Summary {
            moves_used: self.moves,
            perfect,
            method,
        })
    }
}

/// A move typed as SAN (`Rb6`, `Rb6+`) or UCI (`a6b6`), legal in `position`.
fn read_move(position: &Chess, text: &str) -> Result<Move, PracticeError> {
    let text = text.trim();
    let illegal = || PracticeError::IllegalMove(text.to_owned());
    // UCI first: `a1c1` also reads as SAN (a pawn's move, disambiguated).
    if let Ok(uci) = UciMove::from_ascii(text.as_bytes()) {
        return uci.to_move(position).map_err(|_| illegal());
    }
    if let Ok(san) = SanPlus::from_ascii(text.as_bytes()) {
        return san.san.to_move(position).map_err(|_| illegal());
    }
    Err(PracticeError::NotAMove(text.to_owned()))
}

/// What a move turned White's win in `before` (White to move) into,
/// `after` being the value with Black to move.
fn verdict(before: Value, after: Value) -> Verdict {
    let best = before.white_mates_in(Color::White);
    match (best, after.white_mates_in(Color::Black)) {
        (Some(best), Some(now)) if now.0 > best.0 - 1 => Verdict::Slower {
            moves: now.0 + 1 - best.0,
        },
        (_, Some(_)) => Verdict::Best,
        (_, None) => Verdict::WinLost,
    }
}

/// How the game ended in `position`, if it did.
fn end_of(position: &Chess) -> Option<&'static str> {
    if position.is_checkmate() {
        Some("checkmate")
    } else if position.is_stalemate() {
        Some("stalemate")
    } else if position.is_insufficient_material() {
        Some("a draw: no mate is left")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess(fen: &str) -> Chess {
        ajedrecista_tables::read_fen(fen, ajedrecista_tables::CastlingRights::Refused).unwrap()
    }

    /// Perfect moves are "best", a slower one is flagged with its cost,
    /// a hint comes in the box method's words, and the game ends in mate.
    #[test]
    fn a_practice_flags_slow_moves_and_mates() {
        let tables = Arc::new(Tablebase::in_memory());
        let start = chess("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        let rook_box = StrategyName::named("rook-box").unwrap();
        let mut practice = Practice::new(Arc::clone(&tables), start, Some(rook_box)).unwrap();
        let goal = practice.mate_in().unwrap().unwrap();

        // Of White's moves, the one that loses the most time while it
        // keeps the win.
        let moves = tables
            .moves(practice.position(), Variant::Standard)
            .unwrap();
        let (slow, value) = moves
            .iter()
            .rev()
            .find(|(_, value)| value.white_mates_in(Color::White).is_some())
            .copied()
            .unwrap();
        let uci = slow.to_uci(shakmaty::CastlingMode::Standard).to_string();
        let turn = practice.play(&uci).unwrap();
        let lost = value.white_mates_in(Color::White).unwrap().0 - goal.0;
        assert!(lost > 0);
        assert_eq!(turn.verdict, Verdict::Slower { moves: lost }, "{uci}");
        assert!(practice.undo());

        let hint = practice.hint().unwrap();
        assert!(!hint.reason.is_empty());
        assert!(practice.play(&hint.san).is_ok());
        practice.retry();

        // Perfect play from the start: every move best, mate in `goal`.
        while !practice.is_over() {
            let best = tables
                .moves(practice.position(), Variant::Standard)
                .unwrap()[0]
                .0;
            let turn = practice
                .play(&best.to_uci(shakmaty::CastlingMode::Standard).to_string())
                .unwrap();
            assert_eq!(turn.verdict, Verdict::Best);
        }
        let summary = practice.summary().unwrap();
        assert_eq!(summary.moves_used, usize::from(goal.0));
        assert_eq!(summary.perfect, goal);
        let (name, method_moves) = summary.method.unwrap();
        assert_eq!(name, "rook-box");
        assert!(method_moves.unwrap() >= usize::from(goal.0));
        assert!(matches!(practice.play("Ra2"), Err(PracticeError::GameOver)));
    }

    #[test]
    fn starts_and_moves_that_are_refused() {
        let tables = Arc::new(Tablebase::in_memory());
        let black = chess("8/8/8/3k4/8/8/8/R3K3 b - - 0 1");
        assert!(matches!(
            Practice::new(Arc::clone(&tables), black, None),
            Err(PracticeError::NotWhiteToMove)
        ));
        let draw = chess("8/8/8/3k4/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            Practice::new(Arc::clone(&tables), draw, None),
            Err(PracticeError::Probe(_) | PracticeError::NotAWin(_))
        ));
        let start = chess("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        let mut practice = Practice::new(Arc::clone(&tables), start, None).unwrap();
        assert!(matches!(
            practice.play("Rz9"),
            Err(PracticeError::NotAMove(_))
        ));
        assert!(matches!(
            practice.play("Rh8"),
            Err(PracticeError::IllegalMove(_))
        ));
        assert!(matches!(practice.hint(), Err(PracticeError::NoMethod)));
        assert!(!practice.undo());
    }
}
