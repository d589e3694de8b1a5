//! Issue 29's reproducers, each a test: inputs read under a bound, JSON to
//! a closed pipe, table files that are not regular files, move numbers
//! past u32, lines that are not UTF-8. Every run is bounded in time (a
//! hang fails the test) and the memory-hungry ones run under `ulimit -v`
//! of 1 GiB, as scripts/memory_budget.sh runs every command.

mod common;

use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{run, run_with_input};

const KRK: &str = "8/8/8/3k4/8/8/1R6/K7 w - - 0 1";

/// The binary with `args` under a 1 GiB address-space limit, its table
/// folder `tables`.
fn limited(args: &[&str], tables: &Path) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(args)
        .env("AJEDRECISTA_TABLES", tables);
    command
}

/// `command` started with its stdin, stdout and stderr piped.
fn spawn_piped(command: &mut Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` at most `wait`, killing it if it is not done.
fn wait_within(mut child: Child, wait: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > wait {
            let _ = child.kill();
            panic!("still running after {wait:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exit 2 and one line on stderr containing `wanted`.
fn one_line_error(out: &Output, wanted: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(wanted), "{wanted:?} not in {err}");
}

/// Item 1: JSON Lines whose reader goes after the first line end quietly
/// with exit 0, as text does: `probe --epd - --json | head -1`.
#[test]
fn json_lines_to_a_pipe_closed_early_end_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = spawn_piped(
        Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
            .args(["probe", "--epd", "-", "--json"])
            .env("AJEDRECISTA_TABLES", dir.path()),
    );
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let lines = format!("{KRK}\n").repeat(20_000);
        // The command stops reading once its output is gone.
        let _ = input.write_all(lines.as_bytes());
    });
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"{\"line\":1,\"fen\":");
    let out = wait_within(child, Duration::from_secs(60));
    feeder.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

/// The arguments of `mk61 keys --trace --json` pressing `keys` on a
/// program that never stops (each key runs it to the run limit), its
/// files written in `dir`.
fn endless_trace(dir: &Path, keys: &str) -> Vec<String> {
    let program = dir.join("loop.txt");
    std::fs::write(&program, "00. БП  01. 00\n").unwrap();
    let keys_file = dir.join("keys.txt");
    std::fs::write(&keys_file, keys).unwrap();
    let mut args: Vec<String> = ["mk61", "keys", "--trace", "--json", "--program"]
        .map(String::from)
        .into();
    args.push(program.to_str().unwrap().to_owned());
    args.push("--keys".to_owned());
    args.push(keys_file.to_str().unwrap().to_owned());
    args
}

/// Items 1 and 10: `mk61 keys --trace --json` writes each step as it
/// happens (it kept them all, and a 628-byte key file ran out of memory),
/// and its reader going away ends it quietly.
#[test]
fn a_json_trace_streams_and_ends_quietly_on_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let args = endless_trace(dir.path(), &"VO SP ".repeat(100));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = limited(&args, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = vec![0u8; 1 << 20];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    assert!(head.starts_with(b"[{\"key\":\"VO\",\"steps\":[]"));
    assert!(
        child.try_wait().unwrap().is_none(),
        "a megabyte of steps came out before the run ended"
    );
    drop(child.stdout.take());
    let out = wait_within(child, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

/// The trace's JSON, read whole, is what it was before it streamed: one
/// object a key, the steps between the key and the display.
#[test]
fn a_streamed_json_trace_reads_as_one_document() {
    let dir = tempfile::tempdir().unwrap();
    let args = endless_trace(dir.path(), "7 VO SP");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args, dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), 3);
    assert_eq!(shown[0]["key"], "7");
    assert_eq!(shown[0]["steps"], serde_json::json!([]));
    assert_eq!(shown[2]["running"], true);
    let steps = shown[2]["steps"].as_array().unwrap();
    assert!(steps.len() > 100, "{}", steps.len());
    assert!(steps.iter().all(|step| step["address"] == "00"));
}

/// The umask of this process, from /proc.
fn umask() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line.split_whitespace().nth(1).unwrap(), 8).unwrap()
}

/// Item 3: `play --pgn` writes a new file as any file is created (0666
/// less the umask), keeps an existing file's mode, and writes a file with
/// another hard link in place, so that the link sees the game.
#[test]
fn a_pgn_file_keeps_its_mode_and_its_hard_links() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let play = || {
        let out = run_with_input(
            &["play", "--pgn", pgn.to_str().unwrap()],
            b"d6\nquit\n",
            dir.path(),
        );
        assert!(out.status.success(), "{}", stderr(&out));
    };
    play();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&pgn), 0o666 & !umask());
    std::fs::set_permissions(&pgn, std::fs::Permissions::from_mode(0o640)).unwrap();
    play();
    assert_eq!(mode(&pgn), 0o640);
    let link = dir.path().join("link.pgn");
    std::fs::hard_link(&pgn, &link).unwrap();
    std::fs::write(&pgn, "old").unwrap();
    play();
    assert_eq!(std::fs::metadata(&pgn).unwrap().nlink(), 2);
    let text = std::fs::read_to_string(&link).unwrap();
    assert!(text.starts_with("[Event"), "{text}");
    assert_eq!(text, std::fs::read_to_string(&pgn).unwrap());
}

/// Item 4: opening a table for probes removes the temporary files a dead
/// writer left, as `solve` does; issue 57, item 3: those no writer holds,
/// whatever their age (a paused build's stays).
#[test]
fn a_probe_removes_stale_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    assert!(run(&["solve", "KRvK"], dir.path()).status.success());
    let dead = dir.path().join(".KRvK.standard.ajt.dead01.tmp");
    let paused = dir.path().join(".KRvK.standard.ajt.live01.tmp");
    for path in [&dead, &paused] {
        std::fs::write(path, b"partial").unwrap();
    }
    // A writer paused for two hours still holds its file's lock.
    let held = std::fs::File::options().write(true).open(&paused).unwrap();
    held.lock().unwrap();
    held.set_modified(std::time::SystemTime::now() - Duration::from_secs(7200))
        .unwrap();
    let out = run(&["probe", KRK], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!dead.exists(), "no one holds it: removed, however young");
    assert!(paused.exists(), "its writer holds it: kept, however old");
    drop(held);
    assert!(run(&["probe", KRK], dir.path()).status.success());
    assert!(!paused.exists(), "let go, it is removed");
}

/// Item 5: move numbers go on past 4294967295 (shakmaty's counter stops
/// there) in `selfplay` and `play`.
#[test]
fn move_numbers_go_on_past_u32() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "8/8/8/3k4/8/8/1R6/K7 w - - 0 4294967294";
    let out = run(&["selfplay", "perfect", "--fen", fen], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let pgn = stdout(&out);
    for number in [
        "4294967294. ",
        "4294967295. ",
        "4294967296. ",
        "4294967300. ",
    ] {
        assert!(pgn.contains(number), "{number} in {pgn}");
    }
    let out = run_with_input(
        &["play", "--white", "perfect", "--fen", fen],
        b"Kd4\nKd3\n",
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("4294967296. "), "{}", stdout(&out));
}

/// Item 6: a line that is not UTF-8 is ignored by `play` (the game and its
/// PGN go on) and by the interactive `mk61`.
#[test]
fn a_line_that_is_not_utf8_does_not_end_play_or_mk61() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let out = run_with_input(
        &["play", "--pgn", pgn.to_str().unwrap()],
        b"d6\nKd5\n\xe9t\xe9\nKc4\n",
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Ignored: the line is not UTF-8."));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("Kd5") && text.contains("Kc4"), "{text}");

    let out = run_with_input(&["mk61"], b"7 UP\n\xe9\n3 +\n:quit\n", dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ignored: the line is not UTF-8"), "{text}");
    assert!(
        text.contains("| 10 "),
        "the keys after the line count: {text}"
    );
}

/// Item 7: a fairy position the rules reject is said to be illegal, not a
/// syntax error, as the Popeye route says.
#[test]
fn an_illegal_fairy_position_is_called_illegal() {
    let out = run(&["code", "*n7/8/1K6/8/8/8/8/8 b"], None);
    one_line_error(&out, "white is in check but not to move");
}

/// Item 8: material past six men is refused as it is read; a fairy
/// census past four men is refused before it starts.
#[test]
fn enumerate_refuses_what_it_cannot_bound() {
    let grasshoppers = format!("K{}vK", "G".repeat(5000));
    for (material, wanted) in [
        ("KQQQQQvK", "at most six men"),
        (grasshoppers.as_str(), "at most six men"),
        ("KGGGGvK", "at most 4 men"),
    ] {
        let out = limited(&["enumerate", material], Path::new("/nonexistent"))
            .output()
            .unwrap();
        one_line_error(&out, wanted);
    }
}

/// Item 9: whole inputs are read under 8 MiB, the limit named.
#[test]
fn inputs_read_whole_stop_at_their_limit() {
    let (dir, empty) = common::folder_with("empty.txt", "");
    let empty = empty.to_str().unwrap();
    for args in [
        vec!["code", "--popeye", "/dev/zero"],
        vec!["classify", "/dev/zero"],
        vec!["mk61", "keys", "--keys", "/dev/zero"],
        vec!["mk61", "keys", "--program", "/dev/zero", "--keys", empty],
    ] {
        let out = limited(&args, dir.path()).output().unwrap();
        one_line_error(
            &out,
            "cannot read /dev/zero: the input is longer than its limit of 8388608 bytes",
        );
    }
}

/// Item 9: a PGN game with a Latin-1 byte is marked bad; the others are
/// classified.
#[test]
fn a_latin1_byte_spoils_only_its_game() {
    let (_dir, pgn) = common::folder_with(
        "games.pgn",
        b"[Event \"?\"]\n[White \"Mu\xf1oz\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
          [Event \"?\"]\n[White \"A\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let out = run(&["classify", pgn.to_str().unwrap(), "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["positions"], 2);
    assert_eq!(report["classified"], 1);
    assert_eq!(
        report["skipped"][0]["reason"],
        "line 2: the line is not UTF-8"
    );
}

/// Item 11: a FIFO named as a table is not read (it hung `probe` and
/// `solve`): the table is rebuilt, with a note.
#[test]
fn a_fifo_named_as_a_table_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("KRvK.standard.ajt");
    for args in [vec!["probe", KRK], vec!["solve", "KRvK"]] {
        let _ = std::fs::remove_file(&fifo);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
            .args(&args)
            .env("AJEDRECISTA_TABLES", dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_within(child, Duration::from_secs(60));
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
        assert!(std::fs::metadata(&fifo).unwrap().is_file(), "rebuilt");
    }
}

/// Item 12: a stdin line with no newline is read through without being
/// held (it grew to 1.1 GB in 3 s): `uci`, `play` and `mk61` skip it with
/// a note, under 1 GiB of address space.
#[test]
fn an_endless_stdin_line_is_skipped_under_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    for (args, wanted) in [
        (
            vec!["uci"],
            "info string the line is longer than 4096 bytes; it was ignored",
        ),
        (vec!["play"], "Ignored: the line is longer than 4096 bytes."),
        (vec!["mk61"], "ignored: the line is longer than 4096 bytes"),
    ] {
        let mut child = spawn_piped(&mut limited(&args, dir.path()));
        let mut input = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let zeros = vec![0u8; 1 << 20];
            for _ in 0..64 {
                input.write_all(&zeros)?;
            }
            input.write_all(b"\n")
        });
        let out = wait_within(child, Duration::from_secs(60));
        feeder.join().unwrap().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).contains(wanted), "{args:?}: {}", stdout(&out));
    }
}

/// A byte-order mark before the first `--epd` line is skipped (it made
/// that line an error).
#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("\u{FEFF}{KRK}\n");
    let out = run_with_input(
        &["probe", "--epd", "-", "--json"],
        input.as_bytes(),
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\"dtm_moves\":16"),
        "{}",
        stdout(&out)
    );
}
