//! Perfect play: its audit must give back the tables' distances, which
//! checks the audit and the tables against each other.

use ajedrecista_automata::{
    Audit, FailureKind, Perfect, StartSet, Torres, Undefined, audit, excess_over_perfect,
    perfect_defence, perfect_moves, play,
};
use std::sync::Arc;

use ajedrecista_tables::{Moves, Tablebase};
use shakmaty::{Color, Position};

mod common;

/// Perfect play's audit over every king-and-rook start with `side` to
/// move, and the tables it played from.
fn perfect_audit(side: Color) -> (Arc<Tablebase>, Audit) {
    let tables = Arc::new(Tablebase::in_memory());
    let audit = audit(&Perfect::new(Arc::clone(&tables)), StartSet::All, side);
    (tables, audit)
}

#[test]
fn perfect_audit_is_the_tables_distance_to_mate() {
    let (tables, audit) = perfect_audit(Color::White);
    assert!(audit.results.len() > 100_000);
    assert!(audit.failures().values().all(|count| *count == 0));
    // The known worst case of king and rook against king: mate in 16.
    assert_eq!(audit.worst_moves(), Some(Moves(16)));
    let excess = excess_over_perfect(&audit, &tables)
        .unwrap()
        .expect("mates");
    assert_eq!(
        (excess.max, excess.mean, excess.perfect_worst),
        (Moves(0), 0.0, Moves(16))
    );
}

#[test]
fn perfect_with_black_to_move_loses_the_rook_where_the_tables_draw() {
    let (tables, audit) = perfect_audit(Color::Black);
    let failures = audit.failures();
    assert!(failures[&FailureKind::LostPiece] > 0);
    for result in &audit.results {
        let drawn = perfect_moves(&tables, &result.position).unwrap().is_none();
        assert_eq!(
            drawn,
            matches!(result.outcome, ajedrecista_automata::Outcome::Failure(_))
        );
    }
}

/// Seed 004 says its game is Torres' algorithm against a tablebase
/// defence; the tables' defence here (slowest mate, ties in UCI order)
/// plays exactly the seed's black moves.
#[test]
fn torres_against_the_tables_replays_the_seed_game() {
    let tables = Tablebase::in_memory();
    let (start, seed_moves) = common::read_pgn(include_str!("data/seed004.pgn"));
    let game = play(
        &Torres,
        &start,
        |position, ()| perfect_defence(&tables, position),
        true,
        1000,
        "perfect",
    )
    .unwrap();
    assert_eq!(game.moves, seed_moves);
    assert!(game.final_position().is_checkmate());
    let perfect = perfect_moves(&tables, &start).unwrap().unwrap();
    assert!(game.white_moves() > usize::from(perfect.0));
}

/// A queen strategy in the fixed-king game (king on c3, as the calculator's
/// queen program plays): the audit and the excess follow the strategy's
/// piece and game. Playing the tables' fixed-king moves, the longest
/// defence lasts Brudno and Landau's 23 moves.
#[test]
fn fixed_king_queen_audit_meets_brudno_and_landau() {
    use ajedrecista_automata::{Refusal, Reply, Strategy};
    use ajedrecista_tables::{Value, Variant};
    use shakmaty::{Board, Chess, Role, Square};

    struct FixedKingQueen<'a>(&'a Tablebase);
    impl Strategy for FixedKingQueen<'_> {
        type Memory = ();
        fn name(&self) -> &'static str {
            "fixed-king-queen"
        }
        fn white_pieces(&self) -> &'static [Role] {
            &[Role::Queen]
        }
        fn variant(&self) -> Variant {
            Variant::FixedKing(Square::C3)
        }
        fn precondition(&self, board: &Board) -> Result<(), Refusal> {
            common::white_king_on_c3(board)
        }
        fn start(&self, _start: &Chess) {}
        fn reply(&self, position: &Chess, _memory: &()) -> Result<(Reply, ()), Refusal> {
            let moves = self
                .0
                .moves(position, self.variant())
                .map_err(|err| Refusal::RuleUndefined(Undefined::TablesFailed(err.to_string())))?;
            match moves.first() {
                Some(&(mv, Value::Win(_))) => Ok((
                    Reply {
                        mv,
                        reason: "fixed-king tables",
                        display: None,
                    },
                    (),
                )),
                _ => Err(Refusal::RuleUndefined(Undefined::NoWin)),
            }
        }
    }

    let tables = Tablebase::in_memory();
    let audit = audit(&FixedKingQueen(&tables), StartSet::All, Color::White);
    assert!(
        audit
            .results
            .iter()
            .all(|result| result.position.board().queens().count() == 1)
    );
    assert_eq!(audit.worst_moves(), Some(Moves(23)));
    let excess = excess_over_perfect(&audit, &tables).unwrap().unwrap();
    assert_eq!((excess.max, excess.perfect_worst), (Moves(0), Moves(23)));
}

/// With White's short-castling right, O-O mates two plies sooner than any
/// move the board alone allows: perfect play castles.
#[test]
fn perfect_castles_where_castling_mates_sooner() {
    use ajedrecista_automata::Strategy;
    use ajedrecista_tables::{CastlingRights, read_fen};
    let tables = Arc::new(Tablebase::in_memory());
    let position = read_fen("6k1/8/8/8/8/8/8/4K2R w K - 0 1", CastlingRights::Allowed).unwrap();
    let (reply, ()) = Perfect::new(tables).reply(&position, &()).unwrap();
    assert!(reply.mv.is_castle(), "{:?}", reply.mv);
}
