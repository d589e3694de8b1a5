//! `ajedrecista uci`: the automata as a UCI engine, so that chess GUIs and
//! libraries can play against them.

use std::io::{self, Write};
use std::sync::Arc;

use ajedrecista_automata::{DEFAULT_ILLEGAL_LIMIT, IllegalMoves, MoveList, StrategyName};
use ajedrecista_input::{Line, LineReader};
use ajedrecista_tables::{Tablebase, Variant};
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::tables_args::TablesArgs;

/// Men up to which the tables answer outside an automaton's rules (larger
/// tables take minutes to build).
const TABLE_MEN: usize = 4;

/// The highest IllegalMoveLimit offered.
const MAX_ILLEGAL_LIMIT: u32 = 1000;

/// A UCI engine on stdin and stdout; White is played by the automaton set
/// with the Strategy option.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: TablesArgs,
}

/// The engine between commands.
struct Engine {
    tables: Arc<Tablebase>,
    strategy: StrategyName,
    /// Illegal moves met in `position` commands since `ucinewgame`.
    illegal: IllegalMoves,
    /// The game of the last `position` command.
    game: MoveList,
    /// A `go infinite` or `go ponder` answer, held until `stop`.
    pending: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut engine = Engine::new(Arc::new(args.tables.open()));
    let stdin = io::stdin();
    let mut out = crate::output::stdout_lock();
    for line in LineReader::new(stdin.lock()) {
        // UCI ignores what it cannot read: a line that is not UTF-8, or
        // longer than the limit, is reported and skipped, not the end of
        // the engine.
        let line = match line? {
            Line::Text(line) => line,
            refused => {
                let reason = refused.refusal().expect("a line without text");
                writeln!(out, "info string {reason}; it was ignored")?;
                out.flush()?;
                continue;
            }
        };
        if !engine.command(&line, &mut out)? {
            break;
        }
        out.flush()?;
    }
    Ok(())
}

impl Engine {
    fn new(tables: Arc<Tablebase>) -> Engine {
        Engine {
            tables,
            strategy: StrategyName::TORRES,
            illegal: IllegalMoves::new(DEFAULT_ILLEGAL_LIMIT),
            game: MoveList::read(Chess::default(), &[]),
            pending: None,
        }
    }

