//! Commands that work for seconds show progress on a terminal's stderr,
//! and nothing through a pipe. The terminal is `script`'s (util-linux).

mod common;

use std::path::Path;
use std::process::Command;

/// What `command` (a shell line) writes to a terminal.
fn on_a_terminal(command: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_ajedrecista")
}

fn quoted(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// `selfplay bishop-knight` calculates its method's table first (about
/// 4.5 s): a spinner says so on a terminal, and a pipe gets only the PGN.
#[test]
fn selfplay_says_it_calculates_a_method_table() {
    let dir = tempfile::tempdir().unwrap();
    let shown = on_a_terminal(&format!(
        "{} selfplay bishop-knight --tables {}",
        binary(),
        quoted(dir.path())
    ));
    assert!(
        shown.contains("bishop-knight: calculating its method's table"),
        "{shown}"
    );
    let piped = common::run(&["selfplay", "bishop-knight"], dir.path());
    common::assert_success(&piped);
    assert!(piped.stderr.is_empty(), "{piped:?}");
}

/// `probe --epd` with its answers sent to a file counts its lines on the
/// terminal; through a pipe it writes nothing on stderr.
#[test]
fn probe_epd_counts_its_lines() {
    let (dir, epd) = common::folder_with(
        "positions.epd",
        "8/8/8/8/8/2k5/8/K6Q w - -\n8/8/8/4k3/8/8/8/KBN5 w - -\n",
    );
    let answers = dir.path().join("answers.txt");
    let shown = on_a_terminal(&format!(
        "{} probe --tables {} --epd {} > {}",
        binary(),
        quoted(dir.path()),
        quoted(&epd),
        quoted(&answers)
    ));
    assert!(shown.contains("probe --epd: line "), "{shown}");
    let written = std::fs::read_to_string(&answers).unwrap();
    assert_eq!(written.lines().count(), 3, "{written}");
    let piped = common::run(&["probe", "--epd", epd.to_str().unwrap()], dir.path());
    common::assert_success(&piped);
    assert!(piped.stderr.is_empty(), "{piped:?}");
}
