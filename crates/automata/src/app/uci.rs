//! The automata as a UCI engine: one line in, the lines to answer out.
//! `ajedrecista uci` feeds it stdin and prints what it says; the fuzz
//! target feeds it bytes.

use std::sync::Arc;

use ajedrecista_tables::{Tablebase, Variant};
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::app::probe::{BuildPolicy, tables_move};
use crate::catalog::StrategyName;
use crate::replay::{IllegalMoves, MoveList};
use crate::session::DEFAULT_ILLEGAL_LIMIT;

/// The highest IllegalMoveLimit offered.
pub const MAX_ILLEGAL_LIMIT: u32 = 1000;

/// The engine between commands. White is played by the automaton set with
/// the Strategy option; where it has no move, the tables answer for small
/// material ([`BuildPolicy::Interactive`]).
pub struct UciEngine {
    tables: Arc<Tablebase>,
    strategy: StrategyName,
    /// Illegal moves met in `position` commands since `ucinewgame`.
    illegal: IllegalMoves,
    /// The game of the last `position` command.
    game: MoveList,
    /// A `go infinite` or `go ponder` answer, held until `stop`.
    pending: Option<String>,
}

/// The engine's answer to one line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct UciAnswer {
    /// The lines to send, in order, without line ends.
    pub lines: Vec<String>,
    /// `quit` was read: the engine is done.
    pub quit: bool,
}

impl UciEngine {
    pub fn new(tables: Arc<Tablebase>) -> UciEngine {
        UciEngine {
            tables,
            strategy: StrategyName::TORRES,
            illegal: IllegalMoves::new(DEFAULT_ILLEGAL_LIMIT),
            game: MoveList::read(Chess::default(), &[]),
            pending: None,
        }
    }

    /// The automaton playing White.
    pub fn strategy(&self) -> StrategyName {
        self.strategy
    }

