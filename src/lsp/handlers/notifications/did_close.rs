//! `textDocument/didClose`: forget the document, cancel its evaluation, clear its
//! diagnostics and status.

use tower_lsp_server::ls_types::DidCloseTextDocumentParams;

use crate::lsp::backend::Backend;
use crate::lsp::status::StatusParams;

pub async fn run(b: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    if let Some((_, entry)) = b.state.docs.remove(&uri) {
        entry.cancel_running();
    }
    b.client
        .publish_diagnostics(uri.clone(), vec![], None)
        .await;
    b.send_status(StatusParams::none(&uri, None)).await;
}
