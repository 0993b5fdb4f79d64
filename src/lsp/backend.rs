//! The server handle every handler receives: the client connection and the state.

use std::sync::Arc;

use tower_lsp_server::Client;
use tower_lsp_server::ls_types::{MessageType, Uri};

use super::documents::DocEntry;
use super::state::State;
use super::status::{ByopStatus, StatusParams};

#[derive(Clone)]
pub struct Backend {
    pub client: Client,
    pub state: Arc<State>,
}

impl Backend {
    pub fn entry(&self, uri: &Uri) -> Option<Arc<DocEntry>> {
        self.state.docs.get(uri).map(|e| e.clone())
    }

    /// Log to stderr (tracing) and to the client when the level allows.
    /// The message is escaped for the client's log as every text output is (controls and
    /// invisible characters made visible).
    pub async fn log(&self, level: tracing::Level, message: String) {
        let message = crate::render::terminal::escape(&message).into_owned();
        match level {
            tracing::Level::ERROR => tracing::error!("{message}"),
            tracing::Level::WARN => tracing::warn!("{message}"),
            tracing::Level::INFO => tracing::info!("{message}"),
            _ => tracing::debug!("{message}"),
        }
        if level <= self.state.settings().log_level() {
            let typ = match level {
                tracing::Level::ERROR => MessageType::ERROR,
                tracing::Level::WARN => MessageType::WARNING,
                tracing::Level::INFO => MessageType::INFO,
                _ => MessageType::LOG,
            };
            self.client.log_message(typ, message).await;
        }
    }

    /// Tell the user, once each, that the team store cannot be reached (and that results
    /// are kept locally) or answers again: `window/showMessage`, and the log.
    pub async fn show_store_notices(&self) {
        for (online, message) in self.state.take_store_notices() {
            let message = crate::render::terminal::escape(&message).into_owned();
            let typ = if online {
                tracing::info!("{message}");
                MessageType::INFO
            } else {
                tracing::warn!("{message}");
                MessageType::WARNING
            };
            self.client.show_message(typ, message).await;
        }
    }

    pub async fn send_status(&self, params: StatusParams) {
        self.client.send_notification::<ByopStatus>(params).await;
    }

    /// Re-publish every open document (settings or a playbook changed).
    pub async fn publish_all(&self) {
        let uris: Vec<Uri> = self.state.docs.iter().map(|e| e.key().clone()).collect();
        for uri in uris {
            self.publish(&uri).await;
        }
    }
}
