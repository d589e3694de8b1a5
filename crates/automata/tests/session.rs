//! A person against an automaton: input forms, the lamp, the limit, undo,
//! whole games.

use std::sync::Arc;

use ajedrecista_automata::{
    GameEnd, IllegalCount, IllegalMove, MoveError, Opening, Session, SessionError, StrategyName,
    UndoError, perfect_defence,
};
use ajedrecista_tables::{Moves, Tablebase};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, Square};

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard).expect("legal")
}

fn tables() -> Arc<Tablebase> {
    Arc::new(Tablebase::in_memory())
}

fn torres_1912(tables: &Arc<Tablebase>, limit: u32) -> Session {
    let opening = Opening::machine_start(StrategyName::TORRES);
    Session::new(Arc::clone(tables), StrategyName::TORRES, opening, limit).expect("a session")
}

fn lamp_kind(err: MoveError) -> &'static str {
    match err {
        MoveError::Illegal { reason, .. } | MoveError::NotAMove(reason) => reason.kind(),
        MoveError::GameOver => "game_over",
    }
}

#[test]
fn inputs_are_read_or_refused_as_the_data_file_says() {
    let tables = tables();
    let data = include_str!("data/session_inputs.tsv");
    let mut cases = 0;
    for line in data.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, input, expected] = fields[..] else {
            panic!("three fields in {line:?}");
        };
        // Perfect play answers any KRK position; the lamp is the session's.
        let mut session = Session::new(
            Arc::clone(&tables),
            StrategyName::PERFECT,
            Opening::Position(position(fen)),
            0,
        )
        .expect("a session");
        let before = session.board();
        let got = match session.play(input) {
            Ok(turn) => format!(
                "ok {}",
                turn.person
                    .mv
                    .expect("a move")
                    .to_uci(CastlingMode::Standard)
            ),
            Err(err) => {
                assert_eq!(session.board(), before, "{line}: the position stays");
                format!("lamp {}", lamp_kind(err))
            }
        };
        assert_eq!(got, expected, "{line}");
        cases += 1;
    }
    assert!(cases >= 30);
}

#[test]
fn the_1912_start_places_the_black_king_on_ranks_1_to_6() {
    let tables = tables();
    let mut session = torres_1912(&tables, 0);
    let squares = session.start_squares();
    // Ranks 1-6 less the b-file, where the rook on b7 would give check.
    assert_eq!(squares.len(), 42);
    assert!(squares.iter().all(|sq| sq.rank() <= shakmaty::Rank::Sixth));
    let placement = session.placement().expect("the king is still to place");
    assert_eq!(placement.squares, 42);
    assert_eq!(placement.lowest_rank, shakmaty::Rank::First);
    assert_eq!(placement.highest_rank, shakmaty::Rank::Sixth);
    assert_eq!(placement.example, shakmaty::Square::D6);
    for (input, kind) in [
        ("c7", "attacked"),
        ("b3", "attacked"),
        ("a7", "next_to_white_king"),
        ("b7", "occupied"),
        ("e8", "not_a_start"),
        ("b8b7", "placement_needs_square"),
    ] {
        assert_eq!(lamp_kind(session.play(input).unwrap_err()), kind, "{input}");
        assert!(session.placing().is_some());
    }
    let turn = session.play("d6").expect("placed");
    assert_eq!(turn.person.to, Square::D6);
    let reply = turn.reply.expect("the machine moves first");
    assert_eq!(reply.san, "Ra7");
    assert_eq!(reply.display, "17.");
    assert_eq!(session.start_dtm(), Some(Moves(15)));
    // Undo takes the placement back.
    session.undo().expect("undo");
    assert!(session.placing().is_some());
    assert_eq!(session.undo(), Err(UndoError::NothingToUndo));
    // Five placements lit the lamp; "b8b7" is no placement and did not count.
    assert_eq!(session.illegal(), IllegalCount { count: 5, limit: 0 });
}

