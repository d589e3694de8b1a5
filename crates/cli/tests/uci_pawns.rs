//! The UCI engine's perfect play with pawns: a promotion is sent as
//! `b7b8q`, and the game goes on after it.

mod common;

fn session(input: &str, tables: &std::path::Path) -> String {
    let out = common::run_with_input(&["uci"], input.as_bytes(), tables);
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
    let json = common::json(&["probe", fen, "--json"], tables);
    json["moves"][0]["uci"].as_str().unwrap().to_string()
}

#[test]
fn perfect_play_promotes_in_uci_notation() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "8/1P6/8/8/8/8/8/K1k5 w - - 0 1";
    // No `quit`: a `go` without limits waiting for its table is answered
    // before the engine ends at the end of its input.
    let out = session(
        &format!(
            "uci\nsetoption name Strategy value perfect\nisready\nucinewgame\n\
             position fen {fen}\ngo\n"
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
