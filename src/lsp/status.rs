//! The `byop/status` notification: one per state change, for status bars.

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::ls_types::notification::Notification;

pub enum ByopStatus {}

impl Notification for ByopStatus {
    type Params = StatusParams;
    const METHOD: &'static str = "byop/status";
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StatusParams {
    pub uri: Uri,
    /// ALERT | REVIEW | OBSERVE | STABLE | RUNNING | NONE
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistency_score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl StatusParams {
    pub fn none(uri: &Uri, message: Option<String>) -> Self {
        StatusParams {
            uri: uri.clone(),
            status: "NONE".into(),
            consistency_score: None,
            mode: None,
            message,
        }
    }
}
