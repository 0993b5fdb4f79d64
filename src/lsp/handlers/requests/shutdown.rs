//! `shutdown`: cancel running evaluations; the process exits on `exit` with code 0.

use std::sync::atomic::Ordering;

use tower_lsp_server::jsonrpc::Result as RpcResult;

use crate::lsp::backend::Backend;

pub async fn run(b: &Backend) -> RpcResult<()> {
    b.state.shutdown_requested.store(true, Ordering::SeqCst);
    for doc in b.state.docs.iter() {
        doc.cancel_running();
    }
    Ok(())
}
