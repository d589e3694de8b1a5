//! `probe --syzygy`: an answer from Syzygy's files where no DTM table is
//! built, both side by side where one is; the fifty-move note; bad folders.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{json, plain_stdout, run};

fn syzygy_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables/tests/data/syzygy")
}

/// A KRPvK row of python-chess's reading of the test files: FEN, WDL, DTZ.
fn krpk_reference() -> (String, i64, i64) {
    let text = std::fs::read_to_string(syzygy_data().join("reference.tsv")).unwrap();
    let row = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .find(|f| {
            // White's rook and pawn, White to move, a win.
            f[0].contains('R') && f[0].contains('P') && f[0].contains(" w ") && f[1] == "2"
        })
        .expect("a KRPvK win in the reference");
    (
        row[0].to_owned(),
        row[1].parse().unwrap(),
        row[2].parse().unwrap(),
    )
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn syzygy_answers_without_a_dtm_table_and_beside_one() {
    let cache = tempfile::tempdir().unwrap();
    let data = syzygy_data();
    let data = data.to_str().unwrap();
    let (fen, _, dtz) = krpk_reference();

    let quick = json(&["probe", &fen, "--syzygy", data, "--json"], cache.path());
    assert_eq!(quick["source"], "syzygy", "{quick}");
    assert_eq!(quick["material"], "KRPvK");
    assert_eq!(quick["result"], "win");
    assert!(quick["dtm_plies"].is_null() && quick["moves"] == serde_json::json!([]));
    assert_eq!(quick["syzygy"]["wdl"], "win");
    assert_eq!(quick["syzygy"]["dtz"], dtz);
    assert!(quick["syzygy"]["best_move"]["uci"].is_string(), "{quick}");
    // Nothing was built.
    assert_eq!(files_in(cache.path()), 0);

    let text = plain_stdout(&run(&["probe", &fen, "--syzygy", data], cache.path()));
    assert!(
        text.contains("white to move: answered from Syzygy: the DTM table of KRPvK is not built (ajedrecista solve KRPvK, or probe without --syzygy"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Syzygy:        win, DTZ {dtz} ")),
        "{text}"
    );
    assert!(text.contains("best move by DTZ: "), "{text}");
    // The folder may come from the environment.
    let from_env = Command::new(env!("CARGO_BIN_EXE_ajedrecista"))
        .args(["probe", &fen, "--json"])
        .env("AJEDRECISTA_TABLES", cache.path())
        .env("AJEDRECISTA_SYZYGY", data)
        .output()
        .unwrap();
    let from_env: serde_json::Value = serde_json::from_slice(&from_env.stdout).unwrap();
    assert_eq!(from_env["source"], "syzygy");
    assert_eq!(files_in(cache.path()), 0);

    // With the DTM table built, both.
    json(&["solve", "KRPvK", "--json"], cache.path());
    let both = json(&["probe", &fen, "--syzygy", data, "--json"], cache.path());
    assert_eq!(both["source"], "tables");
    assert_eq!(both["result"], "win");
    assert!(both["dtm_plies"].as_u64().unwrap() > 0);
    assert_eq!(both["syzygy"]["dtz"], dtz);
    let text = plain_stdout(&run(&["probe", &fen, "--syzygy", data], cache.path()));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.starts_with("white to move: win, mate in"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        lines[at + 1].starts_with(&format!("Syzygy:        win, DTZ {dtz} ")),
        "{text}"
    );
}

#[test]
fn the_dtm_line_says_where_it_passes_fifty_moves() {
    let cache = tempfile::tempdir().unwrap();
    // KQvK, mate in 6 (11 plies), 95 plies already without a capture.
    let fen = "8/8/8/8/8/2k5/8/K6Q w - - 95 60";
    let view = json(&["probe", fen, "--json"], cache.path());
    assert_eq!(view["pv_fifty_moves_ply"], 5);
    let text = plain_stdout(&run(&["probe", fen], cache.path()));
    assert!(
        text.contains("fifty-move rule: by ply 5 of this line"),
        "{text}"
    );
    let fresh = json(
        &["probe", "8/8/8/8/8/2k5/8/K6Q w - - 0 1", "--json"],
        cache.path(),
    );
    assert!(fresh["pv_fifty_moves_ply"].is_null());
}

#[test]
fn a_bad_syzygy_folder_is_one_line_and_exit_2() {
    let cache = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let fen = "8/8/8/8/8/2k5/8/K6Q w - - 0 1";
    let none = empty.path().join("none");
    for (folder, says) in [
        (empty.path(), "holds no table files"),
        (none.as_path(), "Syzygy folder"),
    ] {
        let out = run(
            &["probe", fen, "--syzygy", folder.to_str().unwrap()],
            cache.path(),
        );
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
