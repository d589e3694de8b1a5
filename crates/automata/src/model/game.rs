//! A game record and its PGN.

use std::fmt::{self, Write};

use ajedrecista_tables::{fen_with_fullmoves, fullmoves_after};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::strategy::Refusal;

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    Checkmate,
    Stalemate,
    /// Black took White's last man, or a man White cannot mate without (a
    /// bishop or knight of the minor-piece methods' two: `men_left`), so
    /// White can no longer mate. A draw when Black cannot mate either (a
    /// bare king or a lone minor piece); otherwise the game is unfinished:
    /// Black's win is not played out.
    LastManTaken {
        draw: bool,
        men_left: bool,
    },
    /// The automaton would not move.
    Refused(Refusal),
    /// The position (with the automaton's memory) came round again: with
    /// this defence the game never ends.
    Cycle,
    /// Stopped by the caller (a move limit) before any of the above.
    Unfinished,
    /// Still being played: a record of a game so far (PGN result `*`, no
    /// Termination tag and no comment).
    InProgress,
    /// The person made this many illegal moves and the automaton stopped
    /// playing, as El Ajedrecista did.
    IllegalMoves(u32),
}

impl GameEnd {
    /// The end Black's move `mv` brings, `after` it is played: the game
    /// ends when it took White's last man, or left White men that cannot
    /// mate (a lone bishop or knight). A capture that leaves White a man
    /// that can (a pawn ending, KQvKR) goes on.
    pub fn after_black_move(mv: Move, after: &Chess) -> Option<GameEnd> {
        // A bare king is insufficient material too.
        let cannot_mate = after.has_insufficient_material(Color::White);
        (mv.is_capture() && cannot_mate).then(|| GameEnd::LastManTaken {
            draw: after.has_insufficient_material(Color::Black),
            men_left: after.board().by_color(Color::White).count() > 1,
        })
    }

    /// The PGN result: `1-0`, `1/2-1/2` or `*`.
    pub fn result(&self) -> &'static str {
        match self {
            GameEnd::Checkmate => "1-0",
            GameEnd::Stalemate | GameEnd::LastManTaken { draw: true, .. } => "1/2-1/2",
            GameEnd::LastManTaken { draw: false, .. }
            | GameEnd::Refused(_)
            | GameEnd::Cycle
            | GameEnd::Unfinished
            | GameEnd::InProgress
            | GameEnd::IllegalMoves(_) => "*",
        }
    }

    /// A stable name of the end, for JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            GameEnd::Checkmate => "checkmate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::LastManTaken { .. } => "lost_piece",
            GameEnd::Refused(_) => "refusal",
            GameEnd::Cycle => "cycle",
            GameEnd::Unfinished => "unfinished",
            GameEnd::InProgress => "in_progress",
            GameEnd::IllegalMoves(_) => "illegal_moves",
        }
    }

    /// The PGN Termination tag; none for a game still in progress.
    fn termination(&self) -> Option<&'static str> {
        match self {
            GameEnd::Checkmate | GameEnd::Stalemate | GameEnd::LastManTaken { draw: true, .. } => {
                Some("normal")
            }
            GameEnd::LastManTaken { draw: false, .. }
            | GameEnd::Refused(_)
            | GameEnd::Cycle
            | GameEnd::Unfinished
            | GameEnd::IllegalMoves(_) => Some("unterminated"),
            GameEnd::InProgress => None,
        }
    }
}

/// The one wording of how a game ended: the terminal, the web and the PGN
/// comment all show this.
impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Checkmate => f.write_str("Checkmate. White wins."),
            GameEnd::Stalemate => f.write_str("Stalemate: a draw."),
            GameEnd::LastManTaken { draw, men_left } => {
                f.write_str(match men_left {
                    false => "Black took White's last man: ",
                    true => "Black took a man White cannot mate without: ",
                })?;
                f.write_str(match draw {
                    true => "a draw.",
                    false => "White cannot mate, and Black can.",
                })
            }
            GameEnd::Refused(refusal) => write!(f, "The automaton refuses: {refusal}."),
            GameEnd::Cycle => f.write_str("The position repeats: the automaton never mates."),
            GameEnd::Unfinished => f.write_str("Game stopped."),
            GameEnd::InProgress => f.write_str("The game goes on."),
            GameEnd::IllegalMoves(count) => {
                write!(f, "The machine stops playing after {count} illegal moves.")
            }
        }
    }
}

/// One ply of a game, to show or replay.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Ply {
    pub uci: String,
    pub san: String,
    /// The position after the move.
    pub fen: String,
}

/// The FEN of a position (en passant only where legal).
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// One game: where it started, who played, the moves and how it ended.
#[derive(Debug, Clone)]
pub struct Game {
    pub white: String,
    pub black: String,
    pub start: Chess,
    pub moves: Vec<Move>,
    pub end: GameEnd,
}

impl Game {
    /// Number of White's moves in the game.
    pub fn white_moves(&self) -> usize {
        match self.start.turn() {
            Color::White => self.moves.len().div_ceil(2),
            Color::Black => self.moves.len() / 2,
        }
    }

