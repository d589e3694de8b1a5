//! `ajedrecista uci` through a pipe, as a chess GUI drives it.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(input: &str) -> String {
    session_bytes(input.as_bytes())
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

#[test]
fn a_gui_conversation_gets_legal_answers() {
    let out = session(
        "uci\nsetoption name Strategy value mk61-rook\nisready\nucinewgame\n\
         position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 1\ngo wtime 300000 btime 300000\n\
         position fen 8/8/8/4k3/8/8/R7/4K3 w - - 0 1 moves a2a4 e5d5\ngo movetime 100\n\
         flip the board\nposition startpos\ngo\nquit\nisready\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"uciok"));
    assert!(lines.contains(&"readyok"));
    let best: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect();
    // The reference trace: Ra4 (display 14.), then the program's answer.
    assert_eq!(best[0], "a2a4");
    // (The reason's wording is the automaton's own.)
    assert!(
        lines.iter().any(
            |line| line.starts_with("info string mk61-rook: ") && line.ends_with("(shows 14.)")
        ),
        "{out}"
    );
    assert_eq!(best.len(), 3, "{out}");
    assert_eq!(best[2], "0000");
    // Nothing after quit.
    assert_eq!(lines.iter().filter(|line| **line == "readyok").count(), 1);
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
