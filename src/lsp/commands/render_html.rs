//! `byop.renderHtml {uri}` → `{html}`: the current report as a standalone page,
//! with drift against the saved baseline when there is one.

use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::ExecuteCommandParams;

use super::export_report::current_report;
use super::reply::{UriArg, args, failed};
use crate::lsp::backend::Backend;
use crate::lsp::state::{doc_key, uri_path};

pub async fn run(b: &Backend, p: &ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let a: UriArg = args(p)?;
    let (report, text) = current_report(b, &a.uri)?;
    let eff = b.state.effective(uri_path(&a.uri).as_deref());
    let baseline = b.state.store(&eff.db_path).and_then(|s| {
        s.baseline(&doc_key(&a.uri), &report.integrity.playbook_logic_hash)
            .ok()
            .flatten()
            .filter(|bl| bl.report_id != report.report_id)
    });
    let html = tokio::task::spawn_blocking(move || {
        crate::render::html::report(&report, &text, baseline.as_ref())
    })
    .await
    .map_err(|_| failed("the HTML renderer is not available in this build"))?;
    Ok(Some(json!({ "html": html })))
}
