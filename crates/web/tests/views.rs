//! The page, the tablebase view and the audit view, and their bad requests.

mod common;

use ajedrecista_tables::{CastlingRights, Tablebase, Variant, read_fen};
use ajedrecista_web::Limits;
use axum::http::{Method, StatusCode};
use common::{app, encode, get, probe_ok, probe_uri, send};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

#[tokio::test]
async fn the_page_is_served_whole_from_the_binary() {
    let (app, _) = app(Limits::default());
    let page = get(&app, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.text
            .contains("<script type=\"module\" src=\"/js/main.js\"")
    );
    let policy = page.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("default-src 'self'"), "{policy}");
    for (path, kind) in [
        ("/js/main.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let asset = get(&app, path).await;
        assert_eq!(asset.status, StatusCode::OK);
        assert!(
            asset.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with(kind)
        );
        assert!(asset.text.len() > 1000, "{path} is empty");
    }
    get(&app, "/js/none.js").await.error(StatusCode::NOT_FOUND);
    // Nothing is loaded from another host: the page, every module of the
    // script, the style.
    let script = common::script(&app).await;
    assert!(script.len() > 10_000);
    let texts = [
        ("/", get(&app, "/").await.text),
        ("the script", script),
        ("/style.css", get(&app, "/style.css").await.text),
    ];
    for (path, text) in texts {
        for pattern in [
            "src=\"http",
            "href=\"http",
            "url(http",
            "fetch(\"http",
            "//cdn",
        ] {
            assert!(!text.contains(pattern), "{path} contains {pattern}");
        }
    }
}

