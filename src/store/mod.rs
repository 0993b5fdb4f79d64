//! The store: reports, reruns, baselines, the evaluator response cache, counterfactual
//! audits and the audit log, in an embedded SQLite file (the default, no set-up) or on a
//! team's PostgreSQL server. Both speak through one interface ([`db::Sql`]), so the
//! store's logic is written once.
//!
//! The schema is versioned (see `schema`); migrations run in order, one transaction
//! each, serialised between processes (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: an
//! advisory lock). Writes are serialised the same way, so a drift reference is always a
//! whole report and a rerun is counted once; reads never wait for writes (WAL / MVCC).
//! Nothing here takes an API key.
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rusqlite::Connection;

mod audit;
mod audit_head;
mod audit_merge;
mod audit_verify;
mod baselines;
mod batch_save;
#[cfg(test)]
mod both_backends;
mod cache;
mod counterfactual;
pub(crate) mod db;
mod drift;
mod drift_inputs;
mod error;
mod history;
mod history_keys;
pub mod location;
mod mac;
pub mod pg;
mod pg_columns;
mod pg_migrations;
mod pg_schema;
mod prune;
mod report_reads;
mod reports;
mod reruns;
mod schema;
pub mod secret;
mod sqlite_lock;
pub mod team_copy;
#[cfg(test)]
mod test_support;
mod transactions;
mod transfer;

pub use crate::model::HistoryRow;
pub use audit_verify::{ChainBreak, Verified};
pub use cache::DocCache;
pub use drift::Run;
pub use drift_inputs::{DriftInputs, Series};
pub use error::StoreError;
pub use history::{HistoryPage, HistoryQuery};
pub use history_keys::{Cursor, PageAt};
pub use location::Location;
pub use prune::{PruneRules, Pruned};
pub use reports::{PreparedReport, Seen};
pub use schema::SCHEMA_VERSION;
use schema::{migrate, open_error, refuse_foreign_schema, refuse_newer, user_version};
pub use transfer::{Line, Moved, transfer_key};

/// How long a writer waits for another process's write lock while nobody commits (while
/// others do, it waits on: see `sqlite_lock::begin_immediate`).
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

enum Backend {
    /// One connection behind a mutex. Each process (or each `open`) gets its own
    /// connection; WAL and the busy timeout let them write concurrently.
    Sqlite(Mutex<Connection>),
    /// A pool of connections to the server (taken out only when the store is dropped).
    Postgres(Option<pg::Pool>),
}

/// `Send + Sync`.
pub struct Store {
    backend: Backend,
    /// Shown in errors: the file path, `:memory:`, or the server URL without its password.
    label: String,
    /// The key rows are authenticated with: the per-user key for a file, the team key
    /// for a server (see `secret`).
    key: [u8; 32],
    /// The key the audit log is chained under: the per-user key unless the caller
    /// chooses another (a team's key, to verify the log elsewhere).
    chain_key: [u8; 32],
    /// Where the audit log's head is kept, outside the database (none in memory or
    /// without a user data folder).
    head_path: Option<PathBuf>,
    /// Rows met that did not verify (ignored), for a notice.
    rejected: AtomicU64,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.label).finish()
    }
}

