//! `textDocument/didOpen`: track the text; show the stored report for identical
//! content at once; publish.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::lsp::backend::Backend;
use crate::lsp::documents::{DocEntry, Kind};
use crate::lsp::playbook_diagnostics::looks_like_playbook;
use crate::lsp::state::uri_path;

pub async fn run(b: &Backend, params: DidOpenTextDocumentParams) {
    let td = params.text_document;
    let path = uri_path(&td.uri);
    let kind = if looks_like_playbook(path.as_deref(), td.uri.as_str(), &td.text) {
        Kind::Playbook
    } else {
        Kind::Output
    };
    tracing::debug!(uri = td.uri.as_str(), bytes = td.text.len(), "open");
    let entry = Arc::new(DocEntry::new(&td.text, td.version, kind));
    b.state.docs.insert(td.uri.clone(), entry.clone());
    if kind == Kind::Output {
        let this = b.clone();
        let uri = td.uri.clone();
        let _ = tokio::task::spawn_blocking(move || this.load_stored(&uri, &entry)).await;
    }
    b.publish(&td.uri).await;
}
