//! Pruning the store: old reports, and everything of documents that no longer exist.
//! Baselines (and the reports they point at) stay unless asked; the audit log is
//! append-only and hash-chained, so it is never pruned.

use serde::Serialize;

use super::db::{Sql, vals};

use super::Store;
use super::error::StoreError;

/// What `byop store prune` removes.
#[derive(Debug, Clone, Default)]
pub struct PruneRules {
    /// Per document, keep only the newest N reports.
    pub keep_last: Option<usize>,
    /// Drop reports and cached responses older than this many days.
    pub older_than_days: Option<u64>,
    /// Also drop the baselines of documents that no longer exist.
    pub baselines: bool,
    /// Count only; change nothing.
    pub dry_run: bool,
}

/// What was (or, in a dry run, would be) removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Pruned {
    pub gone_documents: u64,
    pub reports: u64,
    pub responses: u64,
    pub baselines: u64,
    /// Counterfactual audits of gone documents or older than the cutoff.
    pub counterfactual_audits: u64,
}

/// Reports a baseline points at are never pruned by age or count.
const NOT_A_BASELINE: &str = "report_id NOT IN (SELECT report_id FROM baselines)";

impl Store {
    /// Apply `rules` in one transaction. `exists` says whether a document key still names
    /// a document (documents it says are gone lose their reports and cached responses).
    pub fn prune(
        &self,
        rules: &PruneRules,
        exists: &(dyn Fn(&str) -> bool + Sync),
    ) -> Result<Pruned, StoreError> {
        self.write("pruning", !rules.dry_run, |tx| {
            let fail = |e| self.err("pruning", e);
            let mut out = Pruned::default();
            let keys: Vec<String> = tx
                .query(
                    "SELECT doc_key FROM reports UNION SELECT doc_key FROM baselines
                     UNION SELECT doc_key FROM responses WHERE doc_key IS NOT NULL
                     UNION SELECT doc_key FROM counterfactual_audits",
                    &[],
                )
                .and_then(|rows| rows.iter().map(|r| r.text(0)).collect())
                .map_err(fail)?;
            for key in keys.iter().filter(|k| !exists(k)) {
                out.gone_documents += 1;
                self.prune_document(tx, key, rules, &mut out)?;
            }
            if let Some(n) = rules.keep_last {
                out.reports += tx
                    .execute(
                        &format!(
                            "DELETE FROM reports WHERE {NOT_A_BASELINE} AND report_id IN (
                               SELECT report_id FROM (
                                 SELECT report_id, ROW_NUMBER() OVER (
                                   PARTITION BY doc_key ORDER BY timestamp_ns DESC, rowid DESC) AS n
                                 FROM reports) AS ranked
                               WHERE n > ?1)"
                        ),
                        vals![n as i64],
                    )
                    .map_err(fail)?;
            }
            if let Some(days) = rules.older_than_days {
                self.prune_older(tx, days, &mut out)?;
            }
            Ok(out)
        })
    }

    /// Everything of a document that no longer exists (its baselines only if asked).
    fn prune_document(
        &self,
        tx: &mut dyn Sql,
        key: &str,
        rules: &PruneRules,
        out: &mut Pruned,
    ) -> Result<(), StoreError> {
        let fail = |e| self.err("pruning", e);
        if rules.baselines {
            out.baselines += tx
                .execute("DELETE FROM baselines WHERE doc_key = ?1", vals![key])
                .map_err(fail)?;
        }
        out.reports += tx
            .execute(
                &format!("DELETE FROM reports WHERE doc_key = ?1 AND {NOT_A_BASELINE}"),
                vals![key],
            )
            .map_err(fail)?;
        out.responses += tx
            .execute("DELETE FROM responses WHERE doc_key = ?1", vals![key])
            .map_err(fail)?;
        out.counterfactual_audits += tx
            .execute(
                "DELETE FROM counterfactual_audits WHERE doc_key = ?1",
                vals![key],
            )
            .map_err(fail)?;
        Ok(())
    }

    /// Reports, audits and cached answers older than `days`.
    fn prune_older(&self, tx: &mut dyn Sql, days: u64, out: &mut Pruned) -> Result<(), StoreError> {
        let fail = |e| self.err("pruning", e);
        let cutoff =
            time::OffsetDateTime::now_utc() - time::Duration::days(days.min(365_000) as i64);
        let cutoff_ns = cutoff.unix_timestamp_nanos().clamp(0, i64::MAX as i128) as i64;
        out.reports += tx
            .execute(
                &format!("DELETE FROM reports WHERE timestamp_ns < ?1 AND {NOT_A_BASELINE}"),
                vals![cutoff_ns],
            )
            .map_err(fail)?;
        out.counterfactual_audits += tx
            .execute(
                "DELETE FROM counterfactual_audits WHERE timestamp_ns < ?1",
                vals![cutoff_ns],
            )
            .map_err(fail)?;
        // Same format as the rows' `created_at` (RFC 3339, UTC, whole seconds), so
        // text order is time order.
        let cutoff_text = cutoff
            .replace_nanosecond(0)
            .unwrap_or(cutoff)
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        out.responses += tx
            .execute(
                "DELETE FROM responses WHERE created_at < ?1",
                vals![cutoff_text],
            )
            .map_err(fail)?;
        Ok(())
    }

    /// Give the space of deleted rows back to the file system; the file size before and after.
    pub fn vacuum(&self) -> Result<(u64, u64), StoreError> {
        if self.is_server() {
            return self.vacuum_server();
        }
        let conn = self.conn();
        let size = |c: &rusqlite::Connection| -> rusqlite::Result<u64> {
            let pages: i64 = c.query_row("PRAGMA page_count", [], |r| r.get(0))?;
            let page: i64 = c.query_row("PRAGMA page_size", [], |r| r.get(0))?;
            Ok((pages * page) as u64)
        };
        let fail = |e: rusqlite::Error| self.err("vacuum", e.to_string());
        let before = size(&conn).map_err(fail)?;
        conn.execute_batch("VACUUM").map_err(fail)?;
        // The WAL holds the rewritten pages until a checkpoint; fold them in and truncate it.
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(fail)?;
        let after = size(&conn).map_err(fail)?;
        Ok((before, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mode;
    use crate::store::test_support::report;

    /// Three reports of `a` (one a baseline), two of `b`, cached responses of both.
    fn store() -> Store {
        let s = Store::open_in_memory().unwrap();
        for (doc, id, at) in [
            ("/docs/a.ai.md", "a1", "2026-01-01T00:00:00Z"),
            ("/docs/a.ai.md", "a2", "2026-06-01T00:00:00Z"),
            ("/docs/a.ai.md", "a3", "2026-11-01T00:00:00Z"),
            ("/gone/b.ai.md", "b1", "2026-01-01T00:00:00Z"),
            ("/gone/b.ai.md", "b2", "2026-11-01T00:00:00Z"),
        ] {
            s.save_report(doc, &report(id, at, &format!("inputs-{id}"), Mode::Full))
                .unwrap();
        }
        s.save_baseline("/docs/a.ai.md", "a1").unwrap();
        s.save_baseline("/gone/b.ai.md", "b1").unwrap();
        s.put_cached_response_for("k-a", "anthropic", "m", "{}", Some("/docs/a.ai.md"))
            .unwrap();
        s.put_cached_response_for("k-b", "anthropic", "m", "{}", Some("/gone/b.ai.md"))
            .unwrap();
        s
    }

    fn exists(key: &str) -> bool {
        !key.starts_with("/gone/")
    }

    fn ids(s: &Store, doc: &str) -> Vec<String> {
        let mut ids: Vec<String> = s
            .history(Some(doc), 100)
            .unwrap()
            .into_iter()
            .map(|r| r.report_id)
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn a_deleted_document_loses_its_reports_and_cache_but_not_its_baseline() {
        let s = store();
        let pruned = s.prune(&PruneRules::default(), &exists).unwrap();
        assert_eq!(
            pruned,
            Pruned {
                gone_documents: 1,
                reports: 1,
                responses: 1,
                baselines: 0,
                counterfactual_audits: 0,
            }
        );
        assert_eq!(ids(&s, "/gone/b.ai.md"), ["b1"]);
        assert_eq!(ids(&s, "/docs/a.ai.md"), ["a1", "a2", "a3"]);
        assert!(s.cached_response("k-b").unwrap().is_none());
        assert!(s.cached_response("k-a").unwrap().is_some());
    }

    #[test]
    fn baselines_of_deleted_documents_go_when_asked() {
        let s = store();
        let rules = PruneRules {
            baselines: true,
            ..Default::default()
        };
        let pruned = s.prune(&rules, &exists).unwrap();
        assert_eq!((pruned.baselines, pruned.reports), (1, 2));
        assert!(ids(&s, "/gone/b.ai.md").is_empty());
        assert!(
            s.baseline("/docs/a.ai.md", &crate::store::test_support::hash())
                .is_ok()
        );
    }

    #[test]
    fn keep_last_keeps_the_newest_and_every_baseline() {
        let s = store();
        let rules = PruneRules {
            keep_last: Some(1),
            ..Default::default()
        };
        s.prune(&rules, &|_| true).unwrap();
        // a3 is the newest; a1 is the baseline; a2 goes.
        assert_eq!(ids(&s, "/docs/a.ai.md"), ["a1", "a3"]);
        assert_eq!(ids(&s, "/gone/b.ai.md"), ["b1", "b2"]);
    }

    #[test]
    fn older_than_drops_old_reports_but_not_baselines_or_recent_ones() {
        let s = Store::open_in_memory().unwrap();
        let days_ago = |d: i64| {
            (time::OffsetDateTime::now_utc() - time::Duration::days(d))
                .replace_nanosecond(0)
                .unwrap()
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap()
        };
        for (id, age) in [("old", 100), ("base", 90), ("new", 1)] {
            let r = report(id, &days_ago(age), &format!("inputs-{id}"), Mode::Full);
            s.save_report("/docs/a.ai.md", &r).unwrap();
        }
        s.save_baseline("/docs/a.ai.md", "base").unwrap();
        let rules = PruneRules {
            older_than_days: Some(30),
            ..Default::default()
        };
        let pruned = s.prune(&rules, &|_| true).unwrap();
        assert_eq!(pruned.reports, 1);
        assert_eq!(ids(&s, "/docs/a.ai.md"), ["base", "new"]);
    }

    #[test]
    fn a_dry_run_counts_and_changes_nothing() {
        let s = store();
        let rules = PruneRules {
            keep_last: Some(1),
            dry_run: true,
            ..Default::default()
        };
        let pruned = s.prune(&rules, &exists).unwrap();
        assert_eq!(pruned.reports, 2); // b2 (gone document) and a2
        assert_eq!(ids(&s, "/docs/a.ai.md").len(), 3);
        assert_eq!(ids(&s, "/gone/b.ai.md").len(), 2);
    }

    #[test]
    fn vacuum_runs_on_a_pruned_store() {
        let s = store();
        s.prune(
            &PruneRules {
                keep_last: Some(1),
                ..Default::default()
            },
            &exists,
        )
        .unwrap();
        let (before, after) = s.vacuum().unwrap();
        assert!(after <= before, "{before} → {after}");
    }
}
