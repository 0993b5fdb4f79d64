//! SQLite store (SPEC §6). OWNER: helper "store+citations".
//!
//! One file holds every report, the baselines and the evaluator response cache.
//! The schema is versioned with `PRAGMA user_version`; migrations run in order,
//! one `BEGIN IMMEDIATE` transaction each, so two processes opening a fresh file
//! at once cannot both apply the same migration. Nothing here takes an API key.
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};

use crate::report::Report;

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// One row of `byop history`.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    pub report_id: String,
    pub timestamp: String,
    /// The `doc_key` the report was saved under.
    pub document: String,
    pub playbook_id: String,
    pub playbook_version: String,
    pub mode: String,
    pub status: String,
    pub consistency_score: f64,
    pub is_baseline: bool,
}

/// How long a writer waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Ordered schema migrations; migration `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // v1
    "CREATE TABLE reports (
        report_id          TEXT PRIMARY KEY NOT NULL,
        doc_key            TEXT NOT NULL,
        timestamp          TEXT NOT NULL,
        -- report timestamp as Unix nanoseconds, for ordering (NULL when unparseable)
        timestamp_ns       INTEGER,
        playbook_id        TEXT NOT NULL,
        playbook_version   TEXT NOT NULL,
        playbook_hash      TEXT NOT NULL,
        inputs_fingerprint TEXT NOT NULL,
        mode               TEXT NOT NULL,
        status             TEXT NOT NULL,
        consistency_score  REAL NOT NULL,
        report_json        TEXT NOT NULL
    );
    CREATE INDEX reports_by_doc ON reports (doc_key, playbook_hash, timestamp_ns);
    CREATE INDEX reports_by_inputs ON reports (inputs_fingerprint, playbook_hash, mode);
    CREATE INDEX reports_by_time ON reports (timestamp_ns);
    CREATE TABLE baselines (
        doc_key       TEXT NOT NULL,
        playbook_hash TEXT NOT NULL,
        report_id     TEXT NOT NULL REFERENCES reports (report_id),
        saved_at      TEXT NOT NULL,
        PRIMARY KEY (doc_key, playbook_hash)
    );
    CREATE TABLE responses (
        cache_key  TEXT PRIMARY KEY NOT NULL,
        provider   TEXT NOT NULL,
        model      TEXT NOT NULL,
        raw_text   TEXT NOT NULL,
        created_at TEXT NOT NULL
    );",
];

/// Schema version this binary writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Newest first; ties (same timestamp) broken by insertion order.
const NEWEST_FIRST: &str = "ORDER BY timestamp_ns DESC, rowid DESC";

/// `Send + Sync`: one connection behind a mutex. Each process (or each `open`)
/// gets its own connection; WAL and the busy timeout let them write concurrently.
pub struct Store {
    conn: Mutex<Connection>,
    /// Shown in errors; `:memory:` for in-memory stores.
    label: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.label).finish()
    }
}

