//! Reading reports: by id or unique prefix (a rerun's id stands for the report it
//! repeated), history, the latest of a document, identical inputs. A row that does not
//! verify is never returned.

use super::db::{Sql, vals};
use super::error::StoreError;
use super::reports::{COLUMNS, NEWEST_FIRST, Row};
use super::{HistoryRow, Store};
use crate::model::{Mode, Report};

impl Store {
    /// By full id or unique prefix. An ambiguous prefix is an error listing the matches.
    pub fn get_report(&self, id: &str) -> Result<Option<Report>, StoreError> {
        self.read("reading report", |tx| match self.resolve_id(tx, id)? {
            Some(full) => self.verified_report_by_id(tx, &full),
            None => Ok(None),
        })
    }
    /// The full id for `id` (full id or unique prefix).
    pub(super) fn resolve_id(
        &self,
        tx: &mut dyn Sql,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        let id = id.trim();
        if id.is_empty() {
            return Err(StoreError("empty report id".into()));
        }
        let fail = |e| self.err("looking up report", e);
        let exact = tx
            .query_opt(
                "SELECT report_id FROM reports WHERE report_id = ?1",
                vals![id],
            )
            .map_err(fail)?;
        if exact.is_some() {
            return Ok(Some(id.to_string()));
        }
        // The id of a rerun stands for the report it repeated.
        if let Some(original) = self.rerun_of(tx, id)? {
            return Ok(Some(original));
        }
        // substr, not LIKE: ids may not contain LIKE wildcards, but a prefix given by a user might.
        const SHOWN: usize = 5;
        let matches = tx
            .query(
                "SELECT report_id FROM reports
                 WHERE substr(report_id, 1, length(CAST(?1 AS TEXT))) = CAST(?1 AS TEXT)
                 ORDER BY report_id LIMIT ?2",
                vals![id, SHOWN as i64 + 1],
            )
            .and_then(|rows| {
                rows.iter()
                    .map(|r| r.text(0))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(fail)?;
        match matches.len() {
            0 => Ok(None),
            1 => Ok(matches.into_iter().next()),
            n => {
                let more = if n > SHOWN { ", …" } else { "" };
                let shown = matches
                    .iter()
                    .take(SHOWN)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ");
                Err(StoreError(format!(
                    "report id prefix `{id}` is ambiguous: {shown}{more}"
                )))
            }
        }
    }

    /// Most recent report of this document and playbook hash, other than `exclude_id`.
    pub fn latest_report(
        &self,
        doc_key: &str,
        playbook_hash: &str,
        exclude_id: Option<&str>,
    ) -> Result<Option<Report>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM reports
             WHERE doc_key = ?1 AND playbook_hash = ?2
               AND (CAST(?3 AS TEXT) IS NULL OR report_id <> ?3)
             {NEWEST_FIRST}"
        );
        self.read("reading report", |tx| {
            self.first_verified(tx, &sql, vals![doc_key, playbook_hash, exclude_id])
        })
    }

    /// Most recent report of this document and playbook hash made in `mode`.
    pub fn latest_report_in_mode(
        &self,
        doc_key: &str,
        playbook_hash: &str,
        mode: Mode,
    ) -> Result<Option<Report>, StoreError> {
        self.read("reading report", |tx| {
            self.latest_in_mode_in(tx, doc_key, playbook_hash, mode)
        })
    }

    pub(super) fn latest_in_mode_in(
        &self,
        tx: &mut dyn Sql,
        doc_key: &str,
        playbook_hash: &str,
        mode: Mode,
    ) -> Result<Option<Report>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM reports
             WHERE doc_key = ?1 AND playbook_hash = ?2 AND mode = ?3 {NEWEST_FIRST}"
        );
        self.first_verified(tx, &sql, vals![doc_key, playbook_hash, mode.as_str()])
    }

    /// Most recent report for identical inputs, playbook and mode (any document path).
    pub fn find_by_inputs(
        &self,
        inputs_fingerprint: &str,
        playbook_hash: &str,
        mode: &str,
    ) -> Result<Option<Report>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM reports
             WHERE inputs_fingerprint = ?1 AND playbook_hash = ?2 AND mode = ?3 {NEWEST_FIRST}"
        );
        self.read("reading report", |tx| {
            self.first_verified(tx, &sql, vals![inputs_fingerprint, playbook_hash, mode])
        })
    }

    /// A baseline's report, if both the baseline row and the report verify.
    pub(super) fn verified_report_by_id(
        &self,
        tx: &mut dyn Sql,
        report_id: &str,
    ) -> Result<Option<Report>, StoreError> {
        self.first_verified(
            tx,
            &format!("SELECT {COLUMNS} FROM reports WHERE report_id = ?1"),
            vals![report_id],
        )
    }
}

