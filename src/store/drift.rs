//! Every run of one document, for its drift chart: the stored reports and reruns, oldest
//! first, read from the columns a chart shows and never the reports' JSON, so a history
//! of ten thousand runs is read in one pass over small rows. Each report is verified by
//! its summary MAC (rows written before there was one, by their whole row's MAC, reading
//! the JSON of those rows only), each rerun by its own.

use std::collections::HashSet;

use super::db::{Row as DbRow, Sql};
use super::error::StoreError;
use super::report_reads::history_row;
use super::reports::{COLUMNS, Row, SUMMARY_COLUMNS};
use super::{HistoryRow, Store};

/// One run of the document: its time in nanoseconds (none: unreadable) and its row.
#[derive(Debug, Clone)]
pub struct Run {
    pub ns: Option<i64>,
    pub row: HistoryRow,
}

/// Reports then reruns of the document; oldest first (an unreadable time first, as the
/// history shows it last), a report before its reruns at one time, then by insertion.
fn runs_sql() -> String {
    let summary = |t: &str| {
        SUMMARY_COLUMNS
            .split(',')
            .map(|c| format!("{t}.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "SELECT 0 AS kind, CAST(NULL AS TEXT) AS xid, CAST(NULL AS TEXT) AS xtime,
                CAST(NULL AS TEXT) AS xmac, r.timestamp_ns AS ns, r.rowid AS seq, {r}
         FROM reports r WHERE r.doc_key = ?1
         UNION ALL
         SELECT 1, x.rerun_id, x.timestamp, x.mac, x.timestamp_ns, x.rowid, {r}
         FROM reruns x JOIN reports r ON r.report_id = x.report_id WHERE x.doc_key = ?1
         ORDER BY ns ASC NULLS FIRST, kind ASC, seq ASC",
        r = summary("r")
    )
}

impl Store {
    /// Every run of `doc_key` that verifies, oldest first.
    pub fn document_runs(&self, doc_key: &str) -> Result<Vec<Run>, StoreError> {
        self.read("reading the document's runs", |tx| {
            let fail = |e| self.err("reading the document's runs", e);
            let found = tx.query(&runs_sql(), &[doc_key.into()]).map_err(fail)?;
            let baselines: HashSet<String> = tx
                .query(
                    "SELECT report_id FROM baselines WHERE doc_key = ?1",
                    &[doc_key.into()],
                )
                .map_err(fail)?
                .iter()
                .map(|r| r.text(0))
                .collect::<Result<_, _>>()
                .map_err(fail)?;
            let mut legacy = None;
            let mut out = Vec::with_capacity(found.len());
            for r in &found {
                let (row, summary_mac) = Row::read_summary(r, 6).map_err(fail)?;
                let verified = match summary_mac {
                    Some(m) => self.summary_verifies(&row, Some(&m)),
                    None => {
                        if legacy.is_none() {
                            legacy = Some(self.legacy_verified(tx, doc_key)?);
                        }
                        legacy
                            .as_ref()
                            .is_some_and(|ok| ok.contains(&row.report_id))
                    }
                };
                if !verified {
                    continue;
                }
                if let Some(run) = self.run_of(r, row, doc_key, &baselines)? {
                    out.push(run);
                }
            }
            Ok(out)
        })
    }

    /// A verified report row as a run (a rerun's own MAC checked too); `None` when the
    /// rerun does not verify or the row is of a kind this byop did not write.
    fn run_of(
        &self,
        r: &DbRow,
        row: Row,
        doc_key: &str,
        baselines: &HashSet<String>,
    ) -> Result<Option<Run>, StoreError> {
        let fail = |e| self.err("reading the document's runs", e);
        let rerun = r.int(0).map_err(fail)? != 0;
        let ns = r.opt_int(4).map_err(fail)?;
        let is_baseline = baselines.contains(&row.report_id);
        let Some(mut h) = history_row(row, is_baseline) else {
            return Ok(None);
        };
        if rerun {
            let (id, time) = (r.text(1).map_err(fail)?, r.text(2).map_err(fail)?);
            let m = r.opt_text(3).map_err(fail)?;
            if !self.rerun_verifies(&id, &h.report_id, doc_key, &time, m.as_deref()) {
                return Ok(None);
            }
            h.rerun_id = Some(id);
            h.document = doc_key.to_string();
            h.timestamp = time;
        }
        Ok(Some(Run { ns, row: h }))
    }

    /// The ids of the document's reports (and of those its reruns repeat) written before
    /// summary MACs, whose whole row verifies: read with their JSON, these rows only.
    fn legacy_verified(
        &self,
        tx: &mut dyn Sql,
        doc_key: &str,
    ) -> Result<HashSet<String>, StoreError> {
        let fail = |e| self.err("reading the document's runs", e);
        let sql = format!(
            "SELECT {COLUMNS} FROM reports WHERE summary_mac IS NULL AND (doc_key = ?1
             OR report_id IN (SELECT report_id FROM reruns WHERE doc_key = ?1))"
        );
        let mut ok = HashSet::new();
        for r in tx.query(&sql, &[doc_key.into()]).map_err(fail)? {
            let row = Row::read(&r, 0).map_err(fail)?;
            if self.row_verifies(&row) {
                ok.insert(row.report_id);
            }
        }
        Ok(ok)
    }
}
