//! `byop.history {uri?, limit?}` → `{rows: [...]}`, newest first.

use serde::Deserialize;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::reply::{args, failed};
use crate::lsp::backend::Backend;
use crate::lsp::state::{doc_key, uri_path};

#[derive(Deserialize, Default)]
struct HistoryArgs {
    #[serde(default)]
    uri: Option<Uri>,
    #[serde(default)]
    limit: Option<usize>,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: HistoryArgs = args(p)?;
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
    Ok(Some(json!({ "rows": rows })))
}
