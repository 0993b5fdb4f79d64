//! The one interface the store speaks SQL through, implemented by both backends (the
//! embedded SQLite file and a PostgreSQL server), so everything the store does — the
//! MACs, drift references, reruns, the audit chain — is written once.
//!
//! Statements are written once, in the SQL both accept: `?N` placeholders (turned into
//! `$N` for PostgreSQL), `INSERT … ON CONFLICT`, explicit `CAST`s where PostgreSQL needs
//! a parameter's type, and `rowid` for insertion order (a column of that name on
//! PostgreSQL).

use super::error::StoreError;

/// A parameter or column value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl From<&str> for Val {
    fn from(s: &str) -> Val {
        Val::Text(s.to_string())
    }
}
impl From<&String> for Val {
    fn from(s: &String) -> Val {
        Val::Text(s.clone())
    }
}
impl From<String> for Val {
    fn from(s: String) -> Val {
        Val::Text(s)
    }
}
impl From<i64> for Val {
    fn from(i: i64) -> Val {
        Val::Int(i)
    }
}
impl From<f64> for Val {
    fn from(f: f64) -> Val {
        Val::Real(f)
    }
}
impl<T: Into<Val>> From<Option<T>> for Val {
    fn from(v: Option<T>) -> Val {
        v.map_or(Val::Null, Into::into)
    }
}

/// Parameters: `vals![a, b, c]`.
macro_rules! vals {
    ($($v:expr),* $(,)?) => { &[$($crate::store::db::Val::from($v)),*][..] };
}
pub(crate) use vals;

/// One result row.
#[derive(Debug, Clone)]
pub(crate) struct Row(pub(crate) Vec<Val>);

impl Row {
    fn at(&self, i: usize) -> Result<&Val, String> {
        self.0.get(i).ok_or_else(|| format!("no column {i}"))
    }
    pub(crate) fn text(&self, i: usize) -> Result<String, String> {
        self.opt_text(i)?
            .ok_or_else(|| format!("column {i} is NULL"))
    }
    pub(crate) fn opt_text(&self, i: usize) -> Result<Option<String>, String> {
        match self.at(i)? {
            Val::Null => Ok(None),
            Val::Text(s) => Ok(Some(s.clone())),
            other => Err(format!("column {i} is not text: {other:?}")),
        }
    }
    pub(crate) fn int(&self, i: usize) -> Result<i64, String> {
        self.opt_int(i)?
            .ok_or_else(|| format!("column {i} is NULL"))
    }
    pub(crate) fn opt_int(&self, i: usize) -> Result<Option<i64>, String> {
        match self.at(i)? {
            Val::Null => Ok(None),
            Val::Int(n) => Ok(Some(*n)),
            other => Err(format!("column {i} is not an integer: {other:?}")),
        }
    }
    pub(crate) fn real(&self, i: usize) -> Result<f64, String> {
        match self.at(i)? {
            Val::Real(f) => Ok(*f),
            Val::Int(n) => Ok(*n as f64),
            other => Err(format!("column {i} is not a number: {other:?}")),
        }
    }
    pub(crate) fn flag(&self, i: usize) -> Result<bool, String> {
        Ok(self.int(i)? != 0)
    }
}

/// A connection inside a transaction, on either backend.
pub(crate) trait Sql {
    fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Row>, String>;
    /// The number of rows changed.
    fn execute(&mut self, sql: &str, params: &[Val]) -> Result<u64, String>;
    /// The first row, if any.
    fn query_opt(&mut self, sql: &str, params: &[Val]) -> Result<Option<Row>, String> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Val::Null => ValueRef::Null,
            Val::Int(i) => ValueRef::Integer(*i),
            Val::Real(f) => ValueRef::Real(*f),
            Val::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

/// A SQLite connection (or transaction) as the store's SQL interface.
pub(crate) struct Lite<'a>(pub(crate) &'a rusqlite::Connection);

impl Sql for Lite<'_> {
    fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Row>, String> {
        use rusqlite::types::ValueRef;
        let mut stmt = self.0.prepare_cached(sql).map_err(|e| e.to_string())?;
        let n = stmt.column_count();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params.iter()))
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(|e| e.to_string())? {
            let mut row = Vec::with_capacity(n);
            for i in 0..n {
                row.push(match r.get_ref(i).map_err(|e| e.to_string())? {
                    ValueRef::Null => Val::Null,
                    ValueRef::Integer(i) => Val::Int(i),
                    ValueRef::Real(f) => Val::Real(f),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Val::Text(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            out.push(Row(row));
        }
        Ok(out)
    }
    fn execute(&mut self, sql: &str, params: &[Val]) -> Result<u64, String> {
        let mut stmt = self.0.prepare_cached(sql).map_err(|e| e.to_string())?;
        stmt.execute(rusqlite::params_from_iter(params.iter()))
            .map(|n| n as u64)
            .map_err(|e| e.to_string())
    }
}

/// Visit the rows of `sql` (a query without LIMIT) in order, a page at a time (small
/// pages first: most callers stop at the first row), until `visit` returns false.
pub(crate) fn each_row(
    tx: &mut dyn Sql,
    sql: &str,
    params: &[Val],
    fail: &dyn Fn(String) -> StoreError,
    mut visit: impl FnMut(Row) -> Result<bool, StoreError>,
) -> Result<(), StoreError> {
    let (mut page, mut offset) = (4usize, 0usize);
    loop {
        let rows = tx
            .query(&format!("{sql} LIMIT {page} OFFSET {offset}"), params)
            .map_err(fail)?;
        let n = rows.len();
        for row in rows {
            if !visit(row)? {
                return Ok(());
            }
        }
        if n < page {
            return Ok(());
        }
        offset += page;
        page = (page * 4).min(256);
    }
}

/// `?N` placeholders as `$N`, outside quoted text.
pub(crate) fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    for c in sql.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => out.push('$'),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_quotes() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d = $12"
        );
    }

    #[test]
    fn rows_read_typed_values() {
        let row = Row(vec![
            Val::Text("a".into()),
            Val::Null,
            Val::Int(1),
            Val::Real(0.5),
        ]);
        assert_eq!(row.text(0).unwrap(), "a");
        assert_eq!(row.opt_text(1).unwrap(), None);
        assert!(row.text(1).is_err());
        assert!(row.flag(2).unwrap());
        assert_eq!(row.real(3).unwrap(), 0.5);
        assert_eq!(row.real(2).unwrap(), 1.0);
        assert!(row.int(0).is_err());
    }
}
