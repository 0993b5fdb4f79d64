//! `workspace/executeCommand`: dispatched to `lsp::commands`.

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::ExecuteCommandParams;

use crate::lsp::backend::Backend;
use crate::lsp::commands;

pub async fn run(b: &Backend, params: ExecuteCommandParams) -> RpcResult<Option<Value>> {
    commands::execute(b, params).await
}
