//! Reruns: a run whose result repeats the latest stored report of its document (same
//! inputs fingerprint, playbook hash, mode and results) is recorded as its id and time
//! pointing at that report, not as another copy. `byop history` lists it as a rerun;
//! its id resolves to the stored report. Rows carry a MAC like every other row.

use serde_json::json;

use super::db::{Sql, vals};
use super::error::StoreError;
use super::reports::{COLUMNS, PreparedReport, repeats};
use super::{Store, mac, timestamp_ns};

impl Store {
    /// The id of the latest stored report of the prepared report's document, playbook and
    /// mode when the report repeats it unchanged.
    pub(super) fn repeated(
        &self,
        tx: &mut dyn Sql,
        p: &PreparedReport,
    ) -> Result<Option<String>, StoreError> {
        let row = &p.row;
        let fail = |e| self.err("reading report", e);
        // Only the newest row: an older report repeated is a change, not a rerun.
        let newest = tx
            .query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM reports WHERE doc_key = ?1 AND playbook_hash = ?2 AND mode = ?3
                     ORDER BY timestamp_ns DESC, rowid DESC LIMIT 1"
                ),
                vals![&row.doc_key, &row.playbook_hash, &row.mode],
            )
            .map_err(fail)?;
        let Some(newest) = newest else {
            return Ok(None);
        };
        let id = super::reports::Row::read(&newest, 0)
            .map_err(fail)?
            .report_id;
        let latest = self.verified_report_by_id(tx, &id)?;
        Ok(latest
            .filter(|l| repeats(l, row, &p.results))
            .map(|l| l.report_id))
    }

    pub(super) fn insert_rerun(
        &self,
        tx: &mut dyn Sql,
        rerun_id: &str,
        doc_key: &str,
        timestamp: &str,
        original: &str,
    ) -> Result<bool, StoreError> {
        let row_mac = mac::mac(
            self.key(),
            "rerun",
            &json!([rerun_id, original, doc_key, timestamp]),
        );
        tx.execute(
            "INSERT INTO reruns (rerun_id, report_id, doc_key, timestamp, timestamp_ns, mac)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
            vals![
                rerun_id,
                original,
                doc_key,
                timestamp,
                timestamp_ns(timestamp),
                row_mac
            ],
        )
        .map(|inserted| inserted == 1)
        .map_err(|e| self.err("saving rerun", e))
    }

    /// The stored report a rerun id stands for (a row that does not verify is ignored).
    pub(super) fn rerun_of(
        &self,
        tx: &mut dyn Sql,
        rerun_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let fail = |e| self.err("looking up report", e);
        let row = tx
            .query_opt(
                "SELECT report_id, doc_key, timestamp, mac FROM reruns WHERE rerun_id = ?1",
                vals![rerun_id],
            )
            .map_err(fail)?;
        let Some(r) = row else {
            return Ok(None);
        };
        let (original, doc_key, timestamp, m) =
            (|| -> Result<_, String> { Ok((r.text(0)?, r.text(1)?, r.text(2)?, r.opt_text(3)?)) })(
            )
            .map_err(fail)?;
        Ok(self
            .rerun_verifies(rerun_id, &original, &doc_key, &timestamp, m.as_deref())
            .then_some(original))
    }

    /// The id a saved report is stored under: its own, or the one it repeated.
    pub(super) fn stored_id(&self, tx: &mut dyn Sql, id: &str) -> Result<String, StoreError> {
        Ok(self.rerun_of(tx, id)?.unwrap_or_else(|| id.to_string()))
    }

    pub(super) fn rerun_verifies(
        &self,
        rerun_id: &str,
        original: &str,
        doc_key: &str,
        timestamp: &str,
        m: Option<&str>,
    ) -> bool {
        let ok = mac::verify(
            self.key(),
            "rerun",
            &json!([rerun_id, original, doc_key, timestamp]),
            m,
        );
        if !ok {
            self.reject(&format!("rerun {rerun_id}"));
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::report;
    use super::*;
    use crate::model::Mode;

    #[test]
    fn a_repeated_result_is_one_copy_and_a_forged_rerun_is_ignored() {
        let store = Store::open_in_memory().unwrap();
        let a = report("aaa111", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        let mut again = a.clone();
        again.report_id = "bbb222".into();
        again.timestamp = "2026-01-02T00:00:00Z".into();
        again.request_id = Some("another request".into());
        let ids = store
            .save_batch(&[("nda.ai.md", &a), ("nda.ai.md", &again)], &[])
            .unwrap();
        assert_eq!(ids, ["aaa111", "aaa111"]);
        let count = |t: &str| -> i64 {
            store
                .conn()
                .query_row(&format!("SELECT count(*) FROM {t}"), [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!((count("reports"), count("reruns")), (1, 1));
        assert_eq!(store.get_report("bbb222").unwrap(), Some(a.clone()));
        let h = store.history(Some("nda.ai.md"), 10).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].timestamp, "2026-01-02T00:00:00Z");
        assert_eq!(h[0].rerun_id.as_deref(), Some("bbb222"));
        assert_eq!(h[1].rerun_id, None);

        // Other inputs: stored, though the results are the same.
        let mut other = again.clone();
        other.report_id = "ccc333".into();
        other.integrity.inputs_fingerprint = "sha256:other".into();
        store.save_report("nda.ai.md", &other).unwrap();
        assert_eq!(count("reports"), 2);

        // A rerun row moved to another time without the key: not shown, and said.
        store
            .conn()
            .execute("UPDATE reruns SET timestamp = '2030-01-01T00:00:00Z'", [])
            .unwrap();
        let h = store.history(Some("nda.ai.md"), 10).unwrap();
        assert!(h.iter().all(|r| r.rerun_id.is_none()), "{h:?}");
        assert!(store.integrity_notice().is_some());
    }

    #[test]
    fn a_decision_made_before_the_transaction_stands_only_while_the_history_is_unchanged() {
        use crate::store::Seen;
        let store = Store::open_in_memory().unwrap();
        let count = || -> i64 {
            store
                .conn()
                .query_row("SELECT count(*) FROM reruns", [], |r| r.get(0))
                .unwrap()
        };
        let a = report("aaa111", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        store.save_report("nda.ai.md", &a).unwrap();
        let mut again = a.clone();
        again.report_id = "bbb222".into();
        again.timestamp = "2026-01-02T00:00:00Z".into();

        // Prepared against `a` and nothing saved since: a rerun of `a`, no second copy.
        let p = store
            .prepare_report("nda.ai.md", &again, Seen::Report(&a))
            .unwrap();
        assert_eq!(store.save_prepared(&[p], &[]).unwrap(), ["aaa111"]);
        assert_eq!(count(), 1);

        // Prepared against `a`, but another process saved a different result meanwhile:
        // decided again, and stored (it does not repeat the newest report).
        let mut third = again.clone();
        third.report_id = "ccc333".into();
        let p = store
            .prepare_report("nda.ai.md", &third, Seen::Report(&a))
            .unwrap();
        let mut changed = a.clone();
        changed.report_id = "ddd444".into();
        changed.timestamp = "2026-01-03T00:00:00Z".into();
        changed.summary.key_risks = vec!["a different result".into()];
        store.save_report("nda.ai.md", &changed).unwrap();
        assert_eq!(store.save_prepared(&[p], &[]).unwrap(), ["ccc333"]);
        assert_eq!(count(), 1);

        // Prepared when the document had no report, one saved meanwhile with the same
        // results: decided again, a rerun of it.
        let b = report("eee555", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        let p = store.prepare_report("b.ai.md", &b, Seen::Nothing).unwrap();
        let mut first = b.clone();
        first.report_id = "fff666".into();
        store.save_report("b.ai.md", &first).unwrap();
        assert_eq!(store.save_prepared(&[p], &[]).unwrap(), ["fff666"]);
        assert_eq!(count(), 2);
    }

    #[test]
    fn pruning_a_report_takes_its_reruns_with_it() {
        let store = Store::open_in_memory().unwrap();
        let a = report("aaa111", "2000-01-01T00:00:00Z", "sha256:in", Mode::Full);
        let mut again = a.clone();
        again.report_id = "bbb222".into();
        again.timestamp = "2000-01-02T00:00:00Z".into();
        store
            .save_batch(&[("nda.ai.md", &a), ("nda.ai.md", &again)], &[])
            .unwrap();
        let rules = crate::store::PruneRules {
            older_than_days: Some(1),
            ..Default::default()
        };
        let pruned = store.prune(&rules, &|_| true).unwrap();
        assert_eq!(pruned.reports, 1);
        let reruns: i64 = store
            .conn()
            .query_row("SELECT count(*) FROM reruns", [], |r| r.get(0))
            .unwrap();
        assert_eq!(reruns, 0);
    }
}
