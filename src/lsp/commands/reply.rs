//! What the commands share: reading their one-object argument, and replies and errors.

use serde::Deserialize;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result as RpcResult};
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use crate::model::{Report, ReportEnvelope};

pub fn invalid(msg: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InvalidParams,
        message: msg.into().into(),
        data: None,
    }
}

pub fn failed(msg: impl Into<String>) -> Error {
    Error {
        code: ErrorCode::InternalError,
        message: msg.into().into(),
        data: None,
    }
}

#[derive(Deserialize)]
pub struct UriArg {
    pub uri: Uri,
}

pub fn args<T: for<'de> Deserialize<'de>>(p: &ExecuteCommandParams) -> RpcResult<T> {
    let v = p.arguments.first().cloned().unwrap_or(json!({}));
    serde_json::from_value(v).map_err(|e| invalid(format!("{}: bad arguments: {e}", p.command)))
}

pub fn envelope(report: Report) -> RpcResult<Option<Value>> {
    serde_json::to_value(ReportEnvelope {
        byop_report: report,
    })
    .map(Some)
    .map_err(|e| failed(e.to_string()))
}
