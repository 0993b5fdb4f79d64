//! `byop.saveBaseline {uri}` → `{report_id}`: the last report saved for the document
//! becomes its drift baseline.

use std::sync::Arc;

use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::reply::{UriArg, args, failed, invalid};
use crate::lsp::backend::Backend;
use crate::lsp::state::{doc_key, uri_path};
use crate::model::Report;
use crate::store::Store;

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: UriArg = args(p)?;
    let (report, store) = latest_saved(b, &a.uri)?;
    store
        .save_baseline(&doc_key(&a.uri), &report.report_id)
        .map_err(|e| failed(e.to_string()))?;
    let message = format!("baseline set to report {}", report.report_id);
    b.log(tracing::Level::INFO, message).await;
    Ok(Some(json!({"report_id": report.report_id})))
}

/// The last report saved for this document (this session, else the store).
fn latest_saved(b: &Backend, uri: &Uri) -> RpcResult<(Report, Arc<Store>)> {
    let eff = b.state.effective(uri_path(uri).as_deref());
    let store = b
        .state
        .store(&eff.db_path)
        .ok_or_else(|| failed("the store is not available"))?;
    let entry = b.entry(uri);
    let id = entry.as_ref().and_then(|e| e.lock().last_report_id.clone());
    let by_id = match id {
        Some(id) => store.get_report(&id).map_err(|e| failed(e.to_string()))?,
        None => None,
    };
    let report = match by_id {
        Some(r) => Some(r),
        None => {
            let hash = entry
                .and_then(|e| {
                    e.lock()
                        .view
                        .as_ref()
                        .map(|v| v.playbook.logic_hash.clone())
                })
                .unwrap_or_default();
            store
                .latest_report(&doc_key(uri), &hash, None)
                .map_err(|e| failed(e.to_string()))?
        }
    };
    let report = report
        .ok_or_else(|| invalid("no saved report for this document yet: run byop.evaluate first"))?;
    Ok((report, store))
}
