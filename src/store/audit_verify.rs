//! Verifying the audit log: the chain walked row by row under the chain key, and its
//! end held against the head recorded outside the database (see `audit`).

use super::Store;
use super::audit::{COLUMNS, GENESIS, read_row, row_hash};
use super::audit_head::{self, Head};
use super::db::vals;
use super::error::StoreError;
use crate::model::AuditRow;

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

/// Rows read at a time when the chain is walked.
const PAGE: usize = 512;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AuditEvent, AuditState};

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
