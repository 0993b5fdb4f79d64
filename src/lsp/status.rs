//! The `byop/status` notification: one per state change, for status bars.

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::ls_types::notification::Notification;

use crate::model::Status;

pub enum ByopStatus {}

impl Notification for ByopStatus {
    type Params = StatusParams;
    const METHOD: &'static str = "byop/status";
}

/// A report's overall status, or what the server is doing instead.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "UPPERCASE")]
pub enum LspStatus {
    Alert,
    Review,
    Observe,
    Stable,
    /// An evaluation is running.
    Running,
    /// Nothing to show: a playbook file, an unparseable or closed document.
    None,
}

impl From<Status> for LspStatus {
    fn from(s: Status) -> Self {
        match s {
            Status::Alert => LspStatus::Alert,
            Status::Review => LspStatus::Review,
            Status::Observe => LspStatus::Observe,
            Status::Stable => LspStatus::Stable,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusParams {
    pub uri: Uri,
    pub status: LspStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistency_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The playbook and who chose it: "ai_plugin_observability_v1 1.1.0 (default)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playbook: Option<String>,
}

impl StatusParams {
    pub fn none(uri: &Uri, message: Option<String>) -> Self {
        StatusParams {
            uri: uri.clone(),
            status: LspStatus::None,
            consistency_score: None,
            mode: None,
            message,
            playbook: None,
        }
    }
}
