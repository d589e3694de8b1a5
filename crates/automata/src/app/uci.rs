//! The automata as a UCI engine: one line in, the lines to answer out.
//!
//! The engine keeps no clock and starts no thread. What takes too long for
//! an answer (a table's build, a method's own table) it hands out as
//! [`Work`] for a runner to do in the background ([`UciEngine::next_work`]);
//! a `go` that needs it says how long it may wait ([`UciAnswer::wait`]);
//! the runner reports back: the work done ([`UciEngine::work_done`]), its
//! progress, the time up ([`UciEngine::time_up`]). `ajedrecista uci` is
//! that runner; tests and the fuzz target do the work in line.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ajedrecista_tables::{Material, Progress, Syzygy, TableError, Tablebase, Variant};
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::app::probe::{BuildPolicy, tables_move};
use crate::app::quick_move::{quick_move, uci_score};
use crate::catalog::{Panel, StrategyName};
use crate::game::GameEnd;
use crate::replay::{IllegalMoves, MoveList, ReplayStop};
use crate::session::DEFAULT_ILLEGAL_LIMIT;
use crate::triangle_forcing::MethodTable;

/// The highest IllegalMoveLimit offered.
pub const MAX_ILLEGAL_LIMIT: u32 = 1000;

/// A `go` with a clock may wait for work this share of the time left (plus
/// half the increment); `movetime` nine tenths of its time.
const SHARE_OF_CLOCK: u32 = 20;

/// What is too slow for an answer and is done in the background.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Work {
    /// An automaton's own table (the minor-piece methods' triangles).
    MethodTable(StrategyName),
    /// A table, with the tables its moves lead into.
    Table(Material),
}

impl Work {
    /// Does the work; a table's build ends early once `stop` is raised
    /// ([`TableError::Stopped`]). A method's table is seconds and cannot
    /// be stopped.
    pub fn run(&self, tables: &Tablebase, stop: &AtomicBool) -> Result<(), TableError> {
        match self {
            Work::MethodTable(name) => {
                if let Some(table) = name.entry().method_table {
                    table.calculate();
                }
                Ok(())
            }
            Work::Table(material) => tables.prepare(material, Variant::Standard, stop),
        }
    }

    /// Whether it is done already: nothing would wait for it.
    pub fn is_done(&self, tables: &Tablebase) -> bool {
        match self {
            Work::MethodTable(name) => name.entry().method_table.is_none_or(MethodTable::is_ready),
            Work::Table(material) => tables.prober().has_table(material, Variant::Standard),
        }
    }
}

impl fmt::Display for Work {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Work::MethodTable(name) => write!(f, "{name}'s own table"),
            Work::Table(material) => write!(f, "table {material}"),
        }
    }
}

/// How long a `go` waits for the work its move needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Budget {
    /// Until `stop`, the answer held (`infinite`, `ponder`).
    UntilStop,
    /// Until the work is done or `stop` (no limit given).
    UntilDone,
    /// At most this long, then the quick move.
    Within(Duration),
}

impl Budget {
    /// The budget of `go`'s words for the side `turn`.
    fn of(words: &[&str], turn: Color) -> Budget {
        if words
            .iter()
            .any(|&word| word == "infinite" || word == "ponder")
        {
            return Budget::UntilStop;
        }
        let millis = |name: &str| {
            let at = words.iter().position(|&word| word == name)?;
            words.get(at + 1)?.parse::<u64>().ok()
        };
        let (time, increment) = match turn {
            Color::White => ("wtime", "winc"),
            Color::Black => ("btime", "binc"),
        };
        if let Some(movetime) = millis("movetime") {
            Budget::Within(Duration::from_millis(movetime) * 9 / 10)
        } else if let Some(left) = millis(time) {
            let share = left / u64::from(SHARE_OF_CLOCK) + millis(increment).unwrap_or(0) / 2;
            Budget::Within(Duration::from_millis(share.min(left / 2)))
        } else {
            Budget::UntilDone
        }
    }
}

