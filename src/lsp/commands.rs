//! `workspace/executeCommand` (SPEC §8): `arguments` is one JSON object.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result as RpcResult};
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::documents::DocEntry;
use super::documents::{Evaluation, Kind};
use super::progress::EvalProgress;
use super::server::{Backend, clear_running, doc_key, set_running, uri_path};
use super::status::StatusParams;
use crate::document::Document;
use crate::evaluator::{ApiKey, Evaluator, ProviderKind};
use crate::report::{Mode, Report, ReportEnvelope};
use crate::runner::{self, RunOptions};

pub const NAMES: [&str; 7] = [
    "byop.evaluate",
    "byop.saveBaseline",
    "byop.exportReport",
    "byop.history",
    "byop.compare",
    "byop.setApiKey",
    "byop.renderHtml",
];

static NEXT_EVAL: AtomicU64 = AtomicU64::new(1);

fn invalid(msg: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: msg.into().into(),
        data: None,
    }
}

fn failed(msg: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InternalError,
        message: msg.into().into(),
        data: None,
    }
}

#[derive(Deserialize)]
struct UriArg {
    uri: Uri,
}

#[derive(Deserialize)]
struct EvaluateArgs {
    uri: Uri,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    fresh: bool,
}

#[derive(Deserialize)]
struct CompareArgs {
    a: String,
    b: String,
}

#[derive(Deserialize)]
struct KeyArgs {
    provider: ProviderKind,
    key: String,
}

#[derive(Deserialize, Default)]
struct HistoryArgs {
    #[serde(default)]
    uri: Option<Uri>,
    #[serde(default)]
    limit: Option<usize>,
}

fn args<T: for<'de> Deserialize<'de>>(p: &ExecuteCommandParams) -> RpcResult<T> {
    let v = p.arguments.first().cloned().unwrap_or(json!({}));
    serde_json::from_value(v).map_err(|e| invalid(format!("{}: bad arguments: {e}", p.command)))
}

fn envelope(report: Report) -> RpcResult<Option<Value>> {
    serde_json::to_value(ReportEnvelope {
        byop_report: report,
    })
    .map(Some)
    .map_err(|e| failed(e.to_string()))
}

/// Marks a document's evaluation as running; on drop (finished or abandoned) clears the
/// mark, and when abandoned also cancels the run and re-publishes the status.
struct RunningGuard {
    backend: Backend,
    uri: Uri,
    entry: Arc<DocEntry>,
    id: u64,
    cancel: CancellationToken,
    armed: bool,
}

impl RunningGuard {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        clear_running(&self.entry, self.id);
        if self.armed {
            self.cancel.cancel();
            let (b, uri) = (self.backend.clone(), self.uri.clone());
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move { b.publish(&uri).await });
            }
        }
    }
}

/// Aborts the command's task when the request is dropped ($/cancelRequest).
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Run a command in its own task, so that a bug in one command is an error reply,
/// never a dead server.
pub async fn execute(b: &Backend, p: ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let (b, name) = (b.clone(), p.command.clone());
    let task = tokio::spawn(async move { execute_inner(&b, p).await });
    let _abort = AbortOnDrop(task.abort_handle());
    task.await.unwrap_or_else(|e| {
        tracing::error!("command {name} failed: {e}");
        Err(failed(format!("{name} failed: internal error")))
    })
}

