//! The history: stored reports and their reruns, newest first, filtered by document,
//! status, mode and playbook and paged by the database, walking the history indexes
//! newest first (see [`page_sql`]), so a page reads its own rows and no more, however
//! long the document's history. Every row read still verifies its MAC.

use super::db::{Sql, Val};
use super::error::StoreError;
use super::history_keys::{Cursor, Order, PageAt, Walks, order, walks};
use super::report_reads::history_row;
use super::reports::{COLUMNS, Row, SUMMARY_COLUMNS};
use super::{HistoryRow, Store};
use crate::model::{Mode, Status};

/// Which history rows, and which page of them. `None` matches any value.
#[derive(Debug, Clone, Default)]
pub struct HistoryQuery<'a> {
    pub document: Option<&'a str>,
    pub status: Option<Status>,
    pub mode: Option<Mode>,
    pub playbook: Option<&'a str>,
    pub at: PageAt,
    pub limit: usize,
}

/// One page, how many stored rows match the filters on every page, how many of them come
/// before this page, and the keys of the pages beside it. A row that does not verify is
/// counted but never returned (the page is then shorter).
pub struct HistoryPage {
    pub rows: Vec<HistoryRow>,
    pub total: usize,
    /// Matching rows newer than this page's first.
    pub position: usize,
    /// The previous page is [`PageAt::Before`] this key; none on the newest page.
    pub newer: Option<Cursor>,
    /// The next page is [`PageAt::After`] this key; none on the oldest page.
    pub older: Option<Cursor>,
}

/// The `WHERE` clauses of the filters that are set, over a report `r` and, for a rerun,
/// its own document `x.doc_key`, numbered from `?1`; only set filters are written, so
/// the planner sees `doc_key = ?1` and walks the history index.
struct Filters {
    reports: Vec<String>,
    reruns: Vec<String>,
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
    Filters {
        reports,
        reruns,
        reruns_need_report,
        params,
    }
}

/// `WHERE` the filters and one more condition.
fn and(filters: &[String], more: &str) -> String {
    let mut all = filters.to_vec();
    all.push(more.to_string());
    format!("WHERE {}", all.join(" AND "))
}

impl Filters {
    fn rerun_join(&self) -> &'static str {
        match self.reruns_need_report {
            true => "JOIN reports r ON r.report_id = x.report_id",
            false => "",
        }
    }
}

/// The keys only — (kind, report id, rerun id, time, insertion order) — of up to `?k`
/// rows of each walk from the page's key, each walked down its history index
/// (`reports_history`, `reruns_by_doc`/`reruns_history`; without a document, the time
/// indexes), never the whole document; merged and cut to `?k`.
fn keys_sql(f: &Filters, w: &Walks, o: &Order, k: usize) -> String {
    let report_walk = |(cond, name): (&str, &str)| {
        format!(
            "SELECT * FROM (
                 SELECT 0 AS kind, r.report_id AS rid, CAST(NULL AS TEXT) AS xid,
                        CAST(NULL AS TEXT) AS xdoc, CAST(NULL AS TEXT) AS xtime,
                        CAST(NULL AS TEXT) AS xmac, r.timestamp_ns AS ns, r.rowid AS seq
                 FROM reports r {}
                 ORDER BY {} LIMIT ?{k}) {name}",
            and(&f.reports, cond),
            o.reports
        )
    };
    let rerun_walk = |cond: &str| {
        format!(
            "SELECT * FROM (
                 SELECT 1 AS kind, x.report_id AS rid, x.rerun_id AS xid, x.doc_key AS xdoc,
                        x.timestamp AS xtime, x.mac AS xmac, x.timestamp_ns AS ns,
                        x.rowid AS seq
                 FROM reruns x {} {}
                 ORDER BY {} LIMIT ?{k}) reruns",
            f.rerun_join(),
            and(&f.reruns, cond),
            o.reruns
        )
    };
    let parts: Vec<String> = [
        w.timed.as_deref().map(|c| report_walk((c, "timed"))),
        w.untimed.as_deref().map(|c| report_walk((c, "untimed"))),
        w.reruns.as_deref().map(rerun_walk),
    ]
    .into_iter()
    .flatten()
    .collect();
    format!(
        "SELECT * FROM ({}) h ORDER BY {} LIMIT ?{k}",
        parts.join(" UNION ALL "),
        o.merged
    )
}

