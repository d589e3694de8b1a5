//! The tablebase view with pawns: a KPvK position, its promotions among
//! the moves, and a colour-flipped twin; the page draws every man.

mod common;

use ajedrecista_web::Limits;
use axum::http::StatusCode;
use common::{app, get, probe_ok, probe_uri};

#[tokio::test]
async fn a_kpvk_position_is_probed_with_its_promotions() {
    let (app, _) = app(Limits::default());
    let fen = "8/1P6/8/8/8/8/8/K1k5 w - - 0 1";
    let answer = probe_ok(&app, fen, "").await;
    assert!(
        answer.headers["content-type"]
            .to_str()
            .unwrap()
            .contains("json")
    );
    let view = answer.json();
    assert_eq!(view["material"], "KPvK");
    assert_eq!(view["result"], "win");
    let moves = view["moves"].as_array().unwrap();
    let promotions: Vec<&serde_json::Value> = moves
        .iter()
        .filter(|m| m["uci"].as_str().unwrap().starts_with("b7b8"))
        .collect();
    assert_eq!(promotions.len(), 4, "{moves:?}");
    let mut pieces = Vec::new();
    for promotion in &promotions {
        let uci = promotion["uci"].as_str().unwrap();
        let piece = uci[4..].to_uppercase();
        // The board after the move holds the new piece on b8.
        let after = promotion["fen"].as_str().unwrap();
        assert!(after.starts_with(&format!("1{piece}")), "{promotion}");
        let san = promotion["san"].as_str().unwrap();
        assert_eq!(&san[..4], format!("b8={piece}"), "{promotion}");
        pieces.push(piece);
    }
    pieces.sort();
    assert_eq!(pieces, ["B", "N", "Q", "R"]);
    assert!(
        moves[0]["uci"].as_str().unwrap().starts_with("b7b8"),
        "promoting at once is the fastest win: {moves:?}"
    );
    let pv = view["pv"].as_array().unwrap();
    assert!(pv[0].as_str().unwrap().starts_with("b8="), "{pv:?}");
    assert!(pv.last().unwrap().as_str().unwrap().ends_with('#'));

    // The colour-flipped twin reads the same table.
    let twin = probe_ok(&app, "k1K5/8/8/8/8/8/1p6/8 b - - 0 1", "").await;
    let twin = twin.json();
    assert_eq!(twin["material"], "KvKP");
    assert_eq!(twin["result"], "win");
    assert_eq!(twin["dtm_plies"], view["dtm_plies"]);

    // Six men with pawns, as without: served only once built by `solve`.
    let six = get(&app, &probe_uri("8/8/8/8/8/8/PPPP4/K1k5 w - - 0 1", "")).await;
    let error = six.error(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error.contains("built beforehand"), "{error}");
}

/// The page's script draws pawns, bishops and knights (what a promotion
/// or a pawn ending puts on the board), not only kings, queens and rooks.
#[tokio::test]
async fn the_page_draws_every_man() {
    let (app, _) = app(Limits::default());
    let script = common::script(&app).await;
    for man in ["k", "q", "r", "b", "n", "p"] {
        assert!(script.contains(&format!("\n  {man}: [\"M")), "{man}");
    }
}
