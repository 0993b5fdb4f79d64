//! Saving a batch of prepared reports in a few statements instead of two per report. On
//! a server every statement is a round trip, and a CLI batch of hundreds of documents
//! spent most of its write waiting on them. What is decided for each report is what
//! [`Store::save_one`] decides; only the statements are shared:
//! - the newest stored report of every document the batch saves is read in one query
//!   per hundred documents;
//! - a report whose document's newest report is still the one seen when it was prepared
//!   is written by one multi-row `INSERT` per hundred reports (a rerun likewise);
//! - everything else — a report prepared without looking, a document whose newest report
//!   changed meanwhile, a document saved twice in the batch (the second compares with the
//!   first) — is saved one by one, in batch order, as before.

use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::db::{Sql, Val, vals};
use super::error::StoreError;
use super::reports::{NEWEST_FIRST, Newest, PreparedReport};
use super::{Store, mac, timestamp_ns};

/// Reports (or documents looked up) per statement: 14 parameters a report keeps a
/// statement far below either backend's limit on parameters.
const CHUNK: usize = 100;

/// What a report whose decision stands becomes.
enum Plan {
    /// A new stored report.
    Insert,
    /// A rerun of the stored report with this id.
    Rerun(String),
}

/// A document's reports of one playbook and mode: where "the newest report" is kept.
fn series(p: &PreparedReport) -> (&str, &str, &str) {
    (&p.row.doc_key, &p.row.playbook_hash, &p.row.mode)
}

impl Store {
    /// Write `prepared` inside the caller's write transaction; per report, the id it is
    /// stored under (its own, or that of the stored report it repeats).
    pub(super) fn save_in(
        &self,
        tx: &mut dyn Sql,
        prepared: &[PreparedReport],
    ) -> Result<Vec<String>, StoreError> {
        let mut count: HashMap<(&str, &str, &str), usize> = HashMap::new();
        for p in prepared {
            *count.entry(series(p)).or_default() += 1;
        }
        let decided: Vec<usize> = (0..prepared.len())
            .filter(|&i| {
                let p = &prepared[i];
                !matches!(p.newest, Newest::Unknown) && count[&series(p)] == 1
            })
            .collect();
        let newest = self.newest_ids(tx, prepared, &decided)?;
        let mut stored = vec![String::new(); prepared.len()];
        let mut pending = Vec::new();
        for (i, p) in prepared.iter().enumerate() {
            let plan = match (newest.get(&i), &p.newest) {
                (Some(None), Newest::None) => Some(Plan::Insert),
                (Some(Some(now)), Newest::Id { id, repeats }) if id == now => Some(if *repeats {
                    Plan::Rerun(id.clone())
                } else {
                    Plan::Insert
                }),
                _ => None,
            };
            match plan {
                Some(plan) => pending.push((i, plan)),
                None => {
                    // Earlier reports first: the batch keeps its insertion order.
                    self.flush(tx, prepared, &mut pending, &mut stored)?;
                    stored[i] = self.save_one(tx, p)?;
                }
            }
        }
        self.flush(tx, prepared, &mut pending, &mut stored)?;
        Ok(stored)
    }

