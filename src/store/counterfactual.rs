//! Counterfactual audits: saved whole as JSON, each row under a MAC like
//! the reports; listed by `byop history`.

use serde_json::json;

use super::db::{Row, each_row, vals};

use super::error::StoreError;
use super::mac;
use super::{Store, timestamp_ns};
use crate::model::counterfactual::{Counterfactual, CounterfactualRow};

pub(super) const KIND: &str = "counterfactual";

pub(super) fn values(
    audit_id: &str,
    doc_key: &str,
    timestamp: &str,
    json: &str,
) -> serde_json::Value {
    json!([audit_id, doc_key, timestamp, json])
}

type AuditColumns = (String, String, String, String, Option<String>);

fn audit_columns(r: &Row) -> Result<AuditColumns, String> {
    Ok((
        r.text(0)?,
        r.text(1)?,
        r.text(2)?,
        r.text(3)?,
        r.opt_text(4)?,
    ))
}

impl Store {
    /// Save an audit under `doc_key` (idempotent: its id is a content hash).
    pub fn save_counterfactual(&self, doc_key: &str, a: &Counterfactual) -> Result<(), StoreError> {
        if a.audit_id.trim().is_empty() {
            return Err(StoreError(
                "cannot save an audit without an audit_id".into(),
            ));
        }
        let json = serde_json::to_string(a)
            .map_err(|e| StoreError(format!("cannot serialize audit {}: {e}", a.audit_id)))?;
        let row_mac = mac::mac(
            self.key(),
            KIND,
            &values(&a.audit_id, doc_key, &a.timestamp, &json),
        );
        self.write("saving counterfactual audit", true, |tx| {
            tx.execute(
                "INSERT INTO counterfactual_audits (audit_id, doc_key, timestamp, timestamp_ns,
                    playbook_id, playbook_version, audit_json, mac)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING",
                vals![
                    &a.audit_id,
                    doc_key,
                    &a.timestamp,
                    timestamp_ns(&a.timestamp),
                    &a.playbook_id,
                    &a.playbook_version,
                    &json,
                    row_mac
                ],
            )
            .map_err(|e| self.err("saving counterfactual audit", e))
        })?;
        Ok(())
    }

    /// One audit by full id or unique prefix (a row that does not verify is a miss).
    /// The row's MAC is ours; a forged or damaged row is reported and skipped.
    fn audit_row_verifies(
        &self,
        audit_id: &str,
        doc_key: &str,
        ts: &str,
        json: &str,
        m: Option<&str>,
    ) -> bool {
        let ok = mac::verify(self.key(), KIND, &values(audit_id, doc_key, ts, json), m);
        if !ok {
            self.reject(&format!("counterfactual audit {audit_id}"));
        }
        ok
    }

    pub fn get_counterfactual(&self, id: &str) -> Result<Option<Counterfactual>, StoreError> {
        let id = id.trim();
        if id.is_empty() {
            return Ok(None);
        }
        let fail = |e| self.err("reading counterfactual audit", e);
        let row = self
            .read("reading counterfactual audit", |tx| {
                tx.query_opt(
                    "SELECT audit_id, doc_key, timestamp, audit_json, mac FROM counterfactual_audits
                     WHERE substr(audit_id, 1, length(CAST(?1 AS TEXT))) = CAST(?1 AS TEXT)
                     ORDER BY timestamp_ns DESC LIMIT 1",
                    vals![id],
                )
                .map_err(fail)
            })?
            .map(|r| audit_columns(&r))
            .transpose()
            .map_err(fail)?;
        let Some((audit_id, doc_key, ts, json, m)) = row else {
            return Ok(None);
        };
        if !self.audit_row_verifies(&audit_id, &doc_key, &ts, &json, m.as_deref()) {
            return Ok(None);
        }
        serde_json::from_str(&json).map(Some).map_err(|e| {
            StoreError(format!(
                "database {}: a stored audit is unreadable: {e}",
                self.label
            ))
        })
    }

    /// Newest first; all documents when `doc_key` is `None`; at most `limit` rows that verify.
    pub fn counterfactual_history(
        &self,
        doc_key: Option<&str>,
        limit: usize,
    ) -> Result<Vec<CounterfactualRow>, StoreError> {
        let rows = self.read("reading counterfactual history", |tx| {
            self.counterfactual_rows_in(tx, doc_key, limit)
        })?;
        Ok(parse_rows(rows))
    }

    /// The newest `limit` audit rows that verify, as (id, document, time, JSON).
    pub(super) fn counterfactual_rows_in(
        &self,
        tx: &mut dyn super::db::Sql,
        doc_key: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, String, String, String)>, StoreError> {
        let fail = |e| self.err("reading counterfactual history", e);
        let mut rows = Vec::new();
        each_row(
            tx,
            "SELECT audit_id, doc_key, timestamp, audit_json, mac FROM counterfactual_audits
             WHERE (CAST(?1 AS TEXT) IS NULL OR doc_key = ?1) ORDER BY timestamp_ns DESC, rowid DESC",
            vals![doc_key],
            &fail,
            |r| {
                if rows.len() >= limit {
                    return Ok(false);
                }
                let (audit_id, doc_key, ts, json, m) = audit_columns(&r).map_err(fail)?;
                if self.audit_row_verifies(&audit_id, &doc_key, &ts, &json, m.as_deref()) {
                    rows.push((audit_id, doc_key, ts, json));
                }
                Ok(true)
            },
        )?;
        Ok(rows)
    }
}

