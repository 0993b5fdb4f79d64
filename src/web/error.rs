//! The API's one error shape, `{"error": {"code", "message", "field"?}}`, and the JSON
//! body reader that answers bad or oversized bodies in it.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

/// An error answered as `{"error": {"code", "message", "field"?}}` with its status.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// The request field at fault (400s).
    pub field: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            field: None,
        }
    }
    /// 400 naming the field at fault.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        ApiError {
            field: Some(field.to_string()),
            ..Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
        }
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
    /// The `error` object alone (also embedded beside a fail-closed report).
    pub fn body(&self) -> serde_json::Value {
        let mut e = json!({"code": self.code, "message": self.message});
        if let Some(f) = &self.field {
            e["field"] = json!(f);
        }
        e
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let too_large = self.status == StatusCode::PAYLOAD_TOO_LARGE;
        let mut r = (self.status, Json(json!({ "error": self.body() }))).into_response();
        // A body over the limit was not read to its end, so the connection cannot carry
        // another request: the client is told so, instead of finding out on its next one.
        if too_large {
            r.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
        }
        r
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "store", e.0)
    }
}

/// A JSON request body: 413 over the body limit, 415 when not declared JSON, 400 naming
/// the field serde stopped at.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json_declared = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("application/json"));
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    format!(
                        "request body over the server's limit of {} bytes",
                        super::MAX_BODY_BYTES
                    ),
                )
            } else {
                ApiError::new(StatusCode::BAD_REQUEST, "bad_request", r.body_text())
            }
        })?;
        if !json_declared {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as application/json",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| bad_json(&e))
    }
}

/// serde's message, with the field it names (`missing field `x``, `unknown field `x``).
fn bad_json(e: &serde_json::Error) -> ApiError {
    let message = e.to_string();
    let field = ["missing field `", "unknown field `"]
        .iter()
        .find_map(|lead| {
            let rest = &message[message.find(lead)? + lead.len()..];
            Some(rest[..rest.find('`')?].to_string())
        });
    ApiError {
        field,
        ..ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("request body: {message}"),
        )
    }
}
