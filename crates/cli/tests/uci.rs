//! `ajedrecista uci` through a pipe, as a chess GUI drives it.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn session_in(tables: &std::path::Path, input: &str) -> String {
    let out = common::run_with_input(&["uci"], input.as_bytes(), tables);
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn session_bytes(input: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .arg("uci")
        .env("AJEDRECISTA_TABLES", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let written = child.stdin.take().unwrap().write_all(input);
    // The engine may quit before the rest of the input is read.
    if let Err(err) = written {
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::BrokenPipe,
            "input written: {err}"
        );
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A GUI waits for each `bestmove` before it goes on.
#[test]
fn a_gui_conversation_gets_legal_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = Live::start(dir.path());
    engine.send("uci\nsetoption name Strategy value mk61-rook\nisready\nucinewgame");
    engine.until("uciok", PROMPT);
    engine.until("readyok", PROMPT);
    let mut said = Vec::new();
    for go in [
        "position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 1\ngo wtime 300000 btime 300000",
        "position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 1 moves a2a4 e5d5\ngo movetime 100",
        "flip the board\nposition startpos\ngo",
    ] {
        engine.send(go);
        said.extend(engine.until("bestmove", Duration::from_secs(10)).0);
    }
    let best: Vec<&str> = said
        .iter()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect();
    // The reference trace: Ra4 (display 14.), then the program's answer.
    assert_eq!(best[0], "a2a4", "{said:?}");
    // (The reason's wording is the automaton's own.)
    assert!(
        said.iter().any(
            |line| line.starts_with("info string mk61-rook: ") && line.ends_with("(shows 14.)")
        ),
        "{said:?}"
    );
    assert_eq!(best.len(), 3, "{said:?}");
    assert_eq!(best[2], "0000");
    // Nothing after quit.
    engine.send("quit\nisready");
    let started = Instant::now();
    while engine.child.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < Duration::from_secs(5), "still running");
        std::thread::sleep(Duration::from_millis(20));
    }
    let after: Vec<String> = engine.lines.try_iter().collect();
    assert!(after.is_empty(), "{after:?}");
}

/// A line that is not UTF-8 is skipped with a note; the engine goes on.
#[test]
fn a_line_that_is_not_utf8_is_ignored() {
    let out = session_bytes(b"uci\n\xff\xfe go\r\nisready\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"uciok"), "{out}");
    assert!(
        lines.contains(&"info string the line is not UTF-8; it was ignored"),
        "{out}"
    );
    assert!(lines.contains(&"readyok"), "{out}");
}

/// An engine talked to line by line, its answers read as they come.
struct Live {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Live {
    fn start(tables: &std::path::Path) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
            .arg("uci")
            .env("AJEDRECISTA_TABLES", tables)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                if send.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Live {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to the first that starts with `prefix`, and how long
    /// it took to come; fails after `limit`.
    fn until(&self, prefix: &str, limit: Duration) -> (Vec<String>, Duration) {
        let started = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = limit.saturating_sub(started.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return (seen, started.elapsed());
                    }
                }
                Err(_) => panic!("no {prefix:?} within {limit:?}: {seen:?}"),
            }
        }
    }

    /// Sends `quit`; the process must end within `limit`.
    fn quit(mut self, limit: Duration) {
        self.send("quit");
        let started = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < limit, "still running after quit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Generous: the engine answers in milliseconds, the machine may be busy.
const PROMPT: Duration = Duration::from_secs(2);

/// Whether `text` is a legal move in `fen`.
fn legal_in(fen: &str, text: &str) -> bool {
    let position: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    text.parse::<shakmaty::uci::UciMove>()
        .ok()
        .and_then(|mv| mv.to_move(&position).ok())
        .is_some()
}

/// Perfect play from KRNvKB with an empty cache wants a build of about
/// half a minute (27.8 s on 2 cores): meanwhile `isready`, `go movetime`
/// and `stop` are answered at once, and `quit` stops the build.
#[test]
fn a_build_in_the_background_blocks_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("KRNvKB.standard.ajt");
    let fen = "8/8/8/4k3/8/5b2/8/KRN5 w - - 0 1";
    let mut engine = Live::start(dir.path());
    engine.send("uci");
    engine.until("uciok", PROMPT);
    engine.send("setoption name Strategy value perfect");
    engine.send(&format!("position fen {fen}"));
    engine.send("isready");
    let (_, took) = engine.until("readyok", PROMPT);
    assert!(!file.exists(), "readyok came after the build ({took:?})");
    engine.send("go movetime 100");
    let (said, took) = engine.until("bestmove", PROMPT);
    let best = said.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(legal_in(fen, best), "{said:?}");
    assert!(
        said.iter()
            .any(|line| line.starts_with("info string waiting for table KRNvKB")),
        "{said:?}"
    );
    assert!(said.iter().any(|line| line.contains(" score ")), "{said:?}");
    assert!(!file.exists(), "bestmove came after the build ({took:?})");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let (said, _) = engine.until("bestmove", PROMPT);
    let best = said.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(legal_in(fen, best), "{said:?}");
    assert!(!file.exists());
    engine.quit(Duration::from_secs(5));
    // The build was stopped, not finished.
    assert!(!file.exists());
}

/// The minor-piece methods' own tables take seconds (bishop-knight about
/// 4.5 s): a timed `go` is answered in its time meanwhile, saying so, and
/// one without limits waits for the table and plays the method's move.
#[test]
fn a_method_table_is_waited_for_only_as_long_as_go_allows() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "8/8/k7/3N4/K7/8/8/1B6 w - - 0 1";
    let mut engine = Live::start(dir.path());
    engine.send("setoption name Strategy value bishop-knight");
    engine.send(&format!("position fen {fen}"));
    engine.send("go movetime 50");
    let (said, _) = engine.until("bestmove", PROMPT);
    assert!(
        said.iter()
            .any(|line| line.starts_with("info string waiting for bishop-knight's own table")),
        "{said:?}"
    );
    assert!(legal_in(
        fen,
        said.last().unwrap().strip_prefix("bestmove ").unwrap()
    ));
    engine.send("go");
    let (said, _) = engine.until("bestmove", Duration::from_secs(30));
    assert!(
        said.iter()
            .any(|line| line.starts_with("info string bishop-knight: ")),
        "{said:?}"
    );
    engine.quit(Duration::from_secs(5));
}

