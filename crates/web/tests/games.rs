//! The game API: whole games, the lamp, and every kind of bad request.

mod common;

use std::time::Duration;

use ajedrecista_web::Limits;
use axum::Router;
use axum::http::{Method, StatusCode};
use common::{Answer, app, get, post_json, send};
use serde_json::Value;

/// A request body: content type and text.
type Body<'a> = (&'a str, &'a str);

async fn new_game(app: &Router, body: &str) -> Value {
    let answer = post_json(app, "/api/games", body).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    answer.json()
}

/// A new game of `strategy` from `fen`.
async fn game_from(app: &Router, strategy: &str, fen: &str) -> Value {
    let body = serde_json::json!({ "strategy": strategy, "fen": fen });
    new_game(app, &body.to_string()).await
}

async fn play(app: &Router, id: &str, text: &str) -> Answer {
    post_json(
        app,
        &format!("/api/games/{id}/moves"),
        &serde_json::json!({ "move": text }).to_string(),
    )
    .await
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Plays the black king's first legal move until the game ends; returns
/// the final state.
async fn play_out(app: &Router, mut game: Value) -> Value {
    for _ in 0..300 {
        if !game["end"].is_null() {
            return game;
        }
        let moves = strings(&game["black_moves"]);
        let answer = play(app, game["id"].as_str().unwrap(), &moves[0]).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        game = answer.json()["game"].clone();
        let reply = &game["last_reply"];
        if !reply.is_null() {
            assert!(!reply["reason"].as_str().unwrap().is_empty());
        }
    }
    panic!("no end after 300 moves: {game}");
}

#[tokio::test]
async fn a_game_against_el_ajedrecista_from_its_own_start_ends_in_mate() {
    let (app, _) = app(Limits::default());
    let game = new_game(&app, r#"{"strategy": "torres"}"#).await;
    assert_eq!(game["placing"], true);
    assert_eq!(game["board"], "K7/1R6/8/8/8/8/8/8");
    let starts = strings(&game["start_squares"]);
    // The 1912 machine's black king starts on ranks 1 to 6.
    assert_eq!(starts.len(), 42);
    assert!(
        starts
            .iter()
            .all(|s| s.ends_with(['1', '2', '3', '4', '5', '6']))
    );
    let id = game["id"].as_str().unwrap().to_string();

    let placed = play(&app, &id, "d3").await;
    assert_eq!(placed.status, StatusCode::OK, "{}", placed.text);
    let game = placed.json()["game"].clone();
    assert_eq!(game["placing"], false);
    assert_eq!(game["start_fen"], "K7/1R6/8/8/8/3k4/8/8 w - - 0 1");
    let reply = &game["last_reply"];
    assert_eq!(reply["san"], "Rb6");
    assert_eq!(reply["lamps"], serde_json::json!(["rook_down"]));
    assert_eq!(game["turn"], "black");
    let start_dtm = game["start_dtm"].as_u64().unwrap();

    let end = play_out(&app, game).await;
    assert_eq!(end["end"]["kind"], "checkmate", "{end}");
    assert_eq!(end["end"]["result"], "1-0");
    assert_eq!(end["last_reply"]["mate"], true);
    assert!(end["last_reply"]["san"].as_str().unwrap().ends_with('#'));
    assert!(end["black_moves"].as_array().unwrap().is_empty());
    let plies = end["moves"].as_array().unwrap().len() as u64;
    assert_eq!(end["white_moves"].as_u64().unwrap(), plies.div_ceil(2));
    // Mated no later than the audit's worst case over the machine's starts
    // (66 moves), and no earlier than the tables allow against the best
    // defence, unless the defence helped.
    assert!(end["white_moves"].as_u64().unwrap() <= 66);
    assert!(start_dtm <= 66);
    let pgn = end["pgn"].as_str().unwrap();
    assert!(
        pgn.contains("[White \"El Ajedrecista (Torres y Quevedo, 1912)\"]")
            && pgn.trim_end().ends_with("1-0"),
        "{pgn}"
    );
    // The state is kept: the same game again.
    let again = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(again.json()["pgn"], end["pgn"]);
    // No move after the end.
    play(&app, &id, "Kc1").await.error(StatusCode::CONFLICT);
}

#[tokio::test]
async fn perfect_play_from_a_fen_mates_within_the_tables_distance() {
    let (app, _) = app(Limits::default());
    let game = game_from(&app, "perfect", "8/8/8/4k3/8/8/R7/4K3 w - - 0 1").await;
    assert_eq!(game["placing"], false);
    // White moved first.
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    assert!(!game["last_reply"].is_null());
    let start_dtm = game["start_dtm"].as_u64().unwrap();
    assert_eq!(start_dtm, 14);
    let end = play_out(&app, game).await;
    assert_eq!(end["end"]["kind"], "checkmate");
    assert!(end["white_moves"].as_u64().unwrap() <= start_dtm);
}

/// Issue 29, item 5: move numbers go on past 4294967295, where
/// shakmaty's counter stops.
#[tokio::test]
async fn move_numbers_go_on_past_u32() {
    let (app, _) = app(Limits::default());
    let game = game_from(&app, "perfect", "8/8/8/4k3/8/8/R7/4K3 w - - 0 4294967294").await;
    let end = play_out(&app, game).await;
    let pgn = end["pgn"].as_str().unwrap();
    for number in ["4294967294. ", "4294967295. ", "4294967296. "] {
        assert!(pgn.contains(number), "{number} in {pgn}");
    }
    // Issue 57, item 11: the FENs count on too, each ply's and the game's.
    let number = |fen: &Value| -> u64 {
        let fen = fen.as_str().unwrap();
        fen.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let numbers: Vec<u64> = end["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ply| number(&ply["fen"]))
        .collect();
    // White moved first: after each of Black's moves the number goes up.
    let expected: Vec<u64> = (1..=numbers.len() as u64)
        .map(|plies| 4_294_967_294 + plies / 2)
        .collect();
    assert_eq!(numbers, expected);
    assert!(*numbers.last().unwrap() > 4_294_967_296, "{numbers:?}");
    assert_eq!(number(&end["fen"]), *numbers.last().unwrap());
}

#[tokio::test]
async fn the_calculator_shows_its_display() {
    let (app, _) = app(Limits::default());
    let game = game_from(&app, "mk61-rook", "8/8/8/4k3/8/8/R7/4K3 w - - 0 1").await;
    let display = game["last_reply"]["display"].as_str().unwrap();
    assert!(
        !display.is_empty() && display.chars().all(|c| "0123456789.- ".contains(c)),
        "{display}"
    );
}

#[tokio::test]
async fn illegal_moves_light_the_lamp_and_the_third_stops_the_machine() {
    let (app, _) = app(Limits::default());
    let game = game_from(&app, "torres", "K7/1R6/8/8/8/2k5/8/8 b - - 0 1").await;
    let id = game["id"].as_str().unwrap();
    let reasons = [
        ("Kd7", "not_one_step"),
        ("b3", "attacked"),
        ("Kb4", "attacked"),
    ];
    for (count, (text, kind)) in reasons.iter().enumerate() {
        let answer = play(&app, id, text).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        let body = answer.json();
        assert_eq!(body["lamp"]["kind"], *kind, "{text}: {body}");
        assert_eq!(body["lamp"]["count"], count + 1);
        assert_eq!(body["lamp"]["limit"], 3);
        assert_eq!(body["lamp"]["stopped"], count == 2);
        // The position is unchanged.
        assert_eq!(body["game"]["board"], "K7/1R6/8/8/8/2k5/8/8");
    }
    let stopped = get(&app, &format!("/api/games/{id}")).await.json();
    assert_eq!(stopped["end"]["kind"], "illegal_moves");
    assert_eq!(stopped["illegal"]["stopped"], true);
    play(&app, id, "Kc2").await.error(StatusCode::CONFLICT);
    send(&app, Method::POST, &format!("/api/games/{id}/undo"), None)
        .await
        .error(StatusCode::CONFLICT);
}

#[tokio::test]
async fn undo_takes_back_the_move_and_the_reply() {
    let (app, _) = app(Limits::default());
    let game = game_from(&app, "torres", "K7/1R6/8/8/8/3k4/8/8 w - - 0 1").await;
    let id = game["id"].as_str().unwrap();
    let undo = format!("/api/games/{id}/undo");
    send(&app, Method::POST, &undo, None)
        .await
        .error(StatusCode::CONFLICT);
    let before = game["fen"].clone();
    let moved = play(&app, id, "Kd2").await.json()["game"].clone();
    assert_eq!(moved["moves"].as_array().unwrap().len(), 3);
    let back = send(&app, Method::POST, &undo, None).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    assert_eq!(back.json()["fen"], before);
}

#[tokio::test]
async fn bad_requests_get_a_4xx_with_a_json_error() {
    let (app, _) = app(Limits::default());
    let cases: [(&str, Option<Body>, StatusCode); 11] = [
        (
            "/api/games",
            Some(("application/json", "{\"strategy\": ")),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some(("application/json", "[1, 2]")),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some(("application/json", "{}")),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some((
                "application/json",
                r#"{"strategy": "torres", "colour": "red"}"#,
            )),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some(("application/json", r#"{"strategy": 7}"#)),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some(("text/plain", r#"{"strategy": "torres"}"#)),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        ("/api/games", None, StatusCode::UNSUPPORTED_MEDIA_TYPE),
        (
            "/api/games",
            Some(("application/json", r#"{"strategy": "deep-blue"}"#)),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            Some((
                "application/json",
                r#"{"strategy": "torres", "fen": "not a fen"}"#,
            )),
            StatusCode::BAD_REQUEST,
        ),
        // Outside El Ajedrecista's preconditions (the rook on d4).
        (
            "/api/games",
            Some((
                "application/json",
                r#"{"strategy": "torres", "fen": "K7/8/8/8/3R4/8/8/3k4 w - - 0 1"}"#,
            )),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // Already mate.
        (
            "/api/games",
            Some((
                "application/json",
                r#"{"strategy": "torres", "fen": "R5k1/8/6K1/8/8/8/8/8 b - - 0 1"}"#,
            )),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ];
    for (uri, body, status) in cases {
        let message = send(&app, Method::POST, uri, body).await.error(status);
        assert!(!message.is_empty(), "{body:?}");
    }
    // The strategy is read by its catalog name: an unknown one is named,
    // with the known ones.
    let unknown = post_json(&app, "/api/games", r#"{"strategy": "deep-blue"}"#)
        .await
        .error(StatusCode::BAD_REQUEST);
    assert!(
        unknown.contains(r#"unknown strategy "deep-blue" (known: torres, "#),
        "{unknown}"
    );

    // An oversized body is refused before it is read whole.
    let huge = format!(
        r#"{{"strategy": "torres", "fen": "{}"}}"#,
        "8/".repeat(5000)
    );
    post_json(&app, "/api/games", &huge)
        .await
        .error(StatusCode::PAYLOAD_TOO_LARGE);

    let game = new_game(&app, r#"{"strategy": "torres"}"#).await;
    let id = game["id"].as_str().unwrap();
    for (uri, status) in [
        (
            "/api/games/0123456789abcdef".to_string(),
            StatusCode::NOT_FOUND,
        ),
        ("/api/games/not-an-id".to_string(), StatusCode::BAD_REQUEST),
        ("/api/games/%FF%FE".to_string(), StatusCode::BAD_REQUEST),
        (
            format!("/api/games/{id}/moves"),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (format!("/api/games/{id}/elsewhere"), StatusCode::NOT_FOUND),
    ] {
        get(&app, &uri).await.error(status);
    }
    let moves = format!("/api/games/{id}/moves");
    for (body, status) in [
        ("{", StatusCode::BAD_REQUEST),
        (r#"{"mv": "d3"}"#, StatusCode::BAD_REQUEST),
        (r#"{"move": 3}"#, StatusCode::BAD_REQUEST),
        ("null", StatusCode::BAD_REQUEST),
    ] {
        post_json(&app, &moves, body).await.error(status);
    }
    play(&app, "0123456789abcdef", "d3")
        .await
        .error(StatusCode::NOT_FOUND);
    // None of these was a move: the lamp is still off.
    assert_eq!(
        get(&app, &format!("/api/games/{id}")).await.json()["illegal"]["count"],
        0
    );
    // Placing the king where it may not start is an illegal move.
    let answer = play(&app, id, "b8").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["lamp"]["kind"], "next_to_white_king");
}

#[tokio::test]
async fn a_full_store_drops_the_game_idle_longest_and_idle_games_expire() {
    let (app, state) = app(Limits {
        max_games: 3,
        idle: Duration::from_millis(300),
    });
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(new_game(&app, r#"{"strategy": "torres"}"#).await["id"].clone());
    }
    // A fourth visitor gets a game; the one idle the longest goes.
    new_game(&app, r#"{"strategy": "torres"}"#).await;
    assert_eq!(state.games.len(), 3);
    get(&app, &format!("/api/games/{}", ids[0].as_str().unwrap()))
        .await
        .error(StatusCode::NOT_FOUND);
    get(&app, &format!("/api/games/{}", ids[1].as_str().unwrap())).await;
    tokio::time::sleep(Duration::from_millis(350)).await;
    get(&app, &format!("/api/games/{}", ids[1].as_str().unwrap()))
        .await
        .error(StatusCode::NOT_FOUND);
    for _ in 0..3 {
        new_game(&app, r#"{"strategy": "torres"}"#).await;
    }
    assert_eq!(state.games.len(), 3);
}

/// Text that is no move gets a hint and does not count; a real move that
/// breaks the rules lights the lamp.
#[tokio::test]
async fn typos_get_a_hint_and_do_not_count() {
    let (app, _) = app(Limits::default());
    let game = new_game(&app, r#"{"strategy": "torres"}"#).await;
    let id = game["id"].as_str().unwrap();
    play(&app, id, "d6").await;
    for typo in ["zz9", "Ke9", "", "Qd5"] {
        let answer = play(&app, id, typo).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert_eq!(answer.headers["content-type"], "application/json");
        let json = answer.json();
        assert!(json["hint"].is_string() && json["lamp"].is_null(), "{json}");
        assert_eq!(json["game"]["illegal"]["count"], 0, "{typo:?}");
    }
    let answer = play(&app, id, "Kd8").await.json();
    assert_eq!(answer["lamp"]["kind"], "not_one_step", "{answer}");
    assert_eq!(answer["game"]["illegal"]["count"], 1);
}

/// `/api/starts` names the automata that take a position, and why the
/// others do not.
#[tokio::test]
async fn starts_name_the_machines_that_take_a_position() {
    let (app, _) = app(Limits::default());
    let answer = get(
        &app,
        "/api/starts?fen=4k3/8/8/8/8/8/8/4K2R%20w%20-%20-%200%201",
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let answers = answer.json();
    let answers = answers.as_array().unwrap();
    let torres = &answers[0];
    assert_eq!(torres["name"], "torres");
    assert_eq!(torres["accepts"], false);
    assert!(
        torres["why_not"]
            .as_str()
            .unwrap()
            .contains("separate the kings")
    );
    let box_method = answers.iter().find(|a| a["name"] == "rook-box").unwrap();
    assert_eq!(box_method["accepts"], true);
    assert!(box_method["why_not"].is_null());
    get(&app, "/api/starts?fen=garbage")
        .await
        .error(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn three_bad_placements_stop_the_machine_too() {
    let (app, _) = app(Limits::default());
    let game = new_game(&app, r#"{"strategy": "torres"}"#).await;
    let id = game["id"].as_str().unwrap();
    for square in ["a7", "b1", "h7"] {
        let answer = play(&app, id, square).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        assert!(answer.json()["lamp"]["kind"].is_string(), "{}", answer.text);
    }
    let stopped = get(&app, &format!("/api/games/{id}")).await.json();
    assert_eq!(stopped["end"]["kind"], "illegal_moves", "{stopped}");
    assert_eq!(stopped["placing"], true);
    play(&app, id, "d3").await.error(StatusCode::CONFLICT);
}
