//! Audit rows recorded in one store carried into another's chain: the language server's
//! local copy of a team store records the evaluations it made while the server could not
//! be reached, and when the server answers again those rows are appended to the
//! server's keyed chain. The rows are re-chained (the server's ids, each row's hash over
//! the server's previous row under the chain key), their content unchanged: request,
//! time, document, state, code, fingerprints, call and decision.
//!
//! Exactly once: the copy remembers the last row it carried over (a mark), and the
//! server's write transaction (writers one at a time) skips any row whose request
//! already holds an identical row, so a mark lost after the server committed, or two
//! processes carrying the same copy's rows at once, never append a row twice.

use std::collections::{BTreeSet, HashMap};

use super::Store;
use super::audit::{COLUMNS, read_row};
use super::db::vals;
use super::error::StoreError;
use crate::model::{AuditEvent, AuditRow};

impl Store {
    /// The audit rows after row `after_id`, oldest first.
    pub fn audit_after(&self, after_id: i64) -> Result<Vec<AuditRow>, StoreError> {
        let fail = |e| self.err("reading the audit log", e);
        self.read("reading the audit log", |tx| {
            tx.query(
                &format!("SELECT {COLUMNS} FROM audit_log WHERE id > ?1 ORDER BY id"),
                vals![after_id],
            )
            .and_then(|rows| rows.iter().map(read_row).collect())
            .map_err(fail)
        })
    }

    /// The row with id `id`, if there is one.
    pub fn audit_row(&self, id: i64) -> Result<Option<AuditRow>, StoreError> {
        let fail = |e| self.err("reading the audit log", e);
        self.read("reading the audit log", |tx| {
            tx.query_opt(
                &format!("SELECT {COLUMNS} FROM audit_log WHERE id = ?1"),
                vals![id],
            )
            .map_err(fail)?
            .map(|r| read_row(&r).map_err(fail))
            .transpose()
        })
    }

    /// Append `events` (rows recorded elsewhere) to this store's chain, in order, in one
    /// write transaction, leaving out each one this store already holds for its request
    /// (as many times as it holds it); how many were appended.
    pub fn append_audit_once(&self, events: &[AuditEvent]) -> Result<usize, StoreError> {
        if events.is_empty() {
            return Ok(0);
        }
        let fail = |e| self.err("reading the audit log", e);
        let requests: BTreeSet<&str> = events.iter().map(|e| e.request_id.as_str()).collect();
        let (appended, head) = self.write("writing the audit log", true, |tx| {
            // What is already here of each request, as canonical JSON, counted.
            let mut held: HashMap<String, usize> = HashMap::new();
            for request in &requests {
                let rows = tx
                    .query(
                        &format!("SELECT {COLUMNS} FROM audit_log WHERE request_id = ?1"),
                        vals![*request],
                    )
                    .map_err(fail)?;
                for r in &rows {
                    let row = read_row(r).map_err(fail)?;
                    *held.entry(canonical(&row.event)).or_default() += 1;
                }
            }
            let new: Vec<AuditEvent> = events
                .iter()
                .filter(|e| match held.get_mut(&canonical(e)) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                })
                .cloned()
                .collect();
            let head = self.append_audit_in(tx, &new)?;
            Ok((new.len(), head))
        })?;
        self.record_head(head);
        Ok(appended)
    }
}

fn canonical(event: &AuditEvent) -> String {
    serde_json::to_string(event).expect("audit events serialize")
}
