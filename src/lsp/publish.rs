//! Checking a document and publishing what was found: diagnostics and `byop/status`.
//! Deterministic checks on every (debounced) change, merged with the last evaluation.

use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use super::backend::Backend;
use super::diagnostics;
use super::documents::{DocEntry, Kind};
use super::playbook_diagnostics;
use super::state::{State, uri_path};
use super::status::{LspStatus, StatusParams};
use super::view::View;
use crate::engine::citations::relocate::relocate_by_text;
use crate::engine::live::{self, Evaluation};
use crate::engine::runner;
use crate::model::integrity::report_id;
use crate::model::{Encoding, Mode};
use crate::workspace::resolver::ProblemKind;

/// How long a document must be quiet after a change before it is checked: the several
/// changes an editor sends for one edit, and a burst of keystrokes, make one check. It is
/// the same for every document, however long its checks take: the checks of a document run
/// one at a time, and one whose text changed again before its turn is skipped (the newer
/// change's check follows), so while someone types into a document whose checks are slow
/// it is checked back to back on its newest text, each result at most one check late,
/// instead of waiting for a pause in the typing that a slow document would stretch.
pub const DEBOUNCE: Duration = Duration::from_millis(15);

impl Backend {
    /// Compute and publish diagnostics for the document's current text. Publishes are
    /// serialized per document and skipped when the text moved on meanwhile.
    pub async fn publish(&self, uri: &Uri) {
        self.publish_change(uri, None).await
    }

    /// [`Backend::publish`] for the change that made `generation`: skipped when a newer
    /// change came while it waited for the check before it (that change's own publish
    /// follows and checks the newer text).
    async fn publish_change(&self, uri: &Uri, generation: Option<u64>) {
        let Some(entry) = self.entry(uri) else { return };
        let _guard = entry.publish_lock.lock().await;
        if generation.is_some_and(|g| entry.lock().generation != g) {
            return;
        }
        let (text, version, kind, evaluation, running) = {
            let d = entry.lock();
            let running = d.eval.is_some();
            (
                d.rope.to_string(),
                d.version,
                d.kind,
                d.evaluation.clone(),
                running,
            )
        };
        let enc = self.state.encoding();
        let state = self.state.clone();
        let u = uri.clone();
        let started = std::time::Instant::now();
        let computed = tokio::task::spawn_blocking(move || {
            compute(&state, &u, text, version, kind, evaluation, enc)
        })
        .await;
        tracing::debug!(
            version,
            elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
            "checked"
        );
        let (diags, view, mut status) = match computed {
            Ok(c) => c,
            Err(e) => {
                let message = format!("checking {} failed: {e}", uri.as_str());
                self.log(tracing::Level::ERROR, message).await;
                return;
            }
        };
        if entry.version() != version {
            return; // newer text; its own publish follows
        }
        if let Some(v) = view {
            entry.lock().view = Some(Arc::new(v));
        }
        self.client
            .publish_diagnostics(uri.clone(), diags, Some(version))
            .await;
        if running {
            status.status = LspStatus::Running;
        }
        self.send_status(status).await;
        self.show_store_notices().await;
    }

