//! Perfect play beyond king and rook: any position of 3 to 5 men the tables
//! hold, pawns and promotions included, played through the session as a
//! person (or the tables' defence) plays Black.

use std::sync::{Arc, OnceLock};

use ajedrecista_automata::{
    GameEnd, Opening, Perfect, Precondition, Refusal, Session, Strategy, StrategyName,
    perfect_defence, play,
};
use ajedrecista_tables::{Moves, Tablebase, Variant};
use shakmaty::{CastlingMode, Chess, Position, Role, fen::Fen};

fn tables() -> Arc<Tablebase> {
    static TABLES: OnceLock<Arc<Tablebase>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| Arc::new(Tablebase::in_memory())))
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// A session of perfect play from the FEN `fen`.
fn perfect_session(fen: &str) -> Session {
    Session::new(
        tables(),
        StrategyName::PERFECT,
        Opening::Position(pos(fen)),
        0,
    )
    .unwrap()
}

fn uci(mv: shakmaty::Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// King and pawn against king, from the published longest win (28 moves):
/// perfect play against the tables' defence mates in exactly the tables'
/// distance, promoting on the way, and the view shows the promotion.
#[test]
fn a_kpvk_game_is_played_to_mate_through_the_session() {
    let tables = tables();
    let mut session = perfect_session("8/8/8/1k6/8/8/K5P1/8 w - - 0 1");
    assert_eq!(session.start_dtm(), Some(Moves(28)));
    let mut promoted = false;
    let mut plies = 0;
    while session.end().is_none() {
        let reply = session.last_reply().expect("perfect play answers").clone();
        if reply.mv.promotion().is_some() {
            promoted = true;
            let view = session.view();
            let shown = view.last_reply.expect("the reply in the view");
            assert_eq!(shown.uci.len(), 5, "{}", shown.uci);
            assert!(shown.san.contains('='), "{}", shown.san);
        }
        let position = session.position().unwrap().clone();
        let defence = perfect_defence(&tables, &position).unwrap();
        session.play(&uci(defence)).unwrap();
        plies += 2;
        assert!(plies < 200, "the game must end");
    }
    assert_eq!(session.end(), Some(GameEnd::Checkmate));
    assert!(promoted, "{:?}", session.pgn());
    assert_eq!(session.white_moves(), 28);
    let pgn = session.pgn().unwrap();
    assert!(pgn.contains("=Q"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
}

/// Black's men other than the king are moved in SAN or UCI; the tables'
/// reply answers them (king and queen against king and rook: no pawns, but
/// not king and rook against king either).
#[test]
fn black_men_move_and_perfect_play_answers() {
    let mut session = perfect_session("8/8/8/3k4/8/8/1r6/K1Q5 b - - 0 1");
    let turn = session.play("Rb8").unwrap();
    assert_eq!(turn.person.san, "Rb8");
    let reply = turn.reply.expect("the tables answer");
    let position = session.position().unwrap();
    assert_eq!(
        position.board().role_at(reply.mv.to()),
        Some(reply.mv.role())
    );
    // UCI works the same way, and a king move is still read as before.
    let rook = position.board().by_role(Role::Rook).first().unwrap();
    let rook_move = position
        .legal_moves()
        .into_iter()
        .find(|mv| mv.from() == Some(rook))
        .unwrap();
    session.play(&uci(rook_move)).unwrap();
}

/// A black capture of White's last man ends the game; with a rook left to
/// Black it is no draw, and the game is unfinished.
#[test]
fn taking_the_last_white_man_ends_the_game() {
    // The black rook takes the queen.
    let mut session = perfect_session("8/8/8/3k4/8/8/8/K3Q2r b - - 0 1");
    let turn = session.play("Rxe1+").unwrap();
    assert_eq!(
        turn.end,
        Some(GameEnd::LastManTaken {
            draw: false,
            men_left: false
        })
    );
    assert!(turn.reply.is_none());
    let pgn = session.pgn().unwrap();
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("White cannot mate, and Black can."), "{pgn}");
}

/// A bare black king or a lone minor piece cannot mate: taking White's last
/// man with either is a draw.
#[test]
fn taking_the_last_white_man_with_a_knight_is_a_draw() {
    let mut session = perfect_session("8/8/8/3k4/8/3n4/8/K3Q3 b - - 0 1");
    let turn = session.play("Nxe1").unwrap();
    assert_eq!(
        turn.end,
        Some(GameEnd::LastManTaken {
            draw: true,
            men_left: false
        })
    );
    assert!(session.pgn().unwrap().contains("[Result \"1/2-1/2\"]"));
}

/// In king and pawn against king a drawn start gives White no win: perfect
/// play says so rather than play on.
#[test]
fn a_drawn_pawn_ending_is_refused_with_no_win() {
    let tables = tables();
    let drawn = pos("7k/8/8/8/8/8/7P/7K w - - 0 1");
    assert_eq!(
        tables.probe(&drawn, Variant::Standard).unwrap(),
        ajedrecista_tables::Value::Draw
    );
    let perfect = Perfect::new(Arc::clone(&tables));
    assert_eq!(perfect.precondition(drawn.board()), Ok(()));
    assert!(matches!(
        perfect.reply(&drawn, &()),
        Err(Refusal::RuleUndefined(_))
    ));
}

#[test]
fn six_men_are_refused_at_the_start() {
    let perfect = Perfect::new(tables());
    // Pawns, and no pawns: the tables hold the second, perfect play not.
    for six in [
        "7k/8/8/8/8/8/PPPP4/K7 w - - 0 1",
        "7k/8/8/8/8/8/RRRR4/K7 w - - 0 1",
    ] {
        assert_eq!(
            perfect.precondition(pos(six).board()),
            Err(Refusal::Precondition(Precondition::NotInTables(6)))
        );
    }
}

/// In a game against a defence (`selfplay`), a capture that leaves White a
/// man goes on: here the black king's only move takes the knight, and the
/// rook mates.
#[test]
fn a_capture_that_leaves_white_a_man_goes_on() {
    let tables = tables();
    let start = pos("kN6/7R/8/8/8/8/8/4K3 b - - 0 1");
    let perfect = Perfect::new(Arc::clone(&tables));
    let game = play(
        &perfect,
        &start,
        |position, _| perfect_defence(&tables, position),
        true,
        200,
        "tables",
    )
    .unwrap();
    assert!(game.moves[0].is_capture());
    assert_eq!(game.end, GameEnd::Checkmate, "{}", game.to_pgn());
}