#[test]
fn three_illegal_moves_stop_the_machine() {
    let tables = tables();
    let mut session = torres_1912(&tables, 3);
    session.play("d6").expect("placed");
    let board = session.board();
    // Text that is no king move gets a hint and does not count: the
    // king's own square (d6) included.
    for input in ["", "zz9", "Ke9", "Qd5", "e4d5", "  ", "d6", "Kd6"] {
        let Err(MoveError::NotAMove(reason)) = session.play(input) else {
            panic!("{input:?} is no move");
        };
        assert!(!reason.lights_the_lamp(), "{input:?}");
    }
    assert_eq!(session.illegal().count, 0);
    // Moves of the king that break the rules light the lamp and count.
    for (count, input) in ["Kd8", "Kd7", "Kc7"].into_iter().enumerate() {
        let Err(MoveError::Illegal {
            count: got,
            stopped,
            ..
        }) = session.play(input)
        else {
            panic!("{input:?} is illegal");
        };
        assert_eq!(got, count as u32 + 1);
        assert_eq!(stopped, count == 2);
    }
    assert_eq!(session.board(), board);
    assert_eq!(session.end(), Some(GameEnd::IllegalMoves(3)));
    assert_eq!(session.play("Kc6"), Err(MoveError::GameOver));
    assert_eq!(session.undo(), Err(UndoError::Stopped(3)));
    let pgn = session.pgn().expect("a game");
    assert!(
        pgn.contains("The machine stops playing after 3 illegal moves."),
        "{pgn}"
    );
}

#[test]
fn the_limit_counts_during_the_placement_too() {
    let tables = tables();
    let mut session = torres_1912(&tables, 2);
    assert!(session.play("b7").is_err());
    assert!(matches!(
        session.play("h8"),
        Err(MoveError::Illegal { stopped: true, .. })
    ));
    assert_eq!(session.end(), Some(GameEnd::IllegalMoves(2)));
    assert_eq!(session.play("d6"), Err(MoveError::GameOver));
    assert_eq!(session.pgn(), None);
}

#[test]
fn undo_restores_the_position_and_the_memory() {
    let tables = tables();
    let mut session = Session::new(
        Arc::clone(&tables),
        StrategyName::named("mk61-rook").unwrap(),
        Opening::Position(position(
            StrategyName::named("mk61-rook").unwrap().demo_fen(),
        )),
        3,
    )
    .expect("a session");
    let opening = session.opening_reply().expect("White moved").clone();
    let before = session.position().expect("playing").clone();
    let first = session.play("Kd5").expect("legal");
    session.undo().expect("undo");
    assert_eq!(session.position(), Some(&before));
    assert_eq!(session.last_move(), Some(opening.mv));
    // The same move brings the same reply: the memory came back too.
    assert_eq!(session.play("Kd5").expect("legal"), first);
    assert_eq!(session.illegal(), IllegalCount { count: 0, limit: 3 });
}

#[test]
fn a_position_the_automaton_cannot_play_is_refused() {
    let err = Session::new(
        tables(),
        StrategyName::TORRES,
        Opening::Position(position("K7/2R5/3k4/8/8/8/8/8 w - - 0 1")),
        3,
    )
    .unwrap_err();
    assert!(matches!(err, SessionError::Refused { .. }), "{err}");
}

/// Every automaton of the catalog, from its own start, against the tables'
/// defence: a mate (or the automaton's refusal) and a PGN that says so.
#[test]
fn whole_games_against_every_automaton() {
    let tables = tables();
    for strategy in StrategyName::all() {
        let opening = Opening::machine_start(strategy);
        let mut session =
            Session::new(Arc::clone(&tables), strategy, opening, 3).expect("a session");
        let square = session.start_squares()[0];
        session.play(&square.to_string()).expect("placed");
        let mut black_moves = 0;
        while session.end().is_none() {
            black_moves += 1;
            // A session has no move limit; every automaton ends its game
            // from its own start (the minor-piece methods mate from every
            // start White can win, docs/guide/src/results/audits.md).
            assert!(black_moves <= 300, "{strategy}: no end in 300 moves");
            let position = session.position().expect("playing");
            let mv = perfect_defence(&tables, position).expect("tables");
            session
                .play(&mv.to_uci(CastlingMode::Standard).to_string())
                .expect("a legal move");
        }
        let end = session.end().expect("an end");
        let pgn = session.pgn().expect("a game");
        match end {
            GameEnd::Checkmate => {
                assert!(session.position().unwrap().is_checkmate());
                assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
                assert!(session.white_moves() >= usize::from(session.start_dtm().unwrap().0));
            }
            GameEnd::Refused(_) => assert!(pgn.contains("refuses"), "{pgn}"),
            // The tables' defence takes a piece left hanging.
            GameEnd::LastManTaken { draw: true, .. } => {
                assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}")
            }
            other => panic!("{strategy}: {other:?}"),
        }
    }
}