    /// Publish once the document has been quiet for the debounce delay.
    pub fn schedule_publish(&self, uri: Uri, generation: u64) {
        let this = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(DEBOUNCE).await;
            let Some(entry) = this.entry(&uri) else {
                return;
            };
            {
                let mut d = entry.lock();
                if d.generation != generation {
                    return;
                }
                // A client that skipped a version: apply what we hold, in order.
                if d.has_pending() && d.drain(this.state.encoding(), true) {
                    let g = d.generation;
                    drop(d);
                    this.schedule_publish(uri, g);
                    return;
                }
            }
            this.publish_change(&uri, Some(generation)).await;
        });
    }

    /// On open: the stored report for identical content, if any.
    pub fn load_stored(&self, uri: &Uri, entry: &DocEntry) {
        let (text, _) = entry.snapshot();
        let path = uri_path(uri);
        let Ok(resolved) = self.state.resolve(text.to_string(), path.as_deref()) else {
            return;
        };
        if resolved
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::Companion)
        {
            return;
        }
        let eff = self.state.effective(path.as_deref());
        let Some(store) = self.state.store(&eff.db_path) else {
            return;
        };
        let fp = resolved.doc.fingerprint().to_string();
        let hash = &resolved.playbook.logic_hash;
        let found = [Mode::Full, Mode::Screening]
            .iter()
            .find_map(|m| store.find_by_inputs(&fp, hash, m.as_str()).ok().flatten());
        // Only a report whose id matches its content; its citations found again in this
        // text (the raw text may differ from the one it was made on).
        let found = found.filter(|r| report_id(r) == r.report_id);
        if let Some(report) = found {
            let key = crate::lsp::state::doc_key(uri);
            self.state
                .keep_locally(&eff.db_path, &key, hash, &[&report]);
            let report = relocate_by_text(&report, &resolved.doc);
            tracing::info!(report_id = %report.report_id, "showing the stored report for identical content");
            let mut d = entry.lock();
            d.last_report_id = Some(report.report_id.clone());
            d.evaluation = Some(Arc::new(Evaluation { report, text }));
        }
    }
}

type Computed = (Vec<Diagnostic>, Option<View>, StatusParams);

fn compute(
    state: &State,
    uri: &Uri,
    text: String,
    version: i32,
    kind: Kind,
    evaluation: Option<Arc<Evaluation>>,
    enc: Encoding,
) -> Computed {
    if kind == Kind::Playbook {
        let diags = playbook_diagnostics::diagnostics(&text, enc);
        let msg = diags.first().map(|d| d.message.clone());
        return (diags, None, StatusParams::none(uri, msg));
    }
    let path = uri_path(uri);
    let eff = state.effective(path.as_deref());
    let resolved = match state.resolve(text, path.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            let d = diagnostics::error_at(e.position, "document_error", e.message.clone());
            return (vec![d], None, StatusParams::none(uri, Some(e.message)));
        }
    };
    let mut notices = eff.notices.clone();
    let mut extra = Vec::new();
    // A bad byop.toml is already among the notices (it shapes the settings too).
    for p in resolved
        .problems
        .iter()
        .filter(|p| p.kind != ProblemKind::Config)
    {
        let code = match p.kind {
            ProblemKind::Playbook => "playbook_error",
            ProblemKind::Config | ProblemKind::Companion => "document_error",
        };
        let message = match p.kind {
            ProblemKind::Playbook => format!("{}; using the built-in playbook", p.message),
            _ => p.message.clone(),
        };
        extra.push(diagnostics::error_at(
            p.position.unwrap_or_default(),
            code,
            message.clone(),
        ));
        notices.push(message);
    }
    let (pb, doc) = (&resolved.playbook, &resolved.doc);
    // No id per keystroke: the report gets one when it is exported.
    let det = runner::run_deterministic_unidentified(pb, doc);
    let view = View {
        version,
        live: live::merge(pb, doc, det, evaluation),
    };
    let pages = state.pages.pages(pb);
    let mut diags = diagnostics::to_lsp(&view, uri, enc, &pages);
    diags.extend(extra);
    if view.edited_since_evaluation {
        notices.push("edited since the evaluation".into());
    }
    let status = StatusParams {
        uri: uri.clone(),
        status: view.status.into(),
        consistency_score: Some(view.consistency_score),
        mode: Some(view.mode.as_str().into()),
        message: (!notices.is_empty()).then(|| notices.join(" · ")),
        playbook: Some(format!(
            "{} {} ({})",
            pb.playbook.id,
            pb.playbook.version,
            resolved.playbook_source.as_str()
        )),
    };
    (diags, Some(view), status)
}
