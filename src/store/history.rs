//! The history: stored reports and their reruns, newest first, filtered by document,
//! status, mode and playbook and paged by the database (one query over both tables), so
//! a page reads its own rows and no more. Every row read still verifies its MAC.

use super::db::{Sql, Val};
use super::error::StoreError;
use super::report_reads::history_row;
use super::reports::{COLUMNS, Row};
use super::{HistoryRow, Store};
use crate::model::{Mode, Status};

/// Which history rows, and which page of them. `None` matches any value.
#[derive(Debug, Clone, Default)]
pub struct HistoryQuery<'a> {
    pub document: Option<&'a str>,
    pub status: Option<Status>,
    pub mode: Option<Mode>,
    pub playbook: Option<&'a str>,
    pub offset: usize,
    pub limit: usize,
}

/// One page, and how many stored rows match the filters on every page. A row that does
/// not verify is counted in `total` but never returned (the page is then shorter).
pub struct HistoryPage {
    pub rows: Vec<HistoryRow>,
    pub total: usize,
}

/// The filters on a report `r` (and, for a rerun, its own document `x.doc_key`).
fn filters(doc_column: &str) -> String {
    format!(
        "(CAST(?1 AS TEXT) IS NULL OR {doc_column} = ?1)
         AND (CAST(?2 AS TEXT) IS NULL OR r.status = ?2)
         AND (CAST(?3 AS TEXT) IS NULL OR r.mode = ?3)
         AND (CAST(?4 AS TEXT) IS NULL OR r.playbook_id = ?4)"
    )
}

/// Both kinds of row in one shape: `kind` (0 a report, 1 a rerun), the rerun's own id,
/// document, time and MAC, the sort keys, whether it is a baseline, then the report's
/// `COLUMNS` (a rerun's original report).
fn union() -> String {
    let report_columns: Vec<String> = COLUMNS
        .split(',')
        .map(|c| format!("r.{}", c.trim()))
        .collect();
    let report_columns = report_columns.join(", ");
    format!(
        "SELECT 0 AS kind, NULL AS rerun_id, NULL AS rerun_doc, NULL AS rerun_time,
                NULL AS rerun_mac, r.timestamp_ns AS ns, r.rowid AS seq,
                EXISTS (SELECT 1 FROM baselines b WHERE b.report_id = r.report_id AND b.doc_key = r.doc_key) AS base,
                {report_columns}
         FROM reports r WHERE {}
         UNION ALL
         SELECT 1, x.rerun_id, x.doc_key, x.timestamp, x.mac, x.timestamp_ns, x.rowid,
                (1 = 0), {report_columns}
         FROM reruns x JOIN reports r ON r.report_id = x.report_id WHERE {}",
        filters("r.doc_key"),
        filters("x.doc_key")
    )
}

impl Store {
    /// One page of the history under `q`, and the number of rows matching it.
    pub fn history_page(&self, q: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        self.read("reading history", |tx| {
            let rows = self.history_rows(tx, q)?;
            let sql = format!("SELECT COUNT(*) FROM ({}) h", union());
            let fail = |e| self.err("reading history", e);
            let count = tx.query(&sql, &params(q)).map_err(fail)?;
            let total = match count.first() {
                Some(r) => r.int(0).map_err(fail)?,
                None => 0,
            };
            Ok(HistoryPage {
                rows,
                total: usize::try_from(total).unwrap_or(0),
            })
        })
    }

    /// Newest first; all documents when `doc_key` is `None`. Returns at most `limit` rows
    /// that verify.
    pub fn history(
        &self,
        doc_key: Option<&str>,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let q = HistoryQuery {
            document: doc_key,
            limit,
            ..Default::default()
        };
        self.read("reading history", |tx| self.history_rows(tx, &q))
    }

    /// The document a stored report (that verifies) was saved under.
    pub fn document_of(&self, report_id: &str) -> Result<Option<String>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM reports WHERE report_id = ?1");
        self.read("reading report", |tx| {
            let fail = |e| self.err("reading report", e);
            let Some(r) = tx.query_opt(&sql, &[report_id.into()]).map_err(fail)? else {
                return Ok(None);
            };
            let row = Row::read(&r, 0).map_err(fail)?;
            Ok(self.row_verifies(&row).then_some(row.doc_key))
        })
    }

    fn history_rows(
        &self,
        tx: &mut dyn Sql,
        q: &HistoryQuery,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        // Newest first (an unparseable time last); a rerun before its report at the same
        // time (it was recorded after it); then by insertion.
        let sql = format!(
            "SELECT * FROM ({}) h ORDER BY (ns IS NULL), ns DESC, kind DESC, seq DESC
             LIMIT ?5 OFFSET ?6",
            union()
        );
        let clamp = |n: usize| Val::Int(i64::try_from(n).unwrap_or(i64::MAX));
        let mut params = params(q);
        params.extend([clamp(q.limit), clamp(q.offset)]);
        let fail = |e| self.err("reading history", e);
        let mut out = Vec::new();
        for r in tx.query(&sql, &params).map_err(fail)? {
            let rerun = match r.int(0).map_err(fail)? {
                0 => None,
                _ => Some((
                    r.text(1).map_err(fail)?,
                    r.text(2).map_err(fail)?,
                    r.text(3).map_err(fail)?,
                    r.opt_text(4).map_err(fail)?,
                )),
            };
            let is_baseline = r.flag(7).map_err(fail)?;
            let row = Row::read(&r, 8).map_err(fail)?;
            if !self.row_verifies(&row) {
                continue;
            }
            let Some(mut h) = history_row(row, is_baseline) else {
                continue;
            };
            if let Some((rerun_id, doc_key, timestamp, mac)) = rerun {
                if !self.rerun_verifies(
                    &rerun_id,
                    &h.report_id,
                    &doc_key,
                    &timestamp,
                    mac.as_deref(),
                ) {
                    continue;
                }
                h.rerun_id = Some(rerun_id);
                h.document = doc_key;
                h.timestamp = timestamp;
            }
            out.push(h);
        }
        Ok(out)
    }
}

/// `?1`…`?4`: document, status, mode, playbook.
fn params(q: &HistoryQuery) -> Vec<Val> {
    vec![
        q.document.into(),
        q.status.map(|s| s.as_str()).into(),
        q.mode.map(|m| m.as_str()).into(),
        q.playbook.into(),
    ]
}
