//! The append-only audit log: one row per state of an evaluation request and per
//! evaluator call. Rows are chained: each holds the previous row's hash, and its own hash
//! is an HMAC under the chain key (the per-user key, or a key the caller sets) over its
//! canonical JSON, so a changed, removed or inserted row breaks the chain at that point
//! and nobody without the key can rewrite the log with recomputed hashes. The head (first
//! and last row) is kept outside the database (`audit_head`), so removed trailing rows
//! and a swapped database are seen too.

use super::Store;
use super::audit_head::{self, Head};
use super::db::{Row, Sql, vals};
use super::error::StoreError;
use super::mac;
use crate::model::{AuditEvent, AuditRow, AuditState, CallRecord};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Where the chain first breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainBreak {
    pub id: i64,
    pub reason: String,
    /// The log was not written under this chain key at all (another user's store, or
    /// every row rewritten): never reported as intact.
    pub foreign: bool,
}

/// A log that verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verified {
    pub rows: u64,
    /// Whether a head outside the database vouched for its end (false for a database
    /// moved or copied here: removed trailing rows could not be seen).
    pub anchored: bool,
}

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
        for event in events {
            id += 1;
            let row_hash = row_hash(&self.chain_key, id, event, &prev);
            insert(tx, id, event, &prev, &row_hash)
                .map_err(|e| self.err("writing the audit log", e))?;
            first_hash.get_or_insert_with(|| row_hash.clone());
            prev = row_hash;
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

    /// Walk the whole chain and hold its end against the recorded head.
    pub fn verify_audit(&self) -> Result<Result<Verified, ChainBreak>, StoreError> {
        let head = match &self.head_path {
            Some(path) => audit_head::load(path).map_err(StoreError)?,
            None => None,
        };
        let walked = self.walk_chain(head.as_ref().map(|h| h.last_id))?;
        let (rows, first_hash, at_head) = match walked {
            Ok(w) => w,
            Err(b) => return Ok(Err(b)),
        };
        let Some(head) = head else {
            return Ok(Ok(Verified {
                rows,
                anchored: rows == 0,
            }));
        };
        let path = self.head_path.as_ref().expect("a head was read from it");
        Ok(
            match against_head(&head, rows, first_hash.as_deref(), at_head.as_deref()) {
                None => Ok(Verified {
                    rows,
                    anchored: true,
                }),
                Some((id, why)) => Err(ChainBreak {
                    id,
                    reason: format!(
                        "{why} (the head kept in {} records rows 1 to {}; if you removed or replaced this database yourself, delete that file)",
                        path.display(),
                        head.last_id
                    ),
                    foreign: false,
                }),
            },
        )
    }

    /// Every row in order: (rows, first row's hash, hash of row `head_id`), or the break.
    #[allow(clippy::type_complexity)]
    fn walk_chain(
        &self,
        head_id: Option<i64>,
    ) -> Result<Result<(u64, Option<String>, Option<String>), ChainBreak>, StoreError> {
        let (mut prev, mut expected_id, mut n) = (GENESIS.to_string(), 1i64, 0u64);
        let (mut first, mut at_head) = (None, None);
        let fail = |e| self.err("reading the audit log", e);
        self.read("reading the audit log", |tx| {
            // A page at a time by id, so a long log is read in linear time and bounded memory.
            loop {
                let page = tx
                    .query(
                        &format!(
                            "SELECT {COLUMNS} FROM audit_log WHERE id >= ?1 ORDER BY id LIMIT {PAGE}"
                        ),
                        vals![expected_id],
                    )
                    .map_err(fail)?;
                let full = page.len() == PAGE;
                for r in &page {
                    let row = match read_row(r) {
                        Ok(row) => row,
                        Err(e) => {
                            return Ok(Err(ChainBreak {
                                id: expected_id,
                                reason: format!("unreadable row: {e}"),
                                foreign: false,
                            }));
                        }
                    };
                    if let Some(b) = broken(&self.chain_key, &row, expected_id, &prev) {
                        return Ok(Err(b));
                    }
                    if Some(row.id) == head_id {
                        at_head = Some(row.row_hash.clone());
                    }
                    first.get_or_insert_with(|| row.row_hash.clone());
                    prev = row.row_hash;
                    expected_id += 1;
                    n += 1;
                }
                if !full {
                    return Ok(Ok((n, first.take(), at_head.take())));
                }
            }
        })
    }
}