/// A `go` not answered yet.
struct Search {
    game: MoveList,
    budget: Budget,
    /// The work its move waits for; `None` once the answer is held.
    waits_for: Option<Work>,
    /// The answer found, held until `stop`.
    held: Option<String>,
}

/// The engine between commands. White is played by the automaton set with
/// the Strategy option; where it has no move, the tables answer for up to
/// five men ([`BuildPolicy::Patient`], built in the background).
pub struct UciEngine {
    tables: Arc<Tablebase>,
    strategy: StrategyName,
    /// Illegal moves met in `position` commands since `ucinewgame`.
    illegal: IllegalMoves,
    /// The game of the last `position` command, or why there is none.
    game: Result<MoveList, String>,
    search: Option<Search>,
    /// Work wanted, the first first.
    queue: VecDeque<Work>,
    /// The work handed out and not reported done.
    running: Option<Work>,
    /// Work that failed, not waited for again (the move then says why).
    failed: HashSet<Work>,
    /// Where the running work stands, in words.
    progress: Option<String>,
    /// Lines put off until a waiting `go` is answered.
    deferred: VecDeque<String>,
    /// Syzygy's files (the `SyzygyPath` option): the quick move's first
    /// source while a table is built.
    syzygy: Option<Syzygy>,
}

/// The engine's answer to one line or report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct UciAnswer {
    /// The lines to send, in order, without line ends.
    pub lines: Vec<String>,
    /// `quit` was read: the engine is done.
    pub quit: bool,
    /// A `go` waits for work: call [`UciEngine::time_up`] after this long
    /// unless it was answered first.
    pub wait: Option<Duration>,
}

impl UciEngine {
    /// The engine, the default strategy's tables wanted at once.
    pub fn new(tables: Arc<Tablebase>) -> UciEngine {
        let mut engine = UciEngine {
            tables,
            strategy: StrategyName::TORRES,
            illegal: IllegalMoves::new(DEFAULT_ILLEGAL_LIMIT),
            game: Ok(MoveList::read(Chess::default(), &[])),
            search: None,
            queue: VecDeque::new(),
            running: None,
            failed: HashSet::new(),
            progress: None,
            deferred: VecDeque::new(),
            syzygy: None,
        };
        engine.want_strategy_work();
        engine
    }

    /// The automaton playing White.
    pub fn strategy(&self) -> StrategyName {
        self.strategy
    }

    /// Handles one line (its line end removed).
    pub fn command(&mut self, line: &str) -> UciAnswer {
        let mut out = UciAnswer::default();
        self.command_into(line, &mut out);
        out
    }

