//! Evaluating a resolved document against the store: the drift reference and the
//! response cache come from it, the finished report and the audit trail go into it.
//! The runner itself touches no storage.

use std::sync::{Arc, Mutex};

use super::Resolved;
use crate::engine::runner::{self, DriftReference, ReferenceKind, RunError, RunOptions};
use crate::evaluator::{CallObserver, ResponseCache};
use crate::model::{AuditEvent, AuditState, CallRecord, Report, now_rfc3339};
use crate::store::{DriftInputs, PreparedReport, Seen, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

/// What drift compares with, for a run in `mode`: the saved baseline, else `latest`, the
/// latest earlier report of the same mode. A deterministic baseline serves deterministic
/// runs only (it says nothing about how an evaluation drifted). Both come from rows whose
/// MAC verified: written by this user's byop, so their ids match their content without
/// hashing them again.
pub fn drift_reference(
    baseline: Option<Report>,
    mode: crate::model::Mode,
    latest: Option<&Report>,
) -> Option<DriftReference> {
    let baseline = baseline.filter(|b| mode.may_drift_from(b.execution_mode));
    if let Some(report) = baseline {
        return Some(DriftReference {
            report,
            kind: ReferenceKind::Baseline,
        });
    }
    latest.map(|report| DriftReference {
        report: report.clone(),
        kind: ReferenceKind::PreviousReport,
    })
}

/// A fresh request id (UUID v4) for the audit log.
pub fn new_request_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Run with the store's history and cache, save the report under `doc_key`, and append
/// the request's states and evaluator calls to the audit log.
pub async fn evaluate_and_save(
    resolved: &Resolved,
    store: Option<Arc<Store>>,
    doc_key: &str,
    opts: RunOptions,
) -> Result<Report, EvaluateError> {
    let done = evaluate_unsaved(resolved, store.as_ref(), doc_key, opts, None).await?;
    match store {
        Some(store) => save_all(&store, vec![done])
            .pop()
            .expect("one result")
            .map(|(report, _)| report),
        None => Ok(done.result?),
    }
}

/// An evaluation whose report and audit trail are not saved yet (see [`save_all`]).
pub struct Unsaved {
    doc_key: String,
    result: Result<Report, RunError>,
    trail: Trail,
    /// The report made ready to write (none: prepared when saved).
    prepared: Option<PreparedReport>,
}

impl Unsaved {
    /// A copy of the report (none: the run failed).
    pub fn report(&self) -> Option<Report> {
        self.result.as_ref().ok().cloned()
    }
}

/// Run with the store's history and cache; nothing is written but the response cache.
/// `inputs`: what the run compares with, when the caller read it already for a whole
/// batch ([`Store::drift_inputs_many`]); else it is read here.
pub async fn evaluate_unsaved(
    resolved: &Resolved,
    store: Option<&Arc<Store>>,
    doc_key: &str,
    mut opts: RunOptions,
    inputs: Option<DriftInputs>,
) -> Result<Unsaved, EvaluateError> {
    let request_id = opts.request_id.clone().unwrap_or_else(new_request_id);
    let started = std::time::SystemTime::now();
    let mut trail = Trail::new(&request_id, doc_key, resolved);
    trail.push(AuditState::Received, None);
    trail.push(AuditState::Validated, None);
    let recorder = Arc::new(Recorder::default());
    opts.observer = Some(match opts.observer.take() {
        Some(other) => Arc::new(Both(recorder.clone(), other)),
        None => recorder.clone(),
    });
    opts.request_id = Some(request_id.clone());
    opts.playbook_source = Some(resolved.playbook_source);
    opts.locked = resolved.locked;
    opts.notices.extend(resolved.notices.iter().cloned());
    // The latest stored report of this mode: what drift compares with (unless there is a
    // baseline) and what the new report may repeat.
    let mut latest = None;
    if let Some(store) = store {
        let mode = runner::effective_mode(&opts);
        let hash = &resolved.playbook.logic_hash;
        let DriftInputs {
            latest: found,
            baseline,
        } = match inputs {
            Some(inputs) => inputs,
            None => store.drift_inputs(doc_key, hash, mode)?,
        };
        opts.reference = drift_reference(baseline, mode, found.as_ref());
        latest = Some((mode, found));
        opts.cache = Some(Arc::new(crate::store::DocCache {
            store: store.clone(),
            doc_key: doc_key.to_string(),
        }) as Arc<dyn ResponseCache>);
    }
    trail.push(AuditState::Evaluating, None);
    let result = runner::run(&resolved.playbook, &resolved.doc, opts).await;
    let calls = recorder.take();
    super::telemetry::export_check(resolved, result.as_ref().ok(), &calls, &request_id, started);
    trail.calls(calls);
    // Serialized and compared here, on this document's task, not in the batch's one write.
    let prepared = match (store, &result, latest) {
        (Some(store), Ok(report), Some((mode, found))) if report.execution_mode == mode => {
            let seen = found.as_ref().map_or(Seen::Nothing, Seen::Report);
            store.prepare_report(doc_key, report, seen).ok()
        }
        _ => None,
    };
    Ok(Unsaved {
        doc_key: doc_key.to_string(),
        result,
        trail,
        prepared,
    })
}

/// Save the reports and audit trails of a batch in one transaction (one commit however
/// many documents). If that fails, each request's trail is still appended, halted with
/// `store_error`, and every report of the batch is an error. With each report, the id it
/// is stored under (its own, or that of the unchanged report it repeated).
pub fn save_all(
    store: &Store,
    mut batch: Vec<Unsaved>,
) -> Vec<Result<(Report, String), EvaluateError>> {
    let finish = |u: &Unsaved, saved: bool| {
        let mut trail = Trail {
            events: u.trail.events.clone(),
            base: u.trail.base.clone(),
        };
        if let (Ok(report), true) = (&u.result, saved) {
            trail.decide(&report.report_id);
        }
        match (&u.result, saved) {
            (Ok(report), true) => match report.unevaluated().first() {
                Some((_, kind)) => {
                    trail.push(AuditState::Halted, Some(format!("not_evaluated:{kind}")))
                }
                None => trail.push(AuditState::Evaluated, Some(report.report_id.clone())),
            },
            (Ok(_), false) => trail.push(AuditState::Halted, Some("store_error".into())),
            (Err(RunError::Cancelled), _) => {
                trail.push(AuditState::Halted, Some("cancelled".into()))
            }
        }
        trail.events
    };
    let prepared: Result<Vec<PreparedReport>, StoreError> = batch
        .iter_mut()
        .filter_map(|u| {
            let report = u.result.as_ref().ok()?;
            Some(match u.prepared.take() {
                Some(p) => Ok(p),
                None => store.prepare_report(&u.doc_key, report, Seen::NotLooked),
            })
        })
        .collect();
    let events: Vec<AuditEvent> = batch.iter().flat_map(|u| finish(u, true)).collect();
    let saved = prepared.and_then(|p| store.save_prepared(&p, &events));
    if saved.is_err() {
        let events: Vec<AuditEvent> = batch.iter().flat_map(|u| finish(u, false)).collect();
        if let Err(e) = store.append_audit(&events) {
            tracing::warn!("could not write the audit log: {e}");
        }
    }
    let mut stored = saved.as_ref().map(|ids| ids.iter()).ok();
    batch
        .into_iter()
        .map(|u| match (&saved, u.result) {
            (_, Err(e)) => Err(e.into()),
            (Err(e), Ok(_)) => Err(EvaluateError::Store(StoreError(e.0.clone()))),
            (Ok(_), Ok(report)) => {
                let id = stored
                    .as_mut()
                    .and_then(Iterator::next)
                    .cloned()
                    .unwrap_or_else(|| report.report_id.clone());
                Ok((report, id))
            }
        })
        .collect()
}

/// An input that could not be resolved: the request halts before any evaluation.
pub fn record_input_error(store: &Store, doc_key: &str, message: &str) {
    let event = AuditEvent {
        request_id: new_request_id(),
        at: now_rfc3339(),
        document: doc_key.to_string(),
        state: AuditState::Halted,
        code: Some(format!("input_error: {message}")),
        inputs_fingerprint: None,
        playbook_logic_hash: None,
        call: None,
        decision_id: None,
    };
    let received = AuditEvent {
        state: AuditState::Received,
        code: None,
        ..event.clone()
    };
    if let Err(e) = store.append_audit(&[received, event]) {
        tracing::warn!("could not write the audit log: {e}");
    }
}

/// The audit events of one request.
#[derive(Clone)]
pub(crate) struct Trail {
    pub(crate) events: Vec<AuditEvent>,
    base: AuditEvent,
}

impl Trail {
    pub(crate) fn new(request_id: &str, doc_key: &str, resolved: &Resolved) -> Trail {
        Trail::of(
            request_id,
            doc_key,
            Some(resolved.doc.fingerprint().to_string()),
            Some(resolved.playbook.logic_hash.clone()),
        )
    }

    /// A request about `doc_key`, its rows naming the inputs' fingerprint and the
    /// playbook's logic hash where they are known.
    pub(crate) fn of(
        request_id: &str,
        doc_key: &str,
        inputs_fingerprint: Option<String>,
        playbook_logic_hash: Option<String>,
    ) -> Trail {
        Trail {
            events: Vec::new(),
            base: AuditEvent {
                request_id: request_id.to_string(),
                at: String::new(),
                document: doc_key.to_string(),
                state: AuditState::Received,
                code: None,
                inputs_fingerprint,
                playbook_logic_hash,
                call: None,
                decision_id: None,
            },
        }
    }

    /// Name the inputs' fingerprint on every row of the request, and on any row pushed after.
    pub(crate) fn fingerprint(&mut self, fingerprint: &str) {
        self.base.inputs_fingerprint = Some(fingerprint.to_string());
        for e in &mut self.events {
            e.inputs_fingerprint = Some(fingerprint.to_string());
        }
    }

    /// Name the decision (report or audit id) on every row of the request, and on any
    /// row pushed after.
    pub(crate) fn decide(&mut self, id: &str) {
        self.base.decision_id = Some(id.to_string());
        for e in &mut self.events {
            e.decision_id = Some(id.to_string());
        }
    }

    pub(crate) fn push(&mut self, state: AuditState, code: Option<String>) {
        self.events.push(AuditEvent {
            at: now_rfc3339(),
            state,
            code,
            ..self.base.clone()
        });
    }

    pub(crate) fn calls(&mut self, calls: Vec<CallRecord>) {
        for call in calls {
            self.events.push(AuditEvent {
                at: call.started_at.clone(),
                state: AuditState::Call,
                call: Some(call),
                ..self.base.clone()
            });
        }
    }
}

/// Keeps the evaluator's attempts of one request, in the order they finished.
#[derive(Default)]
pub(crate) struct Recorder(Mutex<Vec<CallRecord>>);

impl Recorder {
    pub(crate) fn take(&self) -> Vec<CallRecord> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl CallObserver for Recorder {
    fn record(&self, record: CallRecord) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record);
    }
}

/// Two observers of the same calls.
struct Both(Arc<Recorder>, Arc<dyn CallObserver>);

impl CallObserver for Both {
    fn record(&self, record: CallRecord) {
        self.0.record(record.clone());
        self.1.record(record);
    }
}
