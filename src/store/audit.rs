//! The append-only audit log: one row per state of an evaluation request and per
//! evaluator call. Rows are chained: each holds the previous row's hash, and its own hash
//! is an HMAC under the chain key (the per-user key, or a key the caller sets) over its
//! canonical JSON, so a changed, removed or inserted row breaks the chain at that point
//! and nobody without the key can rewrite the log with recomputed hashes. The head (first
//! and last row) is kept outside the database (`audit_head`), so removed trailing rows
//! and a swapped database are seen too. Verifying the chain is in `audit_verify`.

use super::Store;
use super::audit_head::{self, Head};
use super::db::{Row, Sql, vals};
use super::error::StoreError;
use super::mac;
use crate::model::{AuditEvent, AuditRow, AuditState, CallRecord};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

impl Store {
    /// Append events in order, in one transaction, each chained to the one before.
    pub fn append_audit(&self, events: &[AuditEvent]) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let head = self.write("writing the audit log", true, |tx| {
            self.append_audit_in(tx, events)
        })?;
        self.record_head(head);
        Ok(())
    }

    /// Append inside the caller's (immediate) transaction; the head to record once it
    /// commits ([`Store::record_head`]).
    pub(super) fn append_audit_in(
        &self,
        tx: &mut dyn Sql,
        events: &[AuditEvent],
    ) -> Result<Option<Head>, StoreError> {
        if events.is_empty() {
            return Ok(None);
        }
        let fail = |e| self.err("reading the audit log", e);
        let last: Option<(i64, String)> = tx
            .query_opt(
                "SELECT id, row_hash FROM audit_log ORDER BY id DESC LIMIT 1",
                &[],
            )
            .map_err(fail)?
            .map(|r| Ok::<_, String>((r.int(0)?, r.text(1)?)))
            .transpose()
            .map_err(fail)?;
        let first_hash = match &last {
            Some(_) => hash_at(tx, 1).map_err(fail)?,
            None => None,
        };
        let (mut id, mut prev) = last.unwrap_or((0, GENESIS.to_string()));
        let mut first_hash = first_hash;
        let mut rows = Vec::with_capacity(events.len());
        for event in events {
            id += 1;
            let row_hash = row_hash(&self.chain_key, id, event, &prev);
            first_hash.get_or_insert_with(|| row_hash.clone());
            rows.push((
                id,
                event,
                std::mem::replace(&mut prev, row_hash.clone()),
                row_hash,
            ));
        }
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            insert(tx, chunk).map_err(|e| self.err("writing the audit log", e))?;
        }
        let head = Head {
            database: self.label.clone(),
            first_hash: first_hash.unwrap_or_default(),
            last_id: id,
            last_hash: prev,
        };
        Ok(self.continues_recorded_head(tx, &head)?.then_some(head))
    }

    /// Whether the log in `tx` (ending at `head`) continues the recorded head. When it
    /// does not (rows removed, database replaced), the recorded head is kept as it is
    /// for `byop log --verify` to report.
    fn continues_recorded_head(&self, tx: &mut dyn Sql, head: &Head) -> Result<bool, StoreError> {
        let Some(path) = &self.head_path else {
            return Ok(false);
        };
        let recorded = match audit_head::load(path) {
            Ok(Some(h)) => h,
            Ok(None) => return Ok(true),
            Err(e) => {
                tracing::warn!("audit head: {e}");
                return Ok(false);
            }
        };
        let at = hash_at(tx, recorded.last_id).map_err(|e| self.err("reading the audit log", e))?;
        let continues =
            recorded.first_hash == head.first_hash && at.as_deref() == Some(&*recorded.last_hash);
        if !continues {
            tracing::warn!(
                "the audit log in {} does not continue its recorded head ({}); `byop log --verify` reports it",
                self.label,
                path.display()
            );
        }
        Ok(continues)
    }

    /// Record the head of a committed append (nothing when it did not continue the head).
    pub(super) fn record_head(&self, head: Option<Head>) {
        if let (Some(path), Some(head)) = (&self.head_path, head)
            && let Err(e) = audit_head::store(path, &head)
        {
            tracing::warn!("audit head: {e}");
        }
    }

    /// The log, oldest first; of one document when given; the last `limit` rows.
    pub fn audit_log(
        &self,
        document: Option<&str>,
        limit: usize,
    ) -> Result<Vec<AuditRow>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let fail = |e| self.err("reading the audit log", e);
        let mut rows: Vec<AuditRow> = self.read("reading the audit log", |tx| {
            tx.query(
                &format!(
                    "SELECT {COLUMNS} FROM audit_log
                     WHERE (CAST(?1 AS TEXT) IS NULL OR document = ?1)
                     ORDER BY id DESC LIMIT ?2"
                ),
                vals![document, limit],
            )
            .and_then(|rows| rows.iter().map(read_row).collect())
            .map_err(fail)
        })?;
        rows.reverse();
        Ok(rows)
    }
}