async fn execute_inner(b: &Backend, p: ExecuteCommandParams) -> RpcResult<Option<Value>> {
    match p.command.as_str() {
        "byop.evaluate" => {
            let a: EvaluateArgs = args(&p)?;
            let mode = match a.mode.as_deref() {
                Some(m) => m.parse::<Mode>().map_err(invalid)?,
                None => Mode::Full,
            };
            let report = b.evaluate(&a.uri, mode, a.fresh).await.map_err(failed)?;
            envelope(report)
        }
        "byop.saveBaseline" => {
            let a: UriArg = args(&p)?;
            let (report, store) = b.latest_saved(&a.uri)?;
            let store = store.ok_or_else(|| failed("the store is not available"))?;
            store
                .save_baseline(&doc_key(&a.uri), &report.report_id)
                .map_err(|e| failed(e.to_string()))?;
            b.log(
                tracing::Level::INFO,
                format!("baseline set to report {}", report.report_id),
            )
            .await;
            Ok(Some(json!({"report_id": report.report_id})))
        }
        "byop.exportReport" => {
            let a: UriArg = args(&p)?;
            envelope(b.current_report(&a.uri)?.0)
        }
        "byop.history" => {
            let a: HistoryArgs = args(&p)?;
            let path = a.uri.as_ref().and_then(uri_path);
            let eff = b.state.effective(path.as_deref());
            let store = b
                .state
                .store(&eff.db_path)
                .ok_or_else(|| failed("the store is not available"))?;
            let key = a.uri.as_ref().map(doc_key);
            let rows = store
                .history(key.as_deref(), a.limit.unwrap_or(50))
                .map_err(|e| failed(e.to_string()))?;
            let rows: Vec<Value> = rows
                .into_iter()
                .map(|r| {
                    json!({
                        "report_id": r.report_id, "timestamp": r.timestamp, "document": r.document,
                        "playbook_id": r.playbook_id, "playbook_version": r.playbook_version,
                        "mode": r.mode, "status": r.status, "consistency_score": r.consistency_score,
                        "is_baseline": r.is_baseline,
                    })
                })
                .collect();
            Ok(Some(json!({ "rows": rows })))
        }
        "byop.compare" => {
            let a: CompareArgs = args(&p)?;
            let eff = b.state.effective(None);
            let store = b
                .state
                .store(&eff.db_path)
                .ok_or_else(|| failed("the store is not available"))?;
            let get = |id: &str| {
                store
                    .get_report(id)
                    .map_err(|e| failed(e.to_string()))?
                    .ok_or_else(|| invalid(format!("no report `{id}` in the store")))
            };
            let (ra, rb) = (get(&a.a)?, get(&a.b)?);
            let rendered = tokio::task::spawn_blocking(move || {
                crate::diff::render_json(&crate::diff::compare(&ra, &rb))
            })
            .await
            .map_err(|_| failed("comparison failed"))?;
            serde_json::from_str(&rendered)
                .map(Some)
                .map_err(|e| failed(e.to_string()))
        }
        "byop.setApiKey" => {
            let a: KeyArgs = args(&p)?;
            let key = ApiKey::new(a.key);
            if key.is_empty() {
                return Err(invalid("byop.setApiKey: the key is empty"));
            }
            b.state
                .keys
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .set(a.provider, key);
            b.log(
                tracing::Level::INFO,
                format!("API key set for {:?} (memory only)", a.provider),
            )
            .await;
            Ok(Some(json!({"ok": true})))
        }
        "byop.renderHtml" => {
            let a: UriArg = args(&p)?;
            let (report, text) = b.current_report(&a.uri)?;
            let eff = b.state.effective(uri_path(&a.uri).as_deref());
            let baseline = b.state.store(&eff.db_path).and_then(|s| {
                s.baseline(&doc_key(&a.uri), &report.integrity.playbook_logic_hash)
                    .ok()
                    .flatten()
                    .filter(|bl| bl.report_id != report.report_id)
            });
            let html = tokio::task::spawn_blocking(move || {
                crate::render::html::report(&report, &text, baseline.as_ref())
            })
            .await
            .map_err(|_| failed("the HTML renderer is not available in this build"))?;
            Ok(Some(json!({ "html": html })))
        }
        other => Err(invalid(format!("unknown command `{other}`"))),
    }
}

impl Backend {
    /// The report `exportReport` shows: the evaluation if any, else the deterministic one.
    /// With the text it was computed on.
    fn current_report(&self, uri: &Uri) -> RpcResult<(Report, String)> {
        let entry = self
            .entry(uri)
            .ok_or_else(|| invalid(format!("document not open: {}", uri.as_str())))?;
        let d = entry.lock();
        if let Some(e) = &d.evaluation {
            return Ok((e.report.clone(), e.text.to_string()));
        }
        d.view
            .as_ref()
            .map(|v| (v.deterministic.clone(), v.text.to_string()))
            .ok_or_else(|| failed("the document has not been checked yet"))
    }

