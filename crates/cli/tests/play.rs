//! `ajedrecista play` driven through a pipe, as a script or a test would:
//! whole games, the lamp, the limit, every input notation, undo, PGN.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

use ajedrecista_automata::{
    GameEnd, Opening, RandomDefence, Session, StrategyName, perfect_defence,
};
use ajedrecista_tables::Tablebase;
use shakmaty::{CastlingMode, Move};

mod common;

fn play(args: &[&str], input: &str, tables: &Path) -> Output {
    let args: Vec<&str> = ["play"].iter().chain(args).copied().collect();
    common::run_with_input(&args, input.as_bytes(), tables)
}

fn stdout(out: &Output) -> String {
    common::plain_stdout(out)
}

/// One way of typing a king move.
#[derive(Clone, Copy, Debug)]
enum Form {
    San,
    Uci,
    Square,
    Numeric,
    DottedNumeric,
}

fn typed(mv: Move, form: Form) -> String {
    let to = mv.to();
    let digits = (u32::from(to.file()) + 1, u32::from(to.rank()) + 1);
    match form {
        Form::San => format!("K{to}"),
        Form::Uci => mv.to_uci(CastlingMode::Standard).to_string(),
        Form::Square => to.to_string(),
        Form::Numeric => format!("{}{}", digits.0, digits.1),
        Form::DottedNumeric => format!("{}.{}", digits.0, digits.1),
    }
}

/// The person's input for a whole game against `strategy` from its own
/// start with the tables' defence, the moves typed in turn in `forms`, and
/// the PGN the game makes: the first start square whose game ends in mate
/// against the tables' defence, or else against a seeded random one.
fn mating_game(
    strategy: StrategyName,
    forms: &[Form],
    tables: &Arc<Tablebase>,
) -> (String, String) {
    let squares = Session::new(
        Arc::clone(tables),
        strategy,
        Opening::machine_start(strategy),
        3,
    )
    .expect("a session")
    .start_squares();
    for seed in [None, Some(1), Some(2), Some(3)] {
        for &square in &squares {
            let mut session = Session::new(
                Arc::clone(tables),
                strategy,
                Opening::machine_start(strategy),
                3,
            )
            .expect("a session");
            let mut random = seed.map(RandomDefence::new);
            let mut input = format!("{square}\n");
            session.play(&square.to_string()).expect("placed");
            let mut forms = forms.iter().cycle();
            // A defence that sends the method round is given up.
            let mut black_moves = 0;
            while session.end().is_none() && black_moves < 300 {
                black_moves += 1;
                let position = session.position().expect("playing");
                let mv = match &mut random {
                    Some(random) => random.choose(position),
                    None => perfect_defence(tables, position).expect("tables"),
                };
                let text = typed(mv, *forms.next().expect("cycle"));
                session.play(&text).expect("legal");
                input.push_str(&text);
                input.push('\n');
            }
            if session.end() == Some(GameEnd::Checkmate) {
                return (input, session.pgn().expect("a game"));
            }
        }
    }
    panic!("{strategy}: no start square leads to mate");
}

#[test]
fn a_whole_game_to_mate_against_every_automaton() {
    let dir = tempfile::tempdir().unwrap();
    let tables = Arc::new(Tablebase::new(Some(dir.path().to_path_buf())));
    let all_forms = [
        Form::San,
        Form::Uci,
        Form::Square,
        Form::Numeric,
        Form::DottedNumeric,
    ];
    for (i, strategy) in StrategyName::all().enumerate() {
        // Each game starts with another form, and uses them all.
        let forms: Vec<Form> = all_forms.iter().cycle().skip(i).take(5).copied().collect();
        let (input, pgn) = mating_game(strategy, &forms, &tables);
        let out = stdout(&play(&["--white", strategy.as_str()], &input, dir.path()));
        assert!(out.contains("Checkmate. White wins."), "{strategy}: {out}");
        assert!(!out.contains("LAMP"), "{strategy}: {out}");
        assert!(out.ends_with(&format!("\n{pgn}\n")), "{strategy}: {out}");
        assert!(out.contains("Perfect play would mate from the start in "));
        assert!(out.contains(" 8 ") && out.contains("a  b  c"), "a board");
        if strategy == StrategyName::PERFECT {
            assert!(out.contains("Perfect play: mate in 1."), "{out}");
        }
    }
}