impl Store {
    /// Open (creating folders and schema), WAL, busy_timeout, migrations.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let label = path.display().to_string();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                StoreError(format!("cannot create folder {}: {e}", parent.display()))
            })?;
        }
        let conn = Connection::open(path)
            .map_err(|e| StoreError(format!("cannot open database {label}: {e}")))?;
        Self::init(conn, label, true)
    }

    pub fn open_in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory()
            .map_err(|e| StoreError(format!("cannot open in-memory database: {e}")))?;
        Self::init(conn, ":memory:".to_string(), false)
    }

    /// The database path as given to `open` (`:memory:` for in-memory stores).
    pub fn path(&self) -> PathBuf {
        PathBuf::from(&self.label)
    }

    fn init(mut conn: Connection, label: String, wal: bool) -> Result<Store, StoreError> {
        let fail = |what: &str, e: rusqlite::Error| open_error(&label, what, e);
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| fail("setting busy timeout", e))?;
        // The first read of the file: a non-database fails here, before we write anything.
        let version = user_version(&conn).map_err(|e| fail("reading schema version", e))?;
        refuse_newer(&label, version)?;
        if wal {
            // Switching journal mode can report "locked" without consulting the busy
            // handler while another connection is opening the same fresh file; retry.
            retry_while_busy(|| {
                conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| {
                    row.get::<_, String>(0)
                })
            })
            .map_err(|e| fail("enabling WAL", e))?;
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(|e| fail("setting synchronous", e))?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(|e| fail("enabling foreign keys", e))?;
        migrate(&mut conn, &label)?;
        Ok(Store {
            conn: Mutex::new(conn),
            label,
        })
    }

    /// A poisoned lock only means another thread panicked mid-call; SQLite rolled
    /// back its transaction, so the connection is still consistent.
    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn err(&self, what: &str, e: rusqlite::Error) -> StoreError {
        StoreError(format!("database {}: {what}: {e}", self.label))
    }

    /// Insert a report (`report.report_id` must be set). `doc_key` identifies the document.
    ///
    /// Idempotent: saving an id that is already stored is a no-op (`INSERT OR IGNORE`).
    /// Report ids are content hashes, so the same id means the same report, and
    /// keeping the first row keeps its insertion order and any baseline pointing at it.
    pub fn save_report(&self, doc_key: &str, report: &Report) -> Result<(), StoreError> {
        if report.report_id.trim().is_empty() {
            return Err(StoreError(
                "cannot save a report without a report_id".into(),
            ));
        }
        let json = serde_json::to_string(report).map_err(|e| {
            StoreError(format!("cannot serialize report {}: {e}", report.report_id))
        })?;
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err("starting transaction", e))?;
        tx.execute(
            "INSERT OR IGNORE INTO reports (report_id, doc_key, timestamp, timestamp_ns, playbook_id,
                playbook_version, playbook_hash, inputs_fingerprint, mode, status, consistency_score, report_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                report.report_id,
                doc_key,
                report.timestamp,
                timestamp_ns(&report.timestamp),
                report.playbook_id,
                report.playbook_version,
                report.integrity.playbook_logic_hash,
                report.integrity.inputs_fingerprint,
                report.execution_mode.as_str(),
                report.summary.overall_status.as_str(),
                report.variance_summary.consistency_score,
                json,
            ],
        )
        .map_err(|e| self.err("saving report", e))?;
        tx.commit().map_err(|e| self.err("saving report", e))
    }

    /// By full id or unique prefix. An ambiguous prefix is an error listing the matches.
    pub fn get_report(&self, id: &str) -> Result<Option<Report>, StoreError> {
        let conn = self.conn();
        match self.resolve_id(&conn, id)? {
            Some(full) => self.report_by_id(&conn, &full),
            None => Ok(None),
        }
    }

    /// The full id for `id` (full id or unique prefix).
    fn resolve_id(&self, conn: &Connection, id: &str) -> Result<Option<String>, StoreError> {
        let id = id.trim();
        if id.is_empty() {
            return Err(StoreError("empty report id".into()));
        }
        let exact: Option<String> = conn
            .query_row(
                "SELECT report_id FROM reports WHERE report_id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err("looking up report", e))?;
        if exact.is_some() {
            return Ok(exact);
        }
        // substr, not LIKE: ids may not contain LIKE wildcards, but a prefix given by a user might.
        const SHOWN: usize = 5;
        let mut stmt = conn
            .prepare("SELECT report_id FROM reports WHERE substr(report_id, 1, length(?1)) = ?1 ORDER BY report_id LIMIT ?2")
            .map_err(|e| self.err("looking up report", e))?;
        let matches = stmt
            .query_map(params![id, SHOWN as i64 + 1], |r| r.get::<_, String>(0))
            .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err("looking up report", e))?;
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

    fn report_by_id(&self, conn: &Connection, id: &str) -> Result<Option<Report>, StoreError> {
        self.query_report(
            conn,
            "SELECT report_json FROM reports WHERE report_id = ?1",
            params![id],
        )
    }

    /// First row of a `SELECT report_json …` query, parsed.
    fn query_report(
        &self,
        conn: &Connection,
        sql: &str,
        params: &[&dyn rusqlite::ToSql],
    ) -> Result<Option<Report>, StoreError> {
        let json: Option<String> = conn
            .query_row(sql, params, |r| r.get(0))
            .optional()
            .map_err(|e| self.err("reading report", e))?;
        json.map(|j| {
            serde_json::from_str(&j).map_err(|e| {
                StoreError(format!(
                    "database {}: a stored report is unreadable: {e}",
                    self.label
                ))
            })
        })
        .transpose()
    }

    /// Newest first; all documents when `doc_key` is `None`. Returns at most `limit` rows.
    pub fn history(
        &self,
        doc_key: Option<&str>,
        limit: usize,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        let conn = self.conn();
        let sql = format!(
            "SELECT r.report_id, r.timestamp, r.doc_key, r.playbook_id, r.playbook_version, r.mode, r.status,
                    r.consistency_score,
                    EXISTS (SELECT 1 FROM baselines b WHERE b.report_id = r.report_id AND b.doc_key = r.doc_key)
             FROM reports r WHERE (?1 IS NULL OR r.doc_key = ?1) {NEWEST_FIRST} LIMIT ?2"
        );
        let mut stmt = conn
            .prepare(&sql)
            .map_err(|e| self.err("reading history", e))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        stmt.query_map(params![doc_key, limit], |r| {
            Ok(HistoryRow {
                report_id: r.get(0)?,
                timestamp: r.get(1)?,
                document: r.get(2)?,
                playbook_id: r.get(3)?,
                playbook_version: r.get(4)?,
                mode: r.get(5)?,
                status: r.get(6)?,
                consistency_score: r.get(7)?,
                is_baseline: r.get(8)?,
            })
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.err("reading history", e))
    }

    /// Most recent report of this document and playbook hash, other than `exclude_id`.
    pub fn latest_report(
        &self,
        doc_key: &str,
        playbook_hash: &str,
        exclude_id: Option<&str>,
    ) -> Result<Option<Report>, StoreError> {
        let conn = self.conn();
        let sql = format!(
            "SELECT report_json FROM reports
             WHERE doc_key = ?1 AND playbook_hash = ?2 AND (?3 IS NULL OR report_id <> ?3)
             {NEWEST_FIRST} LIMIT 1"
        );
        self.query_report(&conn, &sql, params![doc_key, playbook_hash, exclude_id])
    }

    /// Most recent report for identical inputs, playbook and mode (any document path).
    pub fn find_by_inputs(
        &self,
        inputs_fingerprint: &str,
        playbook_hash: &str,
        mode: &str,
    ) -> Result<Option<Report>, StoreError> {
        let conn = self.conn();
        let sql = format!(
            "SELECT report_json FROM reports
             WHERE inputs_fingerprint = ?1 AND playbook_hash = ?2 AND mode = ?3 {NEWEST_FIRST} LIMIT 1"
        );
        self.query_report(
            &conn,
            &sql,
            params![inputs_fingerprint, playbook_hash, mode],
        )
    }

    /// Make a stored report the baseline of `doc_key` for that report's playbook hash,
    /// replacing any earlier baseline. `report_id` may be a unique prefix.
    pub fn save_baseline(&self, doc_key: &str, report_id: &str) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err("starting transaction", e))?;
        let full = self.resolve_id(&tx, report_id)?.ok_or_else(|| {
            StoreError(format!(
                "no report `{}` in {}",
                report_id.trim(),
                self.label
            ))
        })?;
        let hash: String = tx
            .query_row(
                "SELECT playbook_hash FROM reports WHERE report_id = ?1",
                [&full],
                |r| r.get(0),
            )
            .map_err(|e| self.err("saving baseline", e))?;
        tx.execute(
            "INSERT OR REPLACE INTO baselines (doc_key, playbook_hash, report_id, saved_at) VALUES (?1, ?2, ?3, ?4)",
            params![doc_key, hash, full, now_rfc3339()],
        )
        .map_err(|e| self.err("saving baseline", e))?;
        tx.commit().map_err(|e| self.err("saving baseline", e))
    }

    pub fn baseline(
        &self,
        doc_key: &str,
        playbook_hash: &str,
    ) -> Result<Option<Report>, StoreError> {
        let conn = self.conn();
        self.query_report(
            &conn,
            "SELECT r.report_json FROM baselines b JOIN reports r ON r.report_id = b.report_id
             WHERE b.doc_key = ?1 AND b.playbook_hash = ?2",
            params![doc_key, playbook_hash],
        )
    }

    pub fn cached_response(&self, key: &str) -> Result<Option<String>, StoreError> {
        let conn = self.conn();
        conn.query_row(
            "SELECT raw_text FROM responses WHERE cache_key = ?1",
            [key],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| self.err("reading response cache", e))
    }

    /// Store (or replace) the raw evaluator text for a cache key.
    pub fn put_cached_response(
        &self,
        key: &str,
        provider: &str,
        model: &str,
        raw: &str,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err("starting transaction", e))?;
        tx.execute(
            "INSERT OR REPLACE INTO responses (cache_key, provider, model, raw_text, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, provider, model, raw, now_rfc3339()],
        )
        .map_err(|e| self.err("caching response", e))?;
        tx.commit().map_err(|e| self.err("caching response", e))
    }
}

