//! Transactions on either backend: a consistent read (a read-only snapshot on a server),
//! one write at a time (SQLite `BEGIN IMMEDIATE`; PostgreSQL an advisory lock), the
//! server's migrations and `VACUUM`, and the connection pool's lifetime.

use std::sync::{Mutex, MutexGuard};

use rusqlite::Connection;

use super::sqlite_lock::begin_immediate;

use super::db::{self, Sql};
use super::{Backend, Store, StoreError, pg, pg_schema};

/// The PostgreSQL advisory lock every write transaction takes: writers one at a time,
/// as on SQLite, so "the newest report of this document" cannot change mid-write.
const PG_WRITE_LOCK: i64 = 0x6279_6f70_5752; // "byopWR"

impl Store {
    /// Whether the store answers (a server may have gone away since it was opened).
    pub fn ping(&self) -> Result<(), StoreError> {
        self.read("reaching the store", |tx| {
            tx.query("SELECT 1", &[])
                .map(drop)
                .map_err(|e| self.err("reaching the store", e))
        })
    }
    /// The SQLite connection. A poisoned lock only means another thread panicked
    /// mid-call; SQLite rolled back its transaction, so the connection is consistent.
    pub(super) fn conn(&self) -> MutexGuard<'_, Connection> {
        match &self.backend {
            Backend::Sqlite(m) => lock(m),
            Backend::Postgres(_) => panic!("not a SQLite store"),
        }
    }

    /// Run `op` on a consistent view of the store (a read-only snapshot on a server).
    pub(crate) fn read<R: Send>(
        &self,
        what: &str,
        op: impl FnOnce(&mut dyn Sql) -> Result<R, StoreError> + Send,
    ) -> Result<R, StoreError> {
        match &self.backend {
            Backend::Sqlite(m) => op(&mut db::Lite(&lock(m))),
            Backend::Postgres(pool) => pg::on_own_thread(|| {
                let mut op = Some(op);
                for attempt in 0..=pg::POOL_SIZE {
                    let mut client = self.pg_client(pool)?;
                    let mut tx = match client
                        .build_transaction()
                        .read_only(true)
                        .isolation_level(postgres::IsolationLevel::RepeatableRead)
                        .start()
                    {
                        Ok(tx) => tx,
                        Err(e) if attempt < pg::POOL_SIZE && lost(&e) => continue,
                        Err(e) => return Err(self.fail(what, pg::describe(&e))),
                    };
                    let op = op.take().expect("run once");
                    let out = op(&mut pg::Tx::new(&mut tx))?;
                    tx.commit().map_err(|e| self.fail(what, pg::describe(&e)))?;
                    return Ok(out);
                }
                unreachable!("the last attempt returns")
            }),
        }
    }

    /// Run `op` in one write transaction, writers one at a time; committed when `op`
    /// succeeds and `commit` is true, else rolled back.
    pub(crate) fn write<R: Send>(
        &self,
        what: &str,
        commit: bool,
        op: impl FnOnce(&mut dyn Sql) -> Result<R, StoreError> + Send,
    ) -> Result<R, StoreError> {
        match &self.backend {
            Backend::Sqlite(m) => {
                let conn = lock(m);
                let tx =
                    begin_immediate(&conn).map_err(|e| self.fail("starting transaction", e))?;
                let out = op(&mut db::Lite(&tx))?;
                if commit {
                    tx.commit().map_err(|e| self.fail(what, e))?;
                }
                Ok(out)
            }
            Backend::Postgres(pool) => pg::on_own_thread(|| {
                let mut op = Some(op);
                for attempt in 0..=pg::POOL_SIZE {
                    let mut client = self.pg_client(pool)?;
                    let mut tx = match client.transaction() {
                        Ok(tx) => tx,
                        Err(e) if attempt < pg::POOL_SIZE && lost(&e) => continue,
                        Err(e) => return Err(self.fail(what, pg::describe(&e))),
                    };
                    tx.execute_typed(
                        "SELECT pg_advisory_xact_lock($1)",
                        &[(&PG_WRITE_LOCK, postgres::types::Type::INT8)],
                    )
                    .map_err(|e| self.fail(what, pg::describe(&e)))?;
                    let op = op.take().expect("run once");
                    let out = op(&mut pg::Tx::new(&mut tx))?;
                    if commit {
                        tx.commit().map_err(|e| self.fail(what, pg::describe(&e)))?;
                    }
                    return Ok(out);
                }
                unreachable!("the last attempt returns")
            }),
        }
    }

    /// PostgreSQL: `VACUUM` (outside a transaction); the database size before and after.
    pub(super) fn vacuum_server(&self) -> Result<(u64, u64), StoreError> {
        let Backend::Postgres(pool) = &self.backend else {
            unreachable!("vacuum_server on a file store")
        };
        pg::on_own_thread(|| {
            let mut client = self.pg_client(pool)?;
            let fail = |e: postgres::Error| self.fail("vacuum", pg::describe(&e));
            let mut size = || -> Result<u64, StoreError> {
                let row = client
                    .query_one("SELECT pg_database_size(current_database())", &[])
                    .map_err(fail)?;
                Ok(row.get::<_, i64>(0).max(0) as u64)
            };
            let before = size()?;
            client.batch_execute("VACUUM").map_err(fail)?;
            let after = {
                let row = client
                    .query_one("SELECT pg_database_size(current_database())", &[])
                    .map_err(fail)?;
                row.get::<_, i64>(0).max(0) as u64
            };
            Ok((before, after))
        })
    }

    /// Apply the missing PostgreSQL migrations, each in its own transaction under an
    /// advisory lock, so concurrent starters apply each once. A store already current
    /// (checked in one read, see `pg_schema::is_current`) takes no lock.
    pub(super) fn migrate_postgres(&self) -> Result<(), StoreError> {
        let Backend::Postgres(pool) = &self.backend else {
            return Ok(());
        };
        pg::on_own_thread(|| {
            let mut client = self.pg_client(pool)?;
            if pg_schema::is_current(&mut client, &self.label)? {
                return Ok(());
            }
            pg_schema::migrate_postgres(&mut client, &self.label)
        })
    }

    fn pg_client(
        &self,
        pool: &Option<pg::Pool>,
    ) -> Result<
        r2d2::PooledConnection<
            r2d2_postgres::PostgresConnectionManager<tokio_postgres_rustls::MakeRustlsConnect>,
        >,
        StoreError,
    > {
        let pool = pool
            .as_ref()
            .ok_or_else(|| StoreError(format!("database {}: closed", self.label)))?;
        pool.get()
            .map_err(|e| StoreError(format!("{} {}: {e}", pg::UNREACHABLE, self.label)))
    }
}

impl Drop for Store {
    /// The driver's connections close by blocking on their own runtime, which may not
    /// happen inside another: the pool is dropped on a thread of its own.
    fn drop(&mut self) {
        if let Backend::Postgres(pool) = &mut self.backend
            && let Some(pool) = pool.take()
        {
            pg::on_own_thread(move || drop(pool));
        }
    }
}

/// Whether starting a transaction failed because the pooled connection was gone (the
/// server closed it while it sat idle, or restarted): nothing was done on it, so the
/// caller takes another connection (a dead one is not put back; after a restart every
/// pooled connection may be dead, so up to one more than the pool holds). The pool does not test a connection with an
/// extra round trip each time it hands one out; this is where a dead one shows.
fn lost(e: &postgres::Error) -> bool {
    match e.as_db_error() {
        // The server's last word on a connection it closes ("terminating connection").
        Some(db) => matches!(db.severity(), "FATAL" | "PANIC"),
        None => true,
    }
}

pub(super) fn lock(m: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
