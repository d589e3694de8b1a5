//! A game sent whole, as UCI does: a start and every move so far, sent
//! again after each move. The game is replayed through a [`Session`] so that
//! the automaton has its memory, and the illegal moves met in such lists
//! are counted once each against the session's limit.

use std::collections::HashSet;
use std::sync::Arc;

use ajedrecista_tables::{CastlingRights, FenError, Tablebase, read_fen};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::catalog::StrategyName;
use crate::game::GameEnd;
use crate::session::{IllegalCount, MachineMove, MoveError, Opening, Session, SessionError};

/// A move list read up to its first illegal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveList {
    pub start: Chess,
    /// The legal moves before the first illegal one.
    pub moves: Vec<Move>,
    /// The first illegal move, as sent; the moves after it are ignored.
    pub illegal: Option<String>,
}

impl MoveList {
    /// Reads `texts` (UCI notation) from `start`.
    pub fn read(start: Chess, texts: &[&str]) -> MoveList {
        let mut position = start.clone();
        let mut moves = Vec::new();
        for &text in texts {
            let mv = text
                .parse::<UciMove>()
                .ok()
                .and_then(|uci| uci.to_move(&position).ok());
            let Some(mv) = mv else {
                return MoveList {
                    start,
                    moves,
                    illegal: Some(text.to_string()),
                };
            };
            position.play_unchecked(mv);
            moves.push(mv);
        }
        MoveList {
            start,
            moves,
            illegal: None,
        }
    }

    /// Reads the words after UCI's `position`: `startpos` or `fen FEN`
    /// (castling rights kept), then optionally `moves` and the moves.
    pub fn from_position_command(words: &[&str]) -> Result<MoveList, PositionCommandError> {
        let moves_at = words.iter().position(|&word| word == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") => Chess::default(),
            Some(&"fen") => read_fen(&setup[1..].join(" "), CastlingRights::Allowed)?,
            _ => return Err(PositionCommandError::NoStart),
        };
        Ok(MoveList::read(start, moves))
    }

    /// The position after the legal moves.
    pub fn position(&self) -> Chess {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            position.play_unchecked(mv);
        }
        position
    }

    /// The automaton's move at the end of the list (White to move), the
    /// game replayed through a session from the start. Once the automaton
    /// has refused, or a White move in the list is not its own (a GUI's
    /// take-back, say), it is out of this game: an automaton started afresh
    /// in mid-game could undo the tables' moves for ever.
    pub fn automaton_move(
        &self,
        tables: Arc<Tablebase>,
        strategy: StrategyName,
    ) -> Result<MachineMove, ReplayStop> {
        let mut session = Session::new(tables, strategy, Opening::Position(self.start.clone()), 0)?;
        let mut expected = session.opening_reply().cloned();
        let mut position = self.start.clone();
        for &mv in &self.moves {
            if position.turn() == Color::White {
                match &expected {
                    Some(reply) if reply.mv == mv => {}
                    Some(_) => {
                        return Err(ReplayStop::NotItsMove {
                            played: uci(mv),
                            strategy,
                        });
                    }
                    None => return Err(ReplayStop::ended(&session)),
                }
            } else {
                expected = session
                    .play(&uci(mv))
                    .map_err(|error| ReplayStop::Move { strategy, error })?
                    .reply;
            }
            position.play_unchecked(mv);
        }
        expected.ok_or_else(|| ReplayStop::ended(&session))
    }
}

/// Why a UCI `position` command gives no game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCommandError {
    #[error("position needs startpos or fen")]
    NoStart,
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// Why the automaton makes no move at the end of a replayed game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayStop {
    /// The automaton cannot start from the list's start.
    #[error(transparent)]
    Start(#[from] SessionError),
    /// A White move of the list is not the automaton's.
    #[error("White's move {played} of the game was not {strategy}'s, which is out of this game")]
    NotItsMove {
        played: String,
        strategy: StrategyName,
    },
    /// The session took no further move.
    #[error("{strategy}: {error}")]
    Move {
        strategy: StrategyName,
        error: MoveError,
    },
    /// The game ended, or the automaton refused.
    #[error("{strategy}: {end}")]
    Ended {
        strategy: StrategyName,
        end: GameEnd,
    },
}

impl ReplayStop {
    fn ended(session: &Session) -> ReplayStop {
        ReplayStop::Ended {
            strategy: session.strategy(),
            end: session.end().unwrap_or(GameEnd::Unfinished),
        }
    }
}

/// The illegal moves met in the move lists of one game (since UCI's
/// `ucinewgame`), each (position, move) counted once, since a GUI sends
/// the same list again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoves {
    seen: HashSet<(String, String)>,
    pub limit: u32,
}

impl IllegalMoves {
    pub fn new(limit: u32) -> IllegalMoves {
        IllegalMoves {
            seen: HashSet::new(),
            limit,
        }
    }

    /// Counts the list's illegal move, if any (once per position and
    /// move).
    pub fn record(&mut self, list: &MoveList) {
        if let Some(text) = &list.illegal {
            let fen = Fen::from_position(&list.position(), EnPassantMode::Legal).to_string();
            self.seen.insert((fen, text.clone()));
        }
    }

    /// Forgets the moves met (a new game).
    pub fn clear(&mut self) {
        self.seen.clear();
    }

    pub fn count(&self) -> IllegalCount {
        IllegalCount {
            count: self.seen.len() as u32,
            limit: self.limit,
        }
    }

    /// The end once the limit is reached.
    pub fn end(&self) -> Option<GameEnd> {
        let count = self.count();
        count
            .stopped()
            .then_some(GameEnd::IllegalMoves(count.count))
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_stops_at_its_first_illegal_move() {
        let list = MoveList::read(Chess::default(), &["e2e4", "e7e5", "e4e5", "d2d4"]);
        assert_eq!(list.moves.len(), 2);
        assert_eq!(list.illegal.as_deref(), Some("e4e5"));
    }

    #[test]
    fn a_position_command_is_read_up_to_its_first_illegal_move() {
        let list = MoveList::from_position_command(&["startpos", "moves", "e2e4", "e2e4"]);
        let list = list.unwrap();
        assert_eq!(
            (list.moves.len(), list.illegal.as_deref()),
            (1, Some("e2e4"))
        );
        let fen = ["fen", "8/8/1k6/8/R7/8/5K2/8", "w", "-", "-", "0", "1"];
        let list = MoveList::from_position_command(&fen).unwrap();
        assert_eq!(list.position().board().occupied().count(), 3);
        assert_eq!(
            MoveList::from_position_command(&["moves", "e2e4"]),
            Err(PositionCommandError::NoStart)
        );
        assert!(matches!(
            MoveList::from_position_command(&["fen", "8/8/8", "w"]),
            Err(PositionCommandError::Fen(_))
        ));
    }

    #[test]
    fn the_same_illegal_move_in_the_same_position_counts_once() {
        let mut illegal = IllegalMoves::new(2);
        let list = MoveList::read(Chess::default(), &["e2e5"]);
        illegal.record(&list);
        illegal.record(&list);
        assert_eq!(illegal.count().count, 1);
        assert_eq!(illegal.end(), None);
        illegal.record(&MoveList::read(Chess::default(), &["e2e4", "e7e4"]));
        assert_eq!(illegal.end(), Some(GameEnd::IllegalMoves(2)));
        illegal.clear();
        assert_eq!(illegal.count().count, 0);
    }
}
