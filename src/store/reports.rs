//! Reports: the stored row and its MAC (under the store's key), and saving (a report that
//! repeats the newest stored one unchanged becomes a rerun). Reading them is in
//! `report_reads`; a row that does not verify is never returned.

use serde_json::json;

use super::db::{Sql, Val, each_row, vals};
use super::error::StoreError;
use super::mac;
use super::{Store, timestamp_ns};
use crate::model::Report;
use crate::model::integrity::results_only;

/// Newest first; ties (same timestamp) broken by insertion order.
pub(super) const NEWEST_FIRST: &str = "ORDER BY timestamp_ns DESC, rowid DESC";

/// The columns a row is read with (and its MAC covers, but `mac` itself).
pub(super) const COLUMNS: &str =
    "report_id, doc_key, timestamp, playbook_id, playbook_version, playbook_hash,
    inputs_fingerprint, mode, status, consistency_score, report_json, mac";

/// The columns of a row's summary (everything but the JSON), then its summary MAC.
pub(super) const SUMMARY_COLUMNS: &str =
    "report_id, doc_key, timestamp, playbook_id, playbook_version, playbook_hash,
    inputs_fingerprint, mode, status, consistency_score, summary_mac";

/// One stored report row.
pub(super) struct Row {
    pub(super) report_id: String,
    pub(super) doc_key: String,
    pub(super) timestamp: String,
    pub(super) playbook_id: String,
    pub(super) playbook_version: String,
    pub(super) playbook_hash: String,
    pub(super) inputs_fingerprint: String,
    pub(super) mode: String,
    pub(super) status: String,
    pub(super) consistency_score: f64,
    pub(super) report_json: String,
    mac: Option<String>,
}

impl Row {
    fn of(doc_key: &str, report: &Report, report_json: String) -> Row {
        Row {
            report_id: report.report_id.clone(),
            doc_key: doc_key.to_string(),
            timestamp: report.timestamp.clone(),
            playbook_id: report.playbook_id.clone(),
            playbook_version: report.playbook_version.clone(),
            playbook_hash: report.integrity.playbook_logic_hash.clone(),
            inputs_fingerprint: report.integrity.inputs_fingerprint.clone(),
            mode: report.execution_mode.as_str().to_string(),
            status: report.summary.overall_status.as_str().to_string(),
            consistency_score: report.variance_summary.consistency_score,
            report_json,
            mac: None,
        }
    }

    /// Read `COLUMNS` starting at column `at`.
    pub(super) fn read(r: &super::db::Row, at: usize) -> Result<Row, String> {
        Ok(Row {
            report_id: r.text(at)?,
            doc_key: r.text(at + 1)?,
            timestamp: r.text(at + 2)?,
            playbook_id: r.text(at + 3)?,
            playbook_version: r.text(at + 4)?,
            playbook_hash: r.text(at + 5)?,
            inputs_fingerprint: r.text(at + 6)?,
            mode: r.text(at + 7)?,
            status: r.text(at + 8)?,
            consistency_score: r.real(at + 9)?,
            report_json: r.text(at + 10)?,
            mac: r.opt_text(at + 11)?,
        })
    }

    /// Read [`SUMMARY_COLUMNS`] starting at column `at`: the row without its JSON, and
    /// its summary MAC (none: written before there was one).
    pub(super) fn read_summary(
        r: &super::db::Row,
        at: usize,
    ) -> Result<(Row, Option<String>), String> {
        let row = Row {
            report_id: r.text(at)?,
            doc_key: r.text(at + 1)?,
            timestamp: r.text(at + 2)?,
            playbook_id: r.text(at + 3)?,
            playbook_version: r.text(at + 4)?,
            playbook_hash: r.text(at + 5)?,
            inputs_fingerprint: r.text(at + 6)?,
            mode: r.text(at + 7)?,
            status: r.text(at + 8)?,
            consistency_score: r.real(at + 9)?,
            report_json: String::new(),
            mac: None,
        };
        Ok((row, r.opt_text(at + 10)?))
    }

    /// Whether `other` has this row's summary columns (read in another statement).
    pub(super) fn same_summary(&self, other: &Row) -> bool {
        self.summary_values() == other.summary_values()
    }

    /// What the summary MAC covers: every column but the JSON.
    pub(super) fn summary_values(&self) -> serde_json::Value {
        json!([
            self.report_id,
            self.doc_key,
            self.timestamp,
            self.playbook_id,
            self.playbook_version,
            self.playbook_hash,
            self.inputs_fingerprint,
            self.mode,
            self.status,
            self.consistency_score,
        ])
    }

    /// What the row MAC covers: the summary columns, then the JSON.
    fn values(&self) -> serde_json::Value {
        let mut v = self.summary_values();
        if let serde_json::Value::Array(columns) = &mut v {
            columns.push(json!(self.report_json));
        }
        v
    }
}

