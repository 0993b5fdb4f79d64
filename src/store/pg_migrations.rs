//! The store's migrations in PostgreSQL's dialect, read by the migrator (`pg_schema`) and
//! by the column check (`pg_columns`).

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
    // v8: the history walked newest first: in the query's order (an unparseable time
    // last, then by insertion), for one document and for all.
    "CREATE INDEX reports_history ON reports (doc_key, timestamp_ns DESC NULLS LAST, rowid DESC);
    CREATE INDEX reports_newest ON reports (timestamp_ns DESC NULLS LAST, rowid DESC);
    CREATE INDEX reruns_history ON reruns (doc_key, timestamp_ns DESC, rowid DESC);
    CREATE INDEX reruns_newest ON reruns (timestamp_ns DESC, rowid DESC);",
    // v9: the summary columns' own MAC (see the SQLite migrations).
    "ALTER TABLE reports ADD COLUMN summary_mac TEXT;",
];
