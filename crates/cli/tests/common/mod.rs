//! What the command-line tests share: running the binary (with input on
//! stdin, or as a server) and reading its JSON.

// Each test file uses only some of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// Runs the binary with `args`; with `tables`, its table folder is there.
pub fn run<'a>(args: &[&str], tables: impl Into<Option<&'a Path>>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ajedrecista"));
    command.args(args);
    if let Some(tables) = tables.into() {
        command.env("AJEDRECISTA_TABLES", tables);
    }
    command.output().expect("the binary runs")
}

/// A fresh temporary folder (removed when dropped) holding one file,
/// `name`, with `contents`; the folder and the file's path.
pub fn folder_with(name: &str, contents: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

/// Fails the test, showing the binary's stderr, unless the run succeeded.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What a run that succeeds prints, plain text as through any pipe.
pub fn plain_stdout(out: &Output) -> String {
    assert_success(out);
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    assert!(!text.contains('\x1b'), "plain output through a pipe");
    text
}

/// What `play --white perfect --fen FEN` prints with `input` typed at it.
pub fn play_perfect(fen: &str, input: &str, tables: &Path) -> String {
    let args = ["play", "--white", "perfect", "--fen", fen];
    plain_stdout(&run_with_input(&args, input.as_bytes(), tables))
}

/// The sum of the number `field` over the objects of the JSON array
/// `array`.
pub fn sum_of(array: &serde_json::Value, field: &str) -> u64 {
    let objects = array.as_array().expect("an array");
    objects
        .iter()
        .map(|o| o[field].as_u64().expect("a count"))
        .sum()
}

/// The JSON a command that succeeds prints.
pub fn json<'a>(args: &[&str], tables: impl Into<Option<&'a Path>>) -> serde_json::Value {
    let out = run(args, tables);
    assert_success(&out);
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Runs the binary with `args`, `input` on its stdin and its table folder
/// in `tables`. The binary may stop reading early (a game ends, a reader
/// gives up); the rest of the input then meets a broken pipe, nothing else.
pub fn run_with_input(args: &[&str], input: &[u8], tables: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(args)
        .env("AJEDRECISTA_TABLES", tables)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // A thread, so that a long input cannot fill the pipe while the binary
    // waits for us to read its output.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the binary ends");
    if let Err(err) = writer.join().expect("the writer ends") {
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::BrokenPipe,
            "input written: {err}"
        );
    }
    out
}

/// `serve` started on a free loopback port, with its address; killed when
/// dropped.
pub struct Serving {
    child: Child,
    pub addr: String,
}

impl Serving {
    /// Starts `command`, a `serve` that names its address on its first
    /// line of stderr: `... http://127.0.0.1:PORT/ ...`.
    pub fn start(command: &mut Command) -> Serving {
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The first line of the log names the address.
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Serving { child, addr }
    }

    /// The whole answer to a GET of `path`, within `wait`.
    pub fn get_within(&self, path: &str, wait: Duration) -> String {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(wait)).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream
            .read_to_string(&mut answer)
            .unwrap_or_else(|err| panic!("no answer to {path} within {wait:?}: {err}"));
        answer
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
