//! Moving rows between stores: `byop store export` writes the rows that verify as JSON
//! lines, each with a MAC under the transfer key; `byop store import` checks every line's
//! MAC before writing anything, then writes the rows in one transaction under the
//! destination's own key. So a team seeds its server from local stores, and a user takes
//! a copy of the server offline, while a hand-edited or foreign file imports nothing.
//!
//! The transfer key is the team key (`BYOP_STORE_KEY`) when set, else the per-user key:
//! a file exported by one teammate imports for another, and a user's own copies move
//! between their stores. Reports, reruns, baselines and counterfactual audits move; the
//! evaluator cache (refilled on use) and the audit log (each store's chain records what
//! happened to that store) do not.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::db::{Sql, vals};
use super::error::StoreError;
use super::reports::{COLUMNS, Row};
use super::{Store, counterfactual, mac, timestamp_ns};
use crate::model::Report;
use crate::model::counterfactual::Counterfactual;

/// The MAC domain of an exported line.
const KIND: &str = "export";

/// One exported row.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    Report {
        doc_key: String,
        report: Box<Report>,
    },
    Rerun {
        rerun_id: String,
        report_id: String,
        doc_key: String,
        timestamp: String,
    },
    Baseline {
        doc_key: String,
        playbook_hash: String,
        report_id: String,
        saved_at: String,
    },
    Counterfactual {
        doc_key: String,
        audit: Box<Counterfactual>,
    },
}

/// How many rows of each kind moved.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Moved {
    pub reports: u64,
    pub reruns: u64,
    pub baselines: u64,
    pub counterfactual_audits: u64,
}

impl Moved {
    fn count(&mut self, line: &Line) {
        match line {
            Line::Report { .. } => self.reports += 1,
            Line::Rerun { .. } => self.reruns += 1,
            Line::Baseline { .. } => self.baselines += 1,
            Line::Counterfactual { .. } => self.counterfactual_audits += 1,
        }
    }
}

/// The key exported lines are authenticated with (see the module notes).
pub fn transfer_key() -> Result<[u8; 32], StoreError> {
    match super::secret::team_key()? {
        Some(key) => Ok(key),
        None => super::secret::user_key().map_err(|e| match e {
            super::secret::KeyError::Refused(e) | super::secret::KeyError::Unavailable(e) => e,
        }),
    }
}

impl Store {
    /// Write every row that verifies (reports, reruns, counterfactual audits and
    /// baselines from `since` on, an RFC 3339 time, and the reports those reruns and
    /// baselines point at) as JSON lines to `out`, each with its MAC under `key`.
    pub fn export(
        &self,
        since: Option<&str>,
        key: &[u8; 32],
        out: &mut dyn Write,
    ) -> Result<Moved, StoreError> {
        let lines = self.read("exporting", |tx| self.export_lines(tx, since.unwrap_or("")))?;
        let mut moved = Moved::default();
        for line in &lines {
            let mut value = serde_json::to_value(line).expect("lines serialize");
            value["mac"] = mac::mac(key, KIND, &value).into();
            writeln!(out, "{value}").map_err(|e| StoreError(format!("writing the export: {e}")))?;
            moved.count(line);
        }
        Ok(moved)
    }