/// One page of history rows, in two steps: the keys of the page's rows (see
/// [`keys_sql`]), then those rows alone joined with the columns a history row shows and
/// their summary MAC: no report's JSON is read (but for a row written before summary
/// MACs, whose whole row is read to verify it).
fn page_sql(f: &Filters, w: &Walks, o: &Order, k: usize) -> String {
    let report_columns: Vec<String> = SUMMARY_COLUMNS
        .split(',')
        .map(|c| format!("r.{}", c.trim()))
        .collect();
    format!(
        "SELECT h.kind, h.xid, h.xdoc, h.xtime, h.xmac, h.ns, h.seq,
                EXISTS (SELECT 1 FROM baselines b WHERE b.report_id = r.report_id AND b.doc_key = r.doc_key) AS base,
                {}
         FROM ({}) h
         JOIN reports r ON r.report_id = h.rid
         ORDER BY h.{}",
        report_columns.join(", "),
        keys_sql(f, w, o, k),
        o.merged.replace(", ", ", h."),
    )
}

/// How many rows match (under `w`: of those on one side of a key): each walk counted
/// down its index.
fn count_sql(f: &Filters, w: &Walks) -> String {
    let reports = [w.timed.as_deref(), w.untimed.as_deref()]
        .into_iter()
        .flatten()
        .map(|c| format!("(SELECT COUNT(*) FROM reports r {})", and(&f.reports, c)));
    let reruns = w.reruns.as_deref().map(|c| {
        format!(
            "(SELECT COUNT(*) FROM reruns x {} {})",
            f.rerun_join(),
            and(&f.reruns, c)
        )
    });
    let terms: Vec<String> = reports.chain(reruns).collect();
    match terms.is_empty() {
        true => "SELECT 0".into(),
        false => format!("SELECT {}", terms.join(" + ")),
    }
}

/// The page's query and its parameters (for `EXPLAIN` in the tests, too): one row more
/// than the page, to know whether there is a page beyond it.
pub(super) fn page_query(q: &HistoryQuery) -> (String, Vec<Val>) {
    let f = filters(q);
    let mut params = f.params.clone();
    let w = walks(&q.at, &mut params);
    params.push(Val::Int(
        i64::try_from(q.limit.saturating_add(1)).unwrap_or(i64::MAX),
    ));
    let sql = page_sql(&f, &w, &order(q.at.older()), params.len());
    (sql, params)
}

/// A count of the rows matching `q`'s filters (on `side` of a key, if given).
fn count_query(q: &HistoryQuery, side: &PageAt) -> (String, Vec<Val>) {
    let f = filters(q);
    let mut params = f.params.clone();
    let w = walks(side, &mut params);
    (count_sql(&f, &w), params)
}

/// What a page's query read: its rows that verify, in the page's order, and the keys of
/// the first and last rows it read (verified or not) and whether there was a row beyond.
struct Read {
    rows: Vec<HistoryRow>,
    first: Option<Cursor>,
    last: Option<Cursor>,
    more: bool,
}

impl Store {
    /// One page of the history under `q`, the number of rows matching it and where the
    /// page stands among them.
    pub fn history_page(&self, q: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        self.read("reading history", |tx| self.history_page_in(tx, q))
    }

    /// A page of the history ([`Store::history_page`]) and the newest `audits`
    /// counterfactual audits of the same document ([`Store::counterfactual_history`]),
    /// read in one snapshot: what `byop history` shows, in one transaction.
    pub fn history_with_audits(
        &self,
        q: &HistoryQuery,
        audits: usize,
    ) -> Result<
        (
            HistoryPage,
            Vec<crate::model::counterfactual::CounterfactualRow>,
        ),
        StoreError,
    > {
        let (page, rows) = self.read("reading history", |tx| {
            let page = self.history_page_in(tx, q)?;
            Ok((page, self.counterfactual_rows_in(tx, q.document, audits)?))
        })?;
        Ok((page, super::counterfactual::parse_rows(rows)))
    }