/// What the caller saw of a document's newest stored report (same playbook and mode)
/// before its run: the one it compared with, if it looked.
pub enum Seen<'a> {
    NotLooked,
    Nothing,
    Report(&'a Report),
}

/// A report ready to write (see [`Store::prepare_report`]).
pub struct PreparedReport {
    pub(super) row: Row,
    pub(super) row_mac: String,
    /// The report as compared with earlier ones (see [`results_only`]).
    pub(super) results: Report,
    pub(super) newest: Newest,
}

/// The newest stored report of the document (same playbook and mode) as seen when the
/// report was prepared.
pub(super) enum Newest {
    Unknown,
    None,
    Id { id: String, repeats: bool },
}

/// `report` (as `row` and `results`) repeats `latest` unchanged: another run of the same
/// inputs with the same results. Compared as values, not by hashing both: a field that
/// compares unequal but would serialize the same only costs a stored copy.
pub(super) fn repeats(latest: &Report, row: &Row, results: &Report) -> bool {
    latest.report_id != row.report_id
        && latest.integrity.inputs_fingerprint == row.inputs_fingerprint
        && results_only(latest) == *results
}

impl Store {
    pub(super) fn row_verifies(&self, row: &Row) -> bool {
        let ok = mac::verify(self.key(), "report", &row.values(), row.mac.as_deref());
        if !ok {
            self.reject(&format!("report {}", row.report_id));
        }
        ok
    }

    /// Whether a row's summary columns are the ones this store's byop wrote with `m`.
    pub(super) fn summary_verifies(&self, row: &Row, m: Option<&str>) -> bool {
        let ok = mac::verify(self.key(), "report summary", &row.summary_values(), m);
        if !ok {
            self.reject(&format!("report {}", row.report_id));
        }
        ok
    }

    /// The report of the first row (in query order) that verifies and parses.
    pub(super) fn first_verified(
        &self,
        tx: &mut dyn Sql,
        sql: &str,
        params: &[Val],
    ) -> Result<Option<Report>, StoreError> {
        let mut found = None;
        each_row(tx, sql, params, &|e| self.err("reading report", e), |r| {
            let row = Row::read(&r, 0).map_err(|e| self.err("reading report", e))?;
            if !self.row_verifies(&row) {
                return Ok(true);
            }
            let report = serde_json::from_str(&row.report_json).map_err(|e| {
                StoreError(format!(
                    "database {}: a stored report is unreadable: {e}",
                    self.label
                ))
            })?;
            found = Some(report);
            Ok(false)
        })?;
        Ok(found)
    }

    /// Insert a report (`report.report_id` must be set). `doc_key` identifies the document.
    ///
    /// Idempotent: saving an id that is already stored is a no-op (`INSERT OR IGNORE`).
    /// Report ids are content hashes, so the same id means the same report, and
    /// keeping the first row keeps its insertion order and any baseline pointing at it.
    pub fn save_report(&self, doc_key: &str, report: &Report) -> Result<(), StoreError> {
        self.save_batch(&[(doc_key, report)], &[]).map(|_| ())
    }

    /// Save reports and append audit events in ONE transaction: a CLI batch costs one
    /// commit, not two per document. All or nothing. A report that repeats the latest
    /// stored one of its document unchanged is recorded as a rerun (its id and time), not
    /// stored again. Returns, per report, the id of the stored report it is or repeats.
    pub fn save_batch(
        &self,
        reports: &[(&str, &Report)],
        events: &[crate::model::AuditEvent],
    ) -> Result<Vec<String>, StoreError> {
        let prepared = reports
            .iter()
            .map(|(doc_key, report)| self.prepare_report(doc_key, report, Seen::NotLooked))
            .collect::<Result<Vec<_>, _>>()?;
        self.save_prepared(&prepared, events)
    }

    /// Everything about saving `report` that needs no transaction (serializing it, its
    /// MAC, its results, and whether it repeats the newest stored report `seen`),
    /// so a batch does it on all cores and holds the write lock only to write.
    pub fn prepare_report(
        &self,
        doc_key: &str,
        report: &Report,
        seen: Seen,
    ) -> Result<PreparedReport, StoreError> {
        let (row, row_mac) = self.report_row(doc_key, report)?;
        let results = results_only(report);
        let newest = match seen {
            Seen::NotLooked => Newest::Unknown,
            Seen::Nothing => Newest::None,
            Seen::Report(latest) => Newest::Id {
                repeats: repeats(latest, &row, &results),
                id: latest.report_id.clone(),
            },
        };
        Ok(PreparedReport {
            row,
            row_mac,
            results,
            newest,
        })
    }

