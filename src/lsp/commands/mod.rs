//! `workspace/executeCommand`: `arguments` is one JSON object. One file per command.

mod compare;
mod counterfactual;
mod evaluate;
mod export_report;
mod history;
mod render_html;
mod repair;
mod reply;
mod save_baseline;
mod set_api_key;

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result as RpcResult;
use tower_lsp_server::ls_types::ExecuteCommandParams;

use super::backend::Backend;
use reply::{failed, invalid};

/// A command's name and its handler.
type Handler = fn(
    Backend,
    ExecuteCommandParams,
) -> futures::future::BoxFuture<'static, RpcResult<Option<Value>>>;

/// Every command. A new command is a new file and one line here.
const COMMANDS: &[(&str, Handler)] = &[
    ("byop.evaluate", |b, p| {
        Box::pin(async move { evaluate::run(&b, &p).await })
    }),
    ("byop.saveBaseline", |b, p| {
        Box::pin(async move { save_baseline::run(&b, &p).await })
    }),
    ("byop.exportReport", |b, p| {
        Box::pin(async move { export_report::run(&b, &p).await })
    }),
    ("byop.history", |b, p| {
        Box::pin(async move { history::run(&b, &p).await })
    }),
    ("byop.compare", |b, p| {
        Box::pin(async move { compare::run(&b, &p).await })
    }),
    ("byop.setApiKey", |b, p| {
        Box::pin(async move { set_api_key::run(&b, &p).await })
    }),
    ("byop.renderHtml", |b, p| {
        Box::pin(async move { render_html::run(&b, &p).await })
    }),
    ("byop.repair", |b, p| {
        Box::pin(async move { repair::run(&b, &p).await })
    }),
    ("byop.counterfactual", |b, p| {
        Box::pin(async move { counterfactual::run(&b, &p).await })
    }),
];

pub fn names() -> Vec<String> {
    COMMANDS.iter().map(|(n, _)| n.to_string()).collect()
}

/// Aborts the command's task when the request is dropped ($/cancelRequest).
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Run a command in its own task, so that a bug in one command is an error reply,
/// never a dead server.
pub async fn execute(b: &Backend, p: ExecuteCommandParams) -> RpcResult<Option<Value>> {
    let name = p.command.clone();
    let Some((_, handler)) = COMMANDS.iter().find(|(n, _)| *n == name) else {
        return Err(invalid(format!("unknown command `{name}`")));
    };
    let task = tokio::spawn(handler(b.clone(), p));
    let _abort = AbortOnDrop(task.abort_handle());
    task.await.unwrap_or_else(|e| {
        tracing::error!("command {name} failed: {e}");
        Err(failed(format!("{name} failed: internal error")))
    })
}
