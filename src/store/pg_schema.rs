//! The schema on PostgreSQL: the same migrations as on SQLite (`schema`), in its types,
//! versioned in the `byop_schema` table; each migration is one transaction under an
//! advisory lock, so concurrent starters apply each once. Before anything is written, a
//! store holding objects byop's migrations did not make (a trigger, a rule, a view, a
//! row policy, an expression index, a foreign table), or a table of ours with other
//! columns (`pg_columns`), is refused, as on SQLite.

use super::error::StoreError;
use super::schema::refuse_newer;

/// The same migrations for PostgreSQL: the same tables, columns and indexes, in its
/// types (BIGINT, DOUBLE PRECISION), with a `rowid` column for insertion order.
pub(super) const PG_MIGRATIONS: &[&str] = &[
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
    // v6
    "CREATE TABLE audit_log_unkeyed (
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
    INSERT INTO audit_log_unkeyed SELECT id, request_id, at, document, state, code,
        inputs_fingerprint, playbook_logic_hash, call_json, prev_hash, row_hash FROM audit_log;
    DELETE FROM audit_log;",
    // v7
    "ALTER TABLE audit_log ADD COLUMN decision_id TEXT;",
];

/// The advisory lock migrations take on PostgreSQL ("byopMG").
const PG_MIGRATION_LOCK: i64 = 0x6279_6f70_4d47;

/// Apply the missing PostgreSQL migrations: each in one transaction that first takes the
/// advisory lock, then re-reads the version (another process may have migrated first).
pub(super) fn migrate_postgres(
    client: &mut postgres::Client,
    label: &str,
) -> Result<(), StoreError> {
    let fail = |what: &str, e: postgres::Error| migrate_error(label, what, &e);
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
        refuse_foreign_objects(&mut tx, label, version)?;
        super::pg_columns::refuse_foreign_columns(&mut tx, label, version)?;
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

fn migrate_error(label: &str, what: &str, e: &postgres::Error) -> StoreError {
    let e = super::pg::describe(e);
    StoreError(format!("cannot migrate database {label}: {what}: {e}"))
}

/// The tables byop's migrations (and the version table) make up to `version`.
fn expected_tables(version: u32) -> Vec<String> {
    let mut tables = vec!["byop_schema".to_string()];
    for sql in &PG_MIGRATIONS[..(version as usize).min(PG_MIGRATIONS.len())] {
        let mut words = sql.split_whitespace();
        while let Some(w) = words.next() {
            if w == "TABLE"
                && let Some(name) = words.next()
                && !tables.iter().any(|t| t == name)
            {
                tables.push(name.to_string());
            }
        }
    }
    tables
}

/// What in the store's schema (the connection's current schema) byop did not make:
/// (kind, name) pairs, each query naming one kind of object.
const FOREIGN_OBJECTS: &[(&str, &str)] = &[
    (
        "relation",
        "SELECT c.relname || ' (' || c.relkind::text || ')' FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
           AND NOT (c.relkind = 'r' AND c.relname = ANY($1))",
    ),
    (
        "trigger",
        "SELECT t.tgname || ' on ' || c.relname FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND $1::text[] IS NOT NULL",
    ),
    (
        "rule",
        "SELECT rulename || ' on ' || tablename FROM pg_rules
         WHERE schemaname = current_schema() AND $1::text[] IS NOT NULL",
    ),
    (
        "row policy",
        "SELECT p.polname || ' on ' || c.relname FROM pg_policy p
         JOIN pg_class c ON c.oid = p.polrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND $1::text[] IS NOT NULL",
    ),
    (
        "expression or partial index",
        "SELECT ic.relname FROM pg_index i
         JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = ic.relnamespace
         WHERE n.nspname = current_schema()
           AND (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL) AND $1::text[] IS NOT NULL",
    ),
];

/// Refuse a store whose schema holds anything byop's migrations up to `version` did not
/// make: a trigger, rule or row policy runs or filters on our reads and writes, a view or
/// foreign table is not ours to trust. Checked before anything is written.
fn refuse_foreign_objects(
    tx: &mut postgres::Transaction<'_>,
    label: &str,
    version: u32,
) -> Result<(), StoreError> {
    let expected = expected_tables(version);
    for (kind, sql) in FOREIGN_OBJECTS {
        let found = tx
            .query_opt(&format!("{sql} LIMIT 1"), &[&expected])
            .map_err(|e| migrate_error(label, "reading the schema", &e))?;
        if let Some(row) = found {
            let name: String = row.get(0);
            return Err(StoreError(format!(
                "database {label} holds a {kind} `{name}` that byop did not create; refusing to open it (it could run its own SQL on byop's reads and writes). Give byop a database or schema of its own."
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::schema::MIGRATIONS;
    use super::*;

    #[test]
    fn both_backends_have_every_migration() {
        assert_eq!(MIGRATIONS.len(), PG_MIGRATIONS.len());
    }

    #[test]
    fn the_expected_tables_follow_the_version() {
        assert_eq!(expected_tables(0), ["byop_schema"]);
        let v7 = expected_tables(7);
        for t in [
            "reports",
            "baselines",
            "responses",
            "audit_log",
            "reruns",
            "audit_log_unkeyed",
        ] {
            assert!(v7.iter().any(|n| n == t), "{t}: {v7:?}");
        }
        assert!(!expected_tables(5).iter().any(|n| n == "audit_log_unkeyed"));
    }
}