    /// The id of the newest stored report (verified or not) of each report's series in
    /// `which`, by index into `prepared`.
    fn newest_ids(
        &self,
        tx: &mut dyn Sql,
        prepared: &[PreparedReport],
        which: &[usize],
    ) -> Result<HashMap<usize, Option<String>>, StoreError> {
        let fail = |e| self.err("reading report", e);
        let mut out = HashMap::with_capacity(which.len());
        for chunk in which.chunks(CHUNK) {
            let mut params = Vec::with_capacity(chunk.len() * 3);
            for &i in chunk {
                let (doc, hash, mode) = series(&prepared[i]);
                params.extend_from_slice(vals![doc, hash, mode]);
            }
            let sql = format!(
                "{} SELECT v.n, (SELECT report_id FROM reports WHERE doc_key = v.d
                   AND playbook_hash = v.h AND mode = v.m {NEWEST_FIRST} LIMIT 1) FROM v",
                series_values(chunk.len())
            );
            for r in tx.query(&sql, &params).map_err(fail)? {
                let n =
                    usize::try_from(r.int(0).map_err(fail)?).map_err(|e| fail(e.to_string()))?;
                let i = *chunk.get(n).ok_or_else(|| fail(format!("no lookup {n}")))?;
                out.insert(i, r.opt_text(1).map_err(fail)?);
            }
        }
        Ok(out)
    }

    /// Write the reports and reruns planned so far, in a few statements.
    fn flush(
        &self,
        tx: &mut dyn Sql,
        prepared: &[PreparedReport],
        pending: &mut Vec<(usize, Plan)>,
        stored: &mut [String],
    ) -> Result<(), StoreError> {
        let inserts: Vec<usize> = pending
            .iter()
            .filter(|(_, plan)| matches!(plan, Plan::Insert))
            .map(|(i, _)| *i)
            .collect();
        for chunk in inserts.chunks(CHUNK) {
            let inserted = self.insert_reports(tx, prepared, chunk)?;
            for &i in chunk {
                let id = &prepared[i].row.report_id;
                // An id already stored is left as it is and looked up.
                stored[i] = match inserted.contains(id) {
                    true => id.clone(),
                    false => self.stored_id(tx, id)?,
                };
            }
        }
        let reruns: Vec<(usize, &String)> = pending
            .iter()
            .filter_map(|(i, plan)| match plan {
                Plan::Rerun(original) => Some((*i, original)),
                Plan::Insert => None,
            })
            .collect();
        for chunk in reruns.chunks(CHUNK) {
            let inserted = self.insert_reruns(tx, prepared, chunk)?;
            for &(i, original) in chunk {
                let id = &prepared[i].row.report_id;
                stored[i] = match inserted.contains(id) {
                    true => original.clone(),
                    false => self.stored_id(tx, id)?,
                };
            }
        }
        pending.clear();
        Ok(())
    }

    /// Insert the reports `which` in one statement; the ids inserted (an id already
    /// stored is not).
    fn insert_reports(
        &self,
        tx: &mut dyn Sql,
        prepared: &[PreparedReport],
        which: &[usize],
    ) -> Result<HashSet<String>, StoreError> {
        const PER_ROW: usize = 14;
        let mut params = Vec::with_capacity(which.len() * PER_ROW);
        for &i in which {
            let (row, row_mac) = (&prepared[i].row, &prepared[i].row_mac);
            params.extend_from_slice(vals![
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
            ]);
        }
        let sql = format!(
            "INSERT INTO reports (report_id, doc_key, timestamp, timestamp_ns, playbook_id,
                playbook_version, playbook_hash, inputs_fingerprint, mode, status, consistency_score,
                report_json, mac, summary_mac)
             VALUES {} ON CONFLICT DO NOTHING RETURNING report_id",
            placeholders(which.len(), PER_ROW)
        );
        self.returned_ids(tx, &sql, &params, "saving report")
    }

    /// Insert the reruns `which` (report index, the stored report it repeats) in one
    /// statement; the rerun ids inserted.
    fn insert_reruns(
        &self,
        tx: &mut dyn Sql,
        prepared: &[PreparedReport],
        which: &[(usize, &String)],
    ) -> Result<HashSet<String>, StoreError> {
        const PER_ROW: usize = 6;
        let mut params = Vec::with_capacity(which.len() * PER_ROW);
        for &(i, original) in which {
            let row = &prepared[i].row;
            let row_mac = mac::mac(
                self.key(),
                "rerun",
                &json!([row.report_id, original, row.doc_key, row.timestamp]),
            );
            params.extend_from_slice(vals![
                &row.report_id,
                original,
                &row.doc_key,
                &row.timestamp,
                timestamp_ns(&row.timestamp),
                row_mac
            ]);
        }
        let sql = format!(
            "INSERT INTO reruns (rerun_id, report_id, doc_key, timestamp, timestamp_ns, mac)
             VALUES {} ON CONFLICT DO NOTHING RETURNING rerun_id",
            placeholders(which.len(), PER_ROW)
        );
        self.returned_ids(tx, &sql, &params, "saving rerun")
    }

    fn returned_ids(
        &self,
        tx: &mut dyn Sql,
        sql: &str,
        params: &[Val],
        what: &str,
    ) -> Result<HashSet<String>, StoreError> {
        let fail = |e| self.err(what, e);
        tx.query(sql, params)
            .map_err(fail)?
            .iter()
            .map(|r| r.text(0).map_err(fail))
            .collect()
    }
}

/// `WITH v(n, d, h, m) AS (VALUES (0, ?1, ?2, ?3), …)`: `count` series (document,
/// playbook hash, mode), numbered from 0, as a table one query looks each up from. One
/// correlated lookup is planned once, where a `UNION ALL` of a query per series took the
/// server longer to plan than to run.
pub(super) fn series_values(count: usize) -> String {
    let rows: Vec<String> = (0..count)
        .map(|n| format!("({n}, ?{}, ?{}, ?{})", 3 * n + 1, 3 * n + 2, 3 * n + 3))
        .collect();
    format!("WITH v(n, d, h, m) AS (VALUES {})", rows.join(", "))
}

/// `(?1, …, ?k), (?k+1, …)`: `rows` rows of `per_row` numbered placeholders.
pub(super) fn placeholders(rows: usize, per_row: usize) -> String {
    (0..rows)
        .map(|r| {
            let marks: Vec<String> = (1..=per_row)
                .map(|k| format!("?{}", r * per_row + k))
                .collect();
            format!("({})", marks.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    #[test]
    fn placeholders_number_every_row_on() {
        assert_eq!(placeholders(2, 3), "(?1, ?2, ?3), (?4, ?5, ?6)");
        assert_eq!(placeholders(1, 1), "(?1)");
    }

    #[test]
    fn series_values_number_each_series_and_its_parameters() {
        assert_eq!(
            super::series_values(2),
            "WITH v(n, d, h, m) AS (VALUES (0, ?1, ?2, ?3), (1, ?4, ?5, ?6))"
        );
    }
}