impl Store {
    /// Open the store `path` names (a file, or a URL: see [`Location`]). A file's rows
    /// are keyed with the per-user key (without a user folder, a key for this process
    /// only, with a warning; a key file others may read is an error), so a committed or
    /// shared file never verifies; a server's with the team key, which it needs.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        match Location::parse(path)? {
            Location::File(file) => {
                let key = match secret::user_key() {
                    Ok(key) => key,
                    Err(secret::KeyError::Refused(e)) => return Err(e),
                    Err(secret::KeyError::Unavailable(e)) => {
                        tracing::warn!("store key: {e}; stored rows will not verify across runs");
                        secret::ephemeral_key()
                    }
                };
                Self::open_with_key(&file, key)
            }
            Location::Postgres(url) => {
                let key = secret::team_key()?.ok_or_else(|| {
                    StoreError(format!(
                        "{}: a team store needs the team key: set BYOP_STORE_KEY (64 hex digits, the same for every member; `openssl rand -hex 32` makes one)",
                        location::redact(&url)
                    ))
                })?;
                Self::open_postgres(&url, key)
            }
        }
    }

    /// Open a PostgreSQL store at `url` with `key`, migrating its schema.
    pub fn open_postgres(url: &str, key: [u8; 32]) -> Result<Store, StoreError> {
        Self::open_postgres_within(url, key, None)
    }

    /// The same, a connection not made within `timeout` (default 10 s) being an error.
    pub fn open_postgres_within(
        url: &str,
        key: [u8; 32],
        timeout: Option<Duration>,
    ) -> Result<Store, StoreError> {
        let label = location::redact(url);
        let pool = pg::connect(url, timeout)?;
        // The audit head this user last saw of the server's log, kept in their data
        // folder under the URL without its password.
        let head_path =
            secret::data_dir().map(|dir| audit_head::head_path(&dir, Path::new(&label)));
        let store = Store {
            backend: Backend::Postgres(Some(pool)),
            label,
            key,
            chain_key: key,
            head_path,
            rejected: AtomicU64::new(0),
        };
        store.migrate_postgres()?;
        Ok(store)
    }

    /// Open (creating folders and schema), WAL, busy_timeout, migrations. `path` may be
    /// a URL naming a file (see [`Location`]); a server URL is refused here, before
    /// anything is created, so it never becomes a folder named after it.
    pub fn open_with_key(path: &Path, key: [u8; 32]) -> Result<Store, StoreError> {
        let path = match Location::parse(path)? {
            Location::File(p) => p,
            server @ Location::Postgres(_) => {
                return Err(StoreError(format!(
                    "{}: a server store is opened with Store::open",
                    server.shown()
                )));
            }
        };
        let path = path.as_path();
        let label = path.display().to_string();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            secret::private_dir(parent)?;
        }
        secret::create_private_file(path)?;
        let conn = Connection::open(path)
            .map_err(|e| StoreError(format!("cannot open database {label}: {e}")))?;
        let mut store = Self::init(conn, label, true, key)?;
        store.head_path = secret::data_dir().map(|dir| {
            let db = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            audit_head::head_path(&dir, &db)
        });
        Ok(store)
    }

    /// Chain the audit log under `key` instead of the per-user key (a team's key, so the
    /// log verifies wherever that key is known).
    pub fn with_chain_key(mut self, key: [u8; 32]) -> Store {
        self.chain_key = key;
        self
    }
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory()
            .map_err(|e| StoreError(format!("cannot open in-memory database: {e}")))?;
        Self::init(conn, ":memory:".to_string(), false, secret::ephemeral_key())
    }
    /// The database as given to `open` (`:memory:` for in-memory stores; a server's URL
    /// without its password).
    pub fn path(&self) -> PathBuf {
        PathBuf::from(&self.label)
    }
    /// Whether this store is on a server.
    pub fn is_server(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }
    fn init(
        conn: Connection,
        label: String,
        wal: bool,
        key: [u8; 32],
    ) -> Result<Store, StoreError> {
        let fail = |what: &str, e: rusqlite::Error| open_error(&label, what, e);
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| fail("setting busy timeout", e))?;
        // The first read of the file: a non-database fails here, before we write anything.
        // The version and the schema are read in one read transaction, so a migration
        // another process commits in between is never seen half (a newer table under an
        // older version number would look like a foreign definition).
        conn.execute_batch("BEGIN")
            .map_err(|e| fail("reading schema version", e))?;
        let checked = user_version(&conn)
            .map_err(|e| fail("reading schema version", e))
            .and_then(|version| {
                refuse_newer(&label, version)?;
                refuse_foreign_schema(&conn, &label, version).map(|()| version)
            });
        let _ = conn.execute_batch("COMMIT");
        let version = checked?;
        if wal {
            // Switching journal mode can report "locked" without consulting the busy
            // handler while another connection is opening the same fresh file; retry.
            sqlite_lock::retry_while_busy(|| {
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
        // Up to date: opening takes no write lock, so a process starting while others
        // write does not queue behind them just to read the version.
        if version < schema::SCHEMA_VERSION {
            migrate(&conn, &label)?;
        }
        Ok(Store {
            backend: Backend::Sqlite(Mutex::new(conn)),
            label,
            key,
            chain_key: key,
            head_path: None,
            rejected: AtomicU64::new(0),
        })
    }

    pub(crate) fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// A row that did not verify: ignored, counted, logged.
    pub(crate) fn reject(&self, what: &str) {
        self.rejected.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(
            "{what} in {} failed its integrity check and was ignored",
            self.label
        );
    }

    /// How many stored rows failed their integrity check since the last call, as a notice.
    pub fn integrity_notice(&self) -> Option<String> {
        let n = self.rejected.swap(0, Ordering::Relaxed);
        (n > 0).then(|| {
            format!(
                "{n} stored row(s) in {} failed their integrity check (written elsewhere or edited) and were ignored.",
                self.label
            )
        })
    }

    /// An error of either backend, about `what`, with any password scrubbed.
    fn fail(&self, what: &str, e: impl std::fmt::Display) -> StoreError {
        StoreError(format!("database {}: {what}: {e}", self.label))
    }

    /// The same, from the SQL interface's error text.
    pub(crate) fn err(&self, what: &str, e: String) -> StoreError {
        self.fail(what, e)
    }
}

/// Report timestamps as Unix nanoseconds, for ordering (`None` when unparseable).
pub(crate) fn timestamp_ns(ts: &str) -> Option<i64> {
    let t = time::OffsetDateTime::parse(ts, &time::format_description::well_known::Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos()).ok()
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use crate::model::*;
    use rusqlite::Connection;
    use std::sync::Arc;

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
    fn a_poisoned_lock_is_recovered() {
        let store = Arc::new(Store::open_in_memory().unwrap());
        let s = store.clone();
        let _ = std::thread::spawn(move || {
            let _guard = s.conn();
            panic!("writer panicked while holding the connection");
        })
        .join();
        assert!(matches!(&store.backend, Backend::Sqlite(m) if m.is_poisoned()));
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
