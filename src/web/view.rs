//! What the API and the pages both read: stored reports, the history filtered and paged,
//! a report rendered (JSON, SARIF, HTML), the audit log's verdict.

use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use super::error::ApiError;
use super::state::AppState;
use crate::engine::document::Document;
use crate::model::{HistoryRow, Mode, Report, ReportEnvelope, Status};
use crate::store::{Cursor, HistoryQuery, PageAt, Run};

/// The most audit-log rows the audit lookup reads.
const SCAN_ROWS: usize = 100_000;
/// Rows per page unless asked.
pub const PAGE_ROWS: usize = 50;
const MAX_PAGE_ROWS: usize = 500;

/// `?document=&status=&mode=&playbook=&after=&before=&limit=` (all optional, exact
/// matches; `status` and `mode` case-insensitive). `after` (the next page) and `before`
/// (the previous one) are the keys a page gives its neighbours: paging by key reads a
/// page deep in a long history down the index from there, not every row before it.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryFilter {
    #[serde(default)]
    pub document: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub playbook: Option<String>,
    #[serde(default)]
    pub after: Option<String>,
    #[serde(default)]
    pub before: Option<String>,
    #[serde(default)]
    pub limit: Option<usize>,
}

/// An optional filter field: empty means any.
fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

pub struct HistoryPage {
    pub rows: Vec<HistoryRow>,
    /// Rows matching the filter, on every page.
    pub total: usize,
    /// Matching rows newer than this page's first.
    pub position: usize,
    /// `before=` of the previous page, `after=` of the next (none at either end).
    pub newer: Option<String>,
    pub older: Option<String>,
    pub limit: usize,
}

/// Where the page starts: `after` or `before` a key, or the newest rows.
fn page_at(f: &HistoryFilter) -> Result<PageAt, ApiError> {
    let key = |field: &str, v: &Option<String>| {
        given(v)
            .map(|k| k.parse::<Cursor>().map_err(|e| ApiError::field(field, e)))
            .transpose()
    };
    match (key("after", &f.after)?, key("before", &f.before)?) {
        (Some(_), Some(_)) => Err(ApiError::field(
            "before",
            "give `after` (the next page) or `before` (the previous one), not both",
        )),
        (Some(c), None) => Ok(PageAt::After(c)),
        (None, Some(c)) => Ok(PageAt::Before(c)),
        (None, None) => Ok(PageAt::Newest),
    }
}

/// One page of the history: the store filters and pages it.
pub fn history_page(state: &AppState, f: &HistoryFilter) -> Result<HistoryPage, ApiError> {
    let status = given(&f.status)
        .map(|s| s.to_ascii_uppercase().parse::<Status>())
        .transpose()
        .map_err(|e| ApiError::field("status", e))?;
    let mode = given(&f.mode)
        .map(|m| m.to_ascii_lowercase().parse::<Mode>())
        .transpose()
        .map_err(|e| ApiError::field("mode", e))?;
    let limit = f.limit.unwrap_or(PAGE_ROWS).clamp(1, MAX_PAGE_ROWS);
    let page = state.settings.store.history_page(&HistoryQuery {
        document: given(&f.document),
        status,
        mode,
        playbook: given(&f.playbook),
        at: page_at(f)?,
        limit,
    })?;
    Ok(HistoryPage {
        rows: page.rows,
        total: page.total,
        position: page.position,
        newer: page.newer.map(|c| c.to_string()),
        older: page.older.map(|c| c.to_string()),
        limit,
    })
}

/// Every stored run of one document, oldest first (what the drift chart draws).
pub fn document_runs(state: &AppState, document: &str) -> Result<Vec<Run>, ApiError> {
    Ok(state.settings.store.document_runs(document)?)
}

/// A stored report by id or unique prefix; 404 when there is none.
pub fn stored_report(state: &AppState, id: &str) -> Result<Report, ApiError> {
    state
        .settings
        .store
        .get_report(id)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_request", e.0))?
        .ok_or_else(|| ApiError::not_found(format!("no report `{id}` in the store")))
}