/// What the engine says is true: no position after a refused one, no
/// move after an illegal one, a draw scored in one clause, the tables'
/// reach the same as `probe`'s, a display only for the calculators.
#[test]
fn the_engine_says_what_is_true() {
    let dir = tempfile::tempdir().unwrap();
    let out = session_in(
        dir.path(),
        "position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1\nposition fen 8/8/8/8/8/8/8/9 w - - 0 1\ngo\n\
         position fen K7/R7/3k4/8/8/8/8/8 w - - 0 1 moves a7a1 d6d4\ngo\n\
         position fen K7/1R6/3k4/8/8/8/8/8 w - - 0 1\ngo\n\
         setoption name Strategy value perfect\n\
         position fen 8/8/8/4k3/3r4/8/8/K6R w - - 0 1\ngo\n\
         position fen 8/8/8/8/8/2k5/1R6/KQ4rr w - - 0 1\ngo\n",
    );
    let answers: Vec<&str> = out.split("bestmove ").collect();
    assert_eq!(answers.len(), 6, "{out}");
    // A refused position: no position, no move.
    assert!(
        answers[0].contains("info string no position: the last position command was refused"),
        "{out}"
    );
    assert!(answers[1].starts_with("0000"), "{out}");
    // An illegal move: no move for either side.
    assert!(
        answers[1].contains("illegal move d6d4 (illegal move 1 of 3)"),
        "{out}"
    );
    assert!(answers[2].starts_with("0000"), "{out}");
    // El Ajedrecista shows no calculator display.
    assert!(answers[2].contains("info string torres: rule"), "{out}");
    assert!(!out.contains("(shows"), "{out}");
    // A draw: the refusal in one clause, and its score.
    assert!(
        answers[3].contains(
            "info string perfect refuses: rule undefined here: the tables give White no win here; the tables' move\ninfo depth 0 score cp 0\n"
        ),
        "{out}"
    );
    // Six men: the same reach as probe's.
    assert!(answers[5].starts_with("0000"), "{out}");
    assert!(answers[4].contains("3 to 5 men"), "{out}");
    let probe = common::run(&["probe", "8/8/8/8/8/2k5/1R6/KQ4rr w - - 0 1"], dir.path());
    let refused = String::from_utf8(probe.stderr).unwrap();
    let reach = "tables of more than 5 men are served only when built beforehand";
    assert!(
        refused.contains(reach) && answers[4].contains(reach),
        "{refused}\n{out}"
    );
}
