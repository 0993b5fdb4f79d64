//! The column-level half of the foreign-schema check on PostgreSQL: every table byop's
//! migrations made must have exactly the columns they gave it, of the same type and
//! nullability. A table of ours with another column (a `DEFAULT` fed from elsewhere, a
//! column a foreign tool reads), a changed type or a dropped `NOT NULL` is refused,
//! naming the table and the column, as SQLite refuses a changed table definition.
//!
//! The expected columns are read from the migrations themselves (the `CREATE TABLE`
//! column lists and `ADD COLUMN` clauses of byop's own constant SQL), so they cannot
//! drift from what the migrations make; a test holds them against a freshly migrated
//! database on a real server.

use super::error::StoreError;
use super::pg_migrations::PG_MIGRATIONS;

/// One column: (table, column, type as `format_type` names it, NOT NULL).
pub(super) type Column = (String, String, String, bool);

/// The columns byop's migrations up to `version` make, in order.
pub(super) fn expected_columns(version: u32) -> Vec<Column> {
    // The version table, made before any migration.
    let mut out: Vec<Column> = vec![(
        "byop_schema".into(),
        "version".into(),
        "integer".into(),
        true,
    )];
    for sql in &PG_MIGRATIONS[..(version as usize).min(PG_MIGRATIONS.len())] {
        for statement in sql.split(';').map(str::trim) {
            let words: Vec<&str> = statement.split_whitespace().collect();
            match words.as_slice() {
                ["CREATE", "TABLE", table, ..] => {
                    let table = table.trim_end_matches('(');
                    let body = statement
                        .find('(')
                        .zip(statement.rfind(')'))
                        .map_or("", |(a, b)| &statement[a + 1..b]);
                    for item in top_level_items(body) {
                        if let Some((name, ty, not_null)) = column_of(item) {
                            out.push((table.to_string(), name, ty, not_null));
                        }
                    }
                }
                ["ALTER", "TABLE", table, "ADD", "COLUMN", ..] => {
                    let item = words[5..].join(" ");
                    if let Some((name, ty, not_null)) = column_of(&item) {
                        out.push((table.to_string(), name, ty, not_null));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// The comma-separated items of a column list, commas inside parentheses kept.
fn top_level_items(body: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&body[start..]);
    items
}

/// A column definition as (name, type, NOT NULL); `None` for a table constraint.
fn column_of(item: &str) -> Option<(String, String, bool)> {
    let words: Vec<&str> = item.split_whitespace().collect();
    let (name, rest) = words.split_first()?;
    if matches!(
        *name,
        "PRIMARY" | "UNIQUE" | "FOREIGN" | "CONSTRAINT" | "CHECK"
    ) {
        return None;
    }
    let constraint = |w: &&str| {
        matches!(
            *w,
            "NOT" | "NULL" | "PRIMARY" | "UNIQUE" | "REFERENCES" | "DEFAULT"
        )
    };
    let ty_end = rest.iter().position(constraint).unwrap_or(rest.len());
    let ty = match rest[..ty_end].join(" ").to_ascii_lowercase().as_str() {
        "bigserial" => "bigint".to_string(),
        other => other.to_string(),
    };
    let text = rest.join(" ");
    // A serial column is NOT NULL, as is a primary key.
    let not_null = text.contains("NOT NULL")
        || text.contains("PRIMARY KEY")
        || ty == "bigint" && text.starts_with("BIGSERIAL");
    Some((name.to_string(), ty, not_null))
}

/// The columns the server holds for `tables` in the store's schema, in order.
pub(super) const ACTUAL_COLUMNS: &str = "SELECT c.relname::text, a.attname::text,
        format_type(a.atttypid, a.atttypmod), a.attnotnull
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY($1)
       AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum";

/// Refuse a store one of whose tables does not have exactly the columns byop's
/// migrations up to `version` gave it: the first difference, naming table and column.
pub(super) fn refuse_foreign_columns(
    tx: &mut postgres::Transaction<'_>,
    label: &str,
    version: u32,
) -> Result<(), StoreError> {
    let expected = expected_columns(version);
    let mut tables: Vec<&str> = expected.iter().map(|c| c.0.as_str()).collect();
    tables.dedup();
    let actual: Vec<Column> = tx
        .query(ACTUAL_COLUMNS, &[&tables])
        .map_err(|e| {
            StoreError(format!(
                "cannot migrate database {label}: reading the columns: {}",
                super::pg::describe(&e)
            ))
        })?
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect();
    refuse_difference(label, &expected, &actual)
}

/// The refusal of a store whose columns differ from the expected ones.
pub(super) fn refuse_difference(
    label: &str,
    expected: &[Column],
    actual: &[Column],
) -> Result<(), StoreError> {
    match column_difference(expected, actual) {
        None => Ok(()),
        Some(why) => Err(StoreError(format!(
            "database {label}: {why}; refusing to open it (byop did not make it so, and its SQL would read or write that table differently). Give byop a database or schema of its own."
        ))),
    }
}

/// The first way `actual` differs from `expected`, in words.
pub(super) fn column_difference(expected: &[Column], actual: &[Column]) -> Option<String> {
    let find =
        |set: &[Column], t: &str, c: &str| set.iter().find(|x| x.0 == t && x.1 == c).cloned();
    for (table, column, ty, not_null) in actual {
        match find(expected, table, column) {
            None => {
                return Some(format!(
                    "table `{table}` has a column `{column}` ({ty}) that byop did not create"
                ));
            }
            Some((_, _, want_ty, want_not_null)) => {
                if *ty != want_ty {
                    return Some(format!(
                        "column `{table}.{column}` is {ty}, byop made it {want_ty}"
                    ));
                }
                if *not_null != want_not_null {
                    let (is, made) = if *not_null {
                        ("NOT NULL", "nullable")
                    } else {
                        ("nullable", "NOT NULL")
                    };
                    return Some(format!(
                        "column `{table}.{column}` is {is}, byop made it {made}"
                    ));
                }
            }
        }
    }
    // A table missing altogether is not ours to judge here: its absence fails byop's
    // own statements with the server's message.
    let present = |t: &str| actual.iter().any(|a| a.0 == t);
    expected
        .iter()
        .find(|(t, c, _, _)| present(t) && find(actual, t, c).is_none())
        .map(|(t, c, _, _)| format!("table `{t}` lacks the column `{c}` byop created"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(cols: &[Column], t: &str, c: &str, ty: &str, nn: bool) -> bool {
        cols.contains(&(t.into(), c.into(), ty.into(), nn))
    }

    #[test]
    fn the_expected_columns_are_read_from_the_migrations() {
        let v7 = expected_columns(7);
        assert!(has(&v7, "reports", "rowid", "bigint", true));
        assert!(has(
            &v7,
            "reports",
            "consistency_score",
            "double precision",
            true
        ));
        assert!(has(&v7, "reports", "timestamp_ns", "bigint", false));
        assert!(has(&v7, "reports", "mac", "text", false));
        assert!(has(&v7, "baselines", "doc_key", "text", true));
        assert!(has(&v7, "audit_log", "decision_id", "text", false));
        assert!(has(&v7, "byop_schema", "version", "integer", true));
        // No table constraint is taken for a column.
        assert!(!v7.iter().any(|c| c.1 == "PRIMARY"));
        // Columns follow the version.
        assert!(!expected_columns(6).iter().any(|c| c.1 == "decision_id"));
        assert_eq!(expected_columns(0).len(), 1);
    }

    #[test]
    fn a_difference_names_the_table_and_the_column() {
        let expected = expected_columns(1);
        let mut actual = expected.clone();
        assert_eq!(column_difference(&expected, &actual), None);
        actual.push(("reports".into(), "spy".into(), "text".into(), false));
        let why = column_difference(&expected, &actual).unwrap();
        assert!(why.contains("`reports`") && why.contains("`spy`"), "{why}");
        actual.pop();
        let i = actual.iter().position(|c| c.1 == "raw_text").unwrap();
        actual[i].2 = "bytea".into();
        let why = column_difference(&expected, &actual).unwrap();
        assert!(why.contains("`responses.raw_text` is bytea"), "{why}");
        actual[i].2 = "text".into();
        actual[i].3 = false;
        let why = column_difference(&expected, &actual).unwrap();
        assert!(why.contains("`responses.raw_text` is nullable"), "{why}");
        actual.remove(i);
        let why = column_difference(&expected, &actual).unwrap();
        assert!(why.contains("lacks the column `raw_text`"), "{why}");
    }
}
