//! Failed writes to stdout and stderr (issue 16, item 1): a full device
//! gives one line on stderr and exit 2; a reader of stdout that has gone
//! ends the command quietly with exit 0. Never a panic (exit 101).

use std::fs::File;
use std::process::{Command, Stdio};

/// Commands that print with `output`'s macros, each with what it needs.
fn commands(dir: &std::path::Path) -> Vec<Vec<String>> {
    let fens = dir.join("mates.fen");
    std::fs::write(
        &fens,
        "8/8/8/8/8/8/R7/K1k5 b - - 0 1\n1k6/8/1K6/8/8/8/8/R7 b - - 0 1\n",
    )
    .unwrap();
    let fens = fens.to_str().unwrap().to_string();
    let keys = dir.join("keys.txt");
    std::fs::write(&keys, "3 UP 4 +").unwrap();
    let keys = keys.to_str().unwrap().to_string();
    let words = |text: &str| text.split(' ').map(str::to_string).collect::<Vec<_>>();
    vec![
        words("solve KRvK"),
        words("solve KRvK --json"),
        vec!["code".into(), "1k6/8/1K6/8/8/8/8/R7 b - - 0 1".into()],
        vec![
            "code".into(),
            "1k6/8/1K6/8/8/8/8/R7 b - - 0 1".into(),
            "--json".into(),
        ],
        vec!["classify".into(), fens.clone()],
        vec!["classify".into(), fens, "--json".into()],
        words("enumerate KQvK"),
        words("enumerate KQvK --json"),
        vec!["probe".into(), "1k6/8/1K6/8/8/8/8/R7 w - - 0 1".into()],
        vec![
            "probe".into(),
            "1k6/8/1K6/8/8/8/8/R7 w - - 0 1".into(),
            "--json".into(),
        ],
        words("audit torres --starts machine"),
        words("audit torres --starts machine --json"),
        words("selfplay torres"),
        words("play"),
        vec!["mk61".into(), "keys".into(), "--keys".into(), keys.clone()],
        vec![
            "mk61".into(),
            "keys".into(),
            "--json".into(),
            "--keys".into(),
            keys,
        ],
    ]
}

fn binary(dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ajedrecista"));
    command.env("AJEDRECISTA_TABLES", dir);
    command
}

#[test]
fn a_full_stdout_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in commands(dir.path()) {
        let out = binary(dir.path())
            .args(&args)
            .stdout(File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            "ajedrecista: cannot write to stdout: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}

#[test]
fn a_closed_pipe_on_stdout_ends_quietly_with_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    for args in commands(dir.path()) {
        let mut child = binary(dir.path())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the command writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn an_error_with_a_full_stderr_still_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    // `probe x` fails on its FEN; the message cannot be written.
    for args in [
        vec!["probe", "x"],
        vec!["solve", "KRvX"],
        vec!["code", "x"],
        vec!["classify", "/nonexistent/file"],
        vec!["enumerate", "x"],
    ] {
        let out = binary(dir.path())
            .args(&args)
            .stderr(File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn a_full_stderr_does_not_fail_a_command_that_succeeds() {
    // Notes on stderr are best effort: the result is on stdout.
    let dir = tempfile::tempdir().unwrap();
    let out = binary(dir.path())
        .args(["solve", "KRvK", "--json"])
        .stderr(File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["material"], "KRvK");
}
