//! The calculator API's request bodies, sent through the web router in
//! process: `POST /api/calculators` (a new calculator) when the first byte
//! is even, else `POST /api/calculators/{id}/press` (a key or the switch)
//! on a calculator made once. Every answer is a success or a 4xx with a
//! JSON `{"error"}`, never a 5xx.
#![no_main]

use std::sync::{Arc, LazyLock};

use ajedrecista_tables::Tablebase;
use ajedrecista_web::{AppState, Limits, router};
use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

struct Server {
    runtime: tokio::runtime::Runtime,
    app: Router,
    calculator: String,
}

static SERVER: LazyLock<Server> = LazyLock::new(|| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = router(AppState::new(
        Arc::new(Tablebase::in_memory()),
        Limits::default(),
    ));
    let (status, body) = runtime.block_on(post(&app, "/api/calculators", b"{}"));
    assert_eq!(status, 201, "{body}");
    let made: serde_json::Value = serde_json::from_str(&body).unwrap();
    let calculator = made["id"].as_str().unwrap().to_owned();
    Server {
        runtime,
        app,
        calculator,
    }
});

async fn post(app: &Router, uri: &str, body: &[u8]) -> (u16, String) {
    let request = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_vec()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let server = &*SERVER;
    let uri = if pick % 2 == 0 {
        "/api/calculators".to_owned()
    } else {
        format!("/api/calculators/{}/press", server.calculator)
    };
    let (status, text) = server.runtime.block_on(post(&server.app, &uri, body));
    assert!(status < 500, "{status} {text}");
    if status >= 400 {
        let error: serde_json::Value = serde_json::from_str(&text).expect("a JSON error");
        assert!(error["error"].is_string(), "{text}");
    }
});
