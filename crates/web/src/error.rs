//! Errors as the API sends them: a status and `{"error": "..."}`, and the
//! extractors that turn every bad request into one.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A request the server will not carry out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such game, strategy or route.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 422: well-formed, but not something the game or the tables allow.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(ErrorBody {
                error: &self.message,
            }),
        )
            .into_response();
        if self.status == StatusCode::TOO_MANY_REQUESTS {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        }
        response
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = match rejection.status() {
            // A body that parses but does not fit the fields is a bad request
            // all the same for this API.
            StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
            status => status,
        };
        ApiError::new(status, rejection.body_text())
    }
}

/// A JSON body whose rejection is an [`ApiError`].
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(ApiJson(value))
    }
}

/// A query string whose rejection is an [`ApiError`]. It is strict, as
/// docs/web.md promises: a parameter `T` does not have, a parameter given
/// twice or one with an empty value (`fixed_king=`) is a 400, not ignored.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        strict_query(parts.uri.query().unwrap_or("")).map(ApiQuery)
    }
}

/// Reads a query string into `T`, refusing unknown, repeated and empty
/// parameters.
pub fn strict_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let mut seen = std::collections::HashSet::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if value.is_empty() {
            return Err(ApiError::bad_request(format!(
                "query parameter {name:?} is empty"
            )));
        }
        if !seen.insert(name.clone()) {
            return Err(ApiError::bad_request(format!(
                "query parameter {name:?} is given twice"
            )));
        }
    }
    let mut unknown = Vec::new();
    let deserializer =
        serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    let value = serde_ignored::deserialize(deserializer, |path| unknown.push(path.to_string()))
        .map_err(|err: serde::de::value::Error| {
            ApiError::bad_request(format!("bad query string: {err}"))
        })?;
    match unknown.first() {
        None => Ok(value),
        Some(name) => Err(ApiError::bad_request(format!(
            "unknown query parameter {name:?}"
        ))),
    }
}