    /// [`Store::save_batch`] of prepared reports. What was decided when preparing stands
    /// only if the document's newest stored report is still the one seen then; otherwise
    /// (another process saved meanwhile, or an earlier report of this batch) it is
    /// decided again inside the transaction.
    pub fn save_prepared(
        &self,
        prepared: &[PreparedReport],
        events: &[crate::model::AuditEvent],
    ) -> Result<Vec<String>, StoreError> {
        let (stored, head) = self.write("saving report", true, |tx| {
            let stored = self.save_in(tx, prepared)?;
            let head = self.append_audit_in(tx, events)?;
            Ok((stored, head))
        })?;
        self.record_head(head);
        Ok(stored)
    }

    /// Write one prepared report (or its rerun); the id it is stored under.
    pub(super) fn save_one(
        &self,
        tx: &mut dyn Sql,
        p: &PreparedReport,
    ) -> Result<String, StoreError> {
        let original = match &p.newest {
            Newest::Unknown => self.repeated(tx, p)?,
            seen => match (seen, self.newest_id(tx, &p.row)?) {
                (Newest::None, None) => None,
                (Newest::Id { id, repeats }, Some(now)) if *id == now => {
                    repeats.then(|| id.clone())
                }
                _ => self.repeated(tx, p)?,
            },
        };
        let row = &p.row;
        let inserted = match &original {
            Some(original) => {
                self.insert_rerun(tx, &row.report_id, &row.doc_key, &row.timestamp, original)?
            }
            None => self.insert_report(tx, row, &p.row_mac)?,
        };
        // What was just written is known; an id already stored is looked up.
        Ok(match (inserted, original) {
            (true, Some(original)) => original,
            (true, None) => row.report_id.clone(),
            (false, _) => self.stored_id(tx, &row.report_id)?,
        })
    }

    /// The id of the newest row for `row`'s document, playbook and mode (verified or not).
    fn newest_id(&self, tx: &mut dyn Sql, row: &Row) -> Result<Option<String>, StoreError> {
        let fail = |e| self.err("reading report", e);
        tx.query_opt(
            &format!(
                "SELECT report_id FROM reports WHERE doc_key = ?1 AND playbook_hash = ?2 AND mode = ?3
                 {NEWEST_FIRST} LIMIT 1"
            ),
            vals![&row.doc_key, &row.playbook_hash, &row.mode],
        )
        .map_err(fail)?
        .map(|r| r.text(0))
        .transpose()
        .map_err(fail)
    }

    pub(super) fn report_row(
        &self,
        doc_key: &str,
        report: &Report,
    ) -> Result<(Row, String), StoreError> {
        if report.report_id.trim().is_empty() {
            return Err(StoreError(
                "cannot save a report without a report_id".into(),
            ));
        }
        let json = serde_json::to_string(report).map_err(|e| {
            StoreError(format!("cannot serialize report {}: {e}", report.report_id))
        })?;
        let row = Row::of(doc_key, report, json);
        let row_mac = mac::mac(self.key(), "report", &row.values());
        Ok((row, row_mac))
    }

    /// Whether a row was inserted (an id already stored is left as it is).
    pub(super) fn insert_report(
        &self,
        tx: &mut dyn Sql,
        row: &Row,
        row_mac: &str,
    ) -> Result<bool, StoreError> {
        tx.execute(
            "INSERT INTO reports (report_id, doc_key, timestamp, timestamp_ns, playbook_id,
                playbook_version, playbook_hash, inputs_fingerprint, mode, status, consistency_score,
                report_json, mac, summary_mac)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
             ON CONFLICT DO NOTHING",
            vals![
                &row.report_id,
                &row.doc_key,
                &row.timestamp,
                timestamp_ns(&row.timestamp),
                &row.playbook_id,
                &row.playbook_version,
                &row.playbook_hash,
                &row.inputs_fingerprint,
                &row.mode,
                &row.status,
                row.consistency_score,
                &row.report_json,
                row_mac,
                mac::mac(self.key(), "report summary", &row.summary_values()),
            ],
        )
        .map(|inserted| inserted == 1)
        .map_err(|e| self.err("saving report", e))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::model::*;

    #[test]
    fn saving_the_same_id_twice_keeps_the_first() {
        let store = Store::open_in_memory().unwrap();
        let first = report("r1", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        store.save_report("doc", &first).unwrap();
        let mut second = first.clone();
        second.notices.push("changed".into());
        store.save_report("doc", &second).unwrap();
        assert_eq!(store.get_report("r1").unwrap(), Some(first));
        assert_eq!(store.history(None, 10).unwrap().len(), 1);
    }

    #[test]
    fn report_without_id_is_rejected() {
        let store = Store::open_in_memory().unwrap();
        assert!(
            store
                .save_report("doc", &report("", "2026-01-01T00:00:00Z", "x", Mode::Full))
                .is_err()
        );
    }
}
