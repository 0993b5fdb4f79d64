//! The counterfactual audit of a resolved document against the store: the response
//! cache comes from it, the finished audit goes into it. Both front ends call this.

use std::path::Path;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Resolved;
use super::evaluate::{Recorder, Trail, new_request_id};
use crate::engine::counterfactual::{self as cf, Catalog, CfError, Context, Request};
use crate::engine::runner::ProgressFn;
use crate::evaluator::{Evaluator, ResponseCache};
use crate::model::AuditState;
use crate::model::counterfactual::Counterfactual;
use crate::store::{Store, StoreError};

/// The largest cue catalog file read.
const MAX_CATALOG_BYTES: u64 = 1_000_000;

#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error(transparent)]
    Audit(#[from] CfError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

/// What the user asked for.
#[derive(Clone)]
pub struct AuditOptions {
    pub catalog: Catalog,
    pub checks: Option<Vec<String>>,
    pub pairs: u32,
    pub seed: u64,
    pub margin: f64,
    pub max_calls: usize,
    pub fresh: bool,
    pub evaluator: Evaluator,
    pub progress: Option<ProgressFn>,
    pub cancel: CancellationToken,
}

/// What the audit will cost, said before the first call.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub checks: usize,
    pub cues: Vec<String>,
    pub pairs: u32,
    /// Calls to make (not answered by the cache).
    pub calls: usize,
    pub cached: usize,
}

impl Estimate {
    pub fn message(&self) -> String {
        format!(
            "counterfactual audit: {} check(s) × {} cue(s) ({}) × {} pairs → {} evaluator call(s), {} more from the cache",
            self.checks,
            self.cues.len(),
            self.cues.join(", "),
            self.pairs,
            self.calls,
            self.cached
        )
    }
}

/// The catalog the user named: `None` or `built-in` → the built-in one; else a JSON
/// file (over the built-in one unless it says `"include_builtin": false`).
pub fn load_catalog(spec: Option<&str>, base: &Path) -> Result<Catalog, String> {
    let spec = spec.map(str::trim).filter(|s| !s.is_empty());
    let Some(spec) = spec.filter(|s| *s != "built-in" && *s != "builtin") else {
        return Ok(Catalog::builtin());
    };
    let path = base.join(spec);
    let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() || meta.len() > MAX_CATALOG_BYTES {
        return Err(format!(
            "{}: a cue catalog is a JSON file of at most {MAX_CATALOG_BYTES} bytes",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let user = Catalog::parse(&text, &path.display().to_string()).map_err(|e| e.0)?;
    Ok(Catalog::with_user(user))
}

/// Plan, say the cost (`announce`), refuse above the budget, run, save under `doc_key`;
/// the request's states and every evaluator call go to the audit log.
pub async fn audit_and_save(
    resolved: &Resolved,
    store: Option<Arc<Store>>,
    doc_key: &str,
    opts: AuditOptions,
    announce: impl FnOnce(&Estimate),
) -> Result<Counterfactual, AuditError> {
    let mut trail = Trail::new(&new_request_id(), doc_key, resolved);
    trail.push(AuditState::Received, None);
    let recorder = Arc::new(Recorder::default());
    let result = audit(
        resolved,
        store.clone(),
        doc_key,
        opts,
        announce,
        recorder.clone(),
    )
    .await;
    trail.calls(recorder.take());
    let (state, code) = match &result {
        Ok(a) => (
            AuditState::Evaluated,
            format!("counterfactual:{}", a.audit_id),
        ),
        Err(AuditError::Audit(CfError::Cancelled)) => (AuditState::Halted, "cancelled".into()),
        Err(AuditError::Audit(CfError::Budget { .. })) => {
            (AuditState::Halted, "counterfactual:over_budget".into())
        }
        Err(AuditError::Audit(CfError::Input(m))) => {
            (AuditState::Halted, format!("input_error: {m}"))
        }
        Err(AuditError::Store(_)) => (AuditState::Halted, "store_error".into()),
    };
    trail.push(state, Some(code));
    if let Ok(a) = &result {
        trail.decide(&a.audit_id);
    }
    if let Some(store) = &store
        && let Err(e) = store.append_audit(&trail.events)
    {
        tracing::warn!("could not write the audit log: {e}");
    }
    result
}

async fn audit(
    resolved: &Resolved,
    store: Option<Arc<Store>>,
    doc_key: &str,
    opts: AuditOptions,
    announce: impl FnOnce(&Estimate),
    recorder: Arc<Recorder>,
) -> Result<Counterfactual, AuditError> {
    let req = Request {
        playbook: &resolved.playbook,
        doc: &resolved.doc,
        catalog: &opts.catalog,
        checks: opts.checks.clone(),
        pairs: opts.pairs,
        seed: opts.seed,
        margin: opts.margin,
    };
    let plan = cf::plan(&req)?;
    let cache = store.clone().map(|s| s as Arc<dyn ResponseCache>);
    let cached = plan.cached(&opts.evaluator, cache.as_deref(), opts.fresh);
    announce(&Estimate {
        checks: plan.arms_checks(),
        cues: plan.cue_names().iter().map(|s| s.to_string()).collect(),
        pairs: plan.pairs,
        calls: plan.calls() - cached,
        cached,
    });
    plan.check_budget(
        &opts.evaluator,
        cache.as_deref(),
        opts.fresh,
        opts.max_calls,
    )?;
    let ctx = Context {
        evaluator: opts.evaluator.clone(),
        cache,
        fresh: opts.fresh,
        progress: opts.progress.clone(),
        cancel: opts.cancel.clone(),
        observer: Some(recorder as Arc<dyn crate::evaluator::CallObserver>),
    };
    let audit = cf::execute(&req, &plan, &ctx).await?;
    if let Some(store) = &store {
        store.save_counterfactual(doc_key, &audit)?;
    }
    Ok(audit)
}
