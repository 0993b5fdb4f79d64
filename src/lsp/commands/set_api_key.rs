//! `byop.setApiKey {provider, key}` → `{ok: true}`; the key is held in memory only.

use serde::Deserialize;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::ExecuteCommandParams;

use super::reply::{args, invalid};
use crate::evaluator::{ApiKey, ProviderKind};
use crate::lsp::backend::Backend;

#[derive(Deserialize)]
struct KeyArgs {
    provider: ProviderKind,
    key: String,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: KeyArgs = args(p)?;
    let key = ApiKey::new(a.key);
    if key.is_empty() {
        return Err(invalid("byop.setApiKey: the key is empty"));
    }
    b.state
        .keys
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .set(a.provider, key);
    let message = format!("API key set for {:?} (memory only)", a.provider);
    b.log(tracing::Level::INFO, message).await;
    Ok(Some(json!({"ok": true})))
}
