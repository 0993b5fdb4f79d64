//! The history: stored reports and their reruns, newest first, filtered by document,
//! status, mode and playbook and paged by the database, walking the history indexes
//! newest first (see [`page_sql`]), so a page reads its own rows and no more, however
//! long the document's history. Every row read still verifies its MAC.

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

/// The `WHERE` clauses of the filters that are set, over a report `r` and, for a rerun,
/// its own document `x.doc_key`, numbered from `?1`; only set filters are written, so
/// the planner sees `doc_key = ?1` and walks the history index.
struct Filters {
    reports: String,
    reruns: String,
    /// Whether the reruns' clause reads the report (`r`) a rerun repeated.
    reruns_need_report: bool,
    params: Vec<Val>,
}

fn filters(q: &HistoryQuery) -> Filters {
    let (mut reports, mut reruns, mut params) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(doc) = q.document {
        params.push(doc.into());
        reports.push(format!("r.doc_key = ?{}", params.len()));
        reruns.push(format!("x.doc_key = ?{}", params.len()));
    }
    let on_report = [
        ("r.status", q.status.map(|s| s.as_str())),
        ("r.mode", q.mode.map(|m| m.as_str())),
        ("r.playbook_id", q.playbook),
    ];
    let mut reruns_need_report = false;
    for (column, value) in on_report {
        if let Some(v) = value {
            params.push(v.into());
            let clause = format!("{column} = ?{}", params.len());
            reports.push(clause.clone());
            reruns.push(clause);
            reruns_need_report = true;
        }
    }
    let clause = |c: Vec<String>| match c.is_empty() {
        true => String::new(),
        false => format!("WHERE {}", c.join(" AND ")),
    };
    Filters {
        reports: clause(reports),
        reruns: clause(reruns),
        reruns_need_report,
        params,
    }
}

/// Newest first: an unparseable time last; a rerun before its report at the same time
/// (it was recorded after it); then by insertion.
const ORDER: &str = "ns DESC NULLS LAST, kind DESC, seq DESC";

/// One page of history rows, in two steps. First the keys only — (kind, report id,
/// rerun id, time, insertion order) — of the newest `?k` reports and the newest `?k`
/// reruns, each walked newest first down its history index (`reports_history`,
/// `reruns_by_doc`; without a document, the time indexes), never the whole document;
/// merged and cut to the page (`?l` rows after `?o`). Then the page's rows alone are
/// joined with their columns: a stored report's JSON is read for the rows shown and no
/// other (its MAC covers it).
fn page_sql(f: &Filters) -> String {
    let n = f.params.len();
    let (k, l, o) = (n + 1, n + 2, n + 3);
    let report_columns: Vec<String> = COLUMNS
        .split(',')
        .map(|c| format!("r.{}", c.trim()))
        .collect();
    let report_columns = report_columns.join(", ");
    let join = match f.reruns_need_report {
        true => "JOIN reports r ON r.report_id = x.report_id",
        false => "",
    };
    format!(
        "SELECT h.kind, h.xid, h.xdoc, h.xtime, h.xmac, h.ns, h.seq,
                EXISTS (SELECT 1 FROM baselines b WHERE b.report_id = r.report_id AND b.doc_key = r.doc_key) AS base,
                {report_columns}
         FROM (
             SELECT * FROM (
                 SELECT 0 AS kind, r.report_id AS rid, CAST(NULL AS TEXT) AS xid,
                        CAST(NULL AS TEXT) AS xdoc, CAST(NULL AS TEXT) AS xtime,
                        CAST(NULL AS TEXT) AS xmac, r.timestamp_ns AS ns, r.rowid AS seq
                 FROM reports r {reports}
                 ORDER BY r.timestamp_ns DESC NULLS LAST, r.rowid DESC LIMIT ?{k}) a
             UNION ALL
             SELECT * FROM (
                 SELECT 1, x.report_id, x.rerun_id, x.doc_key, x.timestamp, x.mac,
                        x.timestamp_ns, x.rowid
                 FROM reruns x {join} {reruns}
                 ORDER BY x.timestamp_ns DESC, x.rowid DESC LIMIT ?{k}) b
             ORDER BY {ORDER} LIMIT ?{l} OFFSET ?{o}
         ) h
         JOIN reports r ON r.report_id = h.rid
         ORDER BY h.{}",
        ORDER.replace(", ", ", h."),
        reports = f.reports,
        reruns = f.reruns,
    )
}

/// How many rows match: each table counted down its index.
fn count_sql(f: &Filters) -> String {
    let join = match f.reruns_need_report {
        true => "JOIN reports r ON r.report_id = x.report_id",
        false => "",
    };
    format!(
        "SELECT (SELECT COUNT(*) FROM reports r {})
              + (SELECT COUNT(*) FROM reruns x {join} {})",
        f.reports, f.reruns
    )
}

/// The page's query and its parameters (for `EXPLAIN` in the tests, too).
pub(super) fn page_query(q: &HistoryQuery) -> (String, Vec<Val>) {
    let f = filters(q);
    let clamp = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut params = f.params.clone();
    params.extend([
        Val::Int(clamp(q.offset).saturating_add(clamp(q.limit))),
        Val::Int(clamp(q.limit)),
        Val::Int(clamp(q.offset)),
    ]);
    (page_sql(&f), params)
}

impl Store {
    /// One page of the history under `q`, and the number of rows matching it.
    pub fn history_page(&self, q: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        self.read("reading history", |tx| {
            let rows = self.history_rows(tx, q)?;
            let f = filters(q);
            let fail = |e| self.err("reading history", e);
            let count = tx.query(&count_sql(&f), &f.params).map_err(fail)?;
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
        let (sql, params) = page_query(q);
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