/// Verified audit rows as history rows (a row whose JSON no longer parses is left out).
pub(super) fn parse_rows(rows: Vec<(String, String, String, String)>) -> Vec<CounterfactualRow> {
    let mut out = Vec::new();
    for (audit_id, doc_key, ts, json) in rows {
        let Ok(a) = serde_json::from_str::<Counterfactual>(&json) else {
            continue;
        };
        out.push(CounterfactualRow {
            kind: KIND.into(),
            audit_id,
            timestamp: ts,
            document: doc_key,
            playbook_id: a.playbook_id,
            playbook_version: a.playbook_version,
            pairs: a.pairs,
            cues: a.cues.len(),
            significant: a.results.iter().filter(|r| r.significant).count(),
            evaluator_unstable: a.evaluator_unstable,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit(id: &str, ts: &str) -> Counterfactual {
        serde_json::from_value(json!({
            "spec_version": "0.1", "playbook_id": "pb", "playbook_version": "1",
            "timestamp": ts, "document": "d.ai.md",
            "evaluator": {"provider": "anthropic", "model": "m"},
            "seed": 1, "pairs": 4, "facts_hash": "sha256:x", "cues": [],
            "results": [], "warnings": [],
            "integrity": {"playbook_logic_hash": "h", "inputs_fingerprint": "f"},
            "presentation_rules": {"disclaimers": []},
            "audit_id": id
        }))
        .unwrap()
    }

    #[test]
    fn saved_listed_newest_first_and_a_forged_row_is_a_miss() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let store = Store::open_with_key(&path, [7; 32]).unwrap();
        store
            .save_counterfactual("doc-a", &audit("aaaa000011112222", "2026-01-01T00:00:00Z"))
            .unwrap();
        store
            .save_counterfactual("doc-b", &audit("bbbb000011112222", "2026-01-02T00:00:00Z"))
            .unwrap();
        // Saving the same id again is a no-op.
        store
            .save_counterfactual("doc-b", &audit("bbbb000011112222", "2026-01-02T00:00:00Z"))
            .unwrap();
        let all = store.counterfactual_history(None, 10).unwrap();
        let ids: Vec<&str> = all.iter().map(|r| r.audit_id.as_str()).collect();
        assert_eq!(ids, ["bbbb000011112222", "aaaa000011112222"]);
        assert_eq!(all[0].kind, "counterfactual");
        assert_eq!(
            store
                .counterfactual_history(Some("doc-a"), 10)
                .unwrap()
                .len(),
            1
        );
        assert_eq!(
            store.get_counterfactual("aaaa").unwrap().unwrap().audit_id,
            "aaaa000011112222"
        );
        // An edited row no longer verifies: not returned, not listed.
        store
            .conn()
            .execute(
                "UPDATE counterfactual_audits SET audit_json = replace(audit_json, '\"pairs\":4', '\"pairs\":400') WHERE audit_id = 'aaaa000011112222'",
                [],
            )
            .unwrap();
        assert!(store.get_counterfactual("aaaa").unwrap().is_none());
        assert_eq!(store.counterfactual_history(None, 10).unwrap().len(), 1);
        // Another user's key verifies nothing.
        drop(store);
        let other = Store::open_with_key(&path, [8; 32]).unwrap();
        assert!(other.counterfactual_history(None, 10).unwrap().is_empty());
    }

    #[test]
    fn pruning_drops_the_audits_of_gone_documents_and_old_ones() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_with_key(&dir.path().join("s.db"), [7; 32]).unwrap();
        let recent = crate::model::now_rfc3339();
        store
            .save_counterfactual("/gone/a", &audit("aaaa000011112222", &recent))
            .unwrap();
        store
            .save_counterfactual(
                "/here/b",
                &audit("bbbb000011112222", "2001-01-01T00:00:00Z"),
            )
            .unwrap();
        store
            .save_counterfactual("/here/c", &audit("cccc000011112222", &recent))
            .unwrap();
        let rules = crate::store::PruneRules {
            older_than_days: Some(30),
            ..Default::default()
        };
        let pruned = store
            .prune(&rules, &|k: &str| !k.starts_with("/gone/"))
            .unwrap();
        assert_eq!(pruned.counterfactual_audits, 2);
        assert_eq!(pruned.gone_documents, 1);
        let left: Vec<String> = store
            .counterfactual_history(None, 10)
            .unwrap()
            .into_iter()
            .map(|r| r.audit_id)
            .collect();
        assert_eq!(left, ["cccc000011112222"]);
    }
}
