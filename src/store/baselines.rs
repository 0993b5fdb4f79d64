//! Baselines: the report a document's drift is measured against, per playbook hash.

use serde_json::json;

use super::db::vals;
use super::error::StoreError;
use super::{Store, mac};
use crate::model::{Report, now_rfc3339};

impl Store {
    /// Make a stored report the baseline of `doc_key` for that report's playbook hash,
    /// replacing any earlier baseline. `report_id` may be a unique prefix.
    pub fn save_baseline(&self, doc_key: &str, report_id: &str) -> Result<(), StoreError> {
        self.write("saving baseline", true, |tx| {
            let full = self.resolve_id(tx, report_id)?.ok_or_else(|| {
                StoreError(format!(
                    "no report `{}` in {}",
                    report_id.trim(),
                    self.label
                ))
            })?;
            let fail = |e| self.err("saving baseline", e);
            let hash = tx
                .query_opt(
                    "SELECT playbook_hash FROM reports WHERE report_id = ?1",
                    vals![&full],
                )
                .and_then(|r| r.ok_or_else(|| "the report vanished".to_string()))
                .and_then(|r| r.text(0))
                .map_err(fail)?;
            let saved_at = now_rfc3339();
            let row_mac = mac::mac(
                self.key(),
                "baseline",
                &json!([doc_key, hash, full, saved_at]),
            );
            tx.execute(
                "INSERT INTO baselines (doc_key, playbook_hash, report_id, saved_at, mac)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (doc_key, playbook_hash) DO UPDATE SET report_id = excluded.report_id,
                   saved_at = excluded.saved_at, mac = excluded.mac",
                vals![doc_key, hash, full, saved_at, row_mac],
            )
            .map_err(fail)?;
            Ok(())
        })
    }
    /// The baseline report of `doc_key` under `playbook_hash`, when the baseline row and its
    /// report both verify.
    pub fn baseline(
        &self,
        doc_key: &str,
        playbook_hash: &str,
    ) -> Result<Option<Report>, StoreError> {
        self.read("reading baseline", |tx| {
            self.baseline_in(tx, doc_key, playbook_hash)
        })
    }

    /// [`Store::baseline`] inside a read that is already open.
    pub(super) fn baseline_in(
        &self,
        tx: &mut dyn super::db::Sql,
        doc_key: &str,
        playbook_hash: &str,
    ) -> Result<Option<Report>, StoreError> {
        {
            let fail = |e| self.err("reading baseline", e);
            let row = tx
                .query_opt(
                    "SELECT report_id, saved_at, mac FROM baselines WHERE doc_key = ?1 AND playbook_hash = ?2",
                    vals![doc_key, playbook_hash],
                )
                .map_err(fail)?;
            let Some(row) = row else {
                return Ok(None);
            };
            let (report_id, saved_at, stored_mac) =
                (|| -> Result<_, String> { Ok((row.text(0)?, row.text(1)?, row.opt_text(2)?)) })()
                    .map_err(fail)?;
            let values = json!([doc_key, playbook_hash, report_id, saved_at]);
            if !mac::verify(self.key(), "baseline", &values, stored_mac.as_deref()) {
                self.reject(&format!("baseline of {doc_key}"));
                return Ok(None);
            }
            self.verified_report_by_id(tx, &report_id)
        }
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