/// Run `op` again while SQLite reports busy/locked, until `BUSY_TIMEOUT` has passed.
fn retry_while_busy<T>(mut op: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match op() {
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
        .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

fn refuse_newer(label: &str, version: u32) -> Result<(), StoreError> {
    if version > SCHEMA_VERSION {
        return Err(StoreError(format!(
            "database {label} was written by a newer byop (schema v{version}); this byop knows up to v{SCHEMA_VERSION}"
        )));
    }
    Ok(())
}

fn open_error(label: &str, what: &str, e: rusqlite::Error) -> StoreError {
    if e.sqlite_error_code() == Some(ErrorCode::NotADatabase) {
        StoreError(format!(
            "{label} is not a byop database (not a SQLite file)"
        ))
    } else {
        StoreError(format!("cannot open database {label}: {what}: {e}"))
    }
}

/// Apply the missing migrations, each in its own immediate transaction. The version
/// is re-read inside the transaction because another process may have migrated first.
fn migrate(conn: &mut Connection, label: &str) -> Result<(), StoreError> {
    loop {
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| open_error(label, "starting migration", e))?;
        let version =
            user_version(&tx).map_err(|e| open_error(label, "reading schema version", e))?;
        refuse_newer(label, version)?;
        let Some(sql) = MIGRATIONS.get(version as usize) else {
            return Ok(()); // up to date; the read-only transaction rolls back on drop
        };
        let next = version + 1;
        tx.execute_batch(sql)
            .and_then(|()| tx.pragma_update(None, "user_version", next))
            .and_then(|()| tx.commit())
            .map_err(|e| {
                StoreError(format!(
                    "cannot migrate database {label} to schema v{next}: {e}"
                ))
            })?;
    }
}

fn timestamp_ns(ts: &str) -> Option<i64> {
    let t = time::OffsetDateTime::parse(ts, &time::format_description::well_known::Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos()).ok()
}

fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playbook::{LoadedPlaybook, builtin};
    use crate::report::*;
    use std::sync::Arc;

    /// Loading the built-in playbook is slow in debug builds; load it once.
    fn playbook() -> &'static LoadedPlaybook {
        static PLAYBOOK: std::sync::OnceLock<LoadedPlaybook> = std::sync::OnceLock::new();
        PLAYBOOK.get_or_init(builtin)
    }

    /// A report shaped like the runner's output: one check per playbook check.
    fn report(id: &str, timestamp: &str, inputs: &str, mode: Mode) -> Report {
        let pb = playbook();
        let checks = pb
            .playbook
            .checks
            .iter()
            .map(|c| CheckResult {
                check_id: c.id.clone(),
                result: Verdict::Fail,
                per_check_confidence: 0.8,
                per_check_consistency: 1.0,
                evidence_citations: vec![Citation {
                    span: "The Receiving Party shall indemnify…".into(),
                    location: "line 3".into(),
                    located: Located::Normalized,
                    range: None,
                    byte_range: Some((10, 42)),
                    context: String::new(),
                }],
                notes: "No escalation statement".into(),
                raw_runs: vec![RawRun {
                    run: 1,
                    result: Verdict::Fail,
                    confidence: 0.8,
                    notes: String::new(),
                    evidence_citations: vec![],
                    error: None,
                    raw_response: None,
                    cached: false,
                }],
                severity: c.severity,
                detection_type: c.detection_method.kind.as_str().into(),
                assumptions: vec!["Delaware law governs".into()],
            })
            .collect();
        Report {
            spec_version: SPEC_VERSION.into(),
            playbook_id: pb.playbook.id.clone(),
            playbook_version: pb.playbook.version.clone(),
            execution_mode: mode,
            timestamp: timestamp.into(),
            summary: Summary {
                overall_status: Status::Review,
                key_risks: vec!["missing escalation".into()],
                recommended_next_steps: vec![],
            },
            check_results: checks,
            variance_summary: VarianceSummary {
                num_runs: 1,
                consistency_score: 0.75,
                divergent_findings: vec![],
            },
            integrity: Integrity {
                playbook_logic_hash: pb.logic_hash.clone(),
                inputs_fingerprint: inputs.into(),
                runner_fingerprint: RUNNER_FINGERPRINT.into(),
            },
            presentation_rules: PresentationRules::default(),
            report_id: id.into(),
            document: DocumentInfo {
                path: "nda.ai.md".into(),
                ..Default::default()
            },
            evaluator: Some(EvaluatorInfo {
                provider: "anthropic".into(),
                model: "claude-sonnet-4-20250514".into(),
            }),
            suppressed: vec![],
            untrusted_input_warnings: vec![],
            notices: vec![],
        }
    }

    fn hash() -> String {
        playbook().logic_hash.clone()
    }

    #[test]
    fn store_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Store>();
    }

    #[test]
    fn fresh_file_gets_schema_and_reopens_with_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/.byop/byop.db");
        let store = Store::open(&path).unwrap();
        store
            .save_report(
                "nda.ai.md",
                &report("r1", "2026-01-01T00:00:00Z", "sha256:in", Mode::Screening),
            )
            .unwrap();
        drop(store);

        let raw = Connection::open(&path).unwrap();
        assert_eq!(user_version(&raw).unwrap(), SCHEMA_VERSION);
        let mode: String = raw
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        drop(raw);

        let store = Store::open(&path).unwrap();
        assert!(store.get_report("r1").unwrap().is_some());
    }

    #[test]
    fn newer_schema_is_refused_with_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("byop.db");
        let raw = Connection::open(&path).unwrap();
        raw.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(raw);
        let err = Store::open(&path).unwrap_err().to_string();
        assert!(err.contains("newer byop"), "{err}");
        assert!(
            err.contains(&format!("schema v{}", SCHEMA_VERSION + 1)),
            "{err}"
        );
        assert!(err.contains(&path.display().to_string()), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_database_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.db");
        std::fs::write(&path, "# Meeting notes\n".repeat(100)).unwrap();
        let err = Store::open(&path).unwrap_err().to_string();
        assert!(err.contains("not a byop database"), "{err}");
        assert!(err.contains(&path.display().to_string()), "{err}");
        // and the file is left untouched
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .starts_with("# Meeting notes")
        );
    }

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
    fn saving_the_same_id_twice_keeps_the_first() {
        let store = Store::open_in_memory().unwrap();
        let first = report("r1", "2026-01-01T00:00:00Z", "sha256:in", Mode::Full);
        store.save_report("doc", &first).unwrap();
        let mut second = first.clone();
        second.notices.push("changed".into());
        store.save_report("doc", &second).unwrap();
        assert_eq!(store.get_report("r1").unwrap(), Some(first));
        assert_eq!(store.history(None, 10).unwrap().len(), 1);
    }

    #[test]
    fn report_without_id_is_rejected() {
        let store = Store::open_in_memory().unwrap();
        assert!(
            store
                .save_report("doc", &report("", "2026-01-01T00:00:00Z", "x", Mode::Full))
                .is_err()
        );
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
        assert_eq!(row.mode, "screening");
        assert_eq!(row.status, "REVIEW");
        assert_eq!(row.consistency_score, 0.75);
        assert_eq!(row.playbook_id, crate::playbook::BUILTIN_ID);
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

    #[test]
    fn baseline_is_saved_under_the_reports_playbook_hash_and_replaced() {
        let store = Store::open_in_memory().unwrap();
        store
            .save_report(
                "a.md",
                &report("r1", "2026-01-01T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        store
            .save_report(
                "a.md",
                &report("r2", "2026-01-02T00:00:00Z", "i", Mode::Full),
            )
            .unwrap();
        assert!(store.baseline("a.md", &hash()).unwrap().is_none());

        store.save_baseline("a.md", "r1").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r1"
        );
        assert!(store.baseline("a.md", "sha256:other").unwrap().is_none());
        assert!(store.baseline("b.md", &hash()).unwrap().is_none());

        store.save_baseline("a.md", "r2").unwrap();
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r2"
        );

        let err = store.save_baseline("a.md", "nope").unwrap_err().to_string();
        assert!(err.contains("nope"), "{err}");
        assert_eq!(
            store.baseline("a.md", &hash()).unwrap().unwrap().report_id,
            "r2"
        );
    }

    #[test]
    fn response_cache_put_get_and_replace() {
        let store = Store::open_in_memory().unwrap();
        assert_eq!(store.cached_response("k1").unwrap(), None);
        store
            .put_cached_response("k1", "anthropic", "claude", "{\"result\":\"pass\"}")
            .unwrap();
        assert_eq!(
            store.cached_response("k1").unwrap().as_deref(),
            Some("{\"result\":\"pass\"}")
        );
        store
            .put_cached_response("k1", "anthropic", "claude", "second")
            .unwrap();
        assert_eq!(
            store.cached_response("k1").unwrap().as_deref(),
            Some("second")
        );
        assert_eq!(store.cached_response("k2").unwrap(), None);
    }

    #[test]
    fn a_poisoned_lock_is_recovered() {
        let store = Arc::new(Store::open_in_memory().unwrap());
        let s = store.clone();
        let _ = std::thread::spawn(move || {
            let _guard = s.conn();
            panic!("writer panicked while holding the connection");
        })
        .join();
        assert!(store.conn.is_poisoned());
        store.put_cached_response("k", "p", "m", "raw").unwrap();
        assert_eq!(store.cached_response("k").unwrap().as_deref(), Some("raw"));
    }

    #[test]
    fn two_processes_writing_at_once_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".byop/byop.db");
        let start = Arc::new(std::sync::Barrier::new(2));
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let (path, start) = (path.clone(), start.clone());
                std::thread::spawn(move || {
                    // each "process" opens its own connection, at the same time, on a fresh file
                    start.wait();
                    let store = Store::open(&path)?;
                    for i in 0..200 {
                        let ts = format!("2026-01-01T00:{:02}:{:02}Z", i / 60, i % 60);
                        store.save_report(
                            &format!("doc{w}.md"),
                            &report(&format!("w{w}-{i:03}"), &ts, "i", Mode::Full),
                        )?;
                    }
                    Ok::<_, StoreError>(())
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap().unwrap();
        }
        let store = Store::open(&path).unwrap();
        let rows = store.history(None, usize::MAX).unwrap();
        assert_eq!(rows.len(), 400);
        for w in 0..2 {
            assert_eq!(
                store
                    .history(Some(&format!("doc{w}.md")), 1000)
                    .unwrap()
                    .len(),
                200
            );
        }
    }
}
