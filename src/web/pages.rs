//! The pages: the run form, the report view, the history (with its drift chart) and the
//! comparison. Server-rendered askama templates (escaped); one small script of ours.

use std::sync::Arc;

use askama::Template;
use axum::extract::{Extension, Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use super::auth::Caller;
use super::chart::{self, Chart};
use super::error::ApiError;
use super::state::AppState;
use super::view::{self, HistoryFilter};
use crate::model::{HistoryRow, VARIANCE_NOTE};

type Shared = State<Arc<AppState>>;

fn csrf(caller: &Caller) -> String {
    caller.session().map(|s| s.csrf.clone()).unwrap_or_default()
}

fn page<T: Template>(t: T) -> Result<Response, ApiError> {
    t.render()
        .map(|html| Html(html).into_response())
        .map_err(|e| ApiError::internal(format!("page: {e}")))
}

#[derive(Template)]
#[template(path = "web/index.html")]
struct IndexPage {
    csrf: String,
    has_key: bool,
    /// How long an idle session keeps its key, in words.
    key_idle: String,
    playbooks: Vec<(String, String)>,
    variance_note: &'static str,
}

/// `GET /`: the run form.
pub async fn index(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    page(IndexPage {
        csrf: csrf(&caller),
        has_key: caller.session().is_some_and(|s| s.has_key()),
        key_idle: match state.settings.key_idle.as_secs() {
            s if s % 60 == 0 => format!("{} min", s / 60),
            s => format!("{s} s"),
        },
        playbooks: state
            .settings
            .playbooks
            .iter()
            .map(|p| (p.id.clone(), p.label.clone()))
            .collect(),
        variance_note: VARIANCE_NOTE,
    })
}

#[derive(Template)]
#[template(path = "web/report.html")]
struct ReportView {
    csrf: String,
    id: String,
    status: String,
    status_class: &'static str,
    document: Option<String>,
    request_id: Option<String>,
}

/// `GET /reports/{id}`: the report (in a sandboxed frame) with Export and Save as Baseline.
pub async fn report(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let r = view::stored_report(&state, &id)?;
    page(ReportView {
        csrf: csrf(&caller),
        status: r.summary.overall_status.as_str().to_string(),
        status_class: crate::render::diff::status_class(r.summary.overall_status),
        document: view::document_of(&state, &r.report_id).ok(),
        request_id: r.request_id,
        id: r.report_id,
    })
}

#[derive(Template)]
#[template(path = "web/history.html")]
struct HistoryView {
    csrf: String,
    rows: Vec<HistoryRow>,
    filter: HistoryFilter,
    total: usize,
    first: usize,
    last: usize,
    prev: Option<String>,
    next: Option<String>,
    audit_ok: bool,
    audit: String,
    chart: Option<Chart>,
}

/// `GET /history`: the table with filters, compare pickers, the audit verdict, and the
/// drift chart of a document when the filter names one.
pub async fn history(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Query(filter): Query<HistoryFilter>,
) -> Result<Response, ApiError> {
    let p = view::history_page(&state, &filter)?;
    let link = |after: Option<String>, before: Option<String>| {
        let mut f = filter.clone();
        (f.after, f.before) = (after, before);
        format!("/history?{}", query(&f))
    };
    let prev = p.newer.clone().map(|k| link(None, Some(k)));
    let next = p.older.clone().map(|k| link(Some(k), None));
    let chart = match filter.document.as_deref().filter(|d| !d.is_empty()) {
        Some(doc) => Some(chart::drift(&view::document_runs(&state, doc)?)),
        None => None,
    };
    let (audit_ok, audit) = view::audit_verdict(&state);
    page(HistoryView {
        csrf: csrf(&caller),
        first: if p.rows.is_empty() { 0 } else { p.position + 1 },
        last: p.position + p.rows.len(),
        total: p.total,
        rows: p.rows,
        filter,
        prev,
        next,
        audit_ok,
        audit,
        chart,
    })
}

/// The filter as a query string (paging links).
fn query(f: &HistoryFilter) -> String {
    let pairs = [
        ("document", f.document.clone()),
        ("status", f.status.clone()),
        ("mode", f.mode.clone()),
        ("playbook", f.playbook.clone()),
        ("after", f.after.clone()),
        ("before", f.before.clone()),
        ("limit", f.limit.map(|l| l.to_string())),
    ];
    pairs
        .into_iter()
        .filter_map(|(k, v)| Some(format!("{k}={}", urlencode(&v.filter(|v| !v.is_empty())?))))
        .collect::<Vec<_>>()
        .join("&")
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[derive(Deserialize)]
pub struct Pair {
    #[serde(default)]
    a: String,
    #[serde(default)]
    b: String,
}

#[derive(Template)]
#[template(path = "web/compare.html")]
struct CompareView {
    csrf: String,
    a: String,
    b: String,
    frame: String,
}

/// `GET /compare?a=&b=`: two reports side by side (the diff view, framed).
pub async fn compare(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Query(pair): Query<Pair>,
) -> Result<Response, ApiError> {
    let a = view::stored_report_field(&state, &pair.a, "a")?;
    let b = view::stored_report_field(&state, &pair.b, "b")?;
    page(CompareView {
        csrf: csrf(&caller),
        frame: format!("/compare/view?a={}&b={}", a.report_id, b.report_id),
        a: a.report_id,
        b: b.report_id,
    })
}

/// `GET /compare/view?a=&b=`: the diff page itself, for the frame.
pub async fn compare_view(
    State(state): Shared,
    Query(pair): Query<Pair>,
) -> Result<Response, ApiError> {
    let a = view::stored_report_field(&state, &pair.a, "a")?;
    let b = view::stored_report_field(&state, &pair.b, "b")?;
    let c = crate::engine::compare::compare(&a, &b);
    Ok(view::framed(crate::render::diff::render_html(&c)))
}

#[derive(Template)]
#[template(path = "web/plan.html")]
struct PlanView {
    csrf: String,
}

/// `GET /plan`: the PlanProof form (notes, plan, current time, time zone).
pub async fn plan(Extension(caller): Extension<Caller>) -> Result<Response, ApiError> {
    page(PlanView {
        csrf: csrf(&caller),
    })
}

#[derive(Template)]
#[template(path = "web/audit.html")]
struct AuditView {
    csrf: String,
    request_id: String,
    rows: Vec<crate::model::AuditRow>,
    audit_ok: bool,
    audit: String,
}

/// `GET /audit/{request_id}`: one request's audit-log rows, and the log's verdict.
pub async fn audit(
    State(state): Shared,
    Extension(caller): Extension<Caller>,
    Path(request_id): Path<String>,
) -> Result<Response, ApiError> {
    let rows = view::audit_rows(&state, &request_id)?;
    let (audit_ok, audit) = view::audit_verdict(&state);
    page(AuditView {
        csrf: csrf(&caller),
        request_id,
        rows,
        audit_ok,
        audit,
    })
}

/// `GET /static/app.js` and `/static/app.css`: the page's only script and style.
pub async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("static/app.js"),
    )
        .into_response()
}

pub async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("static/app.css"),
    )
        .into_response()
}
