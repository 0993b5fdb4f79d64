//! Evaluating a resolved document against the store: the drift reference and the
//! response cache come from it, the finished report goes into it. The runner
//! itself touches no storage.

use std::sync::Arc;

use super::Resolved;
use crate::engine::runner::{self, DriftReference, ReferenceKind, RunError, RunOptions};
use crate::evaluator::ResponseCache;
use crate::model::{Mode, Report};
use crate::store::{Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

/// What drift compares with: the saved baseline, else the latest earlier report of the
/// same mode (a deterministic report says nothing about how an evaluation drifted).
pub fn drift_reference(
    store: &Store,
    doc_key: &str,
    playbook_hash: &str,
    mode: Mode,
) -> Result<Option<DriftReference>, StoreError> {
    if let Some(report) = store.baseline(doc_key, playbook_hash)? {
        return Ok(Some(DriftReference {
            report,
            kind: ReferenceKind::Baseline,
        }));
    }
    Ok(store
        .latest_report_in_mode(doc_key, playbook_hash, mode)?
        .map(|report| DriftReference {
            report,
            kind: ReferenceKind::PreviousReport,
        }))
}

/// Run with the store's history and cache, then save the report under `doc_key`.
pub async fn evaluate_and_save(
    resolved: &Resolved,
    store: Option<Arc<Store>>,
    doc_key: &str,
    mut opts: RunOptions,
) -> Result<Report, EvaluateError> {
    opts.playbook_source = Some(resolved.playbook_source);
    if let Some(store) = &store {
        let mode = runner::effective_mode(&opts);
        opts.reference = drift_reference(store, doc_key, &resolved.playbook.logic_hash, mode)?;
        opts.cache = Some(store.clone() as Arc<dyn ResponseCache>);
    }
    let report = runner::run(&resolved.playbook, &resolved.doc, opts).await?;
    if let Some(store) = &store {
        store.save_report(doc_key, &report)?;
    }
    Ok(report)
}
