//! One row of the report history, as `byop history`, the LSP and the store share it.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub report_id: String,
    pub timestamp: String,
    /// The document key the report was saved under.
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub mode: String,
    pub status: String,
    pub consistency_score: f64,
    pub is_baseline: bool,
    /// This run repeated the stored report `report_id` unchanged (same inputs, playbook,
    /// mode and results): only its time was recorded. Its own id is `rerun_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun_id: Option<String>,
}
