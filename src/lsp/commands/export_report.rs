//! `byop.exportReport {uri}` → the report: the last evaluation, else the deterministic one.

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::{ExecuteCommandParams, Uri};

use super::reply::{UriArg, args, envelope, failed, invalid};
use crate::engine::runner;
use crate::lsp::backend::Backend;
use crate::model::Report;

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: UriArg = args(p)?;
    envelope(current_report(b, &a.uri)?.0)
}

/// The report the editor shows, with the text it was computed on.
pub fn current_report(b: &Backend, uri: &Uri) -> RpcResult<(Report, String)> {
    let entry = b
        .entry(uri)
        .ok_or_else(|| invalid(format!("document not open: {}", uri.as_str())))?;
    let d = entry.lock();
    if let Some(e) = &d.evaluation {
        return Ok((e.report.clone(), e.text.to_string()));
    }
    d.view
        .as_ref()
        .map(|v| {
            (
                runner::identify(v.deterministic.clone()),
                v.text.to_string(),
            )
        })
        .ok_or_else(|| failed("the document has not been checked yet"))
}
