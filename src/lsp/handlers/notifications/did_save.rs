//! `textDocument/didSave`: a saved playbook or `byop.toml` re-checks every open
//! document; a saved AI output runs the configured `onSave` mode.

use tower_lsp_server::ls_types::DidSaveTextDocumentParams;

use crate::lsp::backend::Backend;
use crate::lsp::documents::Kind;
use crate::lsp::state::uri_path;
use crate::model::Mode;

pub async fn run(b: &Backend, params: DidSaveTextDocumentParams) {
    let uri = params.text_document.uri;
    let path = uri_path(&uri);
    let is_config = path
        .as_deref()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == crate::workspace::config::FILE_NAME);
    // Any saved file may be a playbook or config something resolves to: re-read them.
    b.state.resolver.invalidate();
    let is_playbook = b
        .entry(&uri)
        .is_some_and(|e| e.lock().kind == Kind::Playbook);
    if is_config || is_playbook {
        // Documents checked against this playbook or config see the saved version.
        b.publish_all().await;
        return;
    }
    if b.entry(&uri).is_none() {
        return;
    }
    let eff = b.state.effective(path.as_deref());
    match eff.on_save.mode() {
        None => {}
        Some(Mode::Deterministic) => b.publish(&uri).await,
        Some(mode) => {
            let this = b.clone();
            tokio::spawn(async move {
                if let Err(e) = this.evaluate(&uri, mode, false).await {
                    let message = format!("evaluation on save: {e}");
                    this.log(tracing::Level::INFO, message).await;
                }
            });
        }
    }
}
