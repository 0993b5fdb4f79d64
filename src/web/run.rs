//! From a request to the engine and back: the pasted texts resolved as a document with
//! companions under the playbook the user picked, evaluated and saved through
//! `workspace::evaluate` exactly as `byop check` does; and the runs the page follows
//! over server-sent events.

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::StatusCode;
use serde::Deserialize;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::error::ApiError;
use super::events::{RunEvent, RunHandle};
use super::state::AppState;
use crate::engine::document::{Companion, CompanionRole};
use crate::engine::runner::{self, RunError, RunOptions};
use crate::evaluator::{ApiKey, Evaluator};
use crate::model::{Mode, Report};
use crate::workspace::evaluate::{EvaluateError, evaluate_and_save};
use crate::workspace::evaluator::{ProcessEnv, UserChoices, resolve_evaluator};
use crate::workspace::trust;
use crate::workspace::{ProblemKind, Request, Resolved, Resolver};

/// Longest document name (the history's document column).
const MAX_NAME_CHARS: usize = 200;

/// `POST /api/evaluate` and `POST /api/runs`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The AI output under test (required).
    pub output: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub prompt: Option<String>,
    /// An offered playbook's id (default: the built-in one).
    #[serde(default)]
    pub playbook: Option<String>,
    /// `screening` (default), `full` or `deterministic`.
    #[serde(default)]
    pub mode: Option<String>,
    /// The document's name in the history (default `pasted`); stored as `web:NAME`.
    #[serde(default)]
    pub document: Option<String>,
    /// Make the new report the document's baseline.
    #[serde(default)]
    pub save_baseline: bool,
}

/// A request made ready for the runner.
pub struct Prepared {
    resolved: Resolved,
    doc_key: String,
    mode: Mode,
    evaluator: Option<Evaluator>,
    /// Why there is no evaluator, when the mode needed one.
    missing: Option<String>,
    save_baseline: bool,
}

/// What a run gave: the report, and why it is fail-closed when it is.
pub struct Outcome {
    pub report: Report,
    pub unavailable: Option<ApiError>,
}

/// Check the request's fields and resolve it; nothing runs yet.
pub fn prepare(
    state: &AppState,
    req: EvaluateRequest,
    key: Option<ApiKey>,
) -> Result<Prepared, ApiError> {
    if req.output.trim().is_empty() {
        return Err(ApiError::field("output", "the AI output is required"));
    }
    let name = document_name(req.document.as_deref())?;
    let mode = match req.mode.as_deref() {
        None | Some("") => Mode::Screening,
        Some(m) => m.parse().map_err(|e: String| ApiError::field("mode", e))?,
    };
    let offered = match req.playbook.as_deref().filter(|p| !p.is_empty()) {
        None => &state.settings.playbooks[0],
        Some(id) => state.playbook(id).ok_or_else(|| {
            let ids: Vec<&str> = state
                .settings
                .playbooks
                .iter()
                .map(|p| p.id.as_str())
                .collect();
            ApiError::field(
                "playbook",
                format!("unknown playbook `{id}` (offered: {})", ids.join(", ")),
            )
        })?,
    };
    // No path: the pasted text gets no file-system access (no byop.toml, no companion
    // or playbook files named by its front matter).
    let mut resolved = Resolver::new()
        .resolve(Request {
            text: req.output,
            cli_playbook: Some(offered.spec.clone()),
            locked: state.settings.policy.locked,
            ..Default::default()
        })
        .map_err(|e| ApiError::field("output", e.to_string()))?;
    // Companions named by front matter are not read (the server reads no files for a
    // page): said in the report; anything else that did not resolve is the input's error.
    let (unread, problems): (Vec<_>, Vec<_>) = std::mem::take(&mut resolved.problems)
        .into_iter()
        .partition(|p| p.kind == ProblemKind::Companion);
    if let Some(p) = problems.first() {
        return Err(ApiError::field("output", p.message.clone()));
    }
    if !unread.is_empty() {
        resolved.notices.push(
            "the front matter's companion files were not read (the server reads no files): paste them into the source and prompt fields".into(),
        );
    }
    for (role, text, label) in [
        (CompanionRole::Source, req.source, "<source>"),
        (CompanionRole::Prompt, req.prompt, "<prompt>"),
    ] {
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            resolved
                .doc
                .attach(role, Companion::new(PathBuf::from(label), text));
        }
    }
    let doc_key = format!("web:{name}");
    resolved.doc.path = Some(PathBuf::from(&doc_key));
    let (evaluator, missing) = evaluator(state, mode, key)?;
    Ok(Prepared {
        resolved,
        doc_key,
        mode,
        evaluator,
        missing,
        save_baseline: req.save_baseline,
    })
}

