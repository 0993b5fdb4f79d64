//! Baselines: the report a document's drift is measured against, per playbook hash.

use rusqlite::{OptionalExtension, TransactionBehavior, params};
use serde_json::json;

use super::error::StoreError;
use super::{Store, mac};
use crate::model::{Report, now_rfc3339};

impl Store {
    /// Make a stored report the baseline of `doc_key` for that report's playbook hash,
    /// replacing any earlier baseline. `report_id` may be a unique prefix.
    pub fn save_baseline(&self, doc_key: &str, report_id: &str) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err("starting transaction", e))?;
        let full = self.resolve_id(&tx, report_id)?.ok_or_else(|| {
            StoreError(format!(
                "no report `{}` in {}",
                report_id.trim(),
                self.label
            ))
        })?;
        let hash: String = tx
            .query_row(
                "SELECT playbook_hash FROM reports WHERE report_id = ?1",
                [&full],
                |r| r.get(0),
            )
            .map_err(|e| self.err("saving baseline", e))?;
        let saved_at = now_rfc3339();
        let row_mac = mac::mac(
            self.key(),
            "baseline",
            &json!([doc_key, hash, full, saved_at]),
        );
        tx.execute(
            "INSERT OR REPLACE INTO baselines (doc_key, playbook_hash, report_id, saved_at, mac)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![doc_key, hash, full, saved_at, row_mac],
        )
        .map_err(|e| self.err("saving baseline", e))?;
        tx.commit().map_err(|e| self.err("saving baseline", e))
    }
    /// The baseline report of `doc_key` under `playbook_hash`, when the baseline row and its
    /// report both verify.
    pub fn baseline(
        &self,
        doc_key: &str,
        playbook_hash: &str,
    ) -> Result<Option<Report>, StoreError> {
        let conn = self.conn();
        let row: Option<(String, String, Option<String>)> = conn
            .prepare_cached(
                "SELECT report_id, saved_at, mac FROM baselines WHERE doc_key = ?1 AND playbook_hash = ?2",
            )
            .and_then(|mut stmt| {
                stmt.query_row(params![doc_key, playbook_hash], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
            })
            .optional()
            .map_err(|e| self.err("reading baseline", e))?;
        let Some((report_id, saved_at, stored_mac)) = row else {
            return Ok(None);
        };
        let values = json!([doc_key, playbook_hash, report_id, saved_at]);
        if !mac::verify(self.key(), "baseline", &values, stored_mac.as_deref()) {
            self.reject(&format!("baseline of {doc_key}"));
            return Ok(None);
        }
        self.verified_report_by_id(&conn, &report_id)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::model::*;

    #[test]
    fn baseline_is_saved_under_the_reports_playbook_hash_and_replaced() {
        let store = Store::open_in_memory().unwrap();
        store
            .save_report(
                "a.md",
                &report("r1", "2026-01-01T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("r2", "2026-01-02T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        assert!(store.baseline("a.md", &hash()).unwrap().is_none());

        store.save_baseline("a.md", "r1").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r1"
        );
        assert!(store.baseline("a.md", "sha256:other").unwrap().is_none());
        assert!(store.baseline("b.md", &hash()).unwrap().is_none());

        store.save_baseline("a.md", "r2").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r2"
        );

        let err = store.save_baseline("a.md", "nope").unwrap_err().to_string();
        assert!(err.contains("nope"), "{err}");
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r2"
        );
    }
}
