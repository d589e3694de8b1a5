//! Work isolation (issue 29): emulation, audits and table builds run on
//! the work pool, apart from the request threads. With every thread of the
//! pool held, a probe of a table at hand is still answered, while the
//! calculator presses queued behind the pool wait their turn; a job past a
//! full queue is refused with a 503.

#[allow(dead_code)] // the helpers this file does not use
mod common;

use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

use ajedrecista_tables::Tablebase;
use ajedrecista_web::work::WorkPool;
use ajedrecista_web::{ApiError, AppState, Limits, router};
use axum::http::StatusCode;
use common::{get, post_json};
use tokio::task::JoinHandle;

/// Holds a thread of the pool until the sender is sent to (or dropped);
/// returns once the job runs.
fn hold(pool: &Arc<WorkPool>) -> (Sender<()>, JoinHandle<Result<(), ApiError>>) {
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (started, holding) = std::sync::mpsc::channel::<()>();
    let pool = Arc::clone(pool);
    let holder = tokio::spawn(async move {
        pool.run(None, move || {
            started.send(()).unwrap();
            held.recv().unwrap();
            Ok(())
        })
        .await
    });
    holding.recv().unwrap();
    (release, holder)
}

// Two threads: the test blocks one while the other sends the job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jobs_run_on_the_pool_and_a_full_queue_is_a_503() {
    let pool = Arc::new(WorkPool::new(1, 1));
    assert_eq!(pool.run(None, || Ok(6 * 7)).await.unwrap(), 42);
    // The thread held, the queue of one filled: the next is refused.
    let (release, busy) = hold(&pool);
    let queued = {
        let pool = Arc::clone(&pool);
        tokio::spawn(async move { pool.run(None, || Ok(1)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let refused = pool.run(None, || Ok(2)).await.unwrap_err();
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    release.send(()).unwrap();
    busy.await.unwrap().unwrap();
    assert_eq!(queued.await.unwrap().unwrap(), 1);
}

const PROBE: &str = "/api/probe?fen=8/8/8/3k4/8/8/1R6/K7%20w%20-%20-%200%201";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_probe_is_answered_while_the_work_pool_is_busy() {
    let dir = tempfile::tempdir().unwrap();
    let tables = Arc::new(Tablebase::new(Some(dir.path().to_path_buf())));
    let state = AppState::with_pool(tables, Limits::default(), WorkPool::new(1, 64));
    let app = router(Arc::clone(&state));
    // The first probe builds KRvK (on the pool) into the cache folder.
    assert_eq!(get(&app, PROBE).await.status, StatusCode::OK);
    let created = post_json(&app, "/api/calculators", "{}").await.json();
    let id = created["id"].as_str().unwrap().to_string();

    let (release, holder) = hold(&state.work);
    let presses: Vec<_> = (0..8)
        .map(|_| {
            let app = app.clone();
            let uri = format!("/api/calculators/{id}/press");
            tokio::spawn(async move { post_json(&app, &uri, r#"{"key": "7"}"#).await })
        })
        .collect();

    // The probe of a table in the cache runs on its request thread.
    let answer = tokio::time::timeout(Duration::from_secs(10), get(&app, PROBE))
        .await
        .expect("the probe is answered while the pool is held");
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.json()["dtm_moves"], 16);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut presses = presses;
    if let Some(done) = presses.iter().position(|press| press.is_finished()) {
        let answer = presses.remove(done).await.unwrap();
        panic!(
            "a press did not wait for the pool: {} {}",
            answer.status, answer.text
        );
    }

    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    for press in presses {
        let answer = tokio::time::timeout(Duration::from_secs(30), press)
            .await
            .expect("each press is answered once the pool is free")
            .unwrap();
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    let display = get(&app, PROBE).await;
    assert_eq!(display.status, StatusCode::OK);
}

/// Issue 29, item 11 under the server: a FIFO named as a table left a
/// request thread stuck for good. It is not read: the probe is answered
/// from a rebuilt table, and so is the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_named_as_a_table_holds_no_thread() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("KRvK.standard.ajt");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let tables = Arc::new(Tablebase::new(Some(dir.path().to_path_buf())));
    let app = router(AppState::new(tables, Limits::default()));
    for _ in 0..2 {
        let answer = tokio::time::timeout(Duration::from_secs(30), get(&app, PROBE))
            .await
            .expect("answered, not stuck on the FIFO");
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    }
    assert!(std::fs::metadata(&fifo).unwrap().is_file());
}
