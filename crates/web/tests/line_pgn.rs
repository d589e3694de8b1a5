//! The analysis board's line as PGN (issue 56, item 8): every move with
//! its value by the tables as a comment, a file to download; a line that
//! cannot be played is a 422 naming the move.

mod common;

use ajedrecista_web::Limits;
use axum::http::StatusCode;
use common::{app, encode, get};

#[tokio::test]
async fn a_line_is_served_as_pgn_with_each_moves_value() {
    let (app, _) = app(Limits::default());
    let start = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
    let probed = get(&app, &format!("/api/probe?fen={}", encode(start)))
        .await
        .json();
    let best = &probed["moves"][0];
    let reply = get(
        &app,
        &format!("/api/probe?fen={}", encode(best["fen"].as_str().unwrap())),
    )
    .await
    .json();
    let moves = format!(
        "{},{}",
        best["uci"].as_str().unwrap(),
        reply["moves"][0]["uci"].as_str().unwrap()
    );
    let answer = get(
        &app,
        &format!("/api/probe/pgn?fen={}&moves={moves}", encode(start)),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(
        answer.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/x-chess-pgn")
    );
    assert!(
        answer.headers["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("attachment")
    );
    let pgn = &answer.text;
    assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
    // The PGN's SAN has check marks, the probe's none.
    let movetext = pgn.lines().last().unwrap().replace('+', "");
    let expected = format!(
        "1. {} {{mate in {}}} {} {{mated in {}}} *",
        best["san"].as_str().unwrap(),
        best["dtm_moves"],
        reply["moves"][0]["san"].as_str().unwrap(),
        reply["moves"][0]["dtm_moves"],
    );
    assert_eq!(movetext, expected, "{pgn}");

    let bad = get(
        &app,
        &format!("/api/probe/pgn?fen={}&moves=a2a8,e1e2", encode(start)),
    )
    .await;
    let error = bad.error(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        error,
        "move 2 (e1e2) is not a legal move in UCI notation there"
    );
    let unread = get(&app, "/api/probe/pgn?fen=nonsense").await;
    unread.error(StatusCode::BAD_REQUEST);
}
