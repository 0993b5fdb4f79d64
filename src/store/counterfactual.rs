//! Counterfactual audits (issue 13): saved whole as JSON, each row under a MAC like
//! the reports; listed by `byop history`.

use rusqlite::{OptionalExtension, params};
use serde_json::json;

use super::error::StoreError;
use super::mac;
use super::{Store, timestamp_ns};
use crate::model::counterfactual::{Counterfactual, CounterfactualRow};

const KIND: &str = "counterfactual";

fn values(audit_id: &str, doc_key: &str, timestamp: &str, json: &str) -> serde_json::Value {
    json!([audit_id, doc_key, timestamp, json])
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
        self.conn()
            .execute(
                "INSERT OR IGNORE INTO counterfactual_audits (audit_id, doc_key, timestamp, timestamp_ns,
                    playbook_id, playbook_version, audit_json, mac)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    a.audit_id,
                    doc_key,
                    a.timestamp,
                    timestamp_ns(&a.timestamp),
                    a.playbook_id,
                    a.playbook_version,
                    json,
                    row_mac
                ],
            )
            .map_err(|e| self.err("saving counterfactual audit", e))?;
        Ok(())
    }

    /// One audit by full id or unique prefix (a row that does not verify is a miss).
    pub fn get_counterfactual(&self, id: &str) -> Result<Option<Counterfactual>, StoreError> {
        let id = id.trim();
        if id.is_empty() {
            return Ok(None);
        }
        let row: Option<(String, String, String, String, Option<String>)> = self
            .conn()
            .query_row(
                "SELECT audit_id, doc_key, timestamp, audit_json, mac FROM counterfactual_audits
                 WHERE substr(audit_id, 1, length(?1)) = ?1 ORDER BY timestamp_ns DESC LIMIT 1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()
            .map_err(|e| self.err("reading counterfactual audit", e))?;
        let Some((audit_id, doc_key, ts, json, m)) = row else {
            return Ok(None);
        };
        if !mac::verify(
            self.key(),
            KIND,
            &values(&audit_id, &doc_key, &ts, &json),
            m.as_deref(),
        ) {
            self.reject(&format!("counterfactual audit {audit_id}"));
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
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT audit_id, doc_key, timestamp, audit_json, mac FROM counterfactual_audits
                 WHERE (?1 IS NULL OR doc_key = ?1) ORDER BY timestamp_ns DESC, rowid DESC",
            )
            .map_err(|e| self.err("reading counterfactual history", e))?;
        let rows = stmt
            .query_map(params![doc_key], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<String>>(4)?,
                ))
            })
            .map_err(|e| self.err("reading counterfactual history", e))?;
        let mut out = Vec::new();
        for row in rows {
            let (audit_id, doc_key, ts, json, m) =
                row.map_err(|e| self.err("reading counterfactual history", e))?;
            if out.len() >= limit {
                break;
            }
            if !mac::verify(
                self.key(),
                KIND,
                &values(&audit_id, &doc_key, &ts, &json),
                m.as_deref(),
            ) {
                self.reject(&format!("counterfactual audit {audit_id}"));
                continue;
            }
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
        Ok(out)
    }
}
