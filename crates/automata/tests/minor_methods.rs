//! The minor-piece methods, `bishops` (KBBK) and `bishop-knight`
//! (Delétang, KBNK): lines that mate, the findings where they fail, and
//! the symmetry their audit relies on (docs/guide/src/reference/automata.md, "`bishops`,
//! `bishop-knight`"). Their whole audits take minutes: the claims rows
//! check them (tests/claims.rs, run with `--ignored`); here a sample of
//! the starts is played out.

mod common;

use ajedrecista_automata::audit::{StartSet, start_positions};
use ajedrecista_automata::symmetry::canonical_key;
use ajedrecista_automata::{
    BishopKnight, Bishops, FailureKind, GameGraph, Outcome, Refusal, Reply, Strategy,
};
use ajedrecista_tables::{Moves, Variant};
use shakmaty::{Board, Chess, Color, Position, Role, Square};

/// A strategy with its symmetry hidden: the audit keys every board apart.
struct Exact<'a, S>(&'a S);

impl<S: Strategy> Strategy for Exact<'_, S> {
    type Memory = S::Memory;
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn white_pieces(&self) -> &'static [Role] {
        self.0.white_pieces()
    }
    fn variant(&self) -> Variant {
        self.0.variant()
    }
    fn precondition(&self, board: &Board) -> Result<(), Refusal> {
        self.0.precondition(board)
    }
    fn start(&self, start: &Chess) -> S::Memory {
        self.0.start(start)
    }
    fn reply(&self, position: &Chess, memory: &S::Memory) -> Result<(Reply, S::Memory), Refusal> {
        self.0.reply(position, memory)
    }
}

/// From `fen` the method mates in `moves` against the longest defence,
/// and that line replays as a legal game to mate.
fn mates<S: Strategy>(strategy: &S, fen: &str, moves: u16) {
    let moves = Moves(moves);
    let start = common::position(fen);
    let mut graph = GameGraph::new(strategy);
    assert_eq!(graph.outcome(&start), Outcome::Mate(moves), "{fen}");
    common::assert_replays_to_mate(&graph.game(&start), moves);
}

/// The images of a position under the eight symmetries of the board.
fn images(position: &Chess) -> Vec<Chess> {
    let turns = [
        Square::flip_horizontal,
        Square::flip_vertical,
        Square::rotate_90,
        Square::rotate_180,
        Square::rotate_270,
        Square::flip_diagonal,
        Square::flip_anti_diagonal,
    ];
    turns
        .iter()
        .map(|turn| {
            let mut board = Board::empty();
            for (square, piece) in position.board() {
                board.set_piece_at(turn(square), piece);
            }
            let mut setup = shakmaty::Setup::empty();
            setup.board = board;
            setup.turn = position.turn();
            setup
                .position(shakmaty::CastlingMode::Standard)
                .expect("an image of a legal position")
        })
        .collect()
}

/// The method answers every image of `fen` with the image of its answer:
/// the positions after the moves are one class.
fn answers_images_alike<S: Strategy>(strategy: &S, fen: &str) {
    let start = common::position(fen);
    let class_after = |position: &Chess| {
        let memory = strategy.start(position);
        let (reply, _) = strategy.reply(position, &memory).expect("a move");
        let mut after = position.clone();
        after.play_unchecked(reply.mv);
        canonical_key(after.board())
    };
    let expected = class_after(&start);
    for image in images(&start) {
        assert_eq!(class_after(&image), expected, "{fen}: {image:?}");
    }
}

/// The audit's graph, one node per class, finds from `fen` and from each
/// of its images the outcome the exact graph (every board its own node)
/// finds.
fn audits_images_alike<S: Strategy>(strategy: &S, fen: &str) {
    let start = common::position(fen);
    let by_class = GameGraph::new(strategy).outcome(&start);
    let exact = GameGraph::new(&Exact(strategy)).outcome(&start);
    assert_eq!(by_class, exact, "{fen}");
    for image in images(&start) {
        assert_eq!(GameGraph::new(strategy).outcome(&image), by_class);
        assert_eq!(GameGraph::new(&Exact(strategy)).outcome(&image), by_class);
    }
}