#[test]
fn the_default_game_is_el_ajedrecista_from_its_own_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(&[], "d6\nquit\n", dir.path()));
    assert!(out.starts_with("El Ajedrecista (Torres y Quevedo, 1912) plays White"));
    assert!(out.contains("Place the black king: 42 squares on ranks 1-6"));
    assert!(out.contains("White plays Ra7"), "{out}");
    assert!(out.contains("[FEN \"K7/1R6/3k4/8/8/8/8/8 w - - 0 1\"]"));
    assert!(out.contains("Perfect play would mate from the start in 15."));
}

#[test]
fn the_lamp_gives_the_reason_for_each_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    // After d6 and 1. Ra7: black king d6, white king a8, rook a7.
    let cases = [
        ("Kd7", "d7 is attacked by the rook on a7"),
        (
            "Kd4",
            "the king moves one square: d6 to d4 is not a king move",
        ),
    ];
    for (input, reason) in cases {
        let out = stdout(&play(
            &["--illegal-limit", "0"],
            &format!("d6\n{input}\nboard\nquit\n"),
            dir.path(),
        ));
        assert!(out.contains(&format!("LAMP: {reason}")), "{input:?}: {out}");
        assert!(out.contains("(illegal move 1)"), "{out}");
        // The position is unchanged, and the game goes on: no ending in
        // its PGN.
        assert!(out.contains("1. Ra7 *"), "{out}");
    }
    // Text that is no king move gets a hint and does not count.
    let hints = [
        ("Rb6", "only the black king moves: Black has no rook"),
        (
            "a7a6",
            "only the black king moves: the black king is on d6, not on a7",
        ),
        ("Ki6", "\"Ki6\" is off the board"),
        ("9.1", "\"9.1\" is off the board"),
        (
            "what",
            "cannot read \"what\" as a move (try Kb7, b8b7, b7, 27 or 2.7)",
        ),
        ("", "no move given"),
    ];
    for (input, hint) in hints {
        let out = stdout(&play(&[], &format!("d6\n{input}\nquit\n"), dir.path()));
        assert!(
            out.contains(&format!("Not a move: {hint}. It does not count.")),
            "{input:?}: {out}"
        );
        assert!(!out.contains("LAMP"), "{input:?}: {out}");
    }
    // Next to the white king: black king b6 against king a8... needs a
    // position; and the placement's own reasons.
    let out = common::play_perfect("8/K7/2k5/8/8/8/8/7R b - - 0 1", "Kb7\nquit\n", dir.path());
    assert!(out.contains("LAMP: b7 is next to the white king"), "{out}");
    let out = stdout(&play(&[], "e8\nc7\nquit\n", dir.path()));
    assert!(
        out.contains("LAMP: e8 is not a start square of El Ajedrecista (Torres y Quevedo, 1912)"),
        "{out}"
    );
    assert!(
        out.contains("LAMP: c7 is attacked by the rook on b7"),
        "{out}"
    );
}

#[test]
fn three_illegal_moves_stop_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(&[], "d6\nKd7\nxx\nKd4\nKe7\nKc6\n", dir.path()));
    assert!(out.contains("(illegal move 3 of 3)"), "{out}");
    assert!(out.contains("The machine stops playing after 3 illegal moves."));
    assert!(
        !out.contains("You play Kc6"),
        "nothing after the stop: {out}"
    );
    assert!(out.contains("{The machine stops playing after 3 illegal moves.} *"));
    // Before the black king is placed as well.
    let out = stdout(&play(
        &[],
        "a1a2
b7
h8
c7
d6
",
        dir.path(),
    ));
    assert!(
        out.contains("The machine stops playing after 3 illegal moves."),
        "{out}"
    );
    assert!(out.contains("No game was played."), "{out}");
}

