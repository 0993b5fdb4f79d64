//! `textDocument/didChange`: apply the edits in version order, cancel a running
//! evaluation of the old text, publish after the debounce.

use tower_lsp_server::ls_types::DidChangeTextDocumentParams;

use crate::lsp::backend::Backend;

pub async fn run(b: &Backend, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let Some(entry) = b.entry(&uri) else {
        return;
    };
    let generation = {
        let mut d = entry.lock();
        d.change(
            params.text_document.version,
            params.content_changes,
            b.state.encoding(),
        );
        d.generation
    };
    entry.cancel_running();
    b.schedule_publish(uri, generation);
}
