//! The HTTP API: one small handler per route, JSON in and out, the same JSON the CLI
//! writes (`{"byop_report": …}`, history rows, the diff), errors in one shape.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::{Stream, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::auth::Caller;
use super::error::{ApiError, JsonBody};
use super::events::{RunEvent, RunHandle};
use super::run::{self, EvaluateRequest};
use super::state::AppState;
use super::view;
use crate::evaluator::ApiKey;
use crate::model::ReportEnvelope;

type Shared = State<Arc<AppState>>;

/// The header an API client sends its evaluator key in (the page sends it once; the
/// session keeps it in memory).
pub const KEY_HEADER: &str = "x-evaluator-key";

/// The evaluator key for this request: the header's (kept by a browser session for its
/// next runs), else the session's.
pub(super) fn key_for(caller: &Caller, headers: &HeaderMap) -> Option<ApiKey> {
    let given = headers
        .get(KEY_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(ApiKey::new);
    match caller.session() {
        Some(s) => {
            if given.is_some() {
                s.set_key(given);
            }
            s.key()
        }
        None => given,
    }
}

/// `POST /api/evaluate`: run and answer with the report (503 with the fail-closed report
/// when the evaluator could not judge what the mode needed).
pub async fn evaluate(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<EvaluateRequest>,
) -> Result<Response, ApiError> {
    let prepared = run::prepare(&state, req, key_for(&caller, &headers))?;
    let outcome = run::execute(&state, prepared, None, CancellationToken::new()).await?;
    let mut body = serde_json::to_value(ReportEnvelope {
        byop_report: &outcome.report,
    })
    .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(match outcome.unavailable {
        None => (StatusCode::OK, Json(body)).into_response(),
        Some(e) => {
            body["error"] = e.body();
            (e.status, Json(body)).into_response()
        }
    })
}

/// `POST /api/runs`: start a run the caller follows at `/api/runs/{id}/events`.
pub async fn start_run(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<EvaluateRequest>,
) -> Result<Response, ApiError> {
    let prepared = run::prepare(&state, req, key_for(&caller, &headers))?;
    let id = run::start(&state, prepared, caller.owner());
    let events = format!("/api/runs/{id}/events");
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"run_id": id, "events": events})),
    )
        .into_response())
}

fn own_run(state: &AppState, caller: &Caller, id: &str) -> Result<Arc<RunHandle>, ApiError> {
    state
        .runs
        .get(id)
        .map(|h| h.clone())
        .filter(|h| h.owner == caller.owner())
        .ok_or_else(|| ApiError::not_found(format!("no run `{id}`")))
}

/// `GET /api/runs/{id}/events`: the run's progress, then `done` (with the report id),
/// `failed` or `cancelled`.
pub async fn run_events(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let rx = own_run(&state, &caller, &id)?.events.clone();
    // Each step sends the events not sent yet, until the final one.
    let batches =
        futures::stream::unfold((rx, 0usize, false), |(mut rx, sent, ended)| async move {
            if ended || (sent > 0 && rx.changed().await.is_err()) {
                return None;
            }
            let all = rx.borrow_and_update().clone();
            let ended = all.last().is_some_and(RunEvent::is_final);
            let fresh: Vec<Result<Event, Infallible>> = all[sent.min(all.len())..]
                .iter()
                .map(|ev| {
                    let data = serde_json::to_string(ev).unwrap_or_default();
                    Ok(Event::default().event(ev.name()).data(data))
                })
                .collect();
            Some((fresh, (rx, all.len(), ended)))
        });
    let stream = batches.flat_map(futures::stream::iter);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// `POST /api/runs/{id}/cancel`.
pub async fn cancel_run(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    own_run(&state, &caller, &id)?.cancel.cancel();
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"run_id": id, "cancelled": true})),
    )
        .into_response())
}

/// `GET /api/history`: stored reports, newest first, filtered and paged.
pub async fn history(
    State(state): Shared,
    Query(filter): Query<view::HistoryFilter>,
) -> Result<Json<Value>, ApiError> {
    let page = view::history_page(&state, &filter)?;
    Ok(Json(json!({
        "rows": page.rows,
        "total": page.total,
        "position": page.position,
        "newer": page.newer,
        "older": page.older,
        "limit": page.limit,
    })))
}

