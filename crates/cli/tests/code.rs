//! `code`, `classify` and `enumerate` from the outside, with fairy units
//! and conditions: JSON fields, Popeye input, errors and exit codes.

mod common;

use std::io::Write;

use common::run;

/// The JSON of a command that needs no tables.
fn json(args: &[&str]) -> serde_json::Value {
    common::json(args, None)
}

#[test]
fn code_with_a_condition() {
    let v = json(&[
        "code",
        "8/8/5q2/3Qk3/8/6K1/8/8 b",
        "--condition",
        "circe",
        "--json",
    ]);
    assert_eq!(v["final"], "mate");
    assert_eq!(v["conditions"], serde_json::json!(["circe"]));
    assert_eq!(v["fp_code"], "K4/9-44K4944(4)4-55C");
    assert_eq!(v["ep_code"], "K4/9-44K44(4)449-C");
    assert_eq!(v["kind"], "44K44(4)449-C");
    assert_eq!(v["ideal"], true);
    // Without Circe the king takes the queen: no final position.
    let v = json(&["code", "8/8/5q2/3Qk3/8/6K1/8/8 b", "--json"]);
    assert_eq!(v["final"], "none");
}

#[test]
fn code_reads_an_extended_fen_and_keeps_orthodox_output() {
    let v = json(&["code", "8/8/3N4/8/8/*n7/1K6/8 b", "--json"]);
    assert_eq!(v["fp_code"], "K1/(R6)-KKK11-13(R6)");
    assert_eq!(v["group"], "(R6)");
    let v = json(&["code", "2k5/2P5/1K2B3/8/8/8/8/8 b - - 0 1", "--json"]);
    assert_eq!(v["ep_code"], "K02-20KK20-28");
    assert_eq!(v["pure"], true);
    assert!(v.get("conditions").is_none());
}

#[test]
fn code_reads_popeye_input() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "BeginProblem\nAuthor E. Albert\nPieces White Kd6 Re5 Pe3 Black Kd4\n\
         Stipulation h#2.5\nCondition GridChess\nEndProblem"
    )
    .unwrap();
    let path = file.path().to_str().unwrap();
    let v = json(&["code", "--popeye", path, "--json"]);
    assert_eq!(v["fp_code"], "K03-0+33K33++-44Grid");
    assert_eq!(v["ep_code"], "K03-03K33+++3-Grid");
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let mut popeye = tempfile::NamedTempFile::new().unwrap();
    writeln!(popeye, "pieces white kb2 zz3 black ka8\nstipulation #1").unwrap();
    let popeye = popeye.path().to_str().unwrap().to_owned();
    let cases: [&[&str]; 8] = [
        &["code", "k7/8/8/8/8/8/8/X6K b"],
        // An option inside the quotes: refused, not dropped (as `probe`).
        &["code", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 --condition circe"],
        &["code", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 extra words"],
        &["code", "k7/8/8/8/8/8/8/7K b", "--condition", "madrasi"],
        &["code", "k7/1K6/8/8/8/8/8/8 b", "--condition", "ingul"],
        &["code", "--popeye", &popeye],
        &["enumerate", "KXvK"],
        &["enumerate", "KRvK", "--condition", "nonsense"],
    ];
    for args in cases {
        let out = run(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // An EPD's operations start with a letter: still read.
    let v = json(&["code", "7k/6Q1/6K1/8/8/8/8/8 b - - bm Qg7;", "--json"]);
    assert!(v.get("final").is_some(), "{v}");
}

#[test]
fn classify_with_conditions_orders_groups_as_the_brochure() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "# two Grid mates and a position that is none\n\
         8/8/3K4/4R3/3k4/4P3/8/8 b\n\
         R6k/8/6K1/8/8/8/8/8 b\n\
         8/8/8/3k4/8/8/8/7K b"
    )
    .unwrap();
    let path = file.path().to_str().unwrap();
    let v = json(&["classify", path, "--condition", "grid", "--json"]);
    assert_eq!(v["positions"], 3);
    assert_eq!(v["classified"], 2);
    let classes: Vec<&str> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| group["class"].as_str().unwrap())
        .collect();
    // K (the king) < 0 < 3: "K03" before "K3", as the symbols order them.
    assert_eq!(classes, ["K03", "K3"]);
}