/// [`stored_report`] for a request field: an empty id is a 400, a missing report a 404,
/// both naming the field.
pub fn stored_report_field(state: &AppState, id: &str, field: &str) -> Result<Report, ApiError> {
    if id.trim().is_empty() {
        return Err(ApiError::field(field, "a report id is required"));
    }
    stored_report(state, id).map_err(|mut e| {
        e.field = Some(field.to_string());
        e
    })
}

/// The document a stored report was saved under.
pub fn document_of(state: &AppState, report_id: &str) -> Result<String, ApiError> {
    state
        .settings
        .store
        .document_of(report_id)?
        .ok_or_else(|| ApiError::not_found(format!("report `{report_id}` has no history row")))
}

/// `{"byop_report": …}`, as `byop check --format json` writes it.
pub fn report_json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&ReportEnvelope { byop_report: r })
        .expect("a report always serializes");
    s.push('\n');
    s
}

/// SARIF needs the report's playbook: an offered one with the same logic hash.
pub fn report_sarif(state: &AppState, r: &Report) -> Result<String, ApiError> {
    let offered = state
        .playbook_by_hash(&r.integrity.playbook_logic_hash)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                "playbook_unavailable",
                format!(
                    "the report's playbook `{}` {} is not one this server offers",
                    r.playbook_id, r.playbook_version
                ),
            )
        })?;
    let doc = state
        .text_of(&r.report_id)
        .and_then(|t| Document::parse(t.to_string(), None).ok());
    let item = crate::render::sarif::SarifItem {
        report: r,
        playbook: &offered.loaded.playbook,
        document: doc.as_ref(),
    };
    Ok(crate::render::sarif::render_items(&[item]))
}

/// The report's own HTML page (highlights when this server still holds its text, drift
/// against the baseline), answered for a sandboxed frame of the report view.
pub fn report_html(state: &AppState, r: &Report) -> Response {
    let text: Arc<String> = state.text_of(&r.report_id).unwrap_or_default();
    let baseline = document_of(state, &r.report_id).ok().and_then(|doc| {
        state
            .settings
            .store
            .baseline(&doc, &r.integrity.playbook_logic_hash)
            .ok()
            .flatten()
            .filter(|b| b.report_id != r.report_id)
    });
    framed(crate::render::html::report(r, &text, baseline.as_ref()))
}

/// A rendered page (report, diff) for a frame of ours: its meta CSP repeated as a header,
/// in a sandbox (an origin of its own), framed by this server's pages only.
pub fn framed(html: String) -> Response {
    let script = html
        .find("nonce=\"")
        .map(|at| &html[at + 7..])
        .and_then(|rest| rest.split('"').next())
        .map_or("'none'".to_string(), |n| format!("'nonce-{n}'"));
    let csp = format!(
        "sandbox allow-scripts allow-downloads; default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {script}; frame-ancestors 'self'"
    );
    let mut response = Html(html).into_response();
    if let Ok(v) = HeaderValue::from_str(&csp) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, v);
    }
    response
}

/// `byop log --verify`'s verdict, in one line.
pub fn audit_verdict(state: &AppState) -> (bool, String) {
    match state.settings.store.verify_audit() {
        Ok(Ok(v)) => (
            true,
            format!(
                "audit log intact: {} row(s){}",
                v.rows,
                if v.anchored {
                    ""
                } else {
                    " (no head recorded here: removed trailing rows cannot be seen)"
                }
            ),
        ),
        Ok(Err(b)) => (
            false,
            format!("audit log BROKEN at row {}: {}", b.id, b.reason),
        ),
        Err(e) => (false, format!("audit log not verified: {}", e.0)),
    }
}

/// The audit-log rows of one request, oldest first; 404 when there are none.
pub fn audit_rows(
    state: &AppState,
    request_id: &str,
) -> Result<Vec<crate::model::AuditRow>, ApiError> {
    let rows: Vec<_> = state
        .settings
        .store
        .audit_log(None, SCAN_ROWS)?
        .into_iter()
        .filter(|r| r.event.request_id == request_id)
        .collect();
    if rows.is_empty() {
        return Err(ApiError::not_found(format!(
            "no audit-log rows for request `{request_id}`"
        )));
    }
    Ok(rows)
}
