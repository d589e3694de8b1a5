//! The UCI engine's perfect play with pawns: a promotion is sent as
//! `b7b8q`, and the game goes on after it.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(input: &str, tables: &std::path::Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .arg("uci")
        .env("AJEDRECISTA_TABLES", tables)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn best_moves(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .collect()
}

/// The tables' best move, from `probe --json`.
fn tables_best(fen: &str, tables: &std::path::Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["probe", fen, "--json"])
        .env("AJEDRECISTA_TABLES", tables)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["moves"][0]["uci"].as_str().unwrap().to_string()
}

#[test]
fn perfect_play_promotes_in_uci_notation() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "8/1P6/8/8/8/8/8/K1k5 w - - 0 1";
    let out = session(
        &format!(
            "uci\nsetoption name Strategy value perfect\nisready\nucinewgame\n\
             position fen {fen}\ngo\nquit\n"
        ),
        dir.path(),
    );
    let best = best_moves(&out);
    assert_eq!(best.len(), 1, "{out}");
    assert_eq!(best[0], tables_best(fen, dir.path()));
    assert!(best[0].starts_with("b7b8"), "{out}");
    assert_eq!(best[0].len(), 5, "a promotion names its piece: {out}");
    // The game goes on from the promotion: Black answers, perfect replies.
    let after = format!("position fen {fen} moves {} c1d2\ngo\n", best[0]);
    let out = session(
        &format!("uci\nsetoption name Strategy value perfect\n{after}quit\n"),
        dir.path(),
    );
    let best = best_moves(&out);
    assert_eq!(best.len(), 1, "{out}");
    assert_ne!(best[0], "0000", "{out}");
}
