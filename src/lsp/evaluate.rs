//! Evaluating an open document (commands, on save): progress, status, cancellation
//! when the text changes, the report kept for the view and saved in the store.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::Uri;

use super::backend::Backend;
use super::documents::{DocEntry, Kind};
use super::progress::EvalProgress;
use super::state::{doc_key, uri_path};
use super::status::{LspStatus, StatusParams};
use crate::engine::live::Evaluation;
use crate::engine::runner::RunOptions;
use crate::evaluator::Evaluator;
use crate::model::{Mode, Report};
use crate::workspace::ProblemKind;
use crate::workspace::evaluate::evaluate_and_save;

static NEXT_EVAL: AtomicU64 = AtomicU64::new(1);

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
        self.entry.clear_running(self.id);
        if self.armed {
            self.cancel.cancel();
            let (b, uri) = (self.backend.clone(), self.uri.clone());
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move { b.publish(&uri).await });
            }
        }
    }
}

impl Backend {
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
        let resolved = self
            .state
            .resolve(text.to_string(), path.as_deref())
            .map_err(|e| e.to_string())?;
        // A missing companion would change what is evaluated: refuse. (A playbook that
        // does not load was replaced by the built-in one, and the status says so.)
        if let Some(p) = resolved
            .problems
            .iter()
            .find(|p| p.kind == ProblemKind::Companion)
        {
            return Err(p.message.clone());
        }
        let store = match self.state.open_store(&eff.db_path) {
            Ok(store) => Some(store),
            Err(e) => {
                // Evaluated all the same, but unrecorded: the user is told why.
                self.log(tracing::Level::ERROR, e).await;
                None
            }
        };
        let evaluator = self.evaluator(&eff).await;
        let id = NEXT_EVAL.fetch_add(1, Ordering::Relaxed);
        let cancel = CancellationToken::new();
        entry.set_running(id, cancel.clone());
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
        let (progress, callback) = self.announce(uri, mode, &cancel).await;
        let opts = RunOptions {
            mode: Some(mode),
            full_runs: eff.full_runs,
            max_runs: eff.max_runs,
            fresh,
            evaluator,
            progress: callback,
            cancel: cancel.clone(),
            canary: eff.canary,
            ..Default::default()
        };
        tracing::info!(
            mode = mode.as_str(),
            uri = uri.as_str(),
            "evaluation started"
        );
        let result = evaluate_and_save(&resolved, store, &doc_key(uri), opts).await;
        guard.disarm();
        let message = match &result {
            Ok(r) => r.summary.overall_status.as_str().to_string(),
            Err(e) => e.to_string(),
        };
        progress.finish(message).await;
        let out = match result {
            Ok(report) => {
                self.keep(&entry, &report, text);
                let hash = &resolved.playbook.logic_hash;
                self.state
                    .keep_locally(&eff.db_path, &doc_key(uri), hash, &[&report]);
                for n in &report.notices {
                    self.log(tracing::Level::INFO, n.clone()).await;
                }
                if let Some(n) = self
                    .state
                    .store(&eff.db_path)
                    .and_then(|s| s.integrity_notice())
                {
                    self.log(tracing::Level::WARN, n).await;
                }
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

    /// Status RUNNING, and work-done progress when the client supports it.
    async fn announce(
        &self,
        uri: &Uri,
        mode: Mode,
        cancel: &CancellationToken,
    ) -> (EvalProgress, Option<crate::engine::runner::ProgressFn>) {
        self.send_status(StatusParams {
            uri: uri.clone(),
            status: LspStatus::Running,
            consistency_score: None,
            mode: Some(mode.as_str().into()),
            message: Some(format!("{} evaluation running", mode.as_str())),
            playbook: None,
        })
        .await;
        let supported = self.state.progress_supported.load(Ordering::SeqCst);
        EvalProgress::start(
            &self.client,
            supported,
            self.state.progress_tokens.clone(),
            cancel.clone(),
            format!("byop: {} evaluation", mode.as_str()),
        )
        .await
    }

    /// The evaluator the settings give, if any (a broken one is logged and skipped).
    pub(crate) async fn evaluator(&self, eff: &super::settings::Effective) -> Option<Evaluator> {
        let settings = eff.evaluator.clone()?;
        // Keyed by the settings and a hash of the key (never the key itself).
        let id = crate::model::integrity::sha256_hex(
            format!("{settings:?}\u{0}{}", settings.api_key.expose()).as_bytes(),
        );
        if let Some(ev) = self.state.evaluators.get(&id) {
            return Some(ev.clone());
        }
        match Evaluator::new(settings) {
            Ok(ev) => {
                if self.state.evaluators.len() >= 8 {
                    self.state.evaluators.clear();
                }
                self.state.evaluators.insert(id, ev.clone());
                Some(ev)
            }
            Err(e) => {
                let message = format!("evaluator not available: {e}");
                self.log(tracing::Level::WARN, message).await;
                None
            }
        }
    }

    /// Remember the report for the view (an evaluator report) and for `saveBaseline`.
    fn keep(&self, entry: &DocEntry, report: &Report, text: Arc<String>) {
        tracing::info!(report_id = %report.report_id, status = report.summary.overall_status.as_str(), "evaluation finished");
        let mut d = entry.lock();
        d.last_report_id = Some(report.report_id.clone());
        if report.execution_mode != Mode::Deterministic {
            d.evaluation = Some(Arc::new(Evaluation {
                report: report.clone(),
                text,
            }));
        }
    }
}
