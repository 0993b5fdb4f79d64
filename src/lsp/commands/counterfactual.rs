//! `byop.counterfactual {uri, cues?, checks?, pairs?, seed?, margin?, maxCalls?, fresh?}`
//! → `{byop_counterfactual, html}`: the counterfactual audit of the open document
//! (docs/contracts.md, Counterfactual audit), with work-done progress and cancellation, saved in the store.

use std::sync::atomic::Ordering;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::reply::{args, failed, invalid};
use crate::engine::counterfactual::{CfError, DEFAULT_MAX_CALLS, DEFAULT_PAIRS, stats};
use crate::evaluator::Evaluator;
use crate::lsp::backend::Backend;
use crate::lsp::progress::EvalProgress;
use crate::lsp::state::{doc_key, uri_path};
use crate::model::counterfactual::CounterfactualEnvelope;
use crate::workspace::ProblemKind;
use crate::workspace::counterfactual::{AuditError, AuditOptions, audit_and_save, load_catalog};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CfArgs {
    uri: Uri,
    /// `built-in` or a catalog file inside the workspace.
    #[serde(default)]
    cues: Option<String>,
    #[serde(default)]
    checks: Option<Vec<String>>,
    #[serde(default)]
    pairs: Option<u32>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    margin: Option<f64>,
    #[serde(default)]
    max_calls: Option<usize>,
    #[serde(default)]
    fresh: bool,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: CfArgs = args(p)?;
    let entry = b
        .entry(&a.uri)
        .ok_or_else(|| invalid(format!("document not open: {}", a.uri.as_str())))?;
    let (text, _) = entry.snapshot();
    let path = uri_path(&a.uri);
    let eff = b.state.effective(path.as_deref());
    let resolved = b
        .state
        .resolve(text.to_string(), path.as_deref())
        .map_err(|e| invalid(e.to_string()))?;
    if let Some(pr) = resolved
        .problems
        .iter()
        .find(|pr| pr.kind == ProblemKind::Companion)
    {
        return Err(invalid(pr.message.clone()));
    }
    let catalog = catalog(&a, eff.policy.root())?;
    let evaluator = match eff.evaluator.clone().map(Evaluator::new) {
        Some(Ok(ev)) => ev,
        Some(Err(e)) => return Err(failed(format!("evaluator not available: {e}"))),
        None => {
            return Err(invalid(
                "a counterfactual audit needs an evaluator: set an API key (BYOP: Set API Key)",
            ));
        }
    };
    let store = b.state.store(&eff.db_path);
    let cancel = CancellationToken::new();
    let supported = b.state.progress_supported.load(Ordering::SeqCst);
    let (progress, callback) = EvalProgress::start(
        &b.client,
        supported,
        b.state.progress_tokens.clone(),
        cancel.clone(),
        "byop: counterfactual audit".into(),
    )
    .await;
    // Dropped (the request was cancelled): stop the calls.
    let _guard = cancel.clone().drop_guard();
    let opts = AuditOptions {
        catalog,
        checks: a.checks.clone(),
        pairs: a.pairs.unwrap_or(DEFAULT_PAIRS),
        seed: a.seed.unwrap_or(13),
        margin: a.margin.unwrap_or_else(stats::default_margin),
        max_calls: a.max_calls.unwrap_or(DEFAULT_MAX_CALLS),
        fresh: a.fresh,
        evaluator,
        progress: callback,
        cancel: cancel.clone(),
    };
    let mut estimate = None;
    let result = audit_and_save(&resolved, store, &doc_key(&a.uri), opts, |e| {
        estimate = Some(e.message())
    })
    .await;
    if let Some(m) = estimate {
        b.log(tracing::Level::INFO, m).await;
    }
    let finish = match &result {
        Ok(audit) => format!(
            "{} significant",
            audit.results.iter().filter(|r| r.significant).count()
        ),
        Err(e) => e.to_string(),
    };
    progress.finish(finish).await;
    let audit = result.map_err(|e| match e {
        AuditError::Audit(CfError::Input(_) | CfError::Budget { .. }) => invalid(e.to_string()),
        other => failed(other.to_string()),
    })?;
    let html = crate::render::counterfactual::html(&audit);
    let mut value = serde_json::to_value(CounterfactualEnvelope {
        byop_counterfactual: audit,
    })
    .map_err(|e| failed(e.to_string()))?;
    value["html"] = json!(html);
    Ok(Some(value))
}

/// The catalog named by the client: built-in, or a file inside the workspace.
fn catalog(
    a: &CfArgs,
    root: &std::path::Path,
) -> RpcResult<crate::engine::counterfactual::Catalog> {
    let spec = a.cues.as_deref().map(str::trim).filter(|s| !s.is_empty());
    if let Some(spec) = spec.filter(|s| *s != "built-in" && *s != "builtin") {
        let inside = std::fs::canonicalize(root.join(spec))
            .ok()
            .zip(std::fs::canonicalize(root).ok())
            .is_some_and(|(f, r)| f.starts_with(r));
        if !inside {
            return Err(invalid(format!(
                "cue catalog `{spec}` is not a file inside the workspace"
            )));
        }
    }
    load_catalog(spec, root).map_err(invalid)
}
