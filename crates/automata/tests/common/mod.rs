//! Reading the test data: a PGN game with a FEN tag, by pgn-reader.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The start (the FEN tag, else the standard start) and the moves.
struct OneGame;

impl Visitor for OneGame {
    type Tags = Option<Chess>;
    type Movetext = (Chess, Chess, Vec<Move>);
    type Output = (Chess, Vec<Move>);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let fen = Fen::from_ascii(value.as_bytes()).expect("FEN tag");
            *tags = Some(
                fen.into_position(CastlingMode::Standard)
                    .expect("legal FEN"),
            );
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let start = tags.unwrap_or_default();
        ControlFlow::Continue((start.clone(), start, Vec::new()))
    }

    fn san(
        &mut self,
        (_, position, moves): &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        let mv = san_plus.san.to_move(position).expect("legal move");
        position.play_unchecked(mv);
        moves.push(mv);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, (start, _, moves): Self::Movetext) -> Self::Output {
        (start, moves)
    }
}

/// The start position and the moves of a one-game PGN.
pub fn read_pgn(text: &str) -> (Chess, Vec<Move>) {
    Reader::new(text.as_bytes())
        .read_game(&mut OneGame)
        .expect("readable PGN")
        .expect("one game")
}

/// The game's PGN, read back move by move (each SAN legal where it is
/// played), ends in checkmate after `white_moves` White moves.
#[allow(dead_code)] // not every test binary replays games
pub fn assert_replays_to_mate(
    game: &ajedrecista_automata::Game,
    white_moves: ajedrecista_tables::Moves,
) {
    let pgn = game.to_pgn();
    let (start, moves) = read_pgn(&pgn);
    let mut position = start;
    for mv in &moves {
        assert!(position.is_legal(*mv), "{mv:?} in {pgn}");
        position.play_unchecked(*mv);
    }
    assert!(position.is_checkmate(), "no mate at the end of {pgn}");
    let white = moves.len().div_ceil(2);
    assert_eq!(white, usize::from(white_moves.0), "{pgn}");
}

/// The position of a FEN the test knows to be legal.
#[allow(dead_code)] // not every test binary reads FENs
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("a FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal position")
}

/// With Black to move, the audit fails exactly at the starts where the
/// black king can take the white man (`role`) unguarded, and there by the
/// loss of it.
#[allow(dead_code)] // only the teaching methods' tests
pub fn assert_fails_only_where_the_man_hangs(
    audit: &ajedrecista_automata::Audit,
    role: shakmaty::Role,
) {
    use ajedrecista_automata::{FailureKind, Outcome};
    use shakmaty::Color;
    for result in &audit.results {
        let board = result.position.board();
        let man = board.by_role(role).first().expect("the white man");
        let black = board.king_of(Color::Black).expect("a black king");
        let white = board.king_of(Color::White).expect("a white king");
        let hangs = black.distance(man) == 1 && white.distance(man) > 1;
        match result.outcome {
            Outcome::Failure(kind) => {
                assert_eq!(kind, FailureKind::LostPiece, "{:?}", result.position);
                assert!(hangs, "{:?}", result.position);
            }
            Outcome::Mate(_) => assert!(!hangs, "{:?}", result.position),
        }
    }
}

/// The precondition of the tests' queen strategies: the white king on c3
/// (where the fixed-king game keeps it), every other board refused.
#[allow(dead_code)] // only the tests that write a strategy of their own
pub fn white_king_on_c3(board: &shakmaty::Board) -> Result<(), ajedrecista_automata::Refusal> {
    use ajedrecista_automata::{Precondition, Refusal};
    match board.king_of(shakmaty::Color::White) {
        Some(shakmaty::Square::C3) => Ok(()),
        _ => Err(Refusal::Precondition(Precondition::NotKrk(
            "a test strategy",
        ))),
    }
}

/// The audit mates from each of its `starts` starts, the longest mate in
/// `worst` moves, and that game's PGN replays to mate.
#[allow(dead_code)] // only the teaching methods' tests
pub fn assert_mates_from_every_start(
    audit: &ajedrecista_automata::Audit,
    starts: usize,
    worst: ajedrecista_tables::Moves,
) {
    assert_eq!(audit.results.len(), starts);
    assert!(
        audit.failures().values().all(|&count| count == 0),
        "{:?}",
        audit.failures()
    );
    assert_eq!(audit.worst_moves(), Some(worst));
    assert_replays_to_mate(audit.worst.as_ref().expect("a longest game"), worst);
}

/// How much longer the audit's mates are than perfect play's (tables built
/// in memory); the audit mates from some start.
#[allow(dead_code)] // only the teaching methods' tests
pub fn excess_over_perfect_play(
    audit: &ajedrecista_automata::Audit,
) -> ajedrecista_automata::Excess {
    let tables = ajedrecista_tables::Tablebase::in_memory();
    ajedrecista_automata::excess_over_perfect(audit, &tables)
        .unwrap()
        .expect("mates")
}
