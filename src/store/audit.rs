//! The append-only audit log: one row per state of an evaluation request and per
//! evaluator call. Rows are hash-chained: each holds the sha256 of the previous row, and
//! its own hash covers its canonical JSON, so a changed, removed or inserted row breaks
//! the chain at that point.

use super::Store;
use super::db::{Row, Sql, each_row, vals};
use super::error::StoreError;
use crate::model::integrity::{canonical_json, sha256_hex};
use crate::model::{AuditEvent, AuditRow, AuditState, CallRecord};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Where the chain first breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainBreak {
    pub id: i64,
    pub reason: String,
}

impl Store {
    /// Append events in order, in one transaction, each chained to the one before.
    pub fn append_audit(&self, events: &[AuditEvent]) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        self.write("writing the audit log", true, |tx| {
            self.append_audit_in(tx, events)
        })
    }

    /// Append inside the caller's (immediate) transaction.
    pub(super) fn append_audit_in(
        &self,
        tx: &mut dyn Sql,
        events: &[AuditEvent],
    ) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
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
        let (mut id, mut prev) = last.unwrap_or((0, GENESIS.to_string()));
        for event in events {
            id += 1;
            let row_hash = row_hash(id, event, &prev);
            insert(tx, id, event, &prev, &row_hash)
                .map_err(|e| self.err("writing the audit log", e))?;
            prev = row_hash;
        }
        Ok(())
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
                "SELECT id, request_id, at, document, state, code, inputs_fingerprint,
                        playbook_logic_hash, call_json, prev_hash, row_hash
                 FROM audit_log WHERE (CAST(?1 AS TEXT) IS NULL OR document = ?1)
                 ORDER BY id DESC LIMIT ?2",
                vals![document, limit],
            )
            .and_then(|rows| rows.iter().map(read_row).collect())
            .map_err(fail)
        })?;
        rows.reverse();
        Ok(rows)
    }

    /// Walk the whole chain: the number of rows, or the first row where it breaks.
    pub fn verify_audit(&self) -> Result<Result<u64, ChainBreak>, StoreError> {
        let (mut prev, mut expected_id, mut n) = (GENESIS.to_string(), 1i64, 0u64);
        let mut broke = None;
        self.read("reading the audit log", |tx| {
            each_row(
                tx,
                "SELECT id, request_id, at, document, state, code, inputs_fingerprint,
                        playbook_logic_hash, call_json, prev_hash, row_hash
                 FROM audit_log ORDER BY id",
                &[],
                &|e| self.err("reading the audit log", e),
                |r| {
                    let row = match read_row(&r) {
                        Ok(row) => row,
                        Err(e) => {
                            broke = Some(ChainBreak {
                                id: expected_id,
                                reason: format!("unreadable row: {e}"),
                            });
                            return Ok(false);
                        }
                    };
                    if let Some(reason) = broken(&row, expected_id, &prev) {
                        broke = Some(ChainBreak { id: row.id, reason });
                        return Ok(false);
                    }
                    prev = row.row_hash;
                    expected_id += 1;
                    n += 1;
                    Ok(true)
                },
            )
        })?;
        Ok(broke.map_or(Ok(n), Err))
    }
}

/// Why `row` does not continue the chain, if it does not.
fn broken(row: &AuditRow, expected_id: i64, prev: &str) -> Option<String> {
    if row.id != expected_id {
        return Some(format!("row {expected_id} is missing (next is {})", row.id));
    }
    if row.prev_hash != prev {
        return Some("it does not follow the previous row (prev_hash differs)".into());
    }
    if row.row_hash != row_hash(row.id, &row.event, &row.prev_hash) {
        return Some("its content was changed (row_hash differs)".into());
    }
    None
}

fn row_hash(id: i64, event: &AuditEvent, prev_hash: &str) -> String {
    let mut value = serde_json::to_value(event).expect("audit events serialize");
    value["id"] = id.into();
    value["prev_hash"] = prev_hash.into();
    sha256_hex(canonical_json(&value).as_bytes())
}

fn insert(
    tx: &mut dyn Sql,
    id: i64,
    e: &AuditEvent,
    prev: &str,
    row_hash: &str,
) -> Result<u64, String> {
    let call = e
        .call
        .as_ref()
        .map(|c| serde_json::to_string(c).expect("call records serialize"));
    tx.execute(
        "INSERT INTO audit_log (id, request_id, at, document, state, code, inputs_fingerprint,
            playbook_logic_hash, call_json, prev_hash, row_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        vals![
            id,
            &e.request_id,
            &e.at,
            &e.document,
            e.state.as_str(),
            e.code.as_deref(),
            e.inputs_fingerprint.as_deref(),
            e.playbook_logic_hash.as_deref(),
            call,
            prev,
            row_hash
        ],
    )
}

fn read_row(r: &Row) -> Result<AuditRow, String> {
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
        },
        prev_hash: r.text(9)?,
        row_hash: r.text(10)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: usize, state: AuditState) -> AuditEvent {
        AuditEvent {
            request_id: format!("req-{n}"),
            at: "2026-11-24T10:00:00Z".into(),
            document: "/ws/memo.ai.md".into(),
            state,
            code: None,
            inputs_fingerprint: Some("sha256:in".into()),
            playbook_logic_hash: Some("sha256:pb".into()),
            call: None,
        }
    }

    fn store_with_rows() -> Store {
        let store = Store::open_in_memory().unwrap();
        store
            .append_audit(&[
                event(1, AuditState::Received),
                event(1, AuditState::Evaluated),
            ])
            .unwrap();
        store
            .append_audit(&[event(2, AuditState::Received)])
            .unwrap();
        store
    }

    #[test]
    fn an_untouched_chain_verifies_and_rows_come_back_in_order() {
        let store = store_with_rows();
        assert_eq!(store.verify_audit().unwrap(), Ok(3));
        let rows = store.audit_log(None, 10).unwrap();
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(rows[0].prev_hash, GENESIS);
        assert_eq!(rows[1].prev_hash, rows[0].row_hash);
        assert_eq!(store.audit_log(None, 1).unwrap()[0].id, 3, "the last rows");
    }

    #[test]
    fn an_edited_a_removed_or_a_reordered_row_breaks_the_chain_there() {
        let store = store_with_rows();
        store
            .conn()
            .execute("UPDATE audit_log SET state = 'evaluated' WHERE id = 1", [])
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 1);
        assert!(broken.reason.contains("changed"), "{}", broken.reason);

        let store = store_with_rows();
        store
            .conn()
            .execute("DELETE FROM audit_log WHERE id = 2", [])
            .unwrap();
        assert_eq!(store.verify_audit().unwrap().unwrap_err().id, 3);

        // A forger who recomputes a row's own hash still breaks the next link.
        let store = store_with_rows();
        let mut e = event(1, AuditState::Halted);
        e.code = Some("forged".into());
        let forged_hash = row_hash(2, &e, &store.audit_log(None, 10).unwrap()[0].row_hash);
        store
            .conn()
            .execute(
                "UPDATE audit_log SET state = 'halted', code = 'forged', row_hash = ?1 WHERE id = 2",
                [forged_hash],
            )
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 3, "{broken:?}");
    }
}