#[tokio::test]
async fn probe_gives_every_move_with_the_tables_value() {
    let (app, state) = app(Limits::default());
    let fen = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
    let answer = probe_ok(&app, fen, "").await;
    let view = answer.json();
    let position: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let tables: &Tablebase = &state.tables;
    let moves = tables.moves(&position, Variant::Standard).unwrap();
    assert_eq!(view["material"], "KRvK");
    assert_eq!(view["result"], "win");
    assert_eq!(
        view["dtm_moves"],
        serde_json::json!(
            tables
                .probe(&position, Variant::Standard)
                .unwrap()
                .moves()
                .unwrap()
        )
    );
    let listed = view["moves"].as_array().unwrap();
    assert_eq!(listed.len(), moves.len());
    for (json, (mv, value)) in listed.iter().zip(&moves) {
        assert_eq!(json["uci"], mv.to_uci(CastlingMode::Standard).to_string());
        assert_eq!(json["dtm_plies"], serde_json::json!(value.plies()));
    }
    let pv = view["pv"].as_array().unwrap();
    let last = pv.last().expect("a principal variation");
    assert!(last.as_str().unwrap().ends_with('#'), "{view}");

    let mated = probe_ok(&app, "R5k1/8/6K1/8/8/8/8/8 b - - 0 1", "").await;
    let mated = mated.json();
    assert_eq!(mated["checkmate"], true);
    assert_eq!(mated["result"], "loss");
    assert_eq!(mated["dtm_plies"], 0);

    let fixed = probe_ok(&app, "8/8/8/4k3/8/2K5/8/Q7 w - - 0 1", "&fixed_king=c3").await;
    assert_eq!(fixed.json()["variant"], "fixed-king-c3");
    // The fixed king never moves.
    assert!(
        fixed.json()["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["san"].as_str().unwrap().starts_with('Q'))
    );
}

/// Issue 57, item 11: a move's FEN counts its move number on past
/// 4294967295, where shakmaty's counter stops; a larger counter in the
/// FEN asked about is a 400.
#[tokio::test]
async fn move_numbers_in_fens_go_on_past_u32() {
    let (app, _) = app(Limits::default());
    let answer = probe_ok(&app, "8/8/8/4k3/8/8/R7/4K3 b - - 0 4294967295", "").await;
    let view = answer.json();
    assert!(
        view["fen"].as_str().unwrap().ends_with(" 4294967295"),
        "{view}"
    );
    let moves = view["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for mv in moves {
        let fen = mv["fen"].as_str().unwrap();
        assert!(fen.ends_with(" w - - 1 4294967296"), "{fen}");
    }
    let too_large = get(
        &app,
        &probe_uri("8/8/8/4k3/8/8/R7/4K3 b - - 0 4294967296", ""),
    )
    .await;
    let error = too_large.error(StatusCode::BAD_REQUEST);
    assert!(error.contains("fullmove number"), "{error}");
}

#[tokio::test]
async fn bad_probes_are_refused_with_a_reason() {
    let (app, _) = app(Limits::default());
    let cases = [
        ("/api/probe", StatusCode::BAD_REQUEST),
        ("/api/probe?fen=junk", StatusCode::BAD_REQUEST),
        ("/api/probe?fen=%FF", StatusCode::BAD_REQUEST),
        (&probe_uri(&"8/".repeat(40), ""), StatusCode::BAD_REQUEST),
        // Two kings next to each other with the side not to move in check.
        (
            &probe_uri("8/8/8/8/8/8/R7/Kk6 w - - 0 1", ""),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        // Too many men.
        (
            &probe_uri("8/8/8/4k3/8/8/RQ6/4K1r1 w - - 0 1", ""),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            &probe_uri("8/8/8/4k3/8/2K5/8/Q7 w - - 0 1", "&fixed_king=z9"),
            StatusCode::BAD_REQUEST,
        ),
        (
            &probe_uri("8/8/8/4k3/8/2K5/8/Q7 w - - 0 1", "&fixed_king=d3"),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ];
    for (uri, status) in cases {
        let message = get(&app, uri).await.error(status);
        assert!(!message.is_empty(), "{uri}");
    }
}

/// The 422 of an illegal position is `{"error"}` alone, in the tables'
/// words (crates/tables/src/position.rs).
#[tokio::test]
async fn an_illegal_position_is_refused_in_words() {
    let (app, _) = app(Limits::default());
    let fen = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
    let answer = get(&app, &probe_uri(fen, "")).await;
    let message = answer.error(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer.json().as_object().unwrap().len(),
        1,
        "{}",
        answer.text
    );
    assert_eq!(
        message,
        format!(
            "illegal position {fen:?}: the side not to move is in check, so its king \
             could be taken: no game reaches this position"
        )
    );
    assert_eq!(
        message,
        read_fen(fen, CastlingRights::Refused)
            .unwrap_err()
            .to_string()
    );
}

#[tokio::test]
async fn audit_summary_matches_the_documented_figures() {
    let (app, _) = app(Limits::default());
    let answer = get(&app, "/api/audit/torres?starts=machine&side=white").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let view = answer.json();
    // docs/automata.md: 42 machine starts, the longest takes 66 moves.
    assert_eq!(view["starts"], 42);
    assert_eq!(view["worst_moves"], 66);
    let total = |key: &str| -> u64 {
        view[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|pair| pair[1].as_u64().unwrap())
            .sum()
    };
    assert_eq!(total("histogram"), 42);
    assert_eq!(total("perfect_histogram"), 42);
    assert!(
        view["failures"]
            .as_object()
            .unwrap()
            .values()
            .all(|count| count == 0)
    );
    let longest = &view["longest"];
    let plies = longest["plies"].as_array().unwrap();
    // White moves first and mates: 66 white moves, 65 black ones.
    assert_eq!(plies.len(), 66 * 2 - 1);
    assert!(
        plies.last().unwrap()["san"]
            .as_str()
            .unwrap()
            .ends_with('#')
    );
    assert!(longest["pgn"].as_str().unwrap().contains("1-0"));
    // Perfect play is never slower.
    let perfect_worst = view["excess_over_perfect"]["perfect_worst"]
        .as_u64()
        .unwrap();
    assert!(perfect_worst <= 66);
    // Cached: the same answer again.
    assert_eq!(
        get(&app, "/api/audit/torres?starts=machine&side=white")
            .await
            .text,
        answer.text
    );
}

#[tokio::test]
async fn bad_routes_and_audits_get_json_errors() {
    let (app, _) = app(Limits::default());
    get(&app, "/api/audit/nobody")
        .await
        .error(StatusCode::NOT_FOUND);
    get(&app, "/api/audit/torres?starts=some")
        .await
        .error(StatusCode::BAD_REQUEST);
    get(&app, "/api/audit/torres?side=red")
        .await
        .error(StatusCode::BAD_REQUEST);
    // Too long for a request: refused, with the native audit named.
    let reason = get(&app, "/api/audit/mk61-rook")
        .await
        .error(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reason.contains("mk61-rook-native"), "{reason}");
    // A board that cannot be read, a parameter the setup board's marks do not take.
    for bad in ["board=9/8", "board=8&turn=w"] {
        get(&app, &format!("/api/starts/squares?{bad}"))
            .await
            .error(StatusCode::BAD_REQUEST);
    }
    get(&app, "/api/nothing").await.error(StatusCode::NOT_FOUND);
    get(&app, "/etc/passwd").await.error(StatusCode::NOT_FOUND);
    send(&app, Method::DELETE, "/api/probe", None)
        .await
        .error(StatusCode::METHOD_NOT_ALLOWED);
    let strategies = get(&app, "/api/strategies").await.json();
    let names: Vec<&str> = strategies
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"torres") && names.contains(&"perfect") && names.contains(&"mk61-rook")
    );
}

#[tokio::test]
async fn serves_on_a_loopback_socket_until_shut_down() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let (_, state) = app(Limits::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(ajedrecista_web::serve(listener, state, async {
        stopped.await.ok();
    }));
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /api/strategies HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"name\":\"torres\""));
    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

