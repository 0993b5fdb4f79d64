//! Every request passes here first: the `Host` must be one the server answers to (DNS
//! rebinding), the caller must hold the per-launch token (an `Authorization: Bearer`
//! header) or a session made with it (a cookie), and a state change made with the cookie
//! must come from this origin with the session's CSRF token. Every answer gets the
//! security headers.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};

use super::error::ApiError;
use super::state::{AppState, Session, same_secret};

pub const COOKIE: &str = "byop_session";
pub const CSRF_HEADER: &str = "x-byop-csrf";

/// Who is calling (a request extension set by [`guard`]).
#[derive(Clone)]
pub enum Caller {
    /// An API client with the token.
    Token,
    /// A browser session.
    Session(Arc<Session>),
}

impl Caller {
    /// Who owns the runs this caller starts.
    pub fn owner(&self) -> String {
        match self {
            Caller::Token => "token".into(),
            Caller::Session(s) => s.id.clone(),
        }
    }
    pub fn session(&self) -> Option<&Arc<Session>> {
        match self {
            Caller::Session(s) => Some(s),
            Caller::Token => None,
        }
    }
}

/// The page's policy: our own script and style only, no frames but ours, no other host.
pub const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-src 'self'; frame-ancestors 'none'";

pub async fn guard(State(state): State<Arc<AppState>>, mut req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let refuse = |status: StatusCode, code: &'static str, message: &str| {
        let mut r = if api {
            ApiError::new(status, code, message).into_response()
        } else {
            (status, Html(refusal_page(message))).into_response()
        };
        secure(&mut r);
        r
    };
    let Some(host) = allowed_host(&state, req.headers()) else {
        return refuse(
            StatusCode::FORBIDDEN,
            "host_not_allowed",
            "this server answers to its own address only",
        );
    };
    if let Some(token) = query_token(req.uri().query()) {
        return match same_secret(&token, &state.settings.token) && req.method() == Method::GET {
            true => login(&state, req.uri().path()),
            false => refuse(StatusCode::UNAUTHORIZED, "unauthorized", "wrong token"),
        };
    }
    let Some(caller) = caller(&state, req.headers()) else {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "no token: open the address `byop serve` printed at start-up, or send Authorization: Bearer TOKEN",
        );
    };
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok());
    if origin.is_some_and(|o| o != format!("http://{host}")) {
        return refuse(
            StatusCode::FORBIDDEN,
            "cross_origin",
            "requests from another origin are refused",
        );
    }
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD);
    if let (true, Caller::Session(s)) = (changes_state, &caller) {
        let csrf = req.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok());
        if origin.is_none() || !csrf.is_some_and(|c| same_secret(c, &s.csrf)) {
            return refuse(StatusCode::FORBIDDEN, "csrf", "missing or wrong CSRF token");
        }
    }
    req.extensions_mut().insert(caller);
    let mut response = next.run(req).await;
    secure(&mut response);
    response
}

/// The request's `Host`, when the server answers to it.
fn allowed_host(state: &AppState, headers: &HeaderMap) -> Option<String> {
    let host = headers
        .get(header::HOST)?
        .to_str()
        .ok()?
        .to_ascii_lowercase();
    state.settings.hosts.contains(&host).then_some(host)
}

fn query_token(query: Option<&str>) -> Option<String> {
    query?
        .split('&')
        .find_map(|kv| kv.strip_prefix("token="))
        .map(str::to_string)
}

fn caller(state: &AppState, headers: &HeaderMap) -> Option<Caller> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if let Some(t) = bearer {
        return same_secret(t.trim(), &state.settings.token).then_some(Caller::Token);
    }
    let cookies = headers.get_all(header::COOKIE);
    cookies
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .find_map(|id| state.session(id))
        .map(|s| {
            s.touch(state.settings.key_idle);
            Caller::Session(s)
        })
}

/// The token was right: a new session, its cookie, and the same page without the token
/// in the address bar.
fn login(state: &AppState, path: &str) -> Response {
    let session = state.new_session();
    let path = local_path(path);
    let cookie = format!("{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/", session.id);
    let mut r = (
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, path.to_string()),
            (header::SET_COOKIE, cookie),
        ],
    )
        .into_response();
    secure(&mut r);
    r
}

/// Where a login may send the browser: a path on this server. `//host/…` and `/\\host/…`
/// would be read by a browser as another host, so they go to the page instead.
fn local_path(path: &str) -> &str {
    let rest = path.strip_prefix('/').unwrap_or("");
    match rest.starts_with(['/', '\\']) || !path.starts_with('/') {
        true => "/",
        false => path,
    }
}

/// The headers every answer carries (a handler may have set a stricter CSP of its own).
fn secure(r: &mut Response) {
    let h = r.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(PAGE_CSP),
        );
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
}

fn refusal_page(message: &str) -> String {
    let escaped = askama::filters::escape(message, askama::filters::Html)
        .map(|e| e.to_string())
        .unwrap_or_default();
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>byop serve</title></head><body><h1>byop serve</h1><p>{escaped}</p></body></html>"
    )
}
