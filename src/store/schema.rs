//! The schema, versioned with `PRAGMA user_version` (SQLite) or the `byop_schema`
//! table (PostgreSQL): migrations run in order, one transaction each, serialised between
//! processes (`BEGIN IMMEDIATE`; an advisory lock), so two processes opening a fresh
//! store at once cannot both apply the same migration.

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

use super::error::StoreError;

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
    // v2: rows bound to the per-user key; the audit log.
    "ALTER TABLE reports ADD COLUMN mac TEXT;
    ALTER TABLE responses ADD COLUMN mac TEXT;
    ALTER TABLE baselines ADD COLUMN mac TEXT;
    CREATE TABLE audit_log (
        id                  INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id          TEXT NOT NULL,
        at                  TEXT NOT NULL,
        document            TEXT NOT NULL,
        state               TEXT NOT NULL,
        code                TEXT,
        inputs_fingerprint  TEXT,
        playbook_logic_hash TEXT,
        call_json           TEXT,
        prev_hash           TEXT NOT NULL,
        row_hash            TEXT NOT NULL
    );
    CREATE INDEX audit_by_document ON audit_log (document, id);
    CREATE INDEX audit_by_request ON audit_log (request_id, id);",
    // v3: which document a cached response was asked for, so pruning can drop it with
    // the document (not covered by the row's MAC: it only decides what pruning removes).
    "ALTER TABLE responses ADD COLUMN doc_key TEXT;
    CREATE INDEX responses_by_doc ON responses (doc_key);
    CREATE INDEX responses_by_time ON responses (created_at);",
    // v4: counterfactual audits.
    "CREATE TABLE counterfactual_audits (
        audit_id         TEXT PRIMARY KEY NOT NULL,
        doc_key          TEXT NOT NULL,
        timestamp        TEXT NOT NULL,
        timestamp_ns     INTEGER,
        playbook_id      TEXT NOT NULL,
        playbook_version TEXT NOT NULL,
        audit_json       TEXT NOT NULL,
        mac              TEXT
    );
    CREATE INDEX counterfactual_by_doc ON counterfactual_audits (doc_key, timestamp_ns);
    CREATE INDEX counterfactual_by_time ON counterfactual_audits (timestamp_ns);",
    // v5: an unchanged result is stored once; each rerun that repeated it is a
    // small row (its own id and time) pointing at the stored report.
    "CREATE TABLE reruns (
        rerun_id     TEXT PRIMARY KEY NOT NULL,
        report_id    TEXT NOT NULL REFERENCES reports (report_id) ON DELETE CASCADE,
        doc_key      TEXT NOT NULL,
        timestamp    TEXT NOT NULL,
        timestamp_ns INTEGER NOT NULL,
        mac          TEXT
    );
    CREATE INDEX reruns_by_doc ON reruns (doc_key, timestamp_ns);
    CREATE INDEX reruns_by_time ON reruns (timestamp_ns);",
];

