//! What a front end shows of a session: one serialisable [`GameView`],
//! made here so that the terminal, UCI and the web show the same game and
//! hold no rule of their own.

use std::fmt;

use shakmaty::{CastlingMode, Color, Move, Position};

use crate::catalog::StrategyName;
use crate::game::{GameEnd, Ply, fen_of};
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
    /// The calculator's display.
    pub display: String,
    pub check: bool,
    pub mate: bool,
    /// The lamps of the 1912 machine that show this move.
    pub lamps: Vec<Lamp>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct IllegalView {
    pub count: u32,
    /// 0: no limit.
    pub limit: u32,
    pub stopped: bool,
}

impl From<IllegalCount> for IllegalView {
    fn from(illegal: IllegalCount) -> IllegalView {
        IllegalView {
            count: illegal.count,
            limit: illegal.limit,
            stopped: illegal.stopped(),
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
}

impl LampView {
    pub fn new(reason: &IllegalMove, illegal: IllegalCount) -> LampView {
        LampView {
            kind: reason.kind(),
            reason: reason.to_string(),
            count: illegal.count,
            limit: illegal.limit,
            stopped: illegal.stopped(),
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
    pub dtm: Option<u16>,
    pub start_dtm: Option<u16>,
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
        display: reply.display.clone(),
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
            fen: position.map(fen_of),
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
