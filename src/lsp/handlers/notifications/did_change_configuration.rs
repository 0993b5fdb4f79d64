//! `workspace/didChangeConfiguration`: new settings (pulled when the client sends
//! `null`), then every open document re-checked with them.

use std::sync::atomic::Ordering;

use tower_lsp_server::ls_types::{ConfigurationItem, DidChangeConfigurationParams};

use crate::lsp::backend::Backend;
use crate::lsp::settings::Settings;

pub async fn run(b: &Backend, params: DidChangeConfigurationParams) {
    let mut value = params.settings;
    if value.is_null() && b.state.pull_configuration.load(Ordering::SeqCst) {
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("byop".into()),
        };
        match b.client.configuration(vec![item]).await {
            Ok(mut v) if !v.is_empty() => value = v.remove(0),
            _ => return,
        }
    }
    if value.is_null() {
        return;
    }
    match Settings::from_json(&value) {
        Ok(s) => *b.state.settings.write().unwrap_or_else(|e| e.into_inner()) = s,
        Err(e) => {
            b.log(tracing::Level::WARN, e).await;
            return;
        }
    }
    b.state.resolver.invalidate();
    b.publish_all().await;
}
