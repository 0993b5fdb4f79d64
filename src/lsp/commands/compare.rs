//! `byop.compare {a, b}` → the comparison of two stored reports (as `byop diff --format json`).

use serde::Deserialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::ExecuteCommandParams;

use super::reply::{args, failed, invalid};
use crate::engine::compare::compare;
use crate::lsp::backend::Backend;

#[derive(Deserialize)]
struct CompareArgs {
    a: String,
    b: String,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: CompareArgs = args(p)?;
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
    let comparison = tokio::task::spawn_blocking(move || compare(&ra, &rb))
        .await
        .map_err(|_| failed("comparison failed"))?;
    serde_json::to_value(comparison)
        .map(Some)
        .map_err(|e| failed(e.to_string()))
}