    fn export_lines(&self, tx: &mut dyn Sql, since_text: &str) -> Result<Vec<Line>, StoreError> {
        let fail = |e| self.err("exporting", e);
        let since = timestamp_ns(since_text).unwrap_or(i64::MIN);
        let mut lines = Vec::new();
        // Reports first (reruns and baselines point at them), oldest first.
        let rows = tx
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM reports WHERE COALESCE(timestamp_ns, 0) >= ?1
                       OR report_id IN (SELECT report_id FROM reruns WHERE timestamp_ns >= ?1)
                       OR report_id IN (SELECT report_id FROM baselines WHERE saved_at >= ?2)
                     ORDER BY rowid"
                ),
                vals![since, since_text],
            )
            .map_err(fail)?;
        let mut exported = std::collections::HashSet::new();
        for r in &rows {
            let row = Row::read(r, 0).map_err(fail)?;
            if !self.row_verifies(&row) {
                continue;
            }
            let report: Report = serde_json::from_str(&row.report_json).map_err(|e| {
                StoreError(format!(
                    "database {}: a stored report is unreadable: {e}",
                    self.label
                ))
            })?;
            exported.insert(row.report_id.clone());
            lines.push(Line::Report {
                doc_key: row.doc_key,
                report: Box::new(report),
            });
        }
        let reruns = tx
            .query(
                "SELECT rerun_id, report_id, doc_key, timestamp, mac FROM reruns
                 WHERE timestamp_ns >= ?1 ORDER BY rowid",
                vals![since],
            )
            .map_err(fail)?;
        for r in &reruns {
            let (rerun_id, report_id, doc_key, timestamp) = (
                r.text(0).map_err(fail)?,
                r.text(1).map_err(fail)?,
                r.text(2).map_err(fail)?,
                r.text(3).map_err(fail)?,
            );
            let values = json!([rerun_id, report_id, doc_key, timestamp]);
            if exported.contains(&report_id)
                && mac::verify(
                    self.key(),
                    "rerun",
                    &values,
                    r.opt_text(4).map_err(fail)?.as_deref(),
                )
            {
                lines.push(Line::Rerun {
                    rerun_id,
                    report_id,
                    doc_key,
                    timestamp,
                });
            }
        }
        let baselines = tx
            .query(
                "SELECT doc_key, playbook_hash, report_id, saved_at, mac FROM baselines
                 WHERE saved_at >= ?1 ORDER BY doc_key, playbook_hash",
                vals![since_text],
            )
            .map_err(fail)?;
        for r in &baselines {
            let (doc_key, playbook_hash, report_id, saved_at) = (
                r.text(0).map_err(fail)?,
                r.text(1).map_err(fail)?,
                r.text(2).map_err(fail)?,
                r.text(3).map_err(fail)?,
            );
            let values = json!([doc_key, playbook_hash, report_id, saved_at]);
            if exported.contains(&report_id)
                && mac::verify(
                    self.key(),
                    "baseline",
                    &values,
                    r.opt_text(4).map_err(fail)?.as_deref(),
                )
            {
                lines.push(Line::Baseline {
                    doc_key,
                    playbook_hash,
                    report_id,
                    saved_at,
                });
            }
        }
        self.export_counterfactuals(tx, since, &mut lines)?;
        Ok(lines)
    }

    fn export_counterfactuals(
        &self,
        tx: &mut dyn Sql,
        since: i64,
        lines: &mut Vec<Line>,
    ) -> Result<(), StoreError> {
        let fail = |e| self.err("exporting", e);
        let rows = tx
            .query(
                "SELECT audit_id, doc_key, timestamp, audit_json, mac FROM counterfactual_audits
                 WHERE COALESCE(timestamp_ns, 0) >= ?1 ORDER BY rowid",
                vals![since],
            )
            .map_err(fail)?;
        for r in &rows {
            let (id, doc_key, ts, json) = (
                r.text(0).map_err(fail)?,
                r.text(1).map_err(fail)?,
                r.text(2).map_err(fail)?,
                r.text(3).map_err(fail)?,
            );
            let values = counterfactual::values(&id, &doc_key, &ts, &json);
            if !mac::verify(
                self.key(),
                counterfactual::KIND,
                &values,
                r.opt_text(4).map_err(fail)?.as_deref(),
            ) {
                continue;
            }
            let audit = serde_json::from_str(&json).map_err(|e| {
                StoreError(format!(
                    "database {}: a stored audit is unreadable: {e}",
                    self.label
                ))
            })?;
            lines.push(Line::Counterfactual {
                doc_key,
                audit: Box::new(audit),
            });
        }
        Ok(())
    }

    /// Read every line of `input` and check its MAC under `key` (refusing the whole file
    /// at the first line that does not verify, naming it), then write the rows in one
    /// transaction under this store's key. Rows already present are kept; a baseline
    /// replaces this store's only when it was saved later.
    pub fn import(
        &self,
        input: &mut dyn BufRead,
        source: &str,
        key: &[u8; 32],
    ) -> Result<Moved, StoreError> {
        let lines = read_lines(input, source, key)?;
        let mut moved = Moved::default();
        self.write("importing", true, |tx| {
            for line in &lines {
                if self.import_line(tx, line)? {
                    moved.count(line);
                }
            }
            Ok(())
        })?;
        Ok(moved)
    }

    /// Write one line's row; whether it was new.
    fn import_line(&self, tx: &mut dyn Sql, line: &Line) -> Result<bool, StoreError> {
        let fail = |e| self.err("importing", e);
        match line {
            Line::Report { doc_key, report } => {
                let (row, row_mac) = self.report_row(doc_key, report)?;
                self.insert_report(tx, &row, &row_mac)
            }
            Line::Rerun {
                rerun_id,
                report_id,
                doc_key,
                timestamp,
            } => self.insert_rerun(tx, rerun_id, doc_key, timestamp, report_id),
            Line::Baseline {
                doc_key,
                playbook_hash,
                report_id,
                saved_at,
            } => {
                let row_mac = mac::mac(
                    self.key(),
                    "baseline",
                    &json!([doc_key, playbook_hash, report_id, saved_at]),
                );
                tx.execute(
                    "INSERT INTO baselines (doc_key, playbook_hash, report_id, saved_at, mac)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (doc_key, playbook_hash) DO UPDATE SET report_id = excluded.report_id,
                       saved_at = excluded.saved_at, mac = excluded.mac
                     WHERE excluded.saved_at > baselines.saved_at",
                    vals![doc_key, playbook_hash, report_id, saved_at, row_mac],
                )
                .map(|n| n == 1)
                .map_err(fail)
            }
            Line::Counterfactual { doc_key, audit } => {
                let json = serde_json::to_string(audit).expect("audits serialize");
                let values =
                    counterfactual::values(&audit.audit_id, doc_key, &audit.timestamp, &json);
                tx.execute(
                    "INSERT INTO counterfactual_audits (audit_id, doc_key, timestamp, timestamp_ns,
                        playbook_id, playbook_version, audit_json, mac)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING",
                    vals![
                        &audit.audit_id,
                        doc_key,
                        &audit.timestamp,
                        timestamp_ns(&audit.timestamp),
                        &audit.playbook_id,
                        &audit.playbook_version,
                        &json,
                        mac::mac(self.key(), counterfactual::KIND, &values)
                    ],
                )
                .map(|n| n == 1)
                .map_err(fail)
            }
        }
    }
}

/// Every line of an export, each verified under `key`; an error names `source:line`.
fn read_lines(
    input: &mut dyn BufRead,
    source: &str,
    key: &[u8; 32],
) -> Result<Vec<Line>, StoreError> {
    let mut lines = Vec::new();
    for (i, text) in input.lines().enumerate() {
        let at = |why: String| StoreError(format!("{source}:{}: {why}", i + 1));
        let text = text.map_err(|e| at(format!("cannot read: {e}")))?;
        if text.trim().is_empty() {
            continue;
        }
        let mut value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| at(format!("not JSON: {e}")))?;
        let stored = value
            .as_object_mut()
            .and_then(|o| o.remove("mac"))
            .and_then(|m| m.as_str().map(str::to_string));
        if !mac::verify(key, KIND, &value, stored.as_deref()) {
            return Err(at(
                "its MAC does not verify under the transfer key (BYOP_STORE_KEY, else your own key): edited, or exported under another key; nothing was imported".into(),
            ));
        }
        lines.push(
            serde_json::from_value(value).map_err(|e| at(format!("not an exported row: {e}")))?,
        );
    }
    Ok(lines)
}