    /// Handles one line (its line end removed).
    pub fn command(&mut self, line: &str) -> UciAnswer {
        let mut out = UciAnswer::default();
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => self.handshake(&mut out.lines),
            Some("isready") => out.lines.push("readyok".into()),
            Some("ucinewgame") => {
                self.illegal.clear();
                self.game = MoveList::read(Chess::default(), &[]);
            }
            Some("setoption") => self.set_option(&words.collect::<Vec<_>>(), &mut out.lines),
            Some("position") => self.position(&words.collect::<Vec<_>>(), &mut out.lines),
            Some("go") => {
                let answer = self.best_move(&mut out.lines);
                let waits = line
                    .split_whitespace()
                    .any(|word| word == "infinite" || word == "ponder");
                if waits {
                    self.pending = Some(answer);
                } else {
                    out.lines.push(format!("bestmove {answer}"));
                }
            }
            Some("stop") | Some("ponderhit") => {
                if let Some(answer) = self.pending.take() {
                    out.lines.push(format!("bestmove {answer}"));
                }
            }
            Some("quit") => out.quit = true,
            // UCI: unknown commands are ignored.
            _ => {}
        }
        out
    }

    fn handshake(&self, out: &mut Vec<String>) {
        out.push(format!("id name ajedrecista {}", env!("CARGO_PKG_VERSION")));
        out.push("id author the ajedrecista developers".into());
        let vars: Vec<String> = StrategyName::ALL
            .iter()
            .map(|name| format!("var {name}"))
            .collect();
        out.push(format!(
            "option name Strategy type combo default {} {}",
            StrategyName::TORRES,
            vars.join(" ")
        ));
        out.push(format!(
            "option name IllegalMoveLimit type spin default {DEFAULT_ILLEGAL_LIMIT} min 0 max {MAX_ILLEGAL_LIMIT}"
        ));
        out.push("uciok".into());
    }

    fn set_option(&mut self, words: &[&str], out: &mut Vec<String>) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return;
        };
        let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
        match name.trim().to_ascii_lowercase().as_str() {
            "strategy" => match value.trim().parse() {
                Ok(strategy) => self.strategy = strategy,
                Err(err) => out.push(format!("info string {err}")),
            },
            "illegalmovelimit" => match value.trim().parse::<u32>() {
                Ok(limit) if limit <= MAX_ILLEGAL_LIMIT => self.illegal.limit = limit,
                _ => out.push(format!(
                    "info string IllegalMoveLimit {value:?} is not 0-{MAX_ILLEGAL_LIMIT}"
                )),
            },
            _ => {}
        }
    }

    /// `position startpos|fen FEN [moves ...]`: an illegal move is reported,
    /// counted, and ends the list there.
    fn position(&mut self, words: &[&str], out: &mut Vec<String>) {
        self.game = match MoveList::from_position_command(words) {
            Ok(game) => game,
            Err(why) => {
                // The previous position is gone too: `go` must not answer
                // for it. The start position is one no automaton plays.
                self.game = MoveList::read(Chess::default(), &[]);
                return out.push(format!("info string {why}"));
            }
        };
        self.illegal.record(&self.game);
        if let Some(text) = &self.game.illegal {
            out.push(format!(
                "info string illegal move {text} ({}); the moves after it are ignored",
                self.illegal.count()
            ));
        }
    }

    /// The answer to `go`, with `info` lines on the way.
    fn best_move(&self, out: &mut Vec<String>) -> String {
        let position = self.game.position();
        if position.legal_moves().is_empty() {
            out.push("info string no legal move".into());
            return "0000".into();
        }
        if let Some(end) = self.illegal.end() {
            out.push(format!("info string {end}"));
            return "0000".into();
        }
        let why_not = if position.turn() == Color::White {
            match self
                .game
                .automaton_move(Arc::clone(&self.tables), self.strategy)
            {
                Ok(reply) => {
                    out.push(format!(
                        "info string {}: {} (shows {})",
                        self.strategy, reply.reason, reply.display
                    ));
                    if self.strategy.entry().plays_from_tables
                        && let Ok(value) = self.tables.probe(&position, Variant::Standard)
                        && let (Some(dtm), Some(plies)) =
                            (value.white_mates_in(position.turn()), value.plies())
                    {
                        out.push(format!("info depth {plies} score mate {dtm}"));
                    }
                    return uci(reply.mv);
                }
                Err(why) => why.to_string(),
            }
        } else {
            "the automata play White".to_string()
        };
        out.push(format!("info string {why_not}; the tables' move"));
        match tables_move(&self.tables, &position, BuildPolicy::Interactive) {
            Ok(mv) => uci(mv),
            Err(why) => {
                out.push(format!("info string {why}: no move"));
                "0000".into()
            }
        }
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, read_fen};

    fn talk(engine: &mut UciEngine, lines: &[&str]) -> String {
        let mut text = String::new();
        for line in lines {
            for answer in engine.command(line).lines {
                text.push_str(&answer);
                text.push('\n');
            }
        }
        text
    }

    /// The engine's answer to `go` from `fen` (its moves after `moves`).
    fn go_from(engine: &mut UciEngine, fen: &str) -> String {
        talk(engine, &[&format!("position fen {fen}"), "go"])
    }

    fn best(text: &str) -> &str {
        text.lines()
            .rev()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("a bestmove")
    }

    fn engine() -> UciEngine {
        UciEngine::new(Arc::new(Tablebase::in_memory()))
    }

    #[test]
    fn handshake_lists_every_strategy() {
        let mut engine = engine();
        let text = talk(&mut engine, &["uci", "isready", "nonsense here"]);
        assert!(text.starts_with("id name ajedrecista"));
        for name in StrategyName::all() {
            assert!(text.contains(&format!("var {name}")), "{name}");
        }
        assert!(text.contains("option name IllegalMoveLimit type spin default 3"));
        assert!(text.contains("uciok\nreadyok\n"));
        assert_eq!(text.lines().count(), 6);
        assert!(engine.command("quit").quit);
    }

    #[test]
    fn torres_answers_from_its_start_and_remembers_the_game() {
        let mut engine = engine();
        let start = "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1";
        let text = talk(&mut engine, &["ucinewgame", start, "go depth 3"]);
        assert_eq!(best(&text), "b7a7");
        assert!(text.contains("info string torres: rule"), "{text}");
        let moves = format!("{start} moves b7a7 d6c5");
        let text = talk(&mut engine, &[&moves, "go wtime 1000 btime 1000"]);
        assert_eq!(best(&text), "a7h7");
    }

    #[test]
    fn a_white_move_not_its_own_puts_the_automaton_out_of_the_game() {
        let text = go_from(
            &mut engine(),
            "K7/1R6/3k4/8/8/8/8/8 w - - 0 1 moves b7b1 d6c5",
        );
        assert!(
            text.contains("White's move b7b1 of the game was not torres's"),
            "{text}"
        );
        assert!(text.contains("the tables' move"), "{text}");
    }

    #[test]
    fn outside_the_rules_the_tables_move() {
        let mut engine = engine();
        // Rook on c7: outside El Ajedrecista's preconditions.
        let fen = "K7/2R5/3k4/8/8/8/8/8 w - - 0 1";
        let text = go_from(&mut engine, fen);
        assert!(text.contains("info string torres cannot play"), "{text}");
        let position = read_fen(fen, CastlingRights::Refused).unwrap();
        let mv = tables_move(&engine.tables, &position, BuildPolicy::Interactive).unwrap();
        assert_eq!(best(&text), uci(mv));
        // Black to move and not mated: the tables' move.
        let text = go_from(&mut engine, "3k4/8/3K4/8/8/8/8/R7 b - - 0 1");
        assert_ne!(best(&text), "0000", "{text}");
    }

    #[test]
    fn without_a_move_to_give_the_answer_is_0000_with_the_reason() {
        // (the position's commands, what the answer says)
        let cases: [(&[&str], &str); 5] = [
            // Mated: no legal move.
            (&["position fen R2k4/8/3K4/8/8/8/8/8 b - - 0 1"], "bestmove"),
            // The full chess start: no automaton and no table.
            (&["position startpos moves e2e4"], "32 men is too many"),
            // Five men: the tables are not built for a UCI answer.
            (
                &["position fen 8/8/8/8/8/2k5/1R6/KQ5r b - - 0 1"],
                "tables of more than 4 men",
            ),
            // Castling rights: the tables refuse them, with the reason.
            (
                &["position fen 6k1/8/8/8/8/8/8/4K2R b K - 0 1"],
                "castling rights",
            ),
            // A rejected position leaves no position to answer for.
            (
                &[
                    "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1",
                    "position fen not a fen",
                ],
                "info string",
            ),
        ];
        let mut engine = engine();
        for (commands, reason) in cases {
            let text = talk(&mut engine, &[commands, &["go movetime 10"]].concat());
            assert_eq!(best(&text), "0000", "{commands:?}: {text}");
            assert!(text.contains(reason), "{commands:?}: {text}");
        }
    }

    #[test]
    fn illegal_moves_count_and_stop_the_engine_at_the_limit() {
        let mut engine = engine();
        let fen = "position fen K7/R7/3k4/8/8/8/8/8 b - - 0 1 moves";
        let text = talk(
            &mut engine,
            &[
                "setoption name IllegalMoveLimit value 2",
                &format!("{fen} d6d7"),
                "go",
            ],
        );
        assert!(
            text.contains("illegal move d6d7 (illegal move 1 of 2)"),
            "{text}"
        );
        // The same illegal move again is not counted twice.
        let text = talk(
            &mut engine,
            &[&format!("{fen} d6d7"), &format!("{fen} d6d4"), "go"],
        );
        assert!(text.contains("illegal move 2 of 2"), "{text}");
        assert_eq!(best(&text), "0000");
        let text = talk(&mut engine, &["ucinewgame", &format!("{fen} d6c6"), "go"]);
        assert_ne!(best(&text), "0000");
    }

    #[test]
    fn go_infinite_waits_for_stop_and_options_switch_strategy() {
        let mut engine = engine();
        let text = talk(
            &mut engine,
            &[
                "setoption name Strategy value perfect",
                "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1",
                "go infinite",
            ],
        );
        assert!(!text.contains("bestmove"));
        assert!(text.contains("info depth 29 score mate 15"), "{text}");
        let text = talk(&mut engine, &["stop"]);
        assert!(text.starts_with("bestmove "));
        let text = talk(&mut engine, &["setoption name Strategy value nobody"]);
        assert!(text.contains("unknown strategy"));
        assert_eq!(engine.strategy(), StrategyName::PERFECT);
    }
}
