//! Popeye's answers against ours (tests/data/popeye-differential.tsv,
//! written by scripts/popeye_differential.py with Popeye built outside the
//! repository): for every recorded position, whether the side to move is
//! mated, stalemated or neither, whether it is in check and how many moves
//! it has, or whether the position is illegal. Both input routes are
//! compared: the FEN with its conditions, read as `ajedrecista code` reads
//! it, and the Popeye problem as Popeye was given it, alone and all in one
//! file.

mod common;

use std::collections::BTreeMap;

use ajedrecista_coding::fairy::{
    FairyError, FairyPosition, PopeyeProblem, Rules, is_orthodox, parse_popeye,
    parse_popeye_problems,
};
use ajedrecista_coding::{AnalysedFinal, FinalKind, FinalRules, parse_position};

/// What a program says about the side to move: mate, stalemate, none (with
/// check and moves) or illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Answer {
    verdict: String,
    check: String,
    moves: String,
}

impl Answer {
    fn illegal() -> Answer {
        Answer {
            verdict: "illegal".to_owned(),
            check: "-".to_owned(),
            moves: "-".to_owned(),
        }
    }

    /// The answer of the analysis the CLI prints.
    fn of<P: FinalRules>(position: P) -> Answer {
        let yes_no = |flag: bool| if flag { "yes" } else { "no" }.to_owned();
        match AnalysedFinal::analyse(position) {
            Ok(fp) => Answer {
                verdict: fp.kind().name().to_owned(),
                check: yes_no(fp.kind() == FinalKind::Mate),
                moves: "0".to_owned(),
            },
            Err(not_final) => Answer {
                verdict: "none".to_owned(),
                check: yes_no(not_final.in_check),
                moves: not_final.legal_moves.to_string(),
            },
        }
    }
}

struct Row {
    category: &'static str,
    fen: &'static str,
    rules: Rules,
    popeye: Answer,
    /// The pieces and condition commands Popeye was given.
    problem: &'static str,
}

fn rows() -> Vec<Row> {
    common::rows(include_str!("data/popeye-differential.tsv"))
        .into_iter()
        .map(|fields| Row {
            category: fields[0],
            fen: fields[1],
            rules: common::rules(fields[2]),
            popeye: Answer {
                verdict: fields[3].to_owned(),
                check: fields[4].to_owned(),
                moves: fields[5].to_owned(),
            },
            problem: fields[6],
        })
        .collect()
}

/// Ours by the FEN route, as `ajedrecista code FEN --condition ...` reads
/// it: without conditions a FEN shakmaty takes goes the orthodox way.
fn by_fen(row: &Row) -> Answer {
    if row.rules.is_orthodox()
        && let Ok(chess) = parse_position(row.fen)
    {
        return Answer::of(chess);
    }
    match FairyPosition::from_fen(row.fen, row.rules.clone()) {
        Ok(position) if row.rules.is_orthodox() && is_orthodox(&position) => Answer::illegal(),
        Ok(position) => Answer::of(position),
        Err(_) => Answer::illegal(),
    }
}

/// A documented difference, where ours differs from Popeye by choice: an
/// orthodox FEN goes through shakmaty, which refuses a check no legal move
/// could give (three checkers, say); Popeye solves the position, and so
/// does our fairy model, which `--popeye` uses.
fn known_difference(row: &Row) -> Option<&'static str> {
    let refused = parse_position(row.fen).err()?;
    let fairy = FairyPosition::from_fen(row.fen, row.rules.clone()).ok()?;
    (row.rules.is_orthodox()
        && refused.to_string().contains("impossible check")
        && Answer::of(fairy) == row.popeye)
        .then_some("impossible check")
}

/// The Popeye problem as the script gave it to Popeye, with the side to
/// move playing (`option HalfDuplex` for Black).
fn popeye_text(row: &Row) -> String {
    let half_duplex = if row.fen.ends_with(" b") {
        " option HalfDuplex"
    } else {
        ""
    };
    format!("{} stipulation ~1{half_duplex}", row.problem)
}

