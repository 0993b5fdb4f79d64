//! Repairing a resolved document (repair once, then re-validate) with the store: the report of the original
//! (with both validations in `repair`) is saved, and the audit trail records the request,
//! both validations, the evaluator's attempts and how the repair ended.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Resolved;
use super::evaluate::{Recorder, Trail, new_request_id};
use crate::engine::repair::{RepairContext, RepairOutcome, repair};
use crate::evaluator::{CallObserver, Evaluator};
use crate::model::integrity::report_id;
use crate::model::{AuditState, RepairStatus, ValidationRecord};
use crate::store::{Store, StoreError};

/// Repair once, save the report and the audit trail.
pub async fn repair_and_save(
    resolved: &Resolved,
    store: Option<Arc<Store>>,
    doc_key: &str,
    evaluator: Option<&Evaluator>,
    cancel: &CancellationToken,
) -> Result<RepairOutcome, StoreError> {
    let request_id = new_request_id();
    let mut trail = Trail::new(&request_id, doc_key, resolved);
    trail.push(AuditState::Received, None);
    trail.push(AuditState::Validated, None);
    let recorder = Arc::new(Recorder::default());
    let started = std::time::SystemTime::now();
    let mut outcome = repair(
        &resolved.playbook,
        &resolved.doc,
        RepairContext {
            evaluator,
            observer: Some(recorder.as_ref() as &dyn CallObserver),
            cancel,
            generation: None,
        },
    )
    .await;
    let calls = recorder.take();
    let record = &outcome.record;
    trail.push(
        AuditState::Validation,
        Some(format!("before: {}", summary(&record.before))),
    );
    trail.calls(calls.clone());
    if let Some(after) = &record.after {
        trail.push(
            AuditState::Validation,
            Some(format!("after: {}", summary(after))),
        );
    }
    match record.status {
        RepairStatus::NotNeeded => {
            trail.push(AuditState::Evaluated, Some("repair_not_needed".into()))
        }
        RepairStatus::Repaired => trail.push(AuditState::Repaired, record.repaired_sha256.clone()),
        RepairStatus::Rejected => {
            trail.push(AuditState::Rejected, record.after.as_ref().map(summary))
        }
        RepairStatus::Failed => trail.push(
            AuditState::Halted,
            Some(format!(
                "repair_failed: {}",
                record.reason.as_deref().unwrap_or("unknown")
            )),
        ),
    }
    let report = &mut outcome.before;
    report.repair = Some(outcome.record.clone());
    report.request_id = Some(request_id.clone());
    report.playbook_source = Some(resolved.playbook_source);
    if let Some(ev) = evaluator.filter(|_| !calls.is_empty()) {
        report.evaluator = Some(ev.info());
    }
    report.report_id = report_id(report);
    trail.decide(&report.report_id);
    super::telemetry::export_repair(resolved, &outcome, &calls, &request_id, started);
    let mut saved = Ok(());
    if let Some(store) = &store {
        saved = store.save_report(doc_key, &outcome.before);
        if let Err(e) = store.append_audit(&trail.events) {
            tracing::warn!("could not write the audit log: {e}");
        }
    }
    saved.map(|()| outcome)
}

/// `pass`, or `fail: id, id`.
pub(crate) fn summary(v: &ValidationRecord) -> String {
    if v.passed() {
        "pass".into()
    } else {
        let ids: Vec<&str> = v.errors.iter().map(|e| e.check_id.as_str()).collect();
        format!("fail: {}", ids.join(", "))
    }
}
