//! `byop.evaluate {uri, mode?, fresh?}` → the report (default mode: full).

use serde::Deserialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::reply::{args, envelope, failed, invalid};
use crate::lsp::backend::Backend;
use crate::model::Mode;

#[derive(Deserialize)]
struct EvaluateArgs {
    uri: Uri,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    fresh: bool,
}

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: EvaluateArgs = args(p)?;
    let mode = match a.mode.as_deref() {
        Some(m) => m.parse::<Mode>().map_err(invalid)?,
        None => Mode::Full,
    };
    let report = b.evaluate(&a.uri, mode, a.fresh).await.map_err(failed)?;
    envelope(report)
}
