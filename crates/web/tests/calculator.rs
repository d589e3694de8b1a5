//! The clickable MK-61's API: calculators on the server, key by key.

#[allow(dead_code)] // the helpers this file does not use
mod common;

use ajedrecista_web::Limits;
use axum::Router;
use axum::http::StatusCode;
use serde_json::Value;

use common::{app, post_json};

async fn press(app: &Router, id: &str, key: &str) -> Value {
    let answer = post_json(
        app,
        &format!("/api/calculators/{id}/press"),
        &format!(r#"{{"key": "{key}"}}"#),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json()
}

/// The display as the game API writes it: the mantissa (and exponent)
/// without the blank places, Е and О of the error word as the glyphs E, 0.
fn shown(display: &str) -> String {
    display
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('Е', "E")
        .replace('О', "0")
}

#[tokio::test]
async fn a_fresh_calculator_adds() {
    let (app, _) = app(Limits::default());
    let answer = post_json(&app, "/api/calculators", "{}").await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    let id = answer.json()["id"].as_str().unwrap().to_string();
    for key in ["2", "В↑", "3"] {
        press(&app, &id, key).await;
    }
    let after = press(&app, &id, "+").await;
    assert_eq!(shown(after["display"].as_str().unwrap()), "5.");
    let places = after["places"].as_array().unwrap();
    assert_eq!(places.len(), 12);
    assert_eq!(places[1]["glyph"], "5");
    assert_eq!(places[1]["point"], true);
    let switched = post_json(
        &app,
        &format!("/api/calculators/{id}/press"),
        r#"{"switch": "ГРД"}"#,
    )
    .await;
    assert_eq!(switched.json()["switch"], "ГРД");
}

/// The queen program keyed by hand shows what the game against
/// `mk61-queen` shows, display by display, to the mate.
#[tokio::test]
async fn the_queen_program_by_keys_matches_the_game() {
    let (app, _) = app(Limits::default());
    let calculator = post_json(&app, "/api/calculators", r#"{"program": "queen"}"#).await;
    assert_eq!(
        calculator.status,
        StatusCode::CREATED,
        "{}",
        calculator.text
    );
    let calculator = calculator.json();
    assert_eq!(shown(calculator["display"].as_str().unwrap()), "77.");
    let id = calculator["id"].as_str().unwrap().to_string();

    let game = post_json(&app, "/api/games", r#"{"strategy": "mk61-queen"}"#).await;
    let mut game = game.json();
    let game_id = game["id"].as_str().unwrap().to_string();
    for square in ["f4", "f3", "e2", "f1", "e1", "d1", "c1"] {
        let answer = post_json(
            &app,
            &format!("/api/games/{game_id}/moves"),
            &format!(r#"{{"move": "{square}"}}"#),
        )
        .await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        game = answer.json()["game"].clone();
        let expected: Vec<String> = game["last_reply"]["display"]
            .as_str()
            .unwrap()
            .split(", ")
            .map(shown)
            .collect();

        // file . rank С/П, then С/П after each ЕГГОГ.
        let file = (square.as_bytes()[0] - b'a' + 1).to_string();
        let rank = (square.as_bytes()[1] as char).to_string();
        let mut displays = Vec::new();
        let mut last = Value::Null;
        for key in [file.as_str(), ".", rank.as_str(), "С/П"] {
            last = press(&app, &id, key).await;
        }
        displays.push(shown(last["display"].as_str().unwrap()));
        while displays.last().is_some_and(|d| d == "EГГ0Г") {
            last = press(&app, &id, "С/П").await;
            displays.push(shown(last["display"].as_str().unwrap()));
        }
        assert_eq!(displays, expected, "after the king's move to {square}");
    }
    assert_eq!(game["end"]["kind"], "checkmate", "{game}");
}

#[tokio::test]
async fn bad_calculator_requests_get_a_4xx() {
    let (app, _) = app(Limits::default());
    // An unknown program: a 400 that names the programs there are.
    let answer = post_json(&app, "/api/calculators", r#"{"program": "bishop"}"#).await;
    let error = answer.error(StatusCode::BAD_REQUEST);
    assert!(
        error.contains("program: unknown variant `bishop`, expected `queen` or `rook`"),
        "{error}"
    );
    let id = post_json(&app, "/api/calculators", "{}").await.json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/calculators/{id}/press");
    let answer = post_json(&app, &uri, r#"{"key": "Q"}"#).await;
    assert!(
        answer
            .error(StatusCode::BAD_REQUEST)
            .contains("unknown key")
    );
    let answer = post_json(&app, &uri, r#"{"key": "1", "switch": "Г"}"#).await;
    answer.error(StatusCode::BAD_REQUEST);
    let answer = post_json(&app, &uri, r#"{"switch": "X"}"#).await;
    answer.error(StatusCode::BAD_REQUEST);
    let answer = post_json(
        &app,
        "/api/calculators/0123456789abcdef/press",
        r#"{"key": "1"}"#,
    )
    .await;
    answer.error(StatusCode::NOT_FOUND);
    let answer = post_json(&app, "/api/calculators/nope/press", r#"{"key": "1"}"#).await;
    answer.error(StatusCode::BAD_REQUEST);
}

/// Issue 57, item 11: a path that is no calculator id says so (it said
/// "is not a game id").
#[tokio::test]
async fn a_bad_calculator_id_is_called_one() {
    let (app, _) = app(Limits::default());
    for uri in ["/api/calculators/..%2f..", "/api/calculators/..%2f../press"] {
        let answer = if uri.ends_with("press") {
            post_json(&app, uri, r#"{"key": "2"}"#).await
        } else {
            common::get(&app, uri).await
        };
        let error = answer.error(StatusCode::BAD_REQUEST);
        assert!(
            error.contains("\"../..\" is not a calculator id"),
            "{uri}: {error}"
        );
    }
}
