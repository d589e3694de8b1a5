//! The page, embedded in the binary: no file is read at run time and
//! nothing is fetched from elsewhere.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
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

/// How long a browser may use an asset without asking again; after that
/// it asks with the ETag and gets a 304 while the asset is unchanged.
/// **Choice:** a minute, not a day: the names carry no version, and a
/// newer server's page must reach an open browser without a hard reload.
const CACHE_CONTROL: &str = "max-age=60";

/// `body` as an answer, or 304 if the request's `if-none-match` names its
/// ETag. The ETag is weak (`W/`): gzip (tower-http) changes the bytes sent,
/// not what they mean.
fn asset(request: &HeaderMap, content_type: &'static str, body: &'static str) -> Response {
    let etag = format!(
        "W/\"{:08x}-{:x}\"",
        crc32fast::hash(body.as_bytes()),
        body.len()
    );
    let unchanged = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|tag| matches!(tag.trim(), "*") || tag.trim().trim_start_matches("W/") == &etag[2..]);
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let headers = response.headers_mut();
    if !unchanged {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, etag);
    }
    response
}

pub async fn index(request: HeaderMap) -> Response {
    asset(&request, "text/html; charset=utf-8", INDEX_HTML)
}

/// `/js/NAME`: one module of the script, or `None` for no such module.
pub fn script(request: &HeaderMap, name: &str) -> Option<Response> {
    SCRIPTS
        .iter()
        .find(|(file, _)| *file == name)
        .map(|(_, text)| asset(request, "text/javascript; charset=utf-8", text))
}

pub async fn style_css(request: HeaderMap) -> Response {
    asset(&request, "text/css; charset=utf-8", STYLE_CSS)
}

pub async fn favicon(request: HeaderMap) -> Response {
    asset(&request, "image/svg+xml", FAVICON_SVG)
}