    /// Handles one line; `false` after `quit`.
    fn command(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                writeln!(out, "id name ajedrecista {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the ajedrecista developers")?;
                let vars: Vec<String> = StrategyName::ALL
                    .iter()
                    .map(|name| format!("var {name}"))
                    .collect();
                writeln!(
                    out,
                    "option name Strategy type combo default {} {}",
                    StrategyName::TORRES,
                    vars.join(" ")
                )?;
                writeln!(
                    out,
                    "option name IllegalMoveLimit type spin default {DEFAULT_ILLEGAL_LIMIT} min 0 max {MAX_ILLEGAL_LIMIT}"
                )?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("ucinewgame") => {
                self.illegal.clear();
                self.game = MoveList::read(Chess::default(), &[]);
            }
            Some("setoption") => self.set_option(&words.collect::<Vec<_>>(), out)?,
            Some("position") => self.position(&words.collect::<Vec<_>>(), out)?,
            Some("go") => {
                let answer = self.best_move(out)?;
                let waits = line
                    .split_whitespace()
                    .any(|word| word == "infinite" || word == "ponder");
                if waits {
                    self.pending = Some(answer);
                } else {
                    writeln!(out, "bestmove {answer}")?;
                }
            }
            Some("stop") | Some("ponderhit") => {
                if let Some(answer) = self.pending.take() {
                    writeln!(out, "bestmove {answer}")?;
                }
            }
            Some("quit") => return Ok(false),
            // UCI: unknown commands are ignored.
            _ => {}
        }
        Ok(true)
    }

    fn set_option(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return Ok(());
        };
        let (name, value) = rest.split_once(" value ").unwrap_or((rest, ""));
        match name.trim().to_ascii_lowercase().as_str() {
            "strategy" => match value.trim().parse() {
                Ok(strategy) => self.strategy = strategy,
                Err(err) => writeln!(out, "info string {err}")?,
            },
            "illegalmovelimit" => match value.trim().parse::<u32>() {
                Ok(limit) if limit <= MAX_ILLEGAL_LIMIT => self.illegal.limit = limit,
                _ => writeln!(
                    out,
                    "info string IllegalMoveLimit {value:?} is not 0-{MAX_ILLEGAL_LIMIT}"
                )?,
            },
            _ => {}
        }
        Ok(())
    }

    /// `position startpos|fen FEN [moves ...]`: an illegal move is reported,
    /// counted, and ends the list there.
    fn position(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        self.game = match MoveList::from_position_command(words) {
            Ok(game) => game,
            Err(why) => {
                // The previous position is gone too: `go` must not answer
                // for it. The start position is one no automaton plays.
                self.game = MoveList::read(Chess::default(), &[]);
                return writeln!(out, "info string {why}");
            }
        };
        self.illegal.record(&self.game);
        if let Some(text) = &self.game.illegal {
            writeln!(
                out,
                "info string illegal move {text} ({}); the moves after it are ignored",
                self.illegal.count()
            )?;
        }
        Ok(())
    }

    /// The answer to `go`, with `info` lines on the way.
    fn best_move(&self, out: &mut impl Write) -> io::Result<String> {
        let position = self.game.position();
        if position.legal_moves().is_empty() {
            writeln!(out, "info string no legal move")?;
            return Ok("0000".into());
        }
        if let Some(end) = self.illegal.end() {
            writeln!(out, "info string {end}")?;
            return Ok("0000".into());
        }
        let why_not = if position.turn() == shakmaty::Color::White {
            match self
                .game
                .automaton_move(Arc::clone(&self.tables), self.strategy)
            {
                Ok(reply) => {
                    let display = reply.display;
                    writeln!(
                        out,
                        "info string {}: {} (shows {display})",
                        self.strategy, reply.reason
                    )?;
                    if self.strategy == StrategyName::PERFECT
                        && let Ok(value) = self.tables.probe(&position, Variant::Standard)
                        && let (Some(dtm), Some(plies)) =
                            (value.white_mates_in(position.turn()), value.plies())
                    {
                        writeln!(out, "info depth {plies} score mate {dtm}")?;
                    }
                    return Ok(uci(reply.mv));
                }
                Err(why) => why.to_string(),
            }
        } else {
            "the automata play White".to_string()
        };
        writeln!(out, "info string {why_not}; the tables' move")?;
        match self.tables_move(&position) {
            Ok(mv) => Ok(uci(mv)),
            Err(why) => {
                writeln!(out, "info string {why}: no move")?;
                Ok("0000".into())
            }
        }
    }

    /// The best move by the tables (orthodox chess), for small material;
    /// otherwise why there is none. The caller has seen a legal move.
    fn tables_move(&self, position: &Chess) -> Result<Move, String> {
        if position.board().occupied().count() > TABLE_MEN {
            return Err(format!("the tables cover up to {TABLE_MEN} men"));
        }
        let moves = self
            .tables
            .moves(position, Variant::Standard)
            .map_err(|err| err.to_string())?;
        moves
            .first()
            .map(|&(mv, _)| mv)
            .ok_or_else(|| "no legal move".to_string())
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn talk(engine: &mut Engine, lines: &[&str]) -> String {
        let mut out = Vec::new();
        for line in lines {
            engine.command(line, &mut out).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    fn best(text: &str) -> &str {
        text.lines()
            .rev()
            .find_map(|line| line.strip_prefix("bestmove "))
            .expect("a bestmove")
    }

    #[test]
    fn a_rejected_position_leaves_no_position_to_answer_for() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
        let text = talk(
            &mut engine,
            &[
                "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1",
                "position fen not a fen",
                "go",
            ],
        );
        assert!(text.contains("info string"), "{text}");
        assert_eq!(best(&text), "0000", "{text}");
    }

    #[test]
    fn handshake_lists_every_strategy() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
        let text = talk(&mut engine, &["uci", "isready", "nonsense here"]);
        assert!(text.starts_with("id name ajedrecista"));
        for name in StrategyName::all() {
            assert!(text.contains(&format!("var {name}")), "{name}");
        }
        assert!(text.contains("option name IllegalMoveLimit type spin default 3"));
        assert!(text.contains("uciok\nreadyok\n"));
        assert_eq!(text.lines().count(), 6);
    }

    #[test]
    fn torres_answers_from_its_start_and_remembers_the_game() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
        let text = talk(
            &mut engine,
            &[
                "ucinewgame",
                "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1",
                "go depth 3",
            ],
        );
        assert_eq!(best(&text), "b7a7");
        assert!(text.contains("info string torres: rule"), "{text}");
        let text = talk(
            &mut engine,
            &[
                "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1 moves b7a7 d6c5",
                "go wtime 1000 btime 1000",
            ],
        );
        assert_eq!(best(&text), "a7h7");
    }

    #[test]
    fn a_white_move_not_its_own_puts_the_automaton_out_of_the_game() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
        let text = talk(
            &mut engine,
            &[
                "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1 moves b7b1 d6c5",
                "go",
            ],
        );
        assert!(
            text.contains("White's move b7b1 of the game was not torres's"),
            "{text}"
        );
        assert!(text.contains("the tables' move"), "{text}");
    }

    #[test]
    fn outside_the_rules_the_tables_move_and_without_moves_0000() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
        // Rook on c7: outside El Ajedrecista's preconditions.
        let text = talk(
            &mut engine,
            &["position fen K7/2R5/3k4/8/8/8/8/8 w - - 0 1", "go"],
        );
        assert!(text.contains("info string torres cannot play"), "{text}");
        let position: Chess = "K7/2R5/3k4/8/8/8/8/8 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = engine.tables_move(&position).unwrap();
        assert_eq!(best(&text), uci(mv));
        // Mated: no legal move.
        let text = talk(
            &mut engine,
            &["position fen 3k4/8/3K4/8/8/8/8/R7 b - - 0 1", "go"],
        );
        assert!(!text.contains("bestmove 0000"));
        let text = talk(
            &mut engine,
            &["position fen R2k4/8/3K4/8/8/8/8/8 b - - 0 1", "go"],
        );
        assert_eq!(best(&text), "0000");
        // The full chess start: no automaton and no table.
        let text = talk(
            &mut engine,
            &["position startpos moves e2e4", "go movetime 10"],
        );
        assert_eq!(best(&text), "0000");
        assert!(text.contains("the tables cover up to 4 men"));
        // Castling rights: the tables refuse them, with the reason.
        let text = talk(
            &mut engine,
            &["position fen 6k1/8/8/8/8/8/8/4K2R b K - 0 1", "go"],
        );
        assert_eq!(best(&text), "0000");
        assert!(text.contains("castling rights"), "{text}");
    }

    #[test]
    fn illegal_moves_count_and_stop_the_engine_at_the_limit() {
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
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
        let mut engine = Engine::new(Arc::new(Tablebase::in_memory()));
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
        assert_eq!(engine.strategy, StrategyName::PERFECT);
    }
}