    fn history_page_in(
        &self,
        tx: &mut dyn Sql,
        q: &HistoryQuery,
    ) -> Result<HistoryPage, StoreError> {
        {
            let read = self.history_rows(tx, q)?;
            let count = |tx: &mut dyn Sql, side: &PageAt| -> Result<usize, StoreError> {
                let fail = |e| self.err("reading history", e);
                let (sql, params) = count_query(q, side);
                let n = match tx.query(&sql, &params).map_err(fail)?.first() {
                    Some(r) => r.int(0).map_err(fail)?,
                    None => 0,
                };
                Ok(usize::try_from(n).unwrap_or(0))
            };
            let total = count(tx, &PageAt::Newest)?;
            let (newer, older) = match q.at {
                PageAt::Newest => (None, read.more.then_some(read.last).flatten()),
                PageAt::After(c) => (
                    read.first.or(Some(c)),
                    read.more.then_some(read.last).flatten(),
                ),
                PageAt::Before(c) => (
                    read.more.then_some(read.first).flatten(),
                    read.last.or(Some(c)),
                ),
            };
            let position = match (q.at, read.first) {
                (PageAt::Newest, _) => 0,
                (_, Some(first)) => count(tx, &PageAt::Before(first))?,
                (PageAt::After(c) | PageAt::Before(c), None) => count(tx, &PageAt::Before(c))?,
            };
            Ok(HistoryPage {
                rows: read.rows,
                total,
                position,
                newer,
                older,
            })
        }
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
        self.read("reading history", |tx| Ok(self.history_rows(tx, &q)?.rows))
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

    /// The rows of the page `q` (newest first whichever way it was walked).
    fn history_rows(&self, tx: &mut dyn Sql, q: &HistoryQuery) -> Result<Read, StoreError> {
        let (sql, params) = page_query(q);
        let fail = |e| self.err("reading history", e);
        let mut found = tx.query(&sql, &params).map_err(fail)?;
        let more = found.len() > q.limit;
        found.truncate(q.limit);
        if !q.at.older() {
            found.reverse();
        }
        let key = |r: &super::db::Row| -> Result<Cursor, StoreError> {
            Ok(Cursor {
                rerun: r.int(0).map_err(fail)? != 0,
                ns: r.opt_int(5).map_err(fail)?,
                seq: r.int(6).map_err(fail)?,
            })
        };
        let first = found.first().map(key).transpose()?;
        let last = found.last().map(key).transpose()?;
        let mut rows = Vec::new();
        for r in found {
            if let Some(h) = self.history_row_of(tx, &r)? {
                rows.push(h);
            }
        }
        Ok(Read {
            rows,
            first,
            last,
            more,
        })
    }

    /// A row written before summary MACs: verified by its whole row, read again with its
    /// JSON (and its summary columns must be the ones read).
    fn whole_row_verifies(&self, tx: &mut dyn Sql, summary: &Row) -> Result<bool, StoreError> {
        let fail = |e| self.err("reading history", e);
        let sql = format!("SELECT {COLUMNS} FROM reports WHERE report_id = ?1");
        let Some(r) = tx
            .query_opt(&sql, &[summary.report_id.as_str().into()])
            .map_err(fail)?
        else {
            return Ok(false);
        };
        let row = Row::read(&r, 0).map_err(fail)?;
        Ok(row.same_summary(summary) && self.row_verifies(&row))
    }

    /// A row of the page query as a history row; `None` when it does not verify.
    fn history_row_of(
        &self,
        tx: &mut dyn Sql,
        r: &super::db::Row,
    ) -> Result<Option<HistoryRow>, StoreError> {
        let fail = |e| self.err("reading history", e);
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
        let (row, summary_mac) = Row::read_summary(r, 8).map_err(fail)?;
        let verified = match summary_mac {
            Some(m) => self.summary_verifies(&row, Some(&m)),
            None => self.whole_row_verifies(tx, &row)?,
        };
        if !verified {
            return Ok(None);
        }
        let Some(mut h) = history_row(row, is_baseline) else {
            return Ok(None);
        };
        if let Some((rerun_id, doc_key, timestamp, mac)) = rerun {
            if !self.rerun_verifies(
                &rerun_id,
                &h.report_id,
                &doc_key,
                &timestamp,
                mac.as_deref(),
            ) {
                return Ok(None);
            }
            h.rerun_id = Some(rerun_id);
            h.document = doc_key;
            h.timestamp = timestamp;
        }
        Ok(Some(h))
    }
}