#[test]
fn the_bishops_worst_line_and_fixed_starts_mate() {
    // The audit's worst case (`ajedrecista audit bishops`), then the
    // earlier versions' worst starts.
    mates(&Bishops, "8/8/1B1k4/8/8/8/8/KB6 w - - 0 1", 24);
    mates(&Bishops, "8/8/B7/8/4k3/8/8/1K2B3 w - - 0 1", 19);
    mates(&Bishops, "8/8/B7/8/8/5k2/5B2/1K6 w - - 0 1", 21);
    mates(&Bishops, "8/8/8/6B1/8/7B/8/k1K5 w - - 0 1", 4);
    mates(&Bishops, "1k6/8/1B6/8/8/8/8/KB6 w - - 0 1", 12);
    mates(&Bishops, "7k/8/5K2/8/8/8/8/2B2B2 w - - 0 1", 3);
    mates(&Bishops, "k7/2K5/8/8/8/8/8/2B2B2 w - - 0 1", 3);
    mates(&Bishops, "6k1/8/5K2/8/8/8/8/2B2B2 w - - 0 1", 7);
}

#[test]
fn the_bishop_and_knight_worst_line_and_fixed_starts_mate() {
    // The audit's worst case (`ajedrecista audit bishop-knight`), then
    // the earlier versions'.
    mates(&BishopKnight, "8/8/2N5/8/8/8/2k5/K1B5 w - - 0 1", 48);
    mates(&BishopKnight, "8/8/8/8/1N6/8/7B/k6K w - - 0 1", 21);
    mates(&BishopKnight, "1k6/8/8/8/8/4N3/8/K2B4 w - - 0 1", 18);
    mates(&BishopKnight, "8/8/k7/3N4/K7/8/8/1B6 w - - 0 1", 9);
    mates(&BishopKnight, "k7/8/1KN5/8/8/8/8/5B2 w - - 0 1", 4);
    mates(&BishopKnight, "1k6/8/1K6/2N5/8/8/8/5B2 w - - 0 1", 3);
}

