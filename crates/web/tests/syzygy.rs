//! `/api/probe` with Syzygy files (`serve --syzygy`): answered from them
//! where no DTM table is built, nothing built; beside the DTM where one is.

#[allow(dead_code)] // the helpers this file does not use
mod common;

use std::path::Path;
use std::sync::Arc;

use ajedrecista_tables::{Syzygy, Tablebase};
use ajedrecista_web::{AppState, Builds, Limits, router};
use axum::http::StatusCode;
use common::{encode, get};

fn syzygy() -> Syzygy {
    Syzygy::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables/tests/data/syzygy"))
        .unwrap()
}

#[tokio::test]
async fn a_probe_is_answered_from_syzygy_where_no_table_is_built() {
    let cache = tempfile::tempdir().unwrap();
    let tables = Arc::new(Tablebase::new(Some(cache.path().to_path_buf())));
    let state = AppState::with_builds(
        Arc::clone(&tables),
        Limits::default(),
        Builds::default(),
        Some(syzygy()),
        None,
    );
    let app = router(state);
    // KRPvK is four men: without Syzygy the server would build it.
    let fen = "8/8/8/4k3/8/2R5/1P6/1K6 w - - 0 1";
    let answer = get(&app, &format!("/api/probe?fen={}", encode(fen))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let view = answer.json();
    assert_eq!(view["source"], "syzygy");
    assert_eq!(view["result"], "win");
    assert_eq!(view["syzygy"]["wdl"], "win");
    // b3 is a pawn move: one ply to zeroing.
    assert_eq!(view["syzygy"]["dtz"], 1);
    assert_eq!(view["syzygy"]["best_move"]["san"], "b3");
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 0);

    // A material Syzygy lacks: as without it (KBNvK is built).
    let kbnk = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1";
    let view = get(&app, &format!("/api/probe?fen={}", encode(kbnk)))
        .await
        .json();
    assert_eq!(view["source"], "tables");
    assert!(view["dtm_plies"].as_u64().is_some());
    assert!(view["syzygy"].is_null());
    assert!(view["syzygy_error"].as_str().unwrap().contains("KBNvK"));

    // Once the DTM table is built, both.
    let kqk = "8/8/8/8/8/2k5/8/K6Q w - - 0 1";
    let position =
        ajedrecista_tables::read_fen(kqk, ajedrecista_tables::CastlingRights::Refused).unwrap();
    tables
        .probe(&position, ajedrecista_tables::Variant::Standard)
        .unwrap();
    let view = get(&app, &format!("/api/probe?fen={}", encode(kqk)))
        .await
        .json();
    assert_eq!(view["source"], "tables");
    assert_eq!(view["dtm_plies"], 11);
    assert_eq!(view["syzygy"]["wdl"], "win");
}
