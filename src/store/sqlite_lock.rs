//! Waiting for SQLite's write lock: how a busy or locked database is recognised, retried,
//! and waited on while other writers make progress.

use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};

use super::BUSY_TIMEOUT;

/// `BEGIN IMMEDIATE`: the write lock, waited for as long as other writers make
/// progress. SQLite's busy timeout bounds one wait; when it runs out while other
/// connections committed meanwhile (the database's `data_version` moved), the lock is
/// only contended, not stuck, and is waited for again: many processes writing at once
/// queue up instead of failing. A lock held past the timeout with no commit is an error.
pub(super) fn begin_immediate(conn: &Connection) -> Result<rusqlite::Transaction<'_>, String> {
    let version =
        |c: &Connection| c.pragma_query_value(None, "data_version", |r| r.get::<_, i64>(0));
    let mut seen = version(conn).map_err(|e| e.to_string())?;
    loop {
        let busy = match rusqlite::Transaction::new_unchecked(conn, TransactionBehavior::Immediate)
        {
            Ok(tx) => return Ok(tx),
            Err(e) if is_busy(&e) => e,
            Err(e) => return Err(e.to_string()),
        };
        let now = version(conn).map_err(|e| e.to_string())?;
        if now == seen {
            return Err(format!(
                "{busy}: another process held the write lock for {} s without committing",
                BUSY_TIMEOUT.as_secs()
            ));
        }
        seen = now;
        tracing::debug!("the write lock is contended, other writers committing; waiting on");
    }
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Run `op` again while SQLite reports busy/locked, until `BUSY_TIMEOUT` has passed.
pub(super) fn retry_while_busy<T>(
    mut op: impl FnMut() -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match op() {
            Err(e) if is_busy(&e) && std::time::Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}
