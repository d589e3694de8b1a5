//! `probe --epd`: FEN and EPD lines answered in input order, as JSON Lines
//! or a table; bad lines numbered, the run going on; stdin; exit codes.

use std::path::Path;
use std::process::Output;

mod common;

/// Runs `ajedrecista` with `input` on stdin.
fn run(args: &[&str], input: &[u8], tables: &Path) -> Output {
    common::run_with_input(args, input, tables)
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

const KQK: &str = "8/8/8/8/8/2k5/8/K6Q w - - 0 1";
/// KPvK, white to move: the published longest win, 28 moves.
const KPK: &str = "8/8/8/1k6/8/8/K5P1/8 w - - 0 1";

#[test]
fn lines_are_answered_in_order_with_bad_ones_numbered() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!(
        "# a comment\n{KQK}\n\n{KPK}\nnot a position\n7k/8/8/8/8/8/8/KNNNN3 w - - 0 1\n\
         8/8/8/8/8/2k5/8/K6Q w - - 0 1 extra\n8/8/8/8/8/2k5/8/K6Q w - -\r\n"
    );
    let dir_path = dir.path();
    let out = run(
        &["probe", "--epd", "-", "--json"],
        input.as_bytes(),
        dir_path,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 lines could not be probed"));
    let rows = json_lines(&out);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [2, 4, 5, 6, 7, 8]);
    assert_eq!(rows[0]["fen"], KQK);
    assert_eq!(rows[0]["result"], "win");
    assert_eq!(rows[0]["dtm_plies"], 11);
    assert_eq!(rows[0]["dtm_moves"], 6);
    assert_eq!(rows[1]["fen"], KPK);
    assert_eq!(rows[1]["result"], "win");
    assert_eq!(rows[1]["dtm_plies"], 55);
    assert_eq!(rows[1]["dtm_moves"], 28);
    for bad in [&rows[2], &rows[3], &rows[4]] {
        assert!(
            bad["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{bad}"
        );
        assert!(bad.get("fen").is_none());
    }
    assert!(rows[2]["error"].as_str().unwrap().contains("4 fields"));
    assert!(
        rows[3]["error"].as_str().unwrap().contains("men"),
        "{}",
        rows[3]
    );
    assert!(rows[4]["error"].as_str().unwrap().contains("6 fields"));
    // A four-field line with a carriage return is an EPD without operations.
    assert_eq!(rows[5]["fen"], KQK);
}

#[test]
fn epd_operations_are_ignored_and_draws_have_null_distances() {
    let (dir, file) = common::folder_with(
        "positions.epd",
        "8/8/8/1k6/8/8/K5P1/8 w - - bm Kb3; id \"kpk 1\"; c0 \"0 1 a b\";\n\
         7k/8/8/8/8/8/7P/7K w - - id \"rook pawn\";\n",
    );
    let out = run(
        &["probe", "--epd", file.to_str().unwrap(), "--json"],
        b"",
        dir.path(),
    );
    common::assert_success(&out);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["fen"], KPK);
    assert_eq!(rows[0]["dtm_moves"], 28);
    assert_eq!(rows[1]["line"], 2);
    assert_eq!(rows[1]["result"], "draw");
    assert!(rows[1]["dtm_plies"].is_null());
    assert!(rows[1]["dtm_moves"].is_null());
}

/// Black has just played d7-d5 beside the white pawn on e5: taking en
/// passant is legal, and the value counts that capture (the FEN keeps the
/// right). One run (KPvKP and its subtables are built, a few seconds): the position
/// with the right, the same placement without it, and the position after
/// exd6.
#[test]
fn a_pawn_position_with_en_passant() {
    let dir = tempfile::tempdir().unwrap();
    let with_ep = "8/2K5/8/3pP3/8/8/8/k7 w - d6 0 2";
    let without = "8/2K5/8/3pP3/8/8/8/k7 w - - 0 2";
    let after_capture = "8/2K5/3P4/8/8/8/8/k7 b - - 0 2";
    let input = format!("{with_ep}\n{without}\n{after_capture}\n");
    let out = run(
        &["probe", "--epd", "-", "--json"],
        input.as_bytes(),
        dir.path(),
    );
    common::assert_success(&out);
    let rows = json_lines(&out);
    assert_eq!(rows[0]["fen"], with_ep);
    assert_eq!(rows[1]["fen"], without);
    let plies = |row: &serde_json::Value| {
        assert_eq!(row["result"].as_str().unwrap(), "win", "{row}");
        row["dtm_plies"].as_u64().unwrap()
    };
    assert_eq!(rows[2]["result"], "loss");
    let by_capture = rows[2]["dtm_plies"].as_u64().unwrap() + 1;
    assert_eq!(plies(&rows[0]), plies(&rows[1]).min(by_capture));
    assert!(
        by_capture < plies(&rows[1]),
        "the capture is the faster win"
    );
}

#[test]
fn empty_input_prints_nothing_and_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    for input in [&b""[..], b"\n\n# only comments\n"] {
        let out = run(&["probe", "--epd", "-", "--json"], input, dir.path());
        assert!(out.status.success());
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_huge_line_is_an_error_line_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = vec![b'8'; 10_000_000];
    input.push(b'\n');
    input.extend_from_slice(format!("{KQK}\n").as_bytes());
    input.extend_from_slice(&[0xff, 0xfe, b'\n']);
    let out = run(&["probe", "--epd", "-", "--json"], &input, dir.path());
    assert_eq!(out.status.code(), Some(1));
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["line"], 1);
    assert!(
        rows[0]["error"]
            .as_str()
            .unwrap()
            .contains("longer than 4096")
    );
    assert_eq!(rows[1]["line"], 2);
    assert_eq!(rows[1]["dtm_moves"], 6);
    assert_eq!(rows[2]["line"], 3);
    assert!(rows[2]["error"].as_str().unwrap().contains("UTF-8"));
}

#[test]
fn the_table_for_people_is_aligned() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{KQK}\nbad\n");
    let out = run(&["probe", "--epd", "-"], input.as_bytes(), dir.path());
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "  line  result moves plies  fen");
    assert_eq!(lines[1], format!("     1  win        6    11  {KQK}"));
    assert!(lines[2].starts_with("     2  error  "), "{}", lines[2]);
}

#[test]
fn a_missing_file_is_one_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &["probe", "--epd", "/nonexistent/positions.epd"],
        b"",
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("cannot open"), "{err}");
    // A FEN and --epd together are refused by the parser.
    let both = run(&["probe", KQK, "--epd", "-"], b"", dir.path());
    assert_eq!(both.status.code(), Some(2));
}
