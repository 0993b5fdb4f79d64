//! `initialized`: say hello in the client's log.

use crate::lsp::backend::Backend;

pub async fn run(b: &Backend) {
    let message = format!("byop {} language server ready", env!("CARGO_PKG_VERSION"));
    b.log(tracing::Level::INFO, message).await;
}
