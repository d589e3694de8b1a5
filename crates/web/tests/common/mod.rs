//! Requests against the router, in process (no socket).

use std::sync::Arc;

use ajedrecista_tables::Tablebase;
use ajedrecista_web::{AppState, Limits, router};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

#[allow(dead_code)] // used by all the test files but builds.rs
pub fn app(limits: Limits) -> (Router, Arc<AppState>) {
    let state = AppState::new(Arc::new(Tablebase::in_memory()), limits);
    (router(Arc::clone(&state)), state)
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|err| panic!("not JSON ({err}): {}", self.text))
    }

    /// Asserts the status and a JSON error body, and returns the message.
    pub fn error(&self, status: StatusCode) -> String {
        assert_eq!(self.status, status, "{}", self.text);
        let body = self.json();
        body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error field: {}", self.text))
            .to_string()
    }
}

pub async fn send(app: &Router, method: Method, uri: &str, body: Option<(&str, &str)>) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    let body = match body {
        Some((content_type, text)) => {
            request = request.header("content-type", content_type);
            Body::from(text.to_string())
        }
        None => Body::empty(),
    };
    let response = app
        .clone()
        .oneshot(request.body(body).expect("a request"))
        .await
        .expect("the router never fails");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("a body")
        .to_bytes();
    Answer {
        status,
        headers,
        text: String::from_utf8(bytes.to_vec()).expect("UTF-8"),
    }
}

pub async fn get(app: &Router, uri: &str) -> Answer {
    send(app, Method::GET, uri, None).await
}

/// A FEN or board as a query value.
#[allow(dead_code)] // used by some of the test files only
pub fn encode(fen: &str) -> String {
    fen.replace(' ', "%20").replace('/', "%2F")
}

/// The tablebase view's URI for `fen`, then `query` (`&fixed_king=c3`).
#[allow(dead_code)] // used by some of the test files only
pub fn probe_uri(fen: &str, query: &str) -> String {
    format!("/api/probe?fen={}{query}", encode(fen))
}

/// The tablebase view of `fen` (then `query`), which must answer 200.
#[allow(dead_code)] // used by some of the test files only
pub async fn probe_ok(app: &Router, fen: &str, query: &str) -> Answer {
    let answer = get(app, &probe_uri(fen, query)).await;
    assert_eq!(answer.status, StatusCode::OK, "{fen}: {}", answer.text);
    answer
}

#[allow(dead_code)] // used by some of the test files only
pub async fn post_json(app: &Router, uri: &str, json: &str) -> Answer {
    send(app, Method::POST, uri, Some(("application/json", json))).await
}

/// The page's whole script: `/js/main.js` and every module it imports,
/// fetched from the server (each must be served). Not every test file
/// reads it.
#[allow(dead_code)]
pub async fn script(app: &Router) -> String {
    let mut queue = vec!["main.js".to_string()];
    let mut seen = std::collections::HashSet::new();
    let mut text = String::new();
    while let Some(name) = queue.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let module = get(app, &format!("/js/{name}")).await;
        assert_eq!(module.status, axum::http::StatusCode::OK, "/js/{name}");
        for line in module.text.lines() {
            if let Some((_, from)) = line.split_once(" from \"./") {
                queue.push(from.trim_end_matches("\";").to_string());
            }
        }
        text.push_str(&module.text);
    }
    assert!(seen.len() >= 8, "{seen:?}");
    text
}
