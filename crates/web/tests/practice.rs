//! The practice API: the visitor gives the mate as White against the
//! tables' best defence, each move weighed, hints from a method.

mod common;

use ajedrecista_web::Limits;
use axum::Router;
use axum::http::{Method, StatusCode};
use common::{Answer, app, get, send};
use serde_json::{Value, json};

async fn post(app: &Router, uri: &str, body: Value) -> Answer {
    let text = body.to_string();
    send(app, Method::POST, uri, Some(("application/json", &text))).await
}

/// A move that keeps the win but throws moves away: of the legal moves,
/// the first whose verdict says so (the practice is undone after each).
async fn a_slow_move(app: &Router, id: &str, legal: &[Value]) -> Value {
    for mv in legal {
        let answer = post(
            app,
            &format!("/api/practice/{id}/moves"),
            json!({ "move": mv }),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        let turn = answer.json()["turn"].clone();
        let undone = post(app, &format!("/api/practice/{id}/undo"), json!({})).await;
        assert_eq!(undone.status, StatusCode::OK, "{}", undone.text);
        if turn["verdict"]["kind"] == "slower" {
            return turn;
        }
    }
    panic!("no slow move among {legal:?}");
}

#[tokio::test]
async fn a_practice_weighs_moves_gives_hints_and_ends_in_mate() {
    let (app, _) = app(Limits::default());
    let started = post(&app, "/api/practice", json!({ "method": "rook-box" })).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text);
    assert_eq!(started.headers["content-type"], "application/json");
    let state = started.json();
    let id = state["id"].as_str().unwrap().to_string();
    let goal = state["mate_in"].as_u64().unwrap();
    assert!(goal > 0);
    assert_eq!(state["moves_used"], 0);
    assert_eq!(state["can_undo"], false);
    assert_eq!(state["fen"], state["start_fen"]);

    let legal = state["legal"].as_array().unwrap().clone();
    let slow = a_slow_move(&app, &id, &legal).await;
    assert!(slow["verdict"]["moves"].as_u64().unwrap() > 0, "{slow}");

    // Hints from the box method, played until the end.
    let mut end = Value::Null;
    for _ in 0..100 {
        let hint = get(&app, &format!("/api/practice/{id}/hint")).await;
        assert_eq!(hint.status, StatusCode::OK, "{}", hint.text);
        let hint = hint.json();
        assert_eq!(hint["method"], "rook-box");
        assert!(!hint["reason"].as_str().unwrap().is_empty());
        let moved = post(
            &app,
            &format!("/api/practice/{id}/moves"),
            json!({ "move": hint["san"] }),
        )
        .await;
        assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
        let practice = moved.json()["practice"].clone();
        if !practice["end"].is_null() {
            end = practice;
            break;
        }
    }
    assert_eq!(end["end"], "checkmate", "{end}");
    assert_eq!(end["legal"], json!([]));
    let summary = &end["summary"];
    assert_eq!(summary["perfect"], goal);
    assert_eq!(summary["moves_used"], end["moves_used"]);
    assert!(summary["moves_used"].as_u64().unwrap() >= goal);
    // After the end: no move, no hint; a retry starts again.
    let over = post(
        &app,
        &format!("/api/practice/{id}/moves"),
        json!({ "move": "Ra1" }),
    )
    .await;
    over.error(StatusCode::CONFLICT);
    get(&app, &format!("/api/practice/{id}/hint"))
        .await
        .error(StatusCode::CONFLICT);
    let again = post(&app, &format!("/api/practice/{id}/retry"), json!({})).await;
    assert_eq!(again.status, StatusCode::OK);
    let again = again.json();
    assert_eq!(
        (again["fen"].clone(), again["moves_used"].clone()),
        (state["start_fen"].clone(), json!(0))
    );
    assert_eq!(
        get(&app, &format!("/api/practice/{id}")).await.json(),
        again
    );
}

#[tokio::test]
async fn bad_practice_requests_are_refused_in_words() {
    let (app, _) = app(Limits::default());
    let start = |body: Value| {
        let app = app.clone();
        async move { post(&app, "/api/practice", body).await }
    };
    start(json!({})).await.error(StatusCode::BAD_REQUEST);
    start(json!({ "method": "none-such" }))
        .await
        .error(StatusCode::BAD_REQUEST);
    start(json!({ "fen": "8/8/8/8" }))
        .await
        .error(StatusCode::BAD_REQUEST);
    let draw = start(json!({ "fen": "8/8/8/3k4/8/8/8/B3K3 w - - 0 1" })).await;
    assert!(
        draw.error(StatusCode::UNPROCESSABLE_ENTITY)
            .contains("does not win")
    );
    let black = start(json!({ "fen": "8/8/8/3k4/8/8/8/R3K3 b - - 0 1" })).await;
    assert!(
        black
            .error(StatusCode::UNPROCESSABLE_ENTITY)
            .contains("White to move")
    );

    let started = start(json!({ "fen": "8/8/8/3k4/8/8/8/R3K3 w - - 0 1" })).await;
    assert_eq!(started.status, StatusCode::CREATED, "{}", started.text);
    let id = started.json()["id"].as_str().unwrap().to_string();
    let moves = format!("/api/practice/{id}/moves");
    post(&app, &moves, json!({ "move": "Zz9" }))
        .await
        .error(StatusCode::BAD_REQUEST);
    post(&app, &moves, json!({ "move": "Rb2" }))
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY);
    post(&app, &format!("/api/practice/{id}/undo"), json!({}))
        .await
        .error(StatusCode::CONFLICT);
    // No method: no hint.
    get(&app, &format!("/api/practice/{id}/hint"))
        .await
        .error(StatusCode::CONFLICT);
    get(&app, "/api/practice/0123456789abcdef")
        .await
        .error(StatusCode::NOT_FOUND);
}
