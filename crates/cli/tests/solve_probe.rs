//! `solve` and `probe` from the outside: JSON fields, errors, exit codes.

mod common;

use common::{assert_success, json, run};

#[test]
fn solve_prints_the_documented_json() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(&["solve", "KRvK", "--json"], dir.path());
    assert_eq!(v["material"], "KRvK");
    assert!(v["fixed_king"].is_null());
    assert_eq!(v["white_to_move"]["max_dtm_moves"], 16);
    assert_eq!(v["black_to_move"]["max_dtm_moves"], 16);
    let w = &v["white_to_move"];
    let sum =
        w["win"].as_u64().unwrap() + w["draw"].as_u64().unwrap() + w["loss"].as_u64().unwrap();
    assert_eq!(sum, w["legal"].as_u64().unwrap());
    // The example of the longest mate probes to the longest mate.
    let fen = w["max_dtm_fen"].as_str().unwrap();
    let p = json(&["probe", fen, "--json"], dir.path());
    assert_eq!(p["dtm_moves"], 16);
    assert_eq!(p["result"], "win");
    assert_eq!(p["pv"].as_array().unwrap().len(), 31);
    assert!(p["pv"][30].as_str().unwrap().ends_with('#'), "{p}");
    let hist = w["histogram_plies"].as_array().unwrap();
    assert!(hist.iter().all(|e| e[0].as_u64().unwrap() % 2 == 1));
    assert!(v["seconds"].as_f64().is_some());
}

#[test]
fn solve_names_each_sides_longest_win_and_loss() {
    let dir = tempfile::tempdir().unwrap();
    // Both sides win some positions of KQvKR.
    let v = json(&["solve", "KQvKR", "--json"], dir.path());
    for side in ["white_to_move", "black_to_move"] {
        let s = &v[side];
        let plies = |p: &serde_json::Value| p[0].as_u64().unwrap();
        let hist = s["histogram_plies"].as_array().unwrap();
        for (result, parity) in [("win", 1), ("loss", 0)] {
            let moves = &s[format!("longest_{result}_moves")];
            // The longest in the histogram, in the winner's moves.
            let longest = hist.iter().map(plies).filter(|p| p % 2 == parity).max();
            assert_eq!(
                moves.as_u64(),
                longest.map(|p| p.div_ceil(2)),
                "{side} {result}"
            );
            let fen = s[format!("longest_{result}_fen")].as_str().unwrap();
            let p = json(&["probe", fen, "--json"], dir.path());
            assert_eq!(p["result"], result, "{fen}");
            assert_eq!(&p["dtm_moves"], moves, "{fen}");
        }
        let longest = ["win", "loss"]
            .map(|result| s[format!("longest_{result}_moves")].as_u64().unwrap())
            .into_iter()
            .max();
        assert_eq!(s["max_dtm_moves"].as_u64(), longest, "{side}");
    }
}

#[test]
fn fixed_king_all_lists_64_squares() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(
        &["solve", "KQvK", "--fixed-king", "all", "--json"],
        dir.path(),
    );
    let squares = v["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 64);
    let c3 = squares.iter().find(|s| s["square"] == "c3").unwrap();
    assert_eq!(c3["white_to_move"]["max_dtm_moves"], 23);
    assert_eq!(c3["white_to_move"]["win"], c3["white_to_move"]["legal"]);
}

#[test]
fn probe_lists_moves_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(
        &["probe", "8/8/8/8/8/2k5/8/K6Q w - - 0 1", "--json"],
        dir.path(),
    );
    assert_eq!(v["result"], "win");
    assert_eq!(v["dtm_plies"], 11);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["dtm_plies"], 11);
    let plies: Vec<u64> = moves
        .iter()
        .map(|m| m["dtm_plies"].as_u64().unwrap())
        .collect();
    assert!(plies.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(v["pv"].as_array().unwrap().len(), 11);
}

