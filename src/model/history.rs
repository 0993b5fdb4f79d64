//! One row of the report history, as `byop history`, the LSP and the store share it.

use serde::{Deserialize, Serialize};

use super::verdict::{Mode, Status};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub report_id: String,
    pub timestamp: String,
    /// The document key the report was saved under.
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub mode: Mode,
    pub status: Status,
    pub consistency_score: f64,
    pub is_baseline: bool,
    /// This run repeated the stored report `report_id` unchanged (same inputs, playbook,
    /// mode and results): only its time was recorded. Its own id is `rerun_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_and_status_keep_their_json_names() {
        let row = HistoryRow {
            report_id: "r".into(),
            timestamp: "2026-01-01T00:00:00Z".into(),
            document: "d.md".into(),
            playbook_id: "p".into(),
            playbook_version: "1".into(),
            mode: Mode::Screening,
            status: Status::Review,
            consistency_score: 1.0,
            is_baseline: false,
            rerun_id: None,
        };
        let json = serde_json::to_value(&row).unwrap();
        assert_eq!(
            (&json["mode"], &json["status"]),
            (&"screening".into(), &"REVIEW".into())
        );
        assert_eq!("ALERT".parse::<Status>(), Ok(Status::Alert));
        assert!("alert".parse::<Status>().is_err());
    }
}