#[test]
fn lamp_reasons_read_well() {
    let text = IllegalMove::Attacked {
        square: Square::D7,
        attacker: shakmaty::Role::Rook,
        from: Square::A7,
    }
    .to_string();
    assert_eq!(text, "d7 is attacked by the rook on a7");
}

#[test]
fn a_session_can_move_between_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<Session>();
}

#[test]
fn taking_the_rook_ends_the_game_in_a_draw() {
    let mut session = Session::new(
        tables(),
        StrategyName::PERFECT,
        Opening::Position(position("8/8/8/8/8/2kR4/8/K7 b - - 0 1")),
        3,
    )
    .expect("a session");
    let turn = session.play("Kxd3").expect("legal");
    assert_eq!(
        turn.end,
        Some(GameEnd::LastManTaken {
            draw: true,
            men_left: false
        })
    );
    assert_eq!(turn.reply, None);
    let pgn = session.pgn().unwrap();
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(
        pgn.contains("Black took White's last man: a draw."),
        "{pgn}"
    );
}

#[test]
fn numeric_and_calculator_notation() {
    use ajedrecista_automata::session::{calculator_display, numeric_move};
    let king = shakmaty::Move::Normal {
        role: shakmaty::Role::King,
        from: Square::E1,
        capture: None,
        to: Square::D2,
        promotion: None,
    };
    let rook = shakmaty::Move::Normal {
        role: shakmaty::Role::Rook,
        from: Square::B7,
        capture: None,
        to: Square::B5,
        promotion: None,
    };
    assert_eq!(numeric_move(king), "51-42");
    assert_eq!(calculator_display(king, false), "4.2");
    assert_eq!(calculator_display(rook, false), "25.");
    assert_eq!(calculator_display(rook, true), "1. 25");
}

/// The lamp kinds' names (JSON, docs/json.md) for every variant.
#[test]
fn every_lamp_kind_has_its_documented_name() {
    use ajedrecista_automata::{IllegalMove, NotKingMove, StrategyName};
    use shakmaty::{Role, Square};
    let kinds: Vec<&str> = [
        IllegalMove::Empty,
        IllegalMove::Garbage("x".into()),
        IllegalMove::OffBoard("i9".into()),
        IllegalMove::NotKingMove(NotKingMove::NoSuchMan(Role::Queen)),
        IllegalMove::NotOneStep {
            from: Square::A1,
            to: Square::A3,
        },
        IllegalMove::SameSquare(Square::A1),
        IllegalMove::NextToWhiteKing(Square::A1),
        IllegalMove::Attacked {
            square: Square::A1,
            attacker: Role::Rook,
            from: Square::A8,
        },
        IllegalMove::Occupied(Square::A1),
        IllegalMove::NotAStart {
            square: Square::A1,
            strategy: StrategyName::TORRES,
        },
        IllegalMove::PlacementNeedsSquare,
    ]
    .iter()
    .map(IllegalMove::kind)
    .collect();
    assert_eq!(
        kinds,
        [
            "empty",
            "garbage",
            "off_board",
            "not_king_move",
            "not_one_step",
            "same_square",
            "next_to_white_king",
            "attacked",
            "occupied",
            "not_a_start",
            "placement_needs_square"
        ]
    );
}

/// A game in progress is copied as one: result `*`, no Termination tag, no
/// "Game stopped"; White is the machine's display name from the catalog.
#[test]
fn the_pgn_of_a_game_in_progress_ends_with_a_star_and_names_the_machine() {
    let tables = tables();
    let mut session = torres_1912(&tables, 3);
    session.play("d6").expect("placed");
    let pgn = session.pgn().expect("a game");
    assert!(
        pgn.contains("[White \"El Ajedrecista (Torres y Quevedo, 1912)\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(!pgn.contains("Termination"), "{pgn}");
    assert!(!pgn.contains("Game stopped"), "{pgn}");
    assert!(pgn.trim_end().ends_with("Ra7 *"), "{pgn}");
}