#[test]
fn every_position_agrees_with_popeye() {
    let rows = rows();
    assert!(rows.len() >= 2000, "{} positions", rows.len());
    // Per category: positions, agreements, known differences.
    let mut tally: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for row in &rows {
        let ours = by_fen(row);
        let entry = tally.entry(row.category).or_default();
        entry.0 += 1;
        if ours == row.popeye {
            entry.1 += 1;
        } else if known_difference(row).is_some() {
            entry.2 += 1;
        } else {
            disagreements.push(format!(
                "{} {:?} ({}): Popeye {:?}, ours {:?}",
                row.fen, row.rules, row.category, row.popeye, ours
            ));
        }
    }
    for (category, (total, agree, known)) in &tally {
        eprintln!("{category:22} {total:5} positions, {agree:5} agree, {known} known differences");
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// Ours by the Popeye route: the problem read (the side to play from the
/// stipulation and HalfDuplex alone), or illegal where Popeye says "the
/// side to play can capture the king".
fn by_popeye(problem: Result<PopeyeProblem, FairyError>, row: &Row) -> Answer {
    match problem {
        Ok(problem) => Answer::of(problem.position),
        Err(FairyError::Illegal(_)) => Answer::illegal(),
        Err(error) => panic!("{}: {error}", row.problem),
    }
}

/// The Popeye route reads the same position and rules as the FEN route,
/// so `code --popeye` answers as Popeye does; a position whose side not
/// to play is in check is refused, as Popeye refuses it (issue 57: the
/// side in check no longer decides who plays).
#[test]
fn popeye_input_reads_the_same_positions() {
    let mut compared = 0;
    let mut refused = 0;
    for row in rows() {
        let problem = parse_popeye(&popeye_text(&row));
        if let Ok(problem) = &problem {
            assert_eq!(problem.position.fen(), row.fen, "{}", row.problem);
            assert_eq!(problem.position.rules(), &row.rules, "{}", row.problem);
        } else {
            refused += 1;
        }
        assert_eq!(by_popeye(problem, &row), row.popeye, "{}", row.problem);
        compared += 1;
    }
    assert!(compared >= 2000, "{compared}");
    // Each category has positions whose side not to play is in check,
    // with White to play and with Black (HalfDuplex).
    assert!(refused >= 200, "{refused}");
}

/// Every row's problem in one file, as the script gave them to Popeye
/// (joined by `NextProblem`), and again as `beginproblem ... endproblem`
/// blocks: each problem is read apart and answered as Popeye answered it.
#[test]
fn every_problem_of_one_file_is_answered_as_popeye_answered() {
    let rows = rows();
    let texts: Vec<String> = rows.iter().map(popeye_text).collect();
    let joined = format!(
        "beginproblem\n{}\nendproblem\n",
        texts.join("\nnextproblem\n")
    );
    let blocks: String = texts
        .iter()
        .map(|text| format!("beginproblem\n{text}\nendproblem\n"))
        .collect();
    for file in [joined, blocks] {
        let problems = parse_popeye_problems(&file);
        assert_eq!(problems.len(), rows.len());
        for (problem, row) in problems.into_iter().zip(&rows) {
            assert_eq!(by_popeye(problem, row), row.popeye, "{}", row.problem);
        }
    }
}

/// The four minimal cases: a dragon on its first rank has no pawn
/// power (Popeye's rule), and under NormalPawn it steps and captures.
#[test]
fn minimal_dragon_cases() {
    let minimal: Vec<Row> = rows()
        .into_iter()
        .filter(|row| row.category == "minimal")
        .collect();
    assert_eq!(minimal.len(), 8);
    let expected = [
        ("8/8/8/8/8/8/8/kDK5 b", "none", "stalemate"),
        ("8/8/8/8/3B4/8/k1K5/1D6 b", "stalemate", "mate"),
        ("k3d3/3K4/8/8/8/8/8/8 b", "none", "illegal"),
        ("8/8/8/8/8/8/3k4/4D1K1 b", "none", "none"),
    ];
    for (fen, by_default, normal_pawn) in expected {
        for row in minimal.iter().filter(|row| row.fen == fen) {
            let wanted = if row.rules.is_orthodox() {
                by_default
            } else {
                normal_pawn
            };
            assert_eq!(row.popeye.verdict, wanted, "{fen} {:?}", row.rules);
            assert_eq!(by_fen(row), row.popeye, "{fen} {:?}", row.rules);
        }
    }
    // The last case differs only by the check.
    let last: Vec<String> = minimal
        .iter()
        .filter(|row| row.fen == expected[3].0)
        .map(|row| by_fen(row).check)
        .collect();
    assert_eq!(last, ["no", "yes"]);
}