/// The audit log's columns, in the order `read_row` reads them.
pub(super) const COLUMNS: &str = "id, request_id, at, document, state, code, inputs_fingerprint,
    playbook_logic_hash, call_json, prev_hash, row_hash, decision_id";

pub(super) fn hash_at(tx: &mut dyn Sql, id: i64) -> Result<Option<String>, String> {
    tx.query_opt("SELECT row_hash FROM audit_log WHERE id = ?1", vals![id])?
        .map(|r| r.text(0))
        .transpose()
}

/// HMAC-SHA256 under the chain key over the row's canonical JSON (without `row_hash`).
pub(crate) fn row_hash(key: &[u8; 32], id: i64, event: &AuditEvent, prev_hash: &str) -> String {
    let mut value = serde_json::to_value(event).expect("audit events serialize");
    value["id"] = id.into();
    value["prev_hash"] = prev_hash.into();
    mac::mac(key, "audit", &value)
}

/// Rows written by one statement: a batch's audit rows cost a few round trips to a
/// server, not one each (12 parameters a row stays far below either backend's limit).
const ROWS_PER_INSERT: usize = 256;

/// Insert `rows` (id, event, previous hash, own hash) in one statement.
fn insert(tx: &mut dyn Sql, rows: &[(i64, &AuditEvent, String, String)]) -> Result<u64, String> {
    const PER_ROW: usize = 12;
    let mut params = Vec::with_capacity(rows.len() * PER_ROW);
    for (id, e, prev, row_hash) in rows {
        let call = e
            .call
            .as_ref()
            .map(|c| serde_json::to_string(c).expect("call records serialize"));
        params.extend_from_slice(vals![
            *id,
            &e.request_id,
            &e.at,
            &e.document,
            e.state.as_str(),
            e.code.as_deref(),
            e.inputs_fingerprint.as_deref(),
            e.playbook_logic_hash.as_deref(),
            call,
            prev,
            row_hash,
            e.decision_id.as_deref()
        ]);
    }
    let marks = super::batch_save::placeholders(rows.len(), PER_ROW);
    tx.execute(
        &format!("INSERT INTO audit_log ({COLUMNS}) VALUES {marks}"),
        &params,
    )
}

pub(super) fn read_row(r: &Row) -> Result<AuditRow, String> {
    let state = r.text(4)?;
    let state: AuditState = serde_json::from_value(serde_json::Value::String(state.clone()))
        .map_err(|_| format!("unknown state `{state}`"))?;
    let call: Option<CallRecord> = match r.opt_text(8)? {
        Some(c) => Some(serde_json::from_str(&c).map_err(|e| format!("call_json: {e}"))?),
        None => None,
    };
    Ok(AuditRow {
        id: r.int(0)?,
        event: AuditEvent {
            request_id: r.text(1)?,
            at: r.text(2)?,
            document: r.text(3)?,
            state,
            code: r.opt_text(5)?,
            inputs_fingerprint: r.opt_text(6)?,
            playbook_logic_hash: r.opt_text(7)?,
            call,
            decision_id: r.opt_text(11)?,
        },
        prev_hash: r.text(9)?,
        row_hash: r.text(10)?,
    })
}
