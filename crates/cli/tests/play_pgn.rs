//! Issue 57, item 2: `play --pgn` never loses the game. The path is
//! checked before the first move, and the PGN is written at every end: a
//! signal, a closed or full stdout, `quit`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// `play --pgn PGN` with the given stdout, its stdin a pipe.
fn spawn_play(pgn: &Path, tables: &Path, stdout: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["play", "--pgn", pgn.to_str().unwrap()])
        .env("AJEDRECISTA_TABLES", tables)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Reads `stdout` until a line containing `wanted` has come and the line
/// after it (the machine's reply), within 60 s; the reader is handed back.
fn read_past(stdout: ChildStdout, wanted: &str) -> BufReader<ChildStdout> {
    let (sent, received) = mpsc::channel();
    let looked_for = wanted.to_owned();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut seen = Vec::new();
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            seen.push(std::mem::take(&mut line));
            if seen.len() >= 2 && seen[seen.len() - 2].contains(&looked_for) {
                sent.send(Ok(reader)).ok();
                return;
            }
        }
        sent.send(Err(seen.concat())).ok();
    });
    match received.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok(reader)) => reader,
        Ok(Err(seen)) => panic!("stdout ended before {wanted:?}:\n{seen}"),
        Err(_) => panic!("no {wanted:?} within 60 s"),
    }
}

/// Waits at most 60 s for the child to end.
fn wait_within(mut child: Child) -> std::process::ExitStatus {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().ok();
    panic!("the binary did not end within 60 s");
}

/// The PGN in `path`, which must hold the placement on d6 and `moves`.
fn assert_pgn(path: &Path, moves: &[&str], result: &str) {
    let pgn =
        std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    assert!(pgn.contains("[FEN \""), "{pgn}");
    assert!(pgn.contains("3k4"), "the black king placed on d6: {pgn}");
    for mv in moves {
        assert!(pgn.contains(&format!(" {mv}")), "{mv} in {pgn}");
    }
    assert!(pgn.trim_end().ends_with(result), "{result}: {pgn}");
}

#[test]
fn a_missing_folder_is_refused_before_the_first_move() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("missing").join("g.pgn");
    let out = common::run_with_input(
        &["play", "--pgn", pgn.to_str().unwrap()],
        b"d6\nKd5\n",
        tables.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("g.pgn"), "{stderr}");
    assert!(out.stdout.is_empty(), "no play before the check");
    // A folder where the file should be: refused too.
    let out = common::run_with_input(
        &["play", "--pgn", dir.path().to_str().unwrap()],
        b"d6\n",
        tables.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_signal_writes_the_game_so_far() {
    let tables = tempfile::tempdir().unwrap();
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("g.pgn");
        let mut child = spawn_play(&pgn, tables.path(), Stdio::piped());
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"d6\nKd5\n").unwrap();
        let _reader = read_past(child.stdout.take().unwrap(), "You play Kd5");
        // SAFETY: kill sends a signal to the child we started.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let status = wait_within(child);
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_pgn(&pgn, &["Kd5"], "*");
        drop(stdin);
    }
}

#[test]
fn a_closed_stdout_writes_the_game_and_ends_quietly() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let mut child = spawn_play(&pgn, tables.path(), Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"d6\nKd5\n").unwrap();
    // The reader goes, as `head` does: the rest of that turn's board, or
    // the next move's answer, meets the closed pipe.
    drop(read_past(child.stdout.take().unwrap(), "You play Kd5"));
    // The binary may have ended already.
    let _ = stdin.write_all(b"Kc4\n");
    drop(stdin);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = wait_within(child);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_pgn(&pgn, &["Kd5"], "*");
}

#[test]
fn a_full_stdout_writes_the_game_and_says_why_it_stopped() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    // From a FEN, the game has started before the first line is shown.
    let out = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["play", "--fen", "8/8/3k4/8/8/8/8/R3K3 w - - 0 1"])
        .args(["--white", "perfect", "--pgn", pgn.to_str().unwrap()])
        .env("AJEDRECISTA_TABLES", tables.path())
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[FEN \"8/8/3k4/8/8/8/8/R3K3 w - - 0 1\"]"),
        "{text}"
    );
}

#[test]
fn quit_writes_the_game() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let out = common::run_with_input(
        &["play", "--pgn", pgn.to_str().unwrap()],
        b"d6\nKd5\nquit\nKc4\n",
        tables.path(),
    );
    common::assert_success(&out);
    assert_pgn(&pgn, &["Kd5"], "*");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(!text.contains("Kc4"), "nothing after quit: {text}");
}
