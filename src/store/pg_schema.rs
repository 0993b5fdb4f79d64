//! The schema on PostgreSQL: the same migrations as on SQLite (`schema`), in its types,
//! versioned in the `byop_schema` table; each migration is one transaction under an
//! advisory lock, so concurrent starters apply each once. Before anything is written, a
//! store holding objects byop's migrations did not make (a trigger, a rule, a view, a
//! row policy, an expression index, a foreign table), or a table of ours with other
//! columns (`pg_columns`), is refused, as on SQLite.

use super::error::StoreError;
use super::pg_migrations::PG_MIGRATIONS;
use super::schema::refuse_newer;

/// The advisory lock migrations take on PostgreSQL ("byopMG").
const PG_MIGRATION_LOCK: i64 = 0x6279_6f70_4d47;

/// Apply the missing PostgreSQL migrations: each in one transaction that first takes the
/// advisory lock, then re-reads the version (another process may have migrated first).
pub(super) fn migrate_postgres(
    client: &mut postgres::Client,
    label: &str,
) -> Result<(), StoreError> {
    let fail = |what: &str, e: postgres::Error| migrate_error(label, what, &e);
    // The schema is checked for objects and columns byop did not make before the first
    // migration this call applies; the later ones follow byop's own, under the same lock.
    let mut checked = false;
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
        if !checked {
            refuse_foreign_objects(&mut tx, label, version)?;
            super::pg_columns::refuse_foreign_columns(&mut tx, label, version)?;
            checked = true;
        }
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

/// Whether the store is at this byop's schema version and holds nothing byop did not
/// make: read in one round trip (one read-only snapshot, no lock), so a command that
/// finds its store current (nearly always) opens without the migration lock. `false`
/// when it is not (no version table yet, an older or newer version, or the read failed):
/// the caller then takes the migration path, which migrates or refuses with its reason.
/// A foreign object or column is refused here as there.
pub(super) fn is_current(client: &mut postgres::Client, label: &str) -> Result<bool, StoreError> {
    use postgres::SimpleQueryMessage as M;
    let version = super::schema::SCHEMA_VERSION;
    let tables = expected_tables(version);
    let columns = super::pg_columns::expected_columns(version);
    let mut names: Vec<&str> = columns.iter().map(|c| c.0.as_str()).collect();
    names.dedup();
    let mut sql = String::from(
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT version FROM byop_schema;",
    );
    for (_, query) in FOREIGN_OBJECTS {
        sql += &format!("{} LIMIT 1;", query.replace("$1", &text_array(&tables)));
    }
    sql += &format!(
        "{}; COMMIT;",
        super::pg_columns::ACTUAL_COLUMNS.replace("$1", &text_array(&names))
    );
    let Ok(messages) = client.simple_query(&sql) else {
        // No version table (a new store), or the server said no: the migration path
        // takes it from here (with a fresh transaction).
        let _ = client.batch_execute("ROLLBACK");
        return Ok(false);
    };
    // Each statement's rows, in order: BEGIN, the version, the foreign objects, the columns.
    let mut results: Vec<Vec<Vec<String>>> = vec![Vec::new()];
    for m in messages {
        match m {
            M::Row(row) => {
                let cells = (0..row.len())
                    .map(|i| row.get(i).unwrap_or_default().to_string())
                    .collect();
                results.last_mut().expect("one per statement").push(cells);
            }
            M::CommandComplete(_) => results.push(Vec::new()),
            _ => {}
        }
    }
    let first = |i: usize| results.get(i).and_then(|rows| rows.first());
    // Exactly one version row, as the locked path requires (it refuses more than one).
    let found = results
        .get(1)
        .filter(|rows| rows.len() == 1)
        .and_then(|rows| rows[0][0].parse::<u32>().ok());
    if found != Some(version) {
        return Ok(false);
    }
    for (i, (kind, _)) in FOREIGN_OBJECTS.iter().enumerate() {
        if let Some(row) = first(2 + i) {
            return Err(foreign_object(label, kind, &row[0]));
        }
    }
    let actual: Vec<super::pg_columns::Column> = results
        .get(2 + FOREIGN_OBJECTS.len())
        .into_iter()
        .flatten()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone(), r[3] == "t"))
        .collect();
    super::pg_columns::refuse_difference(label, &columns, &actual)?;
    Ok(true)
}

/// `names` as a PostgreSQL text array literal (our own table names: letters and `_`).
fn text_array(names: &[impl AsRef<str>]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|n| format!("'{}'", n.as_ref().replace('\'', "''")))
        .collect();
    format!("ARRAY[{}]::text[]", quoted.join(","))
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
        // The catalog itself rather than the `pg_rules` view, which decompiles every
        // rule's definition: a third of this check's time on a fresh server backend.
        "SELECT r.rulename || ' on ' || c.relname FROM pg_rewrite r
         JOIN pg_class c ON c.oid = r.ev_class JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND r.rulename <> '_RETURN'
           AND $1::text[] IS NOT NULL",
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
            return Err(foreign_object(label, kind, &row.get::<_, String>(0)));
        }
    }
    Ok(())
}

fn foreign_object(label: &str, kind: &str, name: &str) -> StoreError {
    StoreError(format!(
        "database {label} holds a {kind} `{name}` that byop did not create; refusing to open it (it could run its own SQL on byop's reads and writes). Give byop a database or schema of its own."
    ))
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