    /// The last report saved for this document (this session, else the store).
    fn latest_saved(&self, uri: &Uri) -> RpcResult<(Report, Option<Arc<crate::store::Store>>)> {
        let path = uri_path(uri);
        let eff = self.state.effective(path.as_deref());
        let store = self.state.store(&eff.db_path);
        let id = self
            .entry(uri)
            .and_then(|e| e.lock().last_report_id.clone());
        let s = store
            .as_ref()
            .ok_or_else(|| failed("the store is not available"))?;
        let report = match id {
            Some(id) => s.get_report(&id).map_err(|e| failed(e.to_string()))?,
            None => None,
        };
        let report = match report {
            Some(r) => Some(r),
            None => {
                let hash = self
                    .entry(uri)
                    .and_then(|e| {
                        e.lock()
                            .view
                            .as_ref()
                            .map(|v| v.playbook.logic_hash.clone())
                    })
                    .unwrap_or_default();
                s.latest_report(&doc_key(uri), &hash, None)
                    .map_err(|e| failed(e.to_string()))?
            }
        };
        let report = report.ok_or_else(|| {
            invalid("no saved report for this document yet: run byop.evaluate first")
        })?;
        Ok((report, store))
    }

    /// Run an evaluation of the document's current text, with progress and status.
    pub async fn evaluate(&self, uri: &Uri, mode: Mode, fresh: bool) -> Result<Report, String> {
        let entry = self
            .entry(uri)
            .ok_or_else(|| format!("document not open: {}", uri.as_str()))?;
        if entry.lock().kind != Kind::Output {
            return Err("a playbook file is not evaluated".into());
        }
        let (text, version) = entry.snapshot();
        let path = uri_path(uri);
        let eff = self.state.effective(path.as_deref());
        let mut doc =
            Document::parse(text.to_string(), path.as_deref()).map_err(|e| e.to_string())?;
        doc.load_companions(None, None).map_err(|e| e.to_string())?;
        let (playbook, _) = self.state.playbook(&eff, &doc);
        let store = self.state.store(&eff.db_path);
        let evaluator = match eff.evaluator.clone().map(Evaluator::new) {
            Some(Ok(ev)) => Some(ev),
            Some(Err(e)) => {
                self.log(
                    tracing::Level::WARN,
                    format!("evaluator not available: {e}"),
                )
                .await;
                None
            }
            None => None,
        };
        let id = NEXT_EVAL.fetch_add(1, Ordering::Relaxed);
        let cancel = CancellationToken::new();
        set_running(&entry, id, cancel.clone());
        // If this future is dropped (the client cancelled the request), stop the run too.
        let guard = RunningGuard {
            backend: self.clone(),
            uri: uri.clone(),
            entry: entry.clone(),
            id,
            cancel: cancel.clone(),
            armed: true,
        };
        if entry.version() != version {
            return Err("evaluation cancelled: the document changed".into());
        }
        self.send_status(StatusParams {
            uri: uri.clone(),
            status: "RUNNING".into(),
            consistency_score: None,
            mode: Some(mode.as_str().into()),
            message: Some(format!("{} evaluation running", mode.as_str())),
        })
        .await;
        let supported = self.state.progress_supported.load(Ordering::SeqCst);
        let (progress, callback) = EvalProgress::start(
            &self.client,
            supported,
            self.state.progress_tokens.clone(),
            cancel.clone(),
            format!("byop: {} evaluation", mode.as_str()),
        )
        .await;
        let opts = RunOptions {
            mode: Some(mode),
            full_runs: eff.full_runs,
            fresh,
            evaluator,
            store,
            doc_key: doc_key(uri),
            save: true,
            progress: callback,
            cancel: cancel.clone(),
        };
        tracing::info!(
            mode = mode.as_str(),
            uri = uri.as_str(),
            "evaluation started"
        );
        let result = runner::run(&playbook, &doc, opts).await;
        guard.disarm();
        let message = match &result {
            Ok(r) => r.summary.overall_status.as_str().to_string(),
            Err(e) => e.to_string(),
        };
        progress.finish(message).await;
        let out = match result {
            Ok(report) => {
                {
                    let mut d = entry.lock();
                    d.last_report_id = Some(report.report_id.clone());
                    if report.execution_mode != Mode::Deterministic {
                        d.evaluation = Some(Arc::new(Evaluation {
                            report: report.clone(),
                            text,
                        }));
                    }
                }
                for n in &report.notices {
                    self.log(tracing::Level::INFO, n.clone()).await;
                }
                tracing::info!(report_id = %report.report_id, status = report.summary.overall_status.as_str(), "evaluation finished");
                Ok(report)
            }
            Err(e) if cancel.is_cancelled() && entry.version() != version => {
                Err(format!("{e}: the document changed"))
            }
            Err(e) => Err(e.to_string()),
        };
        self.publish(uri).await;
        out
    }
}
