//! The schema, versioned with `PRAGMA user_version`: migrations run in order, one
//! `BEGIN IMMEDIATE` transaction each, so two processes opening a fresh file at once
//! cannot both apply the same migration. The same migrations for PostgreSQL are in
//! `pg_schema`.

use rusqlite::{Connection, ErrorCode};

use super::error::StoreError;

/// Ordered schema migrations; migration `i` takes the schema from version `i` to `i + 1`.
pub(super) const MIGRATIONS: &[&str] = &[
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
    // v6: the audit log is chained under a key (HMAC) from here on; rows chained by plain
    // sha256 before are kept apart, as they were, and are not part of the keyed chain.
    "CREATE TABLE audit_log_unkeyed (
        id                  INTEGER PRIMARY KEY,
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
    INSERT INTO audit_log_unkeyed SELECT id, request_id, at, document, state, code,
        inputs_fingerprint, playbook_logic_hash, call_json, prev_hash, row_hash FROM audit_log;
    DELETE FROM audit_log;",
    // v7: every audit row names the decision (report or audit id) its request produced.
    "ALTER TABLE audit_log ADD COLUMN decision_id TEXT;",
    // v8: a document's history, newest first, walked down an index instead of sorting
    // every row of the document (`reports_by_doc` leads with the playbook). The index
    // holds the rowid, the tie-break. A rerun's is `reruns_by_doc`; without a document,
    // `reports_by_time` and `reruns_by_time`.
    "CREATE INDEX reports_history ON reports (doc_key, timestamp_ns);",
    // v9: a MAC over a report's summary columns alone (everything but its JSON), so a
    // long history (the drift chart) is verified without reading every report's JSON.
    // Rows written before it have none and are verified by the whole row's MAC.
    "ALTER TABLE reports ADD COLUMN summary_mac TEXT;",
];

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

/// One schema object: (type, name, table, SQL with whitespace collapsed).
type Object = (String, String, String, String);

/// Refuse a database whose schema holds anything byop's own migrations (up to the
/// database's version) did not create: a trigger or view runs SQL on our reads and
/// writes, a foreign table or a changed definition is not ours to trust. Checked before
/// anything is written.
pub(crate) fn refuse_foreign_schema(
    conn: &Connection,
    label: &str,
    version: u32,
) -> Result<(), StoreError> {
    let expected = expected_schema(version)?;
    let actual = schema_objects(conn).map_err(|e| open_error(label, "reading the schema", e))?;
    for object in &actual {
        if expected.contains(object) {
            continue;
        }
        let (kind, name, _, _) = object;
        let how = if expected.iter().any(|(k, n, _, _)| k == kind && n == name) {
            "a changed definition of"
        } else {
            "a"
        };
        return Err(StoreError(format!(
            "database {label} holds {how} {kind} `{name}` that byop did not create; refusing to open it (a committed or edited store could run its own SQL). Move it aside to start a new store."
        )));
    }
    Ok(())
}

/// The schema byop's migrations give a fresh database at `version`.
fn expected_schema(version: u32) -> Result<Vec<Object>, StoreError> {
    let fail = |e: rusqlite::Error| StoreError(format!("cannot build the expected schema: {e}"));
    let conn = Connection::open_in_memory().map_err(fail)?;
    for sql in &MIGRATIONS[..version.min(SCHEMA_VERSION) as usize] {
        conn.execute_batch(sql).map_err(fail)?;
    }
    schema_objects(&conn).map_err(fail)
}

/// Every object in `sqlite_master` except SQLite's own bookkeeping (its sequence and
/// statistics tables, and the indexes it makes for constraints, which have no SQL).
fn schema_objects(conn: &Connection) -> rusqlite::Result<Vec<Object>> {
    let mut stmt = conn.prepare(
        "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
         WHERE NOT (type = 'table' AND name IN ('sqlite_sequence', 'sqlite_stat1', 'sqlite_stat4'))
           AND NOT (type = 'index' AND sql IS NULL)",
    )?;
    stmt.query_map([], |r| {
        let sql: String = r.get(3)?;
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            sql.split_whitespace().collect::<Vec<_>>().join(" "),
        ))
    })?
    .collect()
}

/// Apply the missing migrations, each in its own immediate transaction. The version
/// is re-read inside the transaction because another process may have migrated first.
pub(super) fn migrate(conn: &Connection, label: &str) -> Result<(), StoreError> {
    loop {
        let tx = super::sqlite_lock::begin_immediate(conn).map_err(|e| {
            StoreError(format!(
                "cannot open database {label}: starting migration: {e}"
            ))
        })?;
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