#[derive(Deserialize)]
pub struct ReportQuery {
    /// `json` (default), `sarif` or `html`.
    #[serde(default)]
    format: Option<String>,
    /// Answer as a file to save.
    #[serde(default)]
    download: Option<String>,
}

/// `GET /api/reports/{id}`: a stored report (id or unique prefix) as JSON, SARIF or HTML.
pub async fn report(
    State(state): Shared,
    Path(id): Path<String>,
    Query(q): Query<ReportQuery>,
) -> Result<Response, ApiError> {
    let r = view::stored_report(&state, &id)?;
    let (body, mime, ext) = match q.format.as_deref().unwrap_or("json") {
        "json" => (view::report_json(&r), "application/json", "json"),
        "sarif" => (
            view::report_sarif(&state, &r)?,
            "application/sarif+json",
            "sarif",
        ),
        "html" => return Ok(view::report_html(&state, &r)),
        other => {
            return Err(ApiError::field(
                "format",
                format!("unknown format `{other}` (json, sarif or html)"),
            ));
        }
    };
    let mut response = ([(header::CONTENT_TYPE, mime)], body).into_response();
    if q.download.is_some() {
        let name = format!("attachment; filename=\"byop-{}.{ext}\"", r.report_id);
        if let Ok(v) = name.parse() {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    a: String,
    b: String,
}

/// `POST /api/compare`: two stored reports side by side (`byop diff --format json`).
pub async fn compare(
    State(state): Shared,
    JsonBody(req): JsonBody<CompareRequest>,
) -> Result<Response, ApiError> {
    let a = view::stored_report_field(&state, &req.a, "a")?;
    let b = view::stored_report_field(&state, &req.b, "b")?;
    let c = crate::engine::compare::compare(&a, &b);
    let body = crate::render::diff::render_json(&c);
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaselineRequest {
    report_id: String,
}

/// `POST /api/baseline`: make a stored report its document's baseline.
pub async fn baseline(
    State(state): Shared,
    JsonBody(req): JsonBody<BaselineRequest>,
) -> Result<Json<Value>, ApiError> {
    let r = view::stored_report_field(&state, &req.report_id, "report_id")?;
    let document = view::document_of(&state, &r.report_id)?;
    state
        .settings
        .store
        .save_baseline(&document, &r.report_id)?;
    Ok(Json(json!({
        "document": document,
        "report_id": r.report_id,
        "playbook_logic_hash": r.integrity.playbook_logic_hash,
    })))
}

/// `GET /api/playbooks`: what the picker offers.
pub async fn playbooks(State(state): Shared) -> Json<Value> {
    let list: Vec<Value> = state
        .settings
        .playbooks
        .iter()
        .map(|p| {
            json!({
                "id": p.id,
                "label": p.label,
                "version": p.loaded.playbook.version,
                "logic_hash": p.loaded.logic_hash,
            })
        })
        .collect();
    Json(json!({ "playbooks": list }))
}

/// `POST /api/session/forget-key`: the browser session's evaluator key leaves the
/// server's memory now (an API client's key is never held: nothing to forget).
pub async fn forget_key(Extension(caller): Extension<Caller>) -> Result<Json<Value>, ApiError> {
    let session = caller.session().ok_or_else(|| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "only a browser session holds a key; an API client's key is never kept",
        )
    })?;
    Ok(Json(json!({ "forgotten": session.forget_key() })))
}

/// `GET /api/openapi.json`.
pub async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        include_str!("openapi.json"),
    )
        .into_response()
}

/// Any other `/api/` path.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such API route (see /api/openapi.json)")
}

/// `GET /api/audit/{request_id}`: the audit-log rows of one evaluation request.
pub async fn audit(
    State(state): Shared,
    Path(request_id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let rows = view::audit_rows(&state, &request_id)?;
    Ok(Json(json!({ "request_id": request_id, "rows": rows })))
}