#[test]
fn undo_takes_back_a_move_without_counting_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(
        &[],
        "d6\nKc6\nundo\nKc5\nundo\nundo\nundo\ne5\nquit\n",
        dir.path(),
    ));
    assert!(out.matches("Taken back.").count() == 3, "{out}");
    assert!(out.contains("Cannot undo: no move of yours to take back."));
    assert!(out.contains("Black king placed on e5"));
    assert!(!out.contains("LAMP"));
    assert!(
        out.contains("[FEN \"K7/1R6/8/4k3/8/8/8/8 w - - 0 1\"]"),
        "{out}"
    );
}

#[test]
fn the_calculator_display_and_numeric_notation() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&play(
        &[
            "--white",
            "mk61-rook",
            "--display",
            "calculator",
            "--notation",
            "numeric",
            "--fen",
            "8/8/8/4k3/8/8/R7/4K3 w - - 0 1",
        ],
        "quit\n",
        dir.path(),
    ));
    // The reference trace's first answer: rook a2-a4, shown 14.
    assert!(
        out.contains("White plays Ra4 (12-14)   MK-61: [ 14. ]"),
        "{out}"
    );
    let out = stdout(&play(
        &["--display", "calculator"],
        "d6\nquit\n",
        dir.path(),
    ));
    assert!(out.contains("MK-61: [ 17. ]"), "{out}");
}

#[test]
fn pgn_goes_to_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pgn");
    let out = stdout(&play(
        &["--pgn", file.to_str().unwrap()],
        "d6\nKc5\nquit\n",
        dir.path(),
    ));
    let pgn = std::fs::read_to_string(&file).expect("written");
    assert!(pgn.contains("1. Ra7 Kc5 2. Rh7"), "{pgn}");
    assert!(out.contains(&pgn));
    let leftovers = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|entry| {
            entry
                .as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn bad_arguments_get_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--fen", "not a fen"][..],
        &["--fen", "K7/2R5/3k4/8/8/8/8/8 w - - 0 1"],
    ] {
        let out = play(args, "", dir.path());
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("ajedrecista: ") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn check_and_a_lost_piece_are_announced() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::play_perfect("8/8/8/8/8/2kR4/8/K7 b - - 0 1", "Kxd3\n", dir.path());
    assert!(out.contains("You play Kxd3"), "{out}");
    assert!(
        out.contains("Black took White's last man: a draw."),
        "{out}"
    );
    assert!(out.contains("Result: 1/2-1/2"), "{out}");
    // Perfect play mates at once here, and checks in the next position.
    let out = common::play_perfect("4k3/8/4K3/8/8/8/8/R7 w - - 0 1", "quit\n", dir.path());
    assert!(out.contains("White plays Ra8#"), "{out}");
    assert!(out.contains("Checkmate. White wins."), "{out}");
    let out = common::play_perfect("8/8/3k4/8/3K4/8/8/7R w - - 0 1", "quit\n", dir.path());
    assert!(out.contains("White plays Rh6+"), "{out}");
    assert!(out.contains("\nCheck.\n"), "{out}");
}

/// `--pgn` through a symbolic link writes the link's target and leaves the
/// link a link (issue 16, item 3).
#[test]
fn pgn_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("games").join("target.pgn");
    std::fs::create_dir(target.parent().unwrap()).unwrap();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink("games/target.pgn", &link).unwrap();
    play(
        &["--pgn", link.to_str().unwrap()],
        "d6\nKc5\nquit\n",
        dir.path(),
    );
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    let pgn = std::fs::read_to_string(&target).expect("the target is written");
    assert!(pgn.contains("1. Ra7 Kc5 2. Rh7"), "{pgn}");
}

/// `--pgn` onto a FIFO writes into it and leaves it a FIFO.
#[test]
fn pgn_into_a_fifo_keeps_the_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the FIFO"))
    };
    let out = play(
        &["--pgn", fifo.to_str().unwrap()],
        "d6\nKc5\nquit\n",
        dir.path(),
    );
    // Checked before the join, which would wait for ever on a FIFO that
    // was replaced or never written.
    assert!(out.status.success(), "{out:?}");
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(meta.file_type().is_fifo(), "still a FIFO");
    let pgn = reader.join().unwrap();
    assert!(pgn.contains("1. Ra7 Kc5 2. Rh7"), "{pgn}");
}
