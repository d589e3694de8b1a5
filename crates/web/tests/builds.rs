//! Five-man tables built in the background (issue 56, item A): a probe
//! of a position whose table is not at hand answers 202 with the ticket
//! of its build, `/api/builds` shows it, and the probe answers once it is
//! built; a full queue is a 503 in words.

mod common;

use std::time::{Duration, Instant};

use ajedrecista_tables::Tablebase;
use ajedrecista_web::{AppState, Limits, router};
use axum::http::StatusCode;
use common::{get, probe_uri};
use std::sync::Arc;

/// KRvKNN: a pawnless five-man table with a pair, built in seconds.
const KRKNN: &str = "8/8/3nk3/4n3/8/2R5/8/1K6 w - - 0 1";
/// KQvKRN: another five-man table, never built here.
const KQKRN: &str = "8/8/3rk3/4n3/8/2Q5/8/1K6 w - - 0 1";

#[tokio::test]
async fn a_five_man_table_is_built_in_the_background_and_a_full_queue_is_a_503() {
    let state =
        AppState::with_builds_waiting(Arc::new(Tablebase::in_memory()), Limits::default(), 0);
    let app = router(Arc::clone(&state));
    let first = get(&app, &probe_uri(KRKNN, "")).await;
    assert_eq!(first.status, StatusCode::ACCEPTED, "{}", first.text);
    assert!(
        first.headers["content-type"]
            .to_str()
            .unwrap()
            .contains("json")
    );
    let ticket = first.json();
    assert_eq!(ticket["table"], "KRvKNN");
    assert_eq!(ticket["queue_position"], 0, "{ticket}");
    assert!(
        ticket["estimate_seconds"].as_u64().unwrap() >= 1,
        "{ticket}"
    );

    // The build is listed with its place and an estimate.
    let builds = get(&app, "/api/builds").await.json();
    let listed = builds
        .as_array()
        .unwrap()
        .iter()
        .find(|build| build["table"] == "KRvKNN")
        .unwrap_or_else(|| panic!("{builds}"));
    assert_eq!(listed["queue_position"], 0, "{listed}");
    assert!(
        listed["estimate_seconds"].as_u64().unwrap() >= 1,
        "{listed}"
    );

    // Asked again: the same build, not a second one.
    let again = get(&app, &probe_uri(KRKNN, "")).await;
    assert_eq!(again.status, StatusCode::ACCEPTED, "{}", again.text);
    assert_eq!(again.json()["table"], "KRvKNN");

    // Another table, with no room to wait: a 503 in words.
    let busy = get(&app, &probe_uri(KQKRN, "")).await;
    let error = busy.error(StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        error,
        "the server is busy building 1 table; try again in a few minutes"
    );

    // Six men: refused as before, never queued.
    let six = get(&app, &probe_uri("8/8/3nk3/4n3/8/2R5/8/1K5r w - - 0 1", "")).await;
    let error = six.error(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error.contains("built beforehand"), "{error}");

    // Once built, the probe answers with the value.
    let started = Instant::now();
    let view = loop {
        let answer = get(&app, &probe_uri(KRKNN, "")).await;
        if answer.status == StatusCode::OK {
            break answer.json();
        }
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "no end to the build"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(view["material"], "KRvKNN");
    assert!(!view["moves"].as_array().unwrap().is_empty(), "{view}");
    assert!(state.queue.tickets().is_empty());
}
