//! The page, embedded in the binary: no file is read at run time and
//! nothing is fetched from elsewhere.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The script: one ES module per view (`/js/NAME`), `main.js` first.
const SCRIPTS: [(&str, &str); 10] = [
    ("main.js", include_str!("../assets/js/main.js")),
    ("common.js", include_str!("../assets/js/common.js")),
    ("board.js", include_str!("../assets/js/board.js")),
    ("play.js", include_str!("../assets/js/play.js")),
    ("audit.js", include_str!("../assets/js/audit.js")),
    ("tables.js", include_str!("../assets/js/tables.js")),
    ("setup.js", include_str!("../assets/js/setup.js")),
    ("calculator.js", include_str!("../assets/js/calculator.js")),
    ("claims.js", include_str!("../assets/js/claims.js")),
    ("practice.js", include_str!("../assets/js/practice.js")),
];
const STYLE_CSS: &str = include_str!("../assets/style.css");
/// A black king on two squares: the tab's icon (`/favicon.svg`, and at
/// `/favicon.ico`, where browsers look without being told).
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

/// Only this server's own scripts, styles and requests.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `/js/NAME`: one module of the script, or `None` for no such module.
pub fn script(name: &str) -> Option<Response> {
    SCRIPTS
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, text)| asset("text/javascript; charset=utf-8", text))
}

pub async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

pub async fn favicon() -> Response {
    asset("image/svg+xml", FAVICON_SVG)
}