fn document_name(given: Option<&str>) -> Result<String, ApiError> {
    let name = given
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or("pasted");
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(ApiError::field(
            "document",
            format!(
                "a document name is at most {MAX_NAME_CHARS} characters, without control characters"
            ),
        ));
    }
    Ok(name.to_string())
}

/// The evaluator the server's flags and environment choose, with the session's key.
pub(super) fn evaluator(
    state: &AppState,
    mode: Mode,
    key: Option<ApiKey>,
) -> Result<(Option<Evaluator>, Option<String>), ApiError> {
    if mode == Mode::Deterministic {
        return Ok((None, None));
    }
    let s = &state.settings;
    let user = UserChoices {
        provider: s.provider,
        model: s.model.clone(),
        api_key: key,
        trust_workspace_evaluator: s.trust_workspace_evaluator,
        ..Default::default()
    };
    let resolved = resolve_evaluator(&s.policy, &user, &ProcessEnv);
    match resolved.settings {
        Some(settings) => Evaluator::new(settings)
            .map(|e| (Some(e), None))
            .map_err(|e| ApiError::internal(format!("evaluator: {e}"))),
        None => Ok((
            None,
            Some(format!(
                "{} Enter an API key on the page or send it in X-Evaluator-Key.",
                resolved.missing_key.unwrap_or_default()
            )),
        )),
    }
}

/// Run, save, remember the text for highlighting; a report some check of the mode could
/// not get evaluated is the fail-closed answer (`unavailable` says why).
pub async fn execute(
    state: &Arc<AppState>,
    p: Prepared,
    progress: Option<runner::ProgressFn>,
    cancel: CancellationToken,
) -> Result<Outcome, ApiError> {
    let s = &state.settings;
    let opts = RunOptions {
        mode: Some(p.mode),
        full_runs: s.policy.runs,
        max_runs: s.policy.max_runs,
        evaluator: p.evaluator,
        progress,
        cancel,
        canary: trust::canary(s.canary, &s.policy),
        ..Default::default()
    };
    let report = evaluate_and_save(&p.resolved, Some(s.store.clone()), &p.doc_key, opts)
        .await
        .map_err(|e| match e {
            EvaluateError::Run(RunError::Cancelled) => {
                ApiError::new(StatusCode::CONFLICT, "cancelled", "the run was cancelled")
            }
            EvaluateError::Store(e) => e.into(),
        })?;
    if p.save_baseline {
        s.store.save_baseline(&p.doc_key, &report.report_id)?;
    }
    state.remember_text(&report.report_id, Arc::new(p.resolved.doc.text.clone()));
    let unevaluated: Vec<String> = report
        .unevaluated()
        .iter()
        .map(|(id, kind)| format!("{id} ({kind})"))
        .collect();
    let unavailable = match (p.missing, unevaluated.is_empty()) {
        (Some(why), _) => Some(why),
        (None, false) => Some(format!(
            "the evaluator gave no answer for: {}",
            unevaluated.join(", ")
        )),
        (None, true) => None,
    }
    .map(|why| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "evaluator_unavailable",
            format!("{why} The report is fail-closed: those checks are indeterminate."),
        )
    });
    Ok(Outcome {
        report,
        unavailable,
    })
}

/// Runs kept for their late listeners; finished ones are dropped beyond this.
const KEPT_RUNS: usize = 64;

/// Start `p` in the background; its events go to the returned run id's handle.
pub fn start(state: &Arc<AppState>, p: Prepared, owner: String) -> String {
    let id = super::state::random_token()[..16].to_string();
    let (tx, rx) = watch::channel(vec![RunEvent::Started]);
    let cancel = CancellationToken::new();
    if state.runs.len() >= KEPT_RUNS {
        state
            .runs
            .retain(|_, h| !h.events.borrow().last().is_some_and(RunEvent::is_final));
    }
    state.runs.insert(
        id.clone(),
        Arc::new(RunHandle {
            owner,
            cancel: cancel.clone(),
            events: rx,
        }),
    );
    let tx = Arc::new(tx);
    let progress_tx = tx.clone();
    let progress: runner::ProgressFn = Arc::new(move |p: runner::Progress| {
        progress_tx.send_modify(|all| {
            all.push(RunEvent::Progress {
                message: p.message(),
                done: p.done,
                total: p.total_runs,
                percentage: p.percentage(),
            })
        });
    });
    let state = state.clone();
    tokio::spawn(async move {
        let last = match execute(&state, p, Some(progress), cancel).await {
            Ok(o) => RunEvent::Done {
                report_id: o.report.report_id.clone(),
                status: o.report.summary.overall_status.as_str().to_string(),
                unavailable: o.unavailable.map(|e| e.message),
            },
            Err(e) if e.code == "cancelled" => RunEvent::Cancelled,
            Err(e) => RunEvent::Failed { error: e.body() },
        };
        tx.send_modify(|all| all.push(last));
    });
    id
}
