//! `ajedrecista play`: a person, moving the black king, against an
//! automaton, in the terminal or through a pipe.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

use ajedrecista_automata::{
    DEFAULT_ILLEGAL_LIMIT, GameEnd, GameView, LampView, MoveError, Opening, ReplyView, Session,
    StrategyName, Turn,
};
use ajedrecista_input::LineReader;

use super::play_pgn::PgnKeeper;
use crate::diagram::diagram;
use crate::fen::parse_fen;
use crate::input::next_typed;
use crate::tables_args::TablesArgs;

/// Play the black king against an automaton (El Ajedrecista by default,
/// from its own start: you place the black king, then the machine moves).
#[derive(clap::Args)]
pub struct Args {
    /// Your side: black, the lone king against an automaton; or white, to
    /// practise giving the mate against the tables' best defence (each
    /// move weighed, hints from --method, a summary at the end).
    #[arg(long = "as", value_enum, default_value = "black")]
    side: Side,
    /// With --as white: the method that gives hints (rook-box, queen-box,
    /// bishops, bishop-knight, ...); its own start without --fen.
    #[arg(long, value_name = "METHOD")]
    method: Option<StrategyName>,
    /// The automaton playing White: torres (El Ajedrecista), perfect, or
    /// any other of the catalog (mk61-rook, ...).
    #[arg(long, value_name = "STRATEGY", default_value_t = StrategyName::TORRES)]
    white: StrategyName,
    /// Start from this position instead of placing the black king.
    #[arg(long)]
    fen: Option<String>,
    /// How moves are echoed besides SAN.
    #[arg(long, value_enum, default_value = "san")]
    notation: Notation,
    /// Show a board after each move, or the MK-61 display.
    #[arg(long, value_enum, default_value = "board")]
    display: DisplayKind,
    /// Write the game as PGN to this file at its end (also on Ctrl-C,
    /// SIGTERM, SIGHUP, or an error).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Illegal moves after which the machine stops (0: never).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ILLEGAL_LIMIT)]
    illegal_limit: u32,
    #[command(flatten)]
    tables: TablesArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Notation {
    /// Standard algebraic notation only.
    San,
    /// SAN and the seed's numeric squares (11 = a1 .. 88 = h8).
    Numeric,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DisplayKind {
    /// A Unicode board with the last move marked.
    Board,
    /// The answer as the MK-61's display shows it.
    Calculator,
}

const HELP: &str = "\
Move the black king: Kb7 (SAN), b8b7 (UCI), b7 (the square), 27 or 2.7 (the
calculator's file and rank digits). Commands:
  help   this text
  board  show the board
  undo   take back your last move (and the machine's reply)
  quit   end the game";

/// What the terminal can do: colour only when stdout is a terminal.
struct Screen {
    tty: bool,
    options: Args,
}

impl Screen {
    fn lamp(&self, text: &str) -> String {
        if self.tty {
            format!("\x1b[1;31m● LAMP\x1b[0m {text}")
        } else {
            format!("LAMP: {text}")
        }
    }

    fn emphasis(&self, text: &str) -> String {
        if self.tty {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn board(&self, session: &Session) -> String {
        diagram(&session.board(), session.last_move_squares())
    }

    fn machine(&self, game: &GameView, reply: &ReplyView) -> String {
        let mut line = format!("White plays {}", self.emphasis(&reply.san));
        if self.options.notation == Notation::Numeric {
            line.push_str(&format!(" ({})", reply.numeric));
        }
        if self.options.display == DisplayKind::Calculator {
            line.push_str(&format!("   MK-61: [ {} ]", reply.display));
        }
        if !reply.reason.is_empty() {
            line.push_str(&format!("   ({})", reply.reason));
        }
        if reply.check && !reply.mate {
            line.push_str("\nCheck.");
        }
        if game.strategy == StrategyName::PERFECT
            && let Some(dtm) = game.dtm
        {
            line.push_str(&format!("\nPerfect play: mate in {dtm}."));
        }
        line
    }

    fn after_move(&self, session: &Session, out: &mut impl Write) -> io::Result<()> {
        if self.options.display == DisplayKind::Board {
            writeln!(out, "\n{}", self.board(session))?;
        }
        Ok(())
    }

    fn turn(&self, session: &Session, turn: &Turn, out: &mut impl Write) -> io::Result<()> {
        let person = match (turn.person.mv, self.options.notation) {
            (None, Notation::San) => format!("Black king placed on {}", turn.person.san),
            (None, Notation::Numeric) => format!(
                "Black king placed on {} ({})",
                turn.person.san, turn.person.numeric
            ),
            (Some(_), Notation::San) => format!("You play {}", turn.person.san),
            (Some(_), Notation::Numeric) => {
                format!("You play {} ({})", turn.person.san, turn.person.numeric)
            }
        };
        writeln!(out, "{person}")?;
        let game = session.view();
        if turn.reply.is_some()
            && let Some(reply) = &game.last_reply
        {
            writeln!(out, "{}", self.machine(&game, reply))?;
        }
        self.after_move(session, out)
    }

    fn end(&self, session: &Session, end: &GameEnd, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", self.emphasis(&end.to_string()))?;
        self.summary(session, out)
    }

    fn summary(&self, session: &Session, out: &mut impl Write) -> io::Result<()> {
        let game = session.view();
        let Some(pgn) = &game.pgn else {
            return writeln!(out, "No game was played.");
        };
        let result = game.end.as_ref().map_or("*", |end| end.result);
        writeln!(out, "Result: {result}")?;
        writeln!(out, "White's moves: {}", game.white_moves)?;
        match game.start_dtm {
            Some(dtm) => writeln!(out, "Perfect play would mate from the start in {dtm}.")?,
            None => writeln!(out, "Perfect play: no forced mate from the start.")?,
        }
        writeln!(out, "\n{pgn}")
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.side == Side::White {
        if args.pgn.is_some() {
            anyhow::bail!("--pgn records games played as Black; practice as White keeps none yet");
        }
        return super::practice::run(&args.tables, args.fen.as_deref(), args.method);
    }
    if args.method.is_some() {
        anyhow::bail!("--method gives hints when you play White: add --as white");
    }
    // First: the path checked, and the signals taken before any thread
    // starts.
    let keeper = args.pgn.as_deref().map(PgnKeeper::start).transpose()?;
    let tables = Arc::new(args.tables.open());
    let opening = match &args.fen {
        Some(fen) => Opening::Position(parse_fen(fen)?),
        None => Opening::machine_start(args.white),
    };
    let mut session = Session::new(Arc::clone(&tables), args.white, opening, args.illegal_limit)?;
    let screen = Screen {
        tty: io::stdout().is_terminal(),
        options: args,
    };
    let stdin = io::stdin();
    let prompt = stdin.is_terminal();
    let mut out = crate::output::stdout_lock();
    let played = play(
        &screen,
        &mut session,
        stdin.lock(),
        &mut out,
        prompt,
        keeper.as_ref(),
    );
    // Written whatever ended the game; a failure to write it comes first.
    let written = match &keeper {
        Some(keeper) => keeper.finish(session.pgn())?,
        None => false,
    };
    played?;
    if let Some(path) = screen.options.pgn.as_ref().filter(|_| written) {
        writeln!(out, "PGN written to {}", path.display())?;
    }
    Ok(())
}

fn introduce(screen: &Screen, session: &Session, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "{} plays White; you move the black king. Type help for help.",
        screen.emphasis(session.strategy().label())
    )?;
    if let Some(rule) = session.illegal().rule() {
        let mut letters = rule.chars();
        let first = letters.next().map(|c| c.to_ascii_uppercase());
        writeln!(out, "{}{}.", first.unwrap_or_default(), letters.as_str())?;
    }
    if let Some(placement) = session.placement() {
        writeln!(
            out,
            "Place the black king: {} squares on ranks {}-{}, e.g. {}.",
            placement.squares,
            placement.lowest_rank.char(),
            placement.highest_rank.char(),
            placement.example,
        )?;
        writeln!(out, "\n{}", screen.board(session))?;
    } else {
        let game = session.view();
        if let Some(reply) = &game.last_reply {
            writeln!(out, "{}", screen.machine(&game, reply))?;
        }
        writeln!(out, "\n{}", screen.board(session))?;
    }
    Ok(())
}

/// The game loop: one line of input per move or command, until the game
/// ends, `quit`, or the end of the input.
fn play(
    screen: &Screen,
    session: &mut Session,
    input: impl BufRead,
    out: &mut impl Write,
    prompt: bool,
    keeper: Option<&PgnKeeper>,
) -> io::Result<()> {
    // The game so far kept before each answer is shown: a signal after
    // the answer finds it.
    let keep = |session: &Session| {
        if let Some(keeper) = keeper {
            keeper.keep(session.pgn());
        }
    };
    keep(session);
    introduce(screen, session, out)?;
    if let Some(end) = session.end() {
        return screen.end(session, &end, out);
    }
    let mut lines = LineReader::new(input);
    loop {
        // A line that is no text is not a move: no lamp, and the game goes on.
        let Some(line) = next_typed(&mut lines, out, prompt.then_some("black"))? else {
            return screen.end(session, &GameEnd::Unfinished, out);
        };
        match line.trim() {
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => writeln!(out, "{}", screen.board(session))?,
            "quit" | "exit" => return screen.end(session, &GameEnd::Unfinished, out),
            "undo" => match session.undo() {
                Ok(()) => {
                    keep(session);
                    writeln!(out, "Taken back.")?;
                    writeln!(out, "{}", screen.board(session))?;
                }
                Err(err) => writeln!(out, "Cannot undo: {err}.")?,
            },
            _ => match session.play(&line) {
                Ok(turn) => {
                    keep(session);
                    screen.turn(session, &turn, out)?;
                    if let Some(end) = &turn.end {
                        return screen.end(session, end, out);
                    }
                }
                Err(MoveError::Illegal {
                    reason, stopped, ..
                }) => {
                    keep(session);
                    let lamp = LampView::new(&reason, session.illegal());
                    writeln!(out, "{}", screen.lamp(&lamp.to_string()))?;
                    if stopped {
                        let end = session.end().expect("stopped");
                        return screen.end(session, &end, out);
                    }
                }
                Err(MoveError::NotAMove(reason)) => {
                    writeln!(out, "Not a move: {reason}. It does not count.")?;
                }
                Err(MoveError::GameOver) => {
                    let end = session.end().expect("over");
                    return screen.end(session, &end, out);
                }
            },
        }
    }
}
