//! Issue 57, item 11: FEN move numbers past 4294967295, where shakmaty's
//! counter stops, in `probe --json` and `classify --json`: counted on
//! where our play or a game passes it, refused in one line where a FEN
//! asks for more.

mod common;

use std::io::Write;

#[test]
fn probe_json_counts_move_numbers_past_u32() {
    let tables = tempfile::tempdir().unwrap();
    let fen = "8/8/8/4k3/8/8/R7/4K3 b - - 0 4294967295";
    let view = common::json(&["probe", fen, "--json"], tables.path());
    let moves = view["moves"].as_array().expect("moves");
    assert!(!moves.is_empty());
    for mv in moves {
        let fen = mv["fen"].as_str().unwrap();
        assert!(fen.ends_with(" w - - 1 4294967296"), "{fen}");
    }
    let out = common::run(
        &["probe", "8/8/8/4k3/8/8/R7/4K3 b - - 0 4294967296", "--json"],
        tables.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("fullmove number"), "{stderr}");
}

#[test]
fn classify_json_counts_move_numbers_past_u32() {
    let mut games = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        games,
        "[White \"A\"]\n[Black \"B\"]\n[FEN \"7k/8/6K1/8/8/8/8/1Q6 b - - 0 4294967295\"]\n\n\
         4294967295... Kg8 4294967296. Qb8# 1-0"
    )
    .unwrap();
    let v = common::json(
        &["classify", games.path().to_str().unwrap(), "--json"],
        None,
    );
    assert_eq!(v["classified"], 1, "{v}");
    let fen = v["entries"][0]["fen"].as_str().unwrap();
    assert!(fen.ends_with(" b - - 2 4294967296"), "{fen}");

    let mut lines = tempfile::NamedTempFile::new().unwrap();
    writeln!(lines, "6k1/1Q6/6K1/8/8/8/8/8 b - - 0 4294967296").unwrap();
    let v = common::json(
        &["classify", lines.path().to_str().unwrap(), "--json"],
        None,
    );
    assert_eq!(v["classified"], 0, "{v}");
    let reason = v["skipped"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("fullmove number \"4294967296\""),
        "{reason}"
    );
}
