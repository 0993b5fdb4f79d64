//! `window/workDoneProgress/cancel`: the user pressed cancel on an evaluation's progress.

use tower_lsp_server::ls_types::{NumberOrString, WorkDoneProgressCancelParams};

use crate::lsp::backend::Backend;

pub async fn run(b: &Backend, params: WorkDoneProgressCancelParams) {
    let key = match &params.token {
        NumberOrString::String(s) => s.clone(),
        NumberOrString::Number(n) => n.to_string(),
    };
    if let Some(tok) = b.state.progress_tokens.get(&key) {
        tracing::info!("evaluation cancelled by the client");
        tok.cancel();
    }
}