/// The script holds no fact about a machine by its name: what it branches
/// on (panel, picture, About text, calculator program, audit note) comes
/// from `/api/strategies`, the claims from `/api/claims`, the meaning of a
/// display from the server.
#[tokio::test]
async fn the_script_names_no_machine_and_reads_no_display() {
    let (app, _) = app(Limits::default());
    let script = common::script(&app).await;
    let strategies: serde_json::Value =
        serde_json::from_str(&get(&app, "/api/strategies").await.text).unwrap();
    for info in strategies.as_array().unwrap() {
        let name = info["name"].as_str().unwrap();
        for quoted in [
            format!("\"{name}\""),
            format!("'{name}'"),
            format!("`{name}`"),
        ] {
            assert!(!script.contains(&quoted), "the script names {quoted}");
        }
        // Nor its label, its lamps' words or its start rule: the catalog's.
        let label = info["label"].as_str().unwrap();
        assert!(!script.contains(label), "the script holds {label:?}");
        for lamp in info["panel_lamps"].as_array().unwrap() {
            let words = lamp["label"].as_str().unwrap();
            assert!(!script.contains(words), "the script holds {words:?}");
        }
        assert!(!script.contains(info["start_rule"].as_str().unwrap()));
        assert!(
            !info["about"]["text"].as_array().unwrap().is_empty(),
            "{name}"
        );
        assert!(info["panel"].is_string(), "{name}");
    }
    for word in [
        "torres",
        "mk61-",
        "startsWith(\"mk",
        ".match(/",
        "rule 4: tempo",
    ] {
        assert!(!script.contains(word), "the script holds {word:?}");
    }
    let claims: serde_json::Value =
        serde_json::from_str(&get(&app, "/api/claims").await.text).unwrap();
    let claims = claims.as_array().unwrap();
    assert_eq!(claims.len(), ajedrecista_automata::app::CLAIMS.len());
    assert!(
        claims
            .iter()
            .all(|claim| !claim["finding"].as_str().unwrap().contains("**"))
    );
}

/// The setup board's marks (`/api/starts/squares`): against each machine's
/// own men they are the catalog's start squares, and for any men each
/// square marked is a position `/api/starts` says the machine takes.
#[tokio::test]
async fn start_squares_against_men_set_up_by_hand() {
    let (app, _) = app(Limits::default());
    let strategies = get(&app, "/api/strategies").await.json();
    let strategies = strategies.as_array().unwrap();
    for info in strategies {
        let men = info["white_men"].as_str().unwrap();
        let found = get(&app, &format!("/api/starts/squares?board={}", encode(men)))
            .await
            .json();
        let found = found.as_array().unwrap();
        assert_eq!(found.len(), strategies.len());
        let mine = found.iter().find(|f| f["name"] == info["name"]).unwrap();
        assert_eq!(mine["squares"], info["start_squares"], "{}", info["name"]);
    }
    // The teacher's men (king e1, rook h1), Black to move: every answer
    // agrees with the whole position's.
    let found = get(
        &app,
        "/api/starts/squares?board=8%2F8%2F8%2F8%2F8%2F8%2F8%2F4K2R&side=black",
    )
    .await
    .json();
    for square in ["e8", "a5", "h4", "d3", "c8"] {
        let mut board: shakmaty::Board = "8/8/8/8/8/8/8/4K2R".parse().unwrap();
        board.set_piece_at(
            square.parse().unwrap(),
            shakmaty::Piece::from_char('k').unwrap(),
        );
        let fen = format!("{board} b - - 0 1");
        let whole = get(&app, &format!("/api/starts?fen={}", encode(&fen)))
            .await
            .json();
        for (answer, marks) in whole
            .as_array()
            .unwrap()
            .iter()
            .zip(found.as_array().unwrap())
        {
            assert_eq!(answer["name"], marks["name"]);
            let marked = marks["squares"]
                .as_array()
                .unwrap()
                .contains(&serde_json::json!(square));
            assert_eq!(answer["accepts"], marked, "{} on {square}", answer["name"]);
        }
    }
}

/// `GET /api/page` says whether the page runs as a kiosk, and after how
/// many idle seconds it goes back to its start.
#[tokio::test]
async fn the_page_is_told_whether_it_is_a_kiosk() {
    let (app, _) = app(Limits::default());
    let plain = get(&app, "/api/page").await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.json(), serde_json::json!({ "kiosk": null }));
    let kiosk = ajedrecista_web::Kiosk {
        idle: std::time::Duration::from_secs(42),
    };
    let state = ajedrecista_web::AppState::with_builds(
        std::sync::Arc::new(Tablebase::in_memory()),
        Limits::default(),
        ajedrecista_web::Builds::default(),
        None,
        Some(kiosk),
    );
    let served = get(&ajedrecista_web::router(state), "/api/page").await;
    assert_eq!(
        served.json(),
        serde_json::json!({ "kiosk": { "idle_seconds": 42 } })
    );
}
