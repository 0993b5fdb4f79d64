//! What a batch of runs compares with, read before the runs in one snapshot: per
//! document, the newest report of its playbook and mode and its saved baseline. Read
//! document by document, a batch of hundreds paid a transaction and three statements
//! each — on a server, round trips that held up the runs waiting on them; here a few
//! statements serve a hundred documents. What each document gets is what
//! [`Store::drift_inputs`] gives it alone.

use std::collections::HashMap;

use serde_json::json;

use super::db::{Sql, Val, vals};
use super::error::StoreError;
use super::reports::{COLUMNS, NEWEST_FIRST, Row};
use super::{Store, mac};
use crate::model::{Mode, Report};

/// Documents looked up per statement.
const CHUNK: usize = 100;

/// What one run compares with (see [`Store::drift_inputs`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DriftInputs {
    /// The newest stored report of the document's playbook and mode that verifies.
    pub latest: Option<Report>,
    /// The document's saved baseline for the playbook, when it and its report verify.
    pub baseline: Option<Report>,
}

/// One document's series: its key, the playbook's logic hash and the run's mode.
pub type Series<'a> = (&'a str, &'a str, Mode);

impl Store {
    /// What a run of `doc_key` in `mode` compares with, read in one snapshot (one
    /// transaction, not one per read): the most recent report made in `mode`
    /// ([`Store::latest_report_in_mode`]) and the saved baseline ([`Store::baseline`]).
    pub fn drift_inputs(
        &self,
        doc_key: &str,
        playbook_hash: &str,
        mode: Mode,
    ) -> Result<DriftInputs, StoreError> {
        self.read("reading report", |tx| {
            Ok(DriftInputs {
                latest: self.latest_in_mode_in(tx, doc_key, playbook_hash, mode)?,
                baseline: self.baseline_in(tx, doc_key, playbook_hash)?,
            })
        })
    }

    /// [`Store::drift_inputs`] of every series, in order, in one read.
    pub fn drift_inputs_many(&self, series: &[Series]) -> Result<Vec<DriftInputs>, StoreError> {
        self.read("reading report", |tx| {
            let mut out = Vec::with_capacity(series.len());
            for chunk in series.chunks(CHUNK) {
                let latest = self.newest_reports(tx, chunk)?;
                let baselines = self.baselines_of(tx, chunk)?;
                out.extend(
                    latest
                        .into_iter()
                        .zip(baselines)
                        .map(|(latest, baseline)| DriftInputs { latest, baseline }),
                );
            }
            Ok(out)
        })
    }

    /// The newest report of each series that verifies: the newest row, read for all at
    /// once; a series whose newest row does not verify is read alone, row by row.
    fn newest_reports(
        &self,
        tx: &mut dyn Sql,
        chunk: &[Series],
    ) -> Result<Vec<Option<Report>>, StoreError> {
        let fail = |e| self.err("reading report", e);
        let mut params: Vec<Val> = Vec::with_capacity(chunk.len() * 3);
        for (doc, hash, mode) in chunk {
            params.extend_from_slice(vals![*doc, *hash, mode.as_str()]);
        }
        let sql = format!(
            "{} SELECT v.n, {COLUMNS} FROM v JOIN reports ON report_id = (SELECT report_id
               FROM reports WHERE doc_key = v.d AND playbook_hash = v.h AND mode = v.m
               {NEWEST_FIRST} LIMIT 1)",
            super::batch_save::series_values(chunk.len())
        );
        let mut newest: HashMap<usize, Row> = HashMap::new();
        for r in tx.query(&sql, &params).map_err(fail)? {
            let n = usize::try_from(r.int(0).map_err(fail)?).map_err(|e| fail(e.to_string()))?;
            newest.insert(n, Row::read(&r, 1).map_err(fail)?);
        }
        let mut out = Vec::with_capacity(chunk.len());
        for (n, (doc, hash, mode)) in chunk.iter().enumerate() {
            out.push(match newest.remove(&n) {
                None => None,
                Some(row) if self.row_verifies(&row) => {
                    Some(serde_json::from_str(&row.report_json).map_err(|e| {
                        StoreError(format!(
                            "database {}: a stored report is unreadable: {e}",
                            self.label
                        ))
                    })?)
                }
                Some(_) => self.latest_in_mode_in(tx, doc, hash, *mode)?,
            });
        }
        Ok(out)
    }

    /// The saved baseline of each series' document and playbook, when the baseline row
    /// and its report verify.
    fn baselines_of(
        &self,
        tx: &mut dyn Sql,
        chunk: &[Series],
    ) -> Result<Vec<Option<Report>>, StoreError> {
        let fail = |e| self.err("reading baseline", e);
        let marks: Vec<String> = (1..=chunk.len()).map(|k| format!("?{k}")).collect();
        let params: Vec<Val> = chunk.iter().map(|(doc, _, _)| Val::from(*doc)).collect();
        let rows = tx
            .query(
                &format!(
                    "SELECT doc_key, playbook_hash, report_id, saved_at, mac FROM baselines
                     WHERE doc_key IN ({})",
                    marks.join(", ")
                ),
                &params,
            )
            .map_err(fail)?;
        let mut saved: HashMap<(String, String), (String, String, Option<String>)> = HashMap::new();
        for r in rows {
            let (doc, hash, id, at, m) = (|| -> Result<_, String> {
                Ok((
                    r.text(0)?,
                    r.text(1)?,
                    r.text(2)?,
                    r.text(3)?,
                    r.opt_text(4)?,
                ))
            })()
            .map_err(fail)?;
            saved.insert((doc, hash), (id, at, m));
        }
        let mut out = Vec::with_capacity(chunk.len());
        for (doc, hash, _) in chunk {
            let Some((id, at, m)) = saved.get(&(doc.to_string(), hash.to_string())) else {
                out.push(None);
                continue;
            };
            let values = json!([doc, hash, id, at]);
            if !mac::verify(self.key(), "baseline", &values, m.as_deref()) {
                self.reject(&format!("baseline of {doc}"));
                out.push(None);
                continue;
            }
            out.push(self.verified_report_by_id(tx, id)?);
        }
        Ok(out)
    }
}