/// `solve --all 3`: the five three-man tables, smallest first, built and
/// then found in the cache; and a material with pawns is solved under the
/// twin that holds it.
#[test]
fn solve_all_builds_every_table_then_finds_them_cached() {
    let dir = tempfile::tempdir().unwrap();
    let first = json(&["solve", "--all", "3", "--json"], dir.path());
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["material"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&first), ["KBvK", "KNvK", "KQvK", "KRvK", "KPvK"]);
    assert_eq!(first["men"], 3);
    let kpk = &first["tables"][4];
    assert_eq!(kpk["status"], "built");
    assert_eq!(kpk["longest_plies"], 56);
    assert_eq!(kpk["longest_moves"], 28);
    let bytes = common::sum_of(&first["tables"], "file_bytes");
    assert_eq!(first["file_bytes"], bytes);
    let again = json(
        &["solve", "--all", "3", "--check", "100", "--json"],
        dir.path(),
    );
    for table in again["tables"].as_array().unwrap() {
        assert_eq!(table["check"]["positions"], 100, "{table}");
        assert_eq!(table["check"]["disagreements"], serde_json::json!([]));
    }
    assert!(first["tables"][0].get("check").is_none());
    assert!(
        again["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "cached")
    );
    assert_eq!(
        again["tables"][4]["legal_black_to_move"],
        kpk["legal_black_to_move"]
    );
    let twin = json(&["solve", "KvKP", "--json"], dir.path());
    assert_eq!(twin["material"], "KPvK");
    assert_eq!(twin["black_to_move"]["legal"], kpk["legal_black_to_move"]);
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["solve", "KQXvK"][..],
        &["solve", "KPvK", "--fixed-king", "c3"],
        &["solve", "--all", "2"],
        &["solve", "--all", "6"],
        &["solve", "KQRBNvKN"],
        &["solve", "KRRvKRPP"],
        &["solve", "KQvK", "--fixed-king", "k9"],
        &["solve", "KQvKR", "--fixed-king", "c3"],
        &["probe", "not a fen"],
        &["probe", "k7/8/8/8/8/2K5/8/R6R w - - 0 1"],
        &[
            "probe",
            "8/8/8/8/8/2k5/8/K6R w - - 0 1",
            "--fixed-king",
            "c3",
        ],
        &["probe", "8/8/8/8/8/2k5/PPPPPPPP/K6R w - - 0 1"],
        &["probe", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"],
    ] {
        let out = run(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// An illegal FEN is refused with every reason in words (the tables'
/// `IllegalReason`), on one line.
#[test]
fn an_illegal_fen_says_why_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "k6R/8/8/8/8/2K5/8/p7 w - - 0 1";
    let out = run(&["probe", fen], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "ajedrecista: illegal position {fen:?}: a pawn stands on the first or the \
             last rank, where no pawn can be; the side not to move is in check, so its \
             king could be taken: no game reaches this position\n"
        )
    );
}

/// A first probe of a table with pawns builds its cone (the slices its
/// pawns reach, and the tables they read), says so, and answers as the
/// whole table does; a cone estimated at a minute or more is refused off
/// a terminal without `--yes`, before anything is built.
#[test]
fn a_first_probe_builds_its_cone_and_asks_before_a_long_one() {
    let fen = "8/8/8/3k4/8/8/1RP5/K7 w - - 0 1";
    let cone = tempfile::tempdir().unwrap();
    let out = run(&["probe", fen, "--json"], cone.path());
    assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("KRPvK: this needs ") && stderr.contains(" of KRPvK's 24 slices, about "),
        "{stderr}"
    );
    assert!(cone.path().join("KRPvK.standard.ajt.slices").is_dir());
    assert!(!cone.path().join("KRPvK.standard.ajt").exists());
    let whole = tempfile::tempdir().unwrap();
    assert_success(&run(&["solve", "KRPvK"], whole.path()));
    let from_cone: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(from_cone, json(&["probe", fen, "--json"], whole.path()));

    let long = tempfile::tempdir().unwrap();
    let en_passant = "8/8/8/2k5/3pP3/8/5P2/4K3 b - e3 0 1";
    let out = run(&["probe", en_passant], long.path());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("KPPvKP: this needs ") && stderr.contains("run again with --yes"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(long.path()).unwrap().count(), 0);
}