/// The bishops shrink the triangles around the corners by calculation
/// (rule 3): they mate from the manuals' own start (white king e1,
/// bishops c1 and f1 against a black king on e8) and from the starts
/// where the earlier rules went round (the previous worst start, and the
/// first cycling start of the previous audit).
#[test]
fn the_bishops_mate_from_the_opening_men_and_where_they_went_round() {
    mates(&Bishops, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", 19);
    mates(&Bishops, "8/5K2/8/B7/8/4k3/8/3B4 w - - 0 1", 18);
    mates(&Bishops, "8/8/8/8/8/4k3/8/KB2B3 w - - 0 1", 18);
}

/// Delétang's method shrinks the triangles by calculation (rule 3): it
/// mates from the manuals' start (white king e1, knight b1, bishop f1
/// against a black king on e8), from the pocket on the edge beside the
/// right corner's triangle where the earlier rules went round (king e1
/// against king g3, bishop f3, knight d2) and from the first start of the
/// audit's list, where they went round too.
#[test]
fn the_bishop_and_knight_mate_from_the_opening_men_and_the_pocket() {
    mates(&BishopKnight, "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1", 41);
    mates(&BishopKnight, "8/8/8/8/8/5BK1/3N4/4k3 w - - 0 1", 14);
    mates(&BishopKnight, "8/8/8/8/8/8/8/KBNk4 w - - 0 1", 30);
}

/// A man that hangs at the start with no way to keep it (rule 7): the
/// audit counts the loss.
#[test]
fn a_man_that_cannot_be_kept_is_lost() {
    let bishops = common::position("8/8/8/B7/8/K7/8/kB6 w - - 0 1");
    assert_eq!(
        GameGraph::new(&Bishops).outcome(&bishops),
        Outcome::Failure(FailureKind::LostPiece)
    );
    let knight = common::position("8/8/8/8/8/8/3N4/K1kB4 w - - 0 1");
    assert_eq!(
        GameGraph::new(&BishopKnight).outcome(&knight),
        Outcome::Failure(FailureKind::LostPiece)
    );
}

#[test]
fn both_methods_play_every_image_of_a_board_alike() {
    for fen in [
        "6k1/8/5K2/8/8/8/8/2B2B2 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",
        "8/5k2/8/2B5/8/3K4/8/7B w - - 0 1",
    ] {
        answers_images_alike(&Bishops, fen);
    }
    for fen in [
        "k7/8/1KN5/8/8/8/8/5B2 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2KB2 w - - 0 1",
        "8/8/3k4/8/8/2N5/1K3B2/8 w - - 0 1",
    ] {
        answers_images_alike(&BishopKnight, fen);
    }
    audits_images_alike(&Bishops, "6k1/8/5K2/8/8/8/8/2B2B2 w - - 0 1");
    audits_images_alike(&Bishops, "1k6/8/1B6/8/8/8/8/KB6 w - - 0 1");
    audits_images_alike(&BishopKnight, "k7/8/1KN5/8/8/8/8/5B2 w - - 0 1");
    audits_images_alike(&BishopKnight, "8/8/k7/3N4/K7/8/8/1B6 w - - 0 1");
}

#[test]
fn the_preconditions_name_the_material() {
    // Two bishops on one colour cannot mate: refused.
    let same_colour = common::position("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1");
    assert!(Bishops.precondition(same_colour.board()).is_err());
    let rook = common::position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert!(BishopKnight.precondition(rook.board()).is_err());
    assert!(Bishops.precondition(rook.board()).is_err());
}

/// With the king boxed in, rule 2 calculates the mate: its first move is
/// the rule's, and the line mates in `moves` against the longest defence.
fn calculates_the_mate<S: Strategy>(strategy: &S, fen: &str, moves: u16) {
    let start = common::position(fen);
    let (reply, _) = strategy
        .reply(&start, &strategy.start(&start))
        .expect("a move");
    assert!(
        reply.reason.starts_with("rule 2"),
        "{fen}: {}",
        reply.reason
    );
    mates(strategy, fen, moves);
}

#[test]
fn a_boxed_in_king_is_mated_by_calculation() {
    calculates_the_mate(&Bishops, "7k/5K2/8/8/8/8/8/2B2B2 w - - 0 1", 3);
    calculates_the_mate(&BishopKnight, "k7/3K4/8/3N4/8/8/8/5B2 w - - 0 1", 5);
}

/// Every `step`-th start of the audit's list: against the longest defence
/// the method mates (and the line replays as a legal game to mate), goes
/// round, or loses a man that hangs at the start; it never stalemates or
/// finds no rule.
fn sampled_starts_end_as_the_audit_counts<S: Strategy>(strategy: &S, step: usize) {
    let starts = start_positions(strategy, StartSet::All, Color::White);
    let mut graph = GameGraph::new(strategy);
    let mut mated = 0;
    for start in starts.iter().step_by(step) {
        match graph.outcome(start) {
            Outcome::Mate(moves) => {
                common::assert_replays_to_mate(&graph.game(start), moves);
                mated += 1;
            }
            Outcome::Failure(kind) => assert!(
                [FailureKind::Cycle, FailureKind::LostPiece].contains(&kind),
                "{kind:?} from {start:?}"
            ),
        }
    }
    assert!(mated > 0, "{}: no sampled start mated", strategy.name());
}

#[test]
fn sampled_bishops_starts_end_as_the_audit_counts() {
    sampled_starts_end_as_the_audit_counts(&Bishops, 3001);
}

#[test]
fn sampled_bishop_and_knight_starts_end_as_the_audit_counts() {
    sampled_starts_end_as_the_audit_counts(&BishopKnight, 13001);
}

/// The method mates from every `step`-th start of its audit's list that
/// perfect play wins (tables built in memory): it fails only where White
/// has no win.
fn fails_only_where_white_has_no_win<S: Strategy>(strategy: &S, step: usize) -> usize {
    let tables = ajedrecista_tables::Tablebase::in_memory();
    let starts = start_positions(strategy, StartSet::All, Color::White);
    let mut graph = GameGraph::new(strategy);
    let mut mated = 0;
    for start in starts.iter().step_by(step) {
        let wins = tables
            .probe(start, Variant::Standard)
            .expect("a position of the method's material")
            .white_mates_in(Color::White)
            .is_some();
        match graph.outcome(start) {
            Outcome::Mate(_) => mated += 1,
            Outcome::Failure(kind) => {
                assert!(!wins, "{kind:?} from {start:?}, which White wins");
            }
        }
    }
    mated
}

#[test]
fn the_bishop_and_knight_fail_only_where_white_has_no_win() {
    let mated = fails_only_where_white_has_no_win(&BishopKnight, 997);
    assert!(mated > 1000, "{mated} mated");
}

#[test]
fn the_bishops_fail_only_where_white_has_no_win() {
    let mated = fails_only_where_white_has_no_win(&Bishops, 997);
    assert!(mated > 300, "{mated} mated");
}
