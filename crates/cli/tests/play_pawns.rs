//! `play --white perfect --fen` and `selfplay perfect --fen` with a pawn:
//! the promotion is played and shown, the game goes to mate.

mod common;

#[test]
fn play_shows_perfect_play_promoting() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::play_perfect("8/1P6/8/8/8/8/8/K1k5 w - - 0 1", "quit\n", dir.path());
    assert!(out.contains("White plays b8=Q"), "{out}");
    // The new queen on the board.
    assert!(out.contains('♕'), "{out}");
}

/// The published longest KPvK win, 28 moves, played out against the
/// tables' defence.
#[test]
fn selfplay_mates_from_the_longest_kpvk_win() {
    let dir = tempfile::tempdir().unwrap();
    let fen = "8/8/8/1k6/8/8/K5P1/8 w - - 0 1";
    let out = common::plain_stdout(&common::run(
        &["selfplay", "perfect", "--fen", fen],
        dir.path(),
    ));
    assert!(out.contains("g8=Q"), "{out}");
    // 28 moves of White, 27 of Black.
    assert!(out.contains("[PlyCount \"55\"]"), "{out}");
    assert!(out.trim_end().ends_with("# 1-0"), "{out}");
}