    /// The moves one by one, each with the position after it (its move
    /// number counted on past u32::MAX, where shakmaty's stops).
    pub fn plies(&self) -> Vec<Ply> {
        let mut position = self.start.clone();
        self.moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let uci = mv.to_uci(CastlingMode::Standard).to_string();
                let san = SanPlus::from_move_and_play_unchecked(&mut position, mv).to_string();
                Ply {
                    uci,
                    san,
                    fen: fen_with_fullmoves(&position, fullmoves_after(&self.start, i + 1)),
                }
            })
            .collect()
    }

    /// The FEN after the last move, its move number counted as in
    /// [`Game::plies`].
    pub fn final_fen(&self) -> String {
        let plies = self.moves.len();
        fen_with_fullmoves(&self.final_position(), fullmoves_after(&self.start, plies))
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Chess {
        let mut position = self.start.clone();
        for mv in &self.moves {
            position.play_unchecked(*mv);
        }
        position
    }

    /// The game in PGN export format, with the tags White, Black, FEN,
    /// SetUp, Result, Termination (unless the game goes on) and PlyCount.
    pub fn to_pgn(&self) -> String {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let result = self.end.result();
        let plies = self.moves.len().to_string();
        let tags = [
            ("Event", Some("ajedrecista")),
            ("Site", Some("?")),
            ("Date", Some("????.??.??")),
            ("Round", Some("-")),
            ("White", Some(self.white.as_str())),
            ("Black", Some(self.black.as_str())),
            ("Result", Some(result)),
            ("SetUp", Some("1")),
            ("FEN", Some(fen.as_str())),
            ("Termination", self.end.termination()),
            ("PlyCount", Some(plies.as_str())),
        ];
        let closing = (!matches!(self.end, GameEnd::Checkmate | GameEnd::InProgress))
            .then(|| self.end.to_string());
        pgn_export(&tags, &self.start, &self.moves, &[], closing, result)
    }
}

/// PGN export text: the tags given (those with a value), then the moves
/// from `start` in SAN, numbered, with `comments[i]` in braces after move
/// `i` where there is one, a `closing` comment and the result, in lines of
/// at most 79 characters.
pub fn pgn_export(
    tags: &[(&str, Option<&str>)],
    start: &Chess,
    moves: &[Move],
    comments: &[String],
    closing: Option<String>,
    result: &str,
) -> String {
    let mut pgn = String::new();
    for (tag, value) in tags
        .iter()
        .filter_map(|(tag, value)| Some((tag, (*value)?)))
    {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        writeln!(pgn, "[{tag} \"{value}\"]").expect("writing to a String");
    }
    pgn.push('\n');

    let mut tokens = Vec::new();
    let mut position = start.clone();
    // Counted here, in u64: shakmaty's fullmove counter stops at
    // u32::MAX, and a FEN may start just below it.
    let mut number = u64::from(start.fullmoves().get());
    for (i, mv) in moves.iter().enumerate() {
        if position.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        if position.turn() == Color::Black {
            number += 1;
        }
        tokens.push(SanPlus::from_move_and_play_unchecked(&mut position, *mv).to_string());
        if let Some(comment) = comments.get(i) {
            tokens.push(format!("{{{comment}}}"));
        }
    }
    if let Some(closing) = closing {
        tokens.push(format!("{{{closing}}}"));
    }
    tokens.push(result.to_string());

    let mut line_length = 0;
    for token in tokens {
        if line_length > 0 && line_length + 1 + token.len() > 79 {
            pgn.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            pgn.push(' ');
            line_length += 1;
        }
        pgn.push_str(&token);
        line_length += token.len();
    }
    pgn.push('\n');
    pgn
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_after(fen: &str, uci: &str) -> Option<GameEnd> {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("a legal position");
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .expect("a move")
            .to_move(&pos)
            .expect("a legal move");
        let mut after = pos.clone();
        after.play_unchecked(mv);
        GameEnd::after_black_move(mv, &after)
    }

    #[test]
    fn a_capture_that_leaves_white_unable_to_mate_says_which_man_went() {
        let last = end_after("8/8/8/8/8/2k5/2R5/K7 b - - 0 1", "c3c2");
        assert_eq!(
            last.map(|end| end.to_string()).as_deref(),
            Some("Black took White's last man: a draw.")
        );
        let knight = end_after("8/8/8/8/8/2k5/2N5/K1B5 b - - 0 1", "c3c2");
        assert_eq!(
            knight,
            Some(GameEnd::LastManTaken {
                draw: true,
                men_left: true
            })
        );
        assert_eq!(
            knight.map(|end| end.to_string()).as_deref(),
            Some("Black took a man White cannot mate without: a draw.")
        );
        // A rook left can still mate: the game goes on.
        assert_eq!(end_after("8/8/8/8/8/2k5/2N5/KR6 b - - 0 1", "c3c2"), None);
    }
}