/// Where a walked log (of `rows` rows) departs from the recorded head, if it does.
fn against_head(
    head: &Head,
    rows: u64,
    first_hash: Option<&str>,
    at_head: Option<&str>,
) -> Option<(i64, String)> {
    let rows_i = i64::try_from(rows).unwrap_or(i64::MAX);
    if rows == 0 {
        return Some((1, "every row was removed".into()));
    }
    if first_hash != Some(head.first_hash.as_str()) {
        return Some((
            1,
            "this is not the log the head records (its first row differs): the database was replaced".into(),
        ));
    }
    if rows_i < head.last_id {
        return Some((
            rows_i + 1,
            format!(
                "rows {} to {} were removed (the log ends at row {rows})",
                rows_i + 1,
                head.last_id
            ),
        ));
    }
    if at_head != Some(head.last_hash.as_str()) {
        return Some((head.last_id, "it is not the row the head records".into()));
    }
    None
}

/// The audit log's columns, in the order `read_row` reads them.
const COLUMNS: &str = "id, request_id, at, document, state, code, inputs_fingerprint,
    playbook_logic_hash, call_json, prev_hash, row_hash, decision_id";

/// Rows read at a time when the chain is walked.
const PAGE: usize = 512;

fn hash_at(tx: &mut dyn Sql, id: i64) -> Result<Option<String>, String> {
    tx.query_opt("SELECT row_hash FROM audit_log WHERE id = ?1", vals![id])?
        .map(|r| r.text(0))
        .transpose()
}

/// Why `row` does not continue the chain, if it does not.
fn broken(key: &[u8; 32], row: &AuditRow, expected_id: i64, prev: &str) -> Option<ChainBreak> {
    let at = |reason: String| {
        Some(ChainBreak {
            id: row.id,
            reason,
            foreign: false,
        })
    };
    if row.id != expected_id {
        return at(format!("row {expected_id} is missing (next is {})", row.id));
    }
    if row.prev_hash != prev {
        return at("it does not follow the previous row (prev_hash differs)".into());
    }
    if row.row_hash != row_hash(key, row.id, &row.event, &row.prev_hash) {
        if row.id == 1 {
            return Some(ChainBreak {
                id: 1,
                reason: "its rows were not written under this user's key (another user's store, a committed one, or every row rewritten)".into(),
                foreign: true,
            });
        }
        return at("its content was changed (row_hash differs)".into());
    }
    None
}