/// A history row from a stored report; `None` for a mode or status this byop did not write
/// (a later version's), which is left out like a row that does not verify.
pub(super) fn history_row(row: Row, is_baseline: bool) -> Option<HistoryRow> {
    let (Ok(mode), Ok(status)) = (row.mode.parse(), row.status.parse()) else {
        return None;
    };
    Some(HistoryRow {
        report_id: row.report_id,
        timestamp: row.timestamp,
        document: row.doc_key,
        playbook_id: row.playbook_id,
        playbook_version: row.playbook_version,
        mode,
        status,
        consistency_score: row.consistency_score,
        is_baseline,
        rerun_id: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::model::*;

    #[test]
    fn report_round_trips_by_full_id_and_prefix() {
        let store = Store::open_in_memory().unwrap();
        let original = report("abc123", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        store.save_report("nda.ai.md", &original).unwrap();
        assert_eq!(
            store.get_report("abc123").unwrap().as_ref(),
            Some(&original)
        );
        assert_eq!(store.get_report("abc").unwrap().as_ref(), Some(&original));
        assert_eq!(store.get_report("zzz").unwrap(), None);
        assert!(store.get_report("  ").is_err());
        // a LIKE wildcard in a prefix is taken literally
        assert_eq!(store.get_report("a%").unwrap(), None);

        store
            .save_report(
                "nda.ai.md",
                &report("abd999", "2026-01-02T00:00:00Z", "sha256:in", Mode::Full),
            )
            .unwrap();
        let err = store.get_report("ab").unwrap_err().to_string();
        assert!(
            err.contains("ambiguous") && err.contains("abc123") && err.contains("abd999"),
            "{err}"
        );
        // a full id that is also a prefix of nothing else still resolves
        assert!(store.get_report("abd999").unwrap().is_some());
    }

    #[test]
    fn history_is_newest_first_filtered_and_limited() {
        let store = Store::open_in_memory().unwrap();
        // inserted out of order; one timestamp has fractional seconds
        store
            .save_report(
                "a.md",
                &report("r2", "2026-01-02T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("r1", "2026-01-01T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        store
            .save_report(
                "b.md",
                &report("r3", "2026-01-02T00:00:00.500Z", "i", Mode::Screening),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("r4", "2026-01-03T09:00:00+02:00", "i", Mode::Full),
            )
            .unwrap();

        let ids = |rows: Vec<HistoryRow>| rows.into_iter().map(|r| r.report_id).collect::<Vec<_>>();
        assert_eq!(
            ids(store.history(None, 100).unwrap()),
            ["r4", "r3", "r2", "r1"]
        );
        assert_eq!(
            ids(store.history(Some("a.md"), 100).unwrap()),
            ["r4", "r2", "r1"]
        );
        assert_eq!(ids(store.history(Some("a.md"), 2).unwrap()), ["r4", "r2"]);
        assert!(store.history(Some("missing.md"), 10).unwrap().is_empty());

        let row = &store.history(Some("b.md"), 1).unwrap()[0];
        assert_eq!(row.document, "b.md");
        assert_eq!(row.mode, Mode::Screening);
        assert_eq!(row.status, Status::Review);
        assert_eq!(row.consistency_score, 0.75);
        assert_eq!(row.playbook_id, crate::engine::playbook::BUILTIN_ID);
        assert!(!row.is_baseline);

        store.save_baseline("a.md", "r2").unwrap();
        let flags: Vec<(String, bool)> = store
            .history(None, 100)
            .unwrap()
            .into_iter()
            .map(|r| (r.report_id, r.is_baseline))
            .collect();
        assert_eq!(
            flags,
            [
                ("r4".into(), false),
                ("r3".into(), false),
                ("r2".into(), true),
                ("r1".into(), false)
            ]
        );
    }

    #[test]
    fn latest_report_skips_the_excluded_id_and_other_playbooks() {
        let store = Store::open_in_memory().unwrap();
        store
            .save_report(
                "a.md",
                &report("old", "2026-01-01T00:00:00Z", "i1", Mode::Full),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("new", "2026-01-02T00:00:00Z", "i2", Mode::Full),
            )
            .unwrap();
        let mut other_pb = report("otherpb", "2026-01-03T00:00:00Z", "i3", Mode::Full);
        other_pb.integrity.playbook_logic_hash = "sha256:other".into();
        store.save_report("a.md", &other_pb).unwrap();
        store
            .save_report(
                "b.md",
                &report("otherdoc", "2026-01-04T00:00:00Z", "i4", Mode::Full),
            )
            .unwrap();

        let id = |r: Option<Report>| r.map(|r| r.report_id);
        assert_eq!(
            id(store.latest_report("a.md", &hash(), None).unwrap()).as_deref(),
            Some("new")
        );
        assert_eq!(
            id(store.latest_report("a.md", &hash(), Some("new")).unwrap()).as_deref(),
            Some("old")
        );
        assert_eq!(
            id(store
                .latest_report("a.md", "sha256:other", Some("otherpb"))
                .unwrap()),
            None
        );
        assert_eq!(
            id(store.latest_report("c.md", &hash(), None).unwrap()),
            None
        );
    }

    #[test]
    fn find_by_inputs_matches_fingerprint_playbook_and_mode() {
        let store = Store::open_in_memory().unwrap();
        store
            .save_report(
                "a.md",
                &report("s1", "2026-01-01T00:00:00Z", "sha256:same", Mode::Screening),
            )
            .unwrap();
        store
            .save_report(
                "moved/a.md",
                &report("s2", "2026-01-02T00:00:00Z", "sha256:same", Mode::Screening),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("f1", "2026-01-03T00:00:00Z", "sha256:same", Mode::Full),
            )
            .unwrap();

        let found = store
            .find_by_inputs("sha256:same", &hash(), "screening")
            .unwrap()
            .unwrap();
        assert_eq!(found.report_id, "s2");
        assert_eq!(
            store
                .find_by_inputs("sha256:same", &hash(), "full")
                .unwrap()
                .unwrap()
                .report_id,
            "f1"
        );
        assert!(
            store
                .find_by_inputs("sha256:same", &hash(), "deterministic")
                .unwrap()
                .is_none()
        );
        assert!(
            store
                .find_by_inputs("sha256:same", "sha256:other", "full")
                .unwrap()
                .is_none()
        );
        assert!(
            store
                .find_by_inputs("sha256:diff", &hash(), "full")
                .unwrap()
                .is_none()
        );
    }
}