/// The same migrations for PostgreSQL: the same tables, columns and indexes, in its
/// types (BIGINT, DOUBLE PRECISION), with a `rowid` column for insertion order.
const PG_MIGRATIONS: &[&str] = &[
    // v1
    "CREATE TABLE reports (
        rowid              BIGSERIAL UNIQUE,
        report_id          TEXT PRIMARY KEY NOT NULL,
        doc_key            TEXT NOT NULL,
        timestamp          TEXT NOT NULL,
        timestamp_ns       BIGINT,
        playbook_id        TEXT NOT NULL,
        playbook_version   TEXT NOT NULL,
        playbook_hash      TEXT NOT NULL,
        inputs_fingerprint TEXT NOT NULL,
        mode               TEXT NOT NULL,
        status             TEXT NOT NULL,
        consistency_score  DOUBLE PRECISION NOT NULL,
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
    // v2
    "ALTER TABLE reports ADD COLUMN mac TEXT;
    ALTER TABLE responses ADD COLUMN mac TEXT;
    ALTER TABLE baselines ADD COLUMN mac TEXT;
    CREATE TABLE audit_log (
        id                  BIGINT PRIMARY KEY,
        request_id          TEXT NOT NULL,
        at                  TEXT NOT NULL,
        document            TEXT NOT NULL,
        state               TEXT NOT NULL,
        code                TEXT,
        inputs_fingerprint  TEXT,
        playbook_logic_hash TEXT,
        call_json           TEXT,
        prev_hash           TEXT NOT NULL,
        row_hash            TEXT NOT NULL
    );
    CREATE INDEX audit_by_document ON audit_log (document, id);
    CREATE INDEX audit_by_request ON audit_log (request_id, id);",
    // v3
    "ALTER TABLE responses ADD COLUMN doc_key TEXT;
    CREATE INDEX responses_by_doc ON responses (doc_key);
    CREATE INDEX responses_by_time ON responses (created_at);",
    // v4
    "CREATE TABLE counterfactual_audits (
        rowid            BIGSERIAL UNIQUE,
        audit_id         TEXT PRIMARY KEY NOT NULL,
        doc_key          TEXT NOT NULL,
        timestamp        TEXT NOT NULL,
        timestamp_ns     BIGINT,
        playbook_id      TEXT NOT NULL,
        playbook_version TEXT NOT NULL,
        audit_json       TEXT NOT NULL,
        mac              TEXT
    );
    CREATE INDEX counterfactual_by_doc ON counterfactual_audits (doc_key, timestamp_ns);
    CREATE INDEX counterfactual_by_time ON counterfactual_audits (timestamp_ns);",
    // v5
    "CREATE TABLE reruns (
        rowid        BIGSERIAL UNIQUE,
        rerun_id     TEXT PRIMARY KEY NOT NULL,
        report_id    TEXT NOT NULL REFERENCES reports (report_id) ON DELETE CASCADE,
        doc_key      TEXT NOT NULL,
        timestamp    TEXT NOT NULL,
        timestamp_ns BIGINT NOT NULL,
        mac          TEXT
    );
    CREATE INDEX reruns_by_doc ON reruns (doc_key, timestamp_ns);
    CREATE INDEX reruns_by_time ON reruns (timestamp_ns);",
];

/// The advisory lock migrations take on PostgreSQL ("byopMG").
const PG_MIGRATION_LOCK: i64 = 0x6279_6f70_4d47;

/// Apply the missing PostgreSQL migrations: each in one transaction that first takes the
/// advisory lock, then re-reads the version (another process may have migrated first).
pub(super) fn migrate_postgres(
    client: &mut postgres::Client,
    label: &str,
) -> Result<(), StoreError> {
    let fail = |what: &str, e: postgres::Error| {
        let e = super::pg::describe(&e);
        StoreError(format!("cannot migrate database {label}: {what}: {e}"))
    };
    loop {
        let mut tx = client.transaction().map_err(|e| fail("starting", e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&PG_MIGRATION_LOCK])
            .map_err(|e| fail("locking", e))?;
        // Looked up before created: a writer role without CREATE can open a migrated store.
        let exists: bool = tx
            .query_one("SELECT to_regclass('byop_schema') IS NOT NULL", &[])
            .map_err(|e| fail("reading the version", e))?
            .get(0);
        if !exists {
            tx.batch_execute("CREATE TABLE byop_schema (version INTEGER NOT NULL)")
                .map_err(|e| fail("creating the version table", e))?;
        }
        let version = tx
            .query_opt("SELECT version FROM byop_schema", &[])
            .map_err(|e| fail("reading the version", e))?
            .map_or(0, |r| r.get::<_, i32>(0));
        let version = u32::try_from(version).unwrap_or(0);
        refuse_newer(label, version)?;
        let Some(sql) = PG_MIGRATIONS.get(version as usize) else {
            return tx.commit().map_err(|e| fail("committing", e));
        };
        let next = version + 1;
        tx.batch_execute(sql)
            .and_then(|()| tx.execute("DELETE FROM byop_schema", &[]).map(|_| ()))
            .and_then(|()| {
                tx.execute(
                    "INSERT INTO byop_schema (version) VALUES ($1)",
                    &[&(next as i32)],
                )
                .map(|_| ())
            })
            .and_then(|()| tx.commit())
            .map_err(|e| fail(&format!("to schema v{next}"), e))?;
    }
}

/// Schema version this binary writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub(super) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
        .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

pub(super) fn refuse_newer(label: &str, version: u32) -> Result<(), StoreError> {
    if version > SCHEMA_VERSION {
        return Err(StoreError(format!(
            "database {label} was written by a newer byop (schema v{version}); this byop knows up to v{SCHEMA_VERSION}"
        )));
    }
    Ok(())
}

pub(super) fn open_error(label: &str, what: &str, e: rusqlite::Error) -> StoreError {
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
pub(super) fn migrate(conn: &mut Connection, label: &str) -> Result<(), StoreError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_every_migration() {
        assert_eq!(MIGRATIONS.len(), PG_MIGRATIONS.len());
    }
}