/// HMAC-SHA256 under the chain key over the row's canonical JSON (without `row_hash`).
pub(crate) fn row_hash(key: &[u8; 32], id: i64, event: &AuditEvent, prev_hash: &str) -> String {
    let mut value = serde_json::to_value(event).expect("audit events serialize");
    value["id"] = id.into();
    value["prev_hash"] = prev_hash.into();
    mac::mac(key, "audit", &value)
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
        &format!("INSERT INTO audit_log ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"),
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
            row_hash,
            e.decision_id.as_deref()
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
            decision_id: r.opt_text(11)?,
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
            decision_id: None,
        }
    }

    fn fill(store: &Store) {
        store
            .append_audit(&[
                event(1, AuditState::Received),
                event(1, AuditState::Evaluated),
            ])
            .unwrap();
        store
            .append_audit(&[event(2, AuditState::Received)])
            .unwrap();
    }

    fn store_with_rows() -> Store {
        let store = Store::open_in_memory().unwrap();
        fill(&store);
        store
    }

    fn intact(store: &Store) -> Verified {
        store.verify_audit().unwrap().unwrap()
    }

    #[test]
    fn an_untouched_chain_verifies_and_rows_come_back_in_order() {
        let store = store_with_rows();
        assert_eq!(intact(&store).rows, 3);
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

        let store = store_with_rows();
        store
            .conn()
            .execute("UPDATE audit_log SET state = 'halted' WHERE id = 2", [])
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 2);
        assert!(broken.reason.contains("changed"), "{}", broken.reason);

        let store = store_with_rows();
        store
            .conn()
            .execute("DELETE FROM audit_log WHERE id = 2", [])
            .unwrap();
        assert_eq!(store.verify_audit().unwrap().unwrap_err().id, 3);

        // A forger who recomputes a row's own hash with another key still breaks it.
        let store = store_with_rows();
        let mut e = event(1, AuditState::Halted);
        e.code = Some("forged".into());
        let forged_hash = row_hash(
            &[7; 32],
            2,
            &e,
            &store.audit_log(None, 10).unwrap()[0].row_hash,
        );
        store
            .conn()
            .execute(
                "UPDATE audit_log SET state = 'halted', code = 'forged', row_hash = ?1 WHERE id = 2",
                [forged_hash],
            )
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 2, "{broken:?}");
    }

    #[test]
    fn a_log_chained_under_another_key_is_foreign_and_a_chosen_key_verifies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("byop.db");
        let team = [9u8; 32];
        fill(
            &Store::open_with_key(&path, [1; 32])
                .unwrap()
                .with_chain_key(team),
        );
        let other_user = Store::open_with_key(&path, [2; 32]).unwrap();
        let broken = other_user.verify_audit().unwrap().unwrap_err();
        assert!(broken.foreign, "{broken:?}");
        let teammate = Store::open_with_key(&path, [2; 32])
            .unwrap()
            .with_chain_key(team);
        assert_eq!(teammate.walk_chain(None).unwrap().unwrap().0, 3);
    }

    #[test]
    fn removed_trailing_rows_or_all_rows_are_seen_against_the_head() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open_in_memory().unwrap();
        store.head_path = Some(dir.path().join("head.json"));
        fill(&store);
        assert_eq!(
            intact(&store),
            Verified {
                rows: 3,
                anchored: true
            }
        );
        store
            .conn()
            .execute("DELETE FROM audit_log WHERE id = 3", [])
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert_eq!(broken.id, 3, "{broken:?}");
        assert!(broken.reason.contains("removed"), "{}", broken.reason);
        // A later append does not move the head past the gap.
        store
            .append_audit(&[event(3, AuditState::Received)])
            .unwrap();
        assert!(store.verify_audit().unwrap().is_err());
        store.conn().execute("DELETE FROM audit_log", []).unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert!(broken.reason.contains("every row"), "{}", broken.reason);
        // A fresh log in its place is not the one the head records.
        store
            .append_audit(&[event(9, AuditState::Received)])
            .unwrap();
        let broken = store.verify_audit().unwrap().unwrap_err();
        assert!(broken.reason.contains("replaced"), "{}", broken.reason);
    }

    #[test]
    fn rows_committed_after_the_head_verify() {
        // A crash between the commit and the head write leaves the head behind.
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open_in_memory().unwrap();
        store.head_path = Some(dir.path().join("head.json"));
        fill(&store);
        let head = audit_head::load(store.head_path.as_ref().unwrap()).unwrap();
        fill(&store);
        std::fs::write(
            store.head_path.as_ref().unwrap(),
            serde_json::to_string(&head.unwrap()).unwrap(),
        )
        .unwrap();
        assert_eq!(
            intact(&store),
            Verified {
                rows: 6,
                anchored: true
            }
        );
    }
}