    fn command_into(&mut self, line: &str, out: &mut UciAnswer) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words.first().copied();
        // A GUI waits for `bestmove` before it sends these; a script piped
        // in does not, and gets them done in order once it comes.
        if self.waiting() && matches!(first, Some("position" | "go" | "setoption" | "ucinewgame")) {
            self.deferred.push_back(line.to_string());
            return;
        }
        match first {
            Some("uci") => self.handshake(&mut out.lines),
            Some("isready") => out.lines.push("readyok".into()),
            Some("ucinewgame") => {
                self.illegal.clear();
                self.game = Ok(MoveList::read(Chess::default(), &[]));
            }
            Some("setoption") => self.set_option(&words[1..], &mut out.lines),
            Some("position") => self.position(&words[1..], &mut out.lines),
            Some("go") => self.go(&words[1..], out),
            Some("stop") | Some("ponderhit") => self.stop(out),
            Some("quit") => {
                // A `go` not answered yet is answered now, as `stop` would.
                self.stop(out);
                self.deferred.clear();
                out.quit = true;
            }
            // UCI: unknown commands are ignored.
            _ => {}
        }
    }

    /// The lines put off while a `go` waited, done now that it is
    /// answered, up to one that waits again.
    fn run_deferred(&mut self, out: &mut UciAnswer) {
        while !self.waiting()
            && let Some(line) = self.deferred.pop_front()
        {
            self.command_into(&line, out);
        }
    }

    /// The next work to do, marked as running; `None` while one runs or
    /// none is wanted.
    pub fn next_work(&mut self) -> Option<Work> {
        if self.running.is_some() {
            return None;
        }
        while let Some(work) = self.queue.pop_front() {
            if !work.is_done(&self.tables) && !self.failed.contains(&work) {
                self.running = Some(work.clone());
                return Some(work);
            }
        }
        None
    }

    /// Where the running work stands: a build of `material` (the table
    /// wanted, or one it reads) at `progress`.
    pub fn progress(&mut self, material: &Material, progress: Progress) {
        self.progress = Some(match progress {
            Progress::FirstPass { examined, total } => {
                format!("{material}: first pass, {}%", examined * 100 / total.max(1))
            }
            Progress::Rank { rank, decided } => {
                format!("{material}: rank {rank}, {decided} positions decided")
            }
            Progress::Slice {
                done, total, pawns, ..
            } => format!("{material}: slice {pawns}, {done} of {total}"),
        });
    }

    /// `work`, handed out by [`UciEngine::next_work`], is over: a `go`
    /// that waited for it may be answered now.
    pub fn work_done(&mut self, work: &Work, result: Result<(), TableError>) -> UciAnswer {
        let mut out = UciAnswer::default();
        if self.running.as_ref() == Some(work) {
            self.running = None;
            self.progress = None;
        }
        if let Err(why) = result {
            out.lines.push(format!("info string {work} failed: {why}"));
            self.failed.insert(work.clone());
        }
        let Some(search) = self.search.as_mut() else {
            return out;
        };
        if search.waits_for.is_none() {
            return out;
        }
        let game = search.game.clone();
        match self.first_needed(&game) {
            Some(next) => {
                self.want(next.clone());
                if let Some(search) = self.search.as_mut() {
                    search.waits_for = Some(next);
                }
            }
            None => {
                let answer = self.best_move(&game, &mut out.lines);
                self.answer(answer, &mut out.lines);
                self.run_deferred(&mut out);
            }
        }
        out
    }

    /// The time of a waiting `go` is up: the quick move.
    pub fn time_up(&mut self) -> UciAnswer {
        let mut out = UciAnswer::default();
        if self
            .search
            .as_ref()
            .is_some_and(|search| matches!(search.budget, Budget::Within(_)))
        {
            self.stop_because("the time is up", &mut out);
        }
        out
    }

    /// The input is over (a script piped in): a `go infinite` is stopped,
    /// a `go` with a limit or none still waits for its answer.
    pub fn input_ended(&mut self) -> UciAnswer {
        let mut out = UciAnswer::default();
        if self
            .search
            .as_ref()
            .is_some_and(|search| search.budget == Budget::UntilStop)
        {
            self.stop(&mut out);
        }
        out
    }

    /// Whether a `go` waits for work (the runner then reports the time).
    pub fn waiting(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| search.waits_for.is_some())
    }

    /// What the work a `go` waits for has come to, for an `info` line now
    /// and then.
    pub fn report(&self) -> Vec<String> {
        match self.search.as_ref().and_then(|s| s.waits_for.as_ref()) {
            Some(work) => vec![self.waiting_line(work)],
            None => Vec::new(),
        }
    }

    fn waiting_line(&self, work: &Work) -> String {
        let doing = match (&self.running, &self.progress) {
            (Some(running), Some(progress)) if running == work => format!("building: {progress}"),
            (Some(running), _) if running == work => "under way".to_string(),
            (Some(running), _) => format!("after {running}"),
            (None, _) => "about to start".to_string(),
        };
        format!("info string waiting for {work} ({doing})")
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
        out.push("option name SyzygyPath type string default <empty>".into());
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
                Ok(strategy) => {
                    self.strategy = strategy;
                    self.want_strategy_work();
                }
                Err(err) => out.push(format!("info string {err}")),
            },
            "syzygypath" => {
                let dir = value.trim();
                self.syzygy = None;
                if !dir.is_empty() && dir != "<empty>" {
                    match Syzygy::open(Path::new(dir)) {
                        Ok(syzygy) => {
                            out.push(format!(
                                "info string SyzygyPath: {} files of Syzygy's tables in {dir}",
                                syzygy.files()
                            ));
                            self.syzygy = Some(syzygy);
                        }
                        Err(err) => out.push(format!("info string SyzygyPath: {err}")),
                    }
                }
            }
            "illegalmovelimit" => match value.trim().parse::<u32>() {
                Ok(limit) if limit <= MAX_ILLEGAL_LIMIT => self.illegal.limit = limit,
                _ => out.push(format!(
                    "info string IllegalMoveLimit {value:?} is not 0-{MAX_ILLEGAL_LIMIT}"
                )),
            },
            _ => {}
        }
    }

    /// `position startpos|fen FEN [moves ...]`: an illegal move is reported
    /// and counted, and leaves no position to move from; the tables the
    /// position needs are wanted at once.
    fn position(&mut self, words: &[&str], out: &mut Vec<String>) {
        let game = match MoveList::from_position_command(words) {
            Ok(game) => game,
            Err(why) => {
                // The previous position is gone too: `go` must not answer
                // for it.
                out.push(format!("info string {why}"));
                self.game = Err(format!("the last position command was refused ({why})"));
                return;
            }
        };
        self.illegal.record(&game);
        if let Some(text) = &game.illegal {
            out.push(format!(
                "info string illegal move {text} ({}): no move is given until a position without it",
                self.illegal.count()
            ));
        }
        for work in self.needs(&game).into_iter().rev() {
            if !work.is_done(&self.tables) {
                self.want(work);
            }
        }
        self.game = Ok(game);
    }

    fn go(&mut self, words: &[&str], out: &mut UciAnswer) {
        // A `go` before the last one was answered: the last one is dropped.
        self.search = None;
        let game = match &self.game {
            Ok(game) => game.clone(),
            Err(why) => {
                out.lines.push(format!("info string no position: {why}"));
                return out.lines.push("bestmove 0000".into());
            }
        };
        let budget = Budget::of(words, game.position().turn());
        if let Some(why) = self.no_move(&game) {
            out.lines.push(format!("info string {why}"));
            self.search = Some(Search {
                game,
                budget,
                waits_for: None,
                held: None,
            });
            return self.answer("0000".into(), &mut out.lines);
        }
        let waits_for = self.first_needed(&game);
        if let Some(work) = &waits_for {
            self.want(work.clone());
            out.lines.push(self.waiting_line(work));
            if let Budget::Within(wait) = budget {
                out.wait = Some(wait);
            }
        }
        self.search = Some(Search {
            game: game.clone(),
            budget,
            waits_for: waits_for.clone(),
            held: None,
        });
        if waits_for.is_none() {
            let answer = self.best_move(&game, &mut out.lines);
            self.answer(answer, &mut out.lines);
        }
    }

    /// The search's answer: sent now, or held until `stop`.
    fn answer(&mut self, answer: String, out: &mut Vec<String>) {
        match self.search.as_mut() {
            Some(search) if search.budget == Budget::UntilStop => {
                search.waits_for = None;
                search.held = Some(answer);
            }
            _ => {
                self.search = None;
                out.push(format!("bestmove {answer}"));
            }
        }
    }

    /// `stop`: the held answer, or the quick move if the search still waits.
    fn stop(&mut self, out: &mut UciAnswer) {
        self.stop_because("stopped", out);
    }

    fn stop_because(&mut self, why: &str, out: &mut UciAnswer) {
        let Some(search) = self.search.take() else {
            return;
        };
        let answer = match (search.held, search.waits_for) {
            (Some(answer), _) => answer,
            (None, Some(work)) => self.quick(&search.game, &work, why, &mut out.lines),
            (None, None) => return,
        };
        out.lines.push(format!("bestmove {answer}"));
        self.run_deferred(out);
    }

    /// Why `game` gets no move at all.
    fn no_move(&self, game: &MoveList) -> Option<String> {
        if let Some(end) = self.illegal.end() {
            return Some(end.to_string());
        }
        if let Some(text) = &game.illegal {
            return Some(format!(
                "no move: the position's move {text} is illegal (send the game without it)"
            ));
        }
        if game.position().legal_moves().is_empty() {
            return Some("no legal move".into());
        }
        None
    }

    /// The work the move in `game` needs, in order: the automaton's own
    /// table, the table of the game's start (its session values the start)
    /// and of the position; tables only up to five men, or in the cache
    /// folder.
    fn needs(&self, game: &MoveList) -> Vec<Work> {
        let position = game.position();
        let table = |position: &Chess| {
            BuildPolicy::Patient
                .material(&self.tables, position, Variant::Standard)
                .ok()
                .map(Work::Table)
        };
        let mut works = Vec::new();
        if position.turn() == Color::White {
            if self.strategy.entry().method_table.is_some() {
                works.push(Work::MethodTable(self.strategy));
            }
            works.extend(table(&game.start));
        }
        works.extend(table(&position));
        works
    }

    fn first_needed(&self, game: &MoveList) -> Option<Work> {
        self.needs(game)
            .into_iter()
            .find(|work| !work.is_done(&self.tables) && !self.failed.contains(work))
    }

    /// Puts `work` first in the queue.
    fn want(&mut self, work: Work) {
        self.queue.retain(|queued| *queued != work);
        self.queue.push_front(work);
    }

    /// The strategy's own table and the table of its demonstration's
    /// material: what its first move most likely needs.
    fn want_strategy_work(&mut self) {
        let demo = self.strategy.demo_position();
        if let Ok(material) = Material::from_board(demo.board()) {
            self.want(Work::Table(material));
        }
        if self.strategy.entry().method_table.is_some() {
            self.want(Work::MethodTable(self.strategy));
        }
    }

    /// The move from the tables at hand and a short search, while `work`
    /// is not done.
    fn quick(&self, game: &MoveList, work: &Work, why: &str, out: &mut Vec<String>) -> String {
        out.push(format!(
            "{}; {why}: a quick move from the tables at hand and a two-ply search",
            self.waiting_line(work)
        ));
        let position = game.position();
        if let Some(Ok(Some(found))) = self.syzygy.as_ref().map(|s| s.engine_move(&position)) {
            out.push(format!(
                "info string Syzygy's best move: {} (DTZ {})",
                found.value.wdl.as_str(),
                found.value.dtz
            ));
            out.push(format!("info depth 1 score cp {}", found.centipawns));
            return uci(found.best);
        }
        match quick_move(&self.tables, &position) {
            Some((mv, score)) => {
                out.push(format!("info depth 2 {}", score.uci()));
                uci(mv)
            }
            None => "0000".into(),
        }
    }

    /// The answer to `go` once what it needs is at hand, with `info`
    /// lines on the way.
    fn best_move(&self, game: &MoveList, out: &mut Vec<String>) -> String {
        let position = game.position();
        let why_not = if position.turn() == Color::White {
            match game.automaton_move(Arc::clone(&self.tables), self.strategy) {
                Ok(reply) => {
                    let entry = self.strategy.entry();
                    // Only the calculators have a display to show.
                    let shows = match entry.panel {
                        Panel::Display => format!(" (shows {})", reply.display),
                        _ => String::new(),
                    };
                    out.push(format!(
                        "info string {}: {}{shows}",
                        self.strategy, reply.reason
                    ));
                    if entry.plays_from_tables
                        && let Ok(value) = self.tables.probe(&position, Variant::Standard)
                    {
                        out.push(info_score(value));
                    }
                    return uci(reply.mv);
                }
                Err(why) => refusal_text(&why),
            }
        } else {
            "the automata play White".to_string()
        };
        match tables_move(&self.tables, &position, BuildPolicy::Patient) {
            Ok((mv, value)) => {
                out.push(format!("info string {why_not}; the tables' move"));
                out.push(info_score(value));
                uci(mv)
            }
            Err(why) => {
                out.push(format!("info string {why_not}; no move: {why}"));
                "0000".into()
            }
        }
    }
}