#[test]
fn enumerate_fairy_material_and_conditions() {
    let v = json(&["enumerate", "KGGvK", "--json"]);
    assert_eq!(v["material"], "KGGvK");
    assert_eq!(v["total"], 0);
    let v = json(&["enumerate", "KRvK", "--condition", "grid", "--json"]);
    assert_eq!(v["conditions"], serde_json::json!(["grid"]));
    let total = v["total"].as_u64().unwrap();
    let (model, ideal) = (v["model"].as_u64().unwrap(), v["ideal"].as_u64().unwrap());
    assert!(ideal <= model && model <= v["pure"].as_u64().unwrap());
    let grouped = common::sum_of(&v["by_ep_code"], "count");
    assert!(total > 0);
    assert_eq!(grouped + v["without_etalon"].as_u64().unwrap(), total);
}

/// In the diagrams, orthodox and fairy (wider numbers), the file letters
/// stand in the columns of the board's and the zone numbering's squares.
#[test]
fn diagram_letters_stand_under_their_columns() {
    for fen in ["7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "8/8/3N4/8/8/*n7/1K6/8 b"] {
        let out = run(&["code", fen], None);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let columns = |line: &str| -> Vec<usize> {
            line.chars()
                .enumerate()
                .filter(|&(_, c)| c != ' ')
                .map(|(i, _)| i)
                .collect()
        };
        let rank_one = text.lines().find(|l| l.starts_with("  1 ")).unwrap();
        let letters = text
            .lines()
            .find(|l| l.trim_start().starts_with("a b"))
            .unwrap();
        // The rank's digit is not a square.
        assert_eq!(columns(rank_one)[1..], columns(letters)[..], "{text}");
    }
}

/// Issue 57, items 4 and 5: each problem of a Popeye file gets its own
/// answer (the two problems were one board with two black kings, "mate"),
/// and the side to play is the stipulation's and HalfDuplex's: White in
/// check with Black to play is refused, as Popeye refuses it.
#[test]
fn every_problem_of_a_popeye_file_is_answered() {
    let two = "BeginProblem\nPieces White Kb6 Qb7 Black Ka8\nStipulation #1\nEndProblem\n\
               BeginProblem\nPieces White Ke1 Black Ke8\nStipulation ~1\nEndProblem\n";
    let checked = "Pieces White Ka7 Sc3 Se4 Black Kd3 Rd7\nCondition Circe\n\
                   Option HalfDuplex\nStipulation ~1\n";
    let file = |text: &str| {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        file
    };
    let both = file(two);
    let path = both.path().to_str().unwrap();
    let v = json(&["code", "--popeye", path, "--json"]);
    let problems = v["problems"].as_array().expect("an array");
    assert_eq!(problems.len(), 2, "{v}");
    assert_eq!(problems[0]["problem"], 1);
    assert_eq!(problems[0]["final"], "mate");
    assert_eq!(problems[0]["fen"], "k7/1Q6/1K6/8/8/8/8/8 b");
    assert_eq!(problems[1]["problem"], 2);
    assert_eq!(problems[1]["final"], "none");
    assert_eq!(problems[1]["fen"], "4k3/8/8/8/8/8/8/4K3 w");
    let out = run(&["code", "--popeye", path], None);
    let text = common::plain_stdout(&out);
    assert!(text.contains("Problem 1 of 2") && text.contains("Problem 2 of 2"));
    assert_eq!(text.matches("Final      mate").count(), 1, "{text}");

    // The HalfDuplex problem alone: one line, exit 2.
    let alone = file(checked);
    let out = run(&["code", "--popeye", alone.path().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("white is in check"), "{stderr}");

    // With the others: they are answered, it is refused, exit 2.
    let three = file(&format!("{two}{checked}"));
    let out = run(
        &["code", "--popeye", three.path().to_str().unwrap(), "--json"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim_end(),
        "ajedrecista: 1 of the 3 problems could not be read"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let problems = v["problems"].as_array().expect("an array");
    assert_eq!(problems.len(), 3);
    assert_eq!(problems[0]["final"], "mate");
    assert_eq!(problems[2]["problem"], 3);
    assert!(
        problems[2]["error"]
            .as_str()
            .is_some_and(|error| error.contains("white is in check")),
        "{v}"
    );
}