/// `info depth D score ...` of a position's value for the side to move
/// (D its plies to mate; a draw's depth 0).
fn info_score(value: ajedrecista_tables::Value) -> String {
    let depth = value.plies().map_or(0, |plies| plies.0);
    format!("info depth {depth} {}", uci_score(value))
}

/// Why the automaton gives no move, as a clause (the game's sentence
/// without its full stop).
fn refusal_text(why: &ReplayStop) -> String {
    match why {
        ReplayStop::Ended {
            strategy,
            end: GameEnd::Refused(refusal),
        } => format!("{strategy} refuses: {refusal}"),
        other => other.to_string().trim_end_matches('.').to_string(),
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajedrecista_tables::{CastlingRights, read_fen};

    /// The engine's answers to `lines`, the work it wants done in line
    /// after each, as a patient runner would.
    fn talk(engine: &mut UciEngine, lines: &[&str]) -> String {
        let mut text = String::new();
        for line in lines {
            let answer = engine.command(line);
            push(&mut text, &answer.lines);
            settle(engine, &mut text);
        }
        text
    }

    /// Does the work the engine wants, in line.
    fn settle(engine: &mut UciEngine, text: &mut String) {
        while let Some(work) = engine.next_work() {
            let result = work.run(&engine.tables, &AtomicBool::new(false));
            push(text, &engine.work_done(&work, result).lines);
        }
    }

    fn push(text: &mut String, lines: &[String]) {
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
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
        assert!(text.contains("option name SyzygyPath type string default <empty>"));
        assert!(text.contains("uciok\nreadyok\n"));
        assert_eq!(text.lines().count(), 7);
        assert!(engine.command("quit").quit);
    }

    #[test]
    fn torres_answers_from_its_start_and_remembers_the_game() {
        let mut engine = engine();
        let start = "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1";
        let text = talk(&mut engine, &["ucinewgame", start, "go depth 3"]);
        assert_eq!(best(&text), "b7a7");
        assert!(text.contains("info string torres: rule"), "{text}");
        // El Ajedrecista has lamps, no calculator display.
        assert!(!text.contains("shows"), "{text}");
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
        let (mv, value) = tables_move(&engine.tables, &position, BuildPolicy::Patient).unwrap();
        assert_eq!(best(&text), uci(mv));
        assert!(text.contains(&info_score(value)), "{text}");
        // Black to move and not mated: the tables' move.
        let text = go_from(&mut engine, "3k4/8/3K4/8/8/8/8/R7 b - - 0 1");
        assert_ne!(best(&text), "0000", "{text}");
        assert!(text.contains("score mate -"), "{text}");
    }

    #[test]
    fn a_draw_is_scored_and_said_in_one_clause() {
        let mut engine = engine();
        // Rook against rook: no win for the tables.
        let text = talk(
            &mut engine,
            &[
                "setoption name Strategy value perfect",
                "position fen 8/8/8/4k3/3r4/8/8/K6R w - - 0 1",
                "go movetime 50",
            ],
        );
        assert!(
            text.contains(
                "info string perfect refuses: rule undefined here: the tables give White no win here; the tables' move\n"
            ),
            "{text}"
        );
        assert!(text.contains("info depth 0 score cp 0\n"), "{text}");
        assert!(!text.contains("shows"), "{text}");
    }

    #[test]
    fn only_the_calculators_show_a_display() {
        let mut engine = engine();
        let text = talk(
            &mut engine,
            &[
                "setoption name Strategy value mk61-rook",
                "position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 1",
                "go",
            ],
        );
        assert!(text.contains("(shows 14.)"), "{text}");
    }

    #[test]
    fn without_a_move_to_give_the_answer_is_0000_with_the_reason() {
        // (the position's commands, what the answer says)
        let cases: [(&[&str], &str); 6] = [
            // Mated: no legal move.
            (
                &["position fen R2k4/8/3K4/8/8/8/8/8 b - - 0 1"],
                "no legal move",
            ),
            // The full chess start: no automaton and no table.
            (&["position startpos moves e2e4"], "32 men is too many"),
            // Six men: the tables are not built on request.
            (
                &["position fen 8/8/8/8/8/2k5/1R6/KQ4rr b - - 0 1"],
                "tables of more than 5 men",
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
                "info string no position: the last position command was refused",
            ),
            // An illegal move in the list: no move for the side that made
            // it, nor for the other.
            (
                &["position fen K7/R7/3k4/8/8/8/8/8 w - - 0 1 moves a7a1 d6d4"],
                "the position's move d6d4 is illegal",
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
        assert_eq!(best(&text), "0000");
        // The same illegal move again is not counted twice.
        let text = talk(
            &mut engine,
            &[&format!("{fen} d6d7"), &format!("{fen} d6d4"), "go"],
        );
        assert!(text.contains("illegal move 2 of 2"), "{text}");
        assert!(text.contains("The machine stops playing"), "{text}");
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

    /// A `go` whose table is not built waits no longer than its time, then
    /// answers a quick move; with the table built, the tables' own move.
    #[test]
    fn a_go_waits_for_its_table_within_its_time() {
        let mut engine = engine();
        // The default strategy's table is wanted from the start.
        assert_eq!(
            engine.next_work(),
            Some(Work::Table("KRvK".parse().unwrap()))
        );
        // Perfect play from king and queen against king and rook, not
        // built: the position wants its table first.
        engine.command("setoption name Strategy value perfect");
        let fen = "8/8/8/4k3/8/8/r7/KQ6 w - - 0 1";
        engine.command(&format!("position fen {fen}"));
        let answer = engine.command("go movetime 100");
        assert_eq!(answer.wait, Some(Duration::from_millis(90)));
        assert!(
            answer
                .lines
                .iter()
                .all(|line| !line.starts_with("bestmove")),
            "{answer:?}"
        );
        assert!(answer.lines[0].starts_with("info string waiting for table KQvKR"));
        assert!(engine.waiting());
        let quick = engine.time_up();
        let best = quick
            .lines
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap();
        let position = read_fen(fen, CastlingRights::Refused).unwrap();
        let legal: Vec<String> = position.legal_moves().into_iter().map(uci).collect();
        assert!(legal.contains(&best.to_string()), "{quick:?}");
        assert!(quick.lines[0].contains("the time is up"), "{quick:?}");
        assert!(!engine.waiting());
        // The KRvK build reported done; the table wanted next is KQvKR's.
        let krk = Work::Table("KRvK".parse().unwrap());
        engine.work_done(&krk, krk.run(&engine.tables, &AtomicBool::new(false)));
        assert_eq!(
            engine.next_work(),
            Some(Work::Table("KQvKR".parse().unwrap()))
        );
        // A `go` without limits waits for the build and then answers.
        let answer = engine.command("go");
        assert_eq!(answer.wait, None);
        // A script's next `go` is put off until this one is answered.
        assert_eq!(engine.command("go movetime 10"), UciAnswer::default());
        assert_eq!(engine.command("isready").lines, ["readyok"]);
        let work = Work::Table("KQvKR".parse().unwrap());
        let done = engine.work_done(&work, work.run(&engine.tables, &AtomicBool::new(false)));
        let (mv, _) = tables_move(&engine.tables, &position, BuildPolicy::Patient).unwrap();
        let best = format!("bestmove {}", uci(mv));
        let answers: Vec<&String> = done
            .lines
            .iter()
            .filter(|line| line.starts_with("bestmove"))
            .collect();
        assert_eq!(answers, [&best, &best], "{done:?}");
        assert!(
            done.lines.iter().any(|line| line.contains("score mate")),
            "{done:?}"
        );
    }

    /// While the table `perfect` needs is not built, the quick move is
    /// Syzygy's best move, scored from its WDL and DTZ; a folder that is
    /// not one is said in one line, and leaves the option unset.
    #[test]
    fn with_syzygy_files_the_quick_move_is_syzygys() {
        let mut engine = engine();
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../tables/tests/data/syzygy");
        let bad = engine.command("setoption name SyzygyPath value /no/such/folder");
        assert_eq!(bad.lines.len(), 1);
        assert!(
            bad.lines[0].starts_with("info string SyzygyPath: "),
            "{bad:?}"
        );
        let set = engine.command(&format!("setoption name SyzygyPath value {folder}"));
        assert!(set.lines[0].contains("files of Syzygy's tables"), "{set:?}");
        engine.command("setoption name Strategy value perfect");
        // KRvKR: a draw Syzygy holds, not built here.
        engine.command("position fen 8/8/8/4k3/8/2R5/8/1K2r3 w - - 0 1");
        let answer = engine.command("go movetime 100");
        assert!(answer.wait.is_some(), "{answer:?}");
        let quick = engine.time_up();
        let text = quick.lines.join("\n");
        assert!(text.contains("Syzygy's best move: draw"), "{text}");
        assert!(text.contains("score cp 0"), "{text}");
        let best = quick.lines.last().unwrap();
        let mv = best.strip_prefix("bestmove ").unwrap();
        let pos = read_fen("8/8/8/4k3/8/2R5/8/1K2r3 w - - 0 1", CastlingRights::Refused).unwrap();
        assert!(pos.legal_moves().iter().any(|m| uci(*m) == mv), "{best}");
        engine.command("setoption name SyzygyPath value <empty>");
        engine.command("position fen 8/8/8/4k3/8/2R5/8/1K2r3 w - - 0 1");
        engine.command("go movetime 100");
        let text = engine.time_up().lines.join("\n");
        assert!(!text.contains("Syzygy"), "{text}");
    }

    #[test]
    fn stop_ends_a_waiting_go_infinite_with_a_quick_move() {
        let mut engine = engine();
        engine.command("setoption name Strategy value bishop-knight");
        // The method's own table first (unless another test of this
        // process has calculated it), then its material's.
        let name: StrategyName = "bishop-knight".parse().unwrap();
        let ready = name.entry().method_table.unwrap().is_ready();
        let first = engine.next_work().unwrap();
        assert!(
            first == Work::MethodTable(name)
                || (ready && first == Work::Table("KBNvK".parse().unwrap())),
            "{first:?}"
        );
        engine.command("position fen 8/8/k7/3N4/K7/8/8/1B6 w - - 0 1");
        let answer = engine.command("go infinite");
        assert!(
            answer
                .lines
                .iter()
                .all(|line| !line.starts_with("bestmove"))
        );
        assert_eq!(answer.wait, None);
        assert!(engine.time_up().lines.is_empty(), "infinite has no time");
        let stopped = engine.command("stop");
        let best = stopped.lines.last().unwrap();
        assert!(
            best.starts_with("bestmove ") && best != "bestmove 0000",
            "{stopped:?}"
        );
        assert!(engine.command("stop").lines.is_empty());
        // The end of the input stops a `go infinite`; `quit` answers a
        // waiting `go` before it quits.
        engine.command("go infinite");
        let ended = engine.input_ended();
        assert!(
            ended.lines.last().unwrap().starts_with("bestmove "),
            "{ended:?}"
        );
        engine.command("go");
        assert!(engine.input_ended().lines.is_empty());
        let quit = engine.command("quit");
        assert!(quit.quit && quit.lines.last().unwrap().starts_with("bestmove "));
    }

    #[test]
    fn budgets_follow_the_clock() {
        let of = |text: &str, turn| Budget::of(&text.split(' ').collect::<Vec<_>>(), turn);
        assert_eq!(of("infinite", Color::White), Budget::UntilStop);
        assert_eq!(of("depth 3", Color::White), Budget::UntilDone);
        assert_eq!(
            of("wtime 60000 btime 1000 winc 2000", Color::White),
            Budget::Within(Duration::from_millis(4000))
        );
        assert_eq!(
            of("wtime 60000 btime 1000", Color::Black),
            Budget::Within(Duration::from_millis(50))
        );
    }
}
