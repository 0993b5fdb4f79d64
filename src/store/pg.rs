//! The PostgreSQL backend: a pool of connections to a team's server, TLS with the
//! server's certificate verified unless the URL says `sslmode=disable`, and the password
//! only from the URL the user gave, `PGPASSWORD`, or a `.pgpass`-style file (`PGPASSFILE`,
//! else `~/.pgpass`). Nothing here ever shows the password: errors name the URL with
//! its password replaced.
//!
//! The driver (`postgres`) runs its own small runtime, which may not be entered from
//! inside another; the store is called from async code, so each use of a connection
//! runs on a thread of its own (see [`on_own_thread`]).

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use r2d2_postgres::PostgresConnectionManager;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::db::{Row, Sql, Val, dollar_params};
use super::error::StoreError;
use super::location::redact;

pub(crate) type Pool = r2d2::Pool<PostgresConnectionManager<MakeRustlsConnect>>;

/// Connections a process keeps open: a CLI batch writes in one transaction, the language
/// server reads while it writes.
pub(crate) const POOL_SIZE: u32 = 4;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The error prefix of a server that could not be reached (a CI gate exits 3 on it).
pub const UNREACHABLE: &str = "cannot reach the team store";

/// Open a pool on `url` (as the user gave it) holding one connection, made now so an
/// unreachable server is an error here; a connection not made within `timeout` is an
/// error (also each later time the pool needs one). The pool grows on demand (a CLI
/// command that only reads uses the one connection; the language server's reads beside
/// its writes get their own) and keeps no idle connections warm in the background.
pub(crate) fn connect(url: &str, timeout: Option<Duration>) -> Result<Pool, StoreError> {
    let shown = redact(url);
    let timeout = timeout.unwrap_or(CONNECT_TIMEOUT);
    let (mut config, tls) =
        config_of(url).map_err(|e| StoreError(format!("{shown}: {}", scrub(&redact(&e), url))))?;
    config.connect_timeout(timeout);
    let manager = PostgresConnectionManager::new(config, tls);
    let unreachable = |e: r2d2::Error| {
        StoreError(format!(
            "{UNREACHABLE} {shown}: {}",
            scrub(&e.to_string(), url)
        ))
    };
    on_own_thread(|| {
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            // No round trip to test each connection handed out: a transaction that
            // cannot start on a connection that died while idle takes another one (see
            // `Store::read`).
            .test_on_check_out(false)
            .connection_timeout(timeout)
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(manager);
        // The first connection, back in the pool for the schema check to use.
        drop(pool.get().map_err(unreachable)?);
        Ok(pool)
    })
}

/// Whether one connection to `url` can be made within `timeout` (made and closed at
/// once): a refused connection answers at once, where a pool would retry until its
/// timeout.
pub(crate) fn probe(url: &str, timeout: Duration) -> Result<(), StoreError> {
    let shown = redact(url);
    let (mut config, tls) =
        config_of(url).map_err(|e| StoreError(format!("{shown}: {}", scrub(&redact(&e), url))))?;
    config.connect_timeout(timeout);
    on_own_thread(|| config.connect(tls).map(drop)).map_err(|e| {
        StoreError(format!(
            "{UNREACHABLE} {shown}: {}",
            scrub(&describe(&e), url)
        ))
    })
}

/// The driver's configuration and TLS connector for `url`.
fn config_of(url: &str) -> Result<(postgres::Config, MakeRustlsConnect), String> {
    let (url, root_cert, mode_given) = take_tls_options(url);
    let mut config = postgres::Config::from_str(&url).map_err(|e| e.to_string())?;
    if !mode_given {
        // Verified TLS unless the user opted out in the URL.
        config.ssl_mode(postgres::config::SslMode::Require);
    }
    config.connect_timeout(CONNECT_TIMEOUT);
    if config.get_application_name().is_none() {
        config.application_name("byop");
    }
    if config.get_password().is_none()
        && let Some(pw) = password_from_env_or_file(&config)
    {
        config.password(pw);
    }
    Ok((config, tls_connector(root_cert)?))
}

/// `sslrootcert=FILE` taken out of the query (the driver does not read it), and
/// `sslmode=verify-full|verify-ca` given as `require` (the connector always verifies).
fn take_tls_options(url: &str) -> (String, Option<PathBuf>, bool) {
    let Some((head, query)) = url.split_once('?') else {
        return (url.to_string(), None, false);
    };
    let (mut root, mut mode_given, mut kept) = (None, false, Vec::new());
    for kv in query.split('&') {
        match kv.split_once('=') {
            Some(("sslrootcert", v)) => root = Some(PathBuf::from(v)),
            Some(("sslmode", v)) => {
                mode_given = true;
                let v = if v.starts_with("verify") {
                    "require"
                } else {
                    v
                };
                kept.push(format!("sslmode={v}"));
            }
            _ => kept.push(kv.to_string()),
        }
    }
    let url = if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head}?{}", kept.join("&"))
    };
    (url, root, mode_given)
}

/// Mozilla's roots, or only the CA in `root_cert` when the URL names one.
fn tls_connector(root_cert: Option<PathBuf>) -> Result<MakeRustlsConnect, String> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    match root_cert {
        Some(path) => {
            for cert in CertificateDer::pem_file_iter(&path)
                .map_err(|e| format!("sslrootcert {}: {e}", path.display()))?
            {
                let cert = cert.map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
                roots
                    .add(cert)
                    .map_err(|e| format!("sslrootcert {}: {e}", path.display()))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// `PGPASSWORD`, else the first matching line of the password file
/// (`host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped).
fn password_from_env_or_file(config: &postgres::Config) -> Option<String> {
    if let Some(pw) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        return Some(pw);
    }
    let file = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|h| h.join(".pgpass")))?;
    let text = std::fs::read_to_string(file).ok()?;
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        Some(postgres::config::Host::Unix(_)) | None => "localhost".to_string(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user().unwrap_or_default().to_string();
    let db = config.get_dbname().unwrap_or(&user).to_string();
    pgpass_lookup(&text, [&host, &port, &db, &user])
}

pub(crate) fn pgpass_lookup(text: &str, want: [&str; 4]) -> Option<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(pgpass_fields)
        .filter(|f| f.len() == 5)
        .find(|f| (0..4).all(|i| f[i] == "*" || f[i] == want[i]))
        .map(|f| f[4].clone())
}

fn pgpass_fields(line: &str) -> Vec<String> {
    let (mut fields, mut cur, mut escaped) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match (escaped, c) {
            (true, _) => {
                cur.push(c);
                escaped = false;
            }
            (false, '\\') => escaped = true,
            (false, ':') if fields.len() < 4 => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// `text` (a driver error) with the password of `url` removed wherever it appears.
pub(crate) fn scrub(text: &str, url: &str) -> String {
    let mut out = text.replace(url, &redact(url));
    if let Ok(c) = postgres::Config::from_str(&take_tls_options(url).0)
        && let Some(pw) = c.get_password().and_then(|p| std::str::from_utf8(p).ok())
        && pw.len() >= 3
    {
        out = out.replace(pw, "***");
    }
    out
}

/// Run `op` on a thread of its own when called from inside an async runtime (the
/// driver's blocking calls may not run there), else here.
pub(crate) fn on_own_thread<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if tokio::runtime::Handle::try_current().is_err() {
        return op();
    }
    std::thread::scope(|s| {
        s.spawn(op)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

impl ToSql for Val {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Val::Null => Ok(IsNull::Yes),
            Val::Int(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
            Val::Int(i) if *ty == Type::FLOAT8 => (*i as f64).to_sql(ty, out),
            Val::Int(i) => i.to_sql(ty, out),
            Val::Real(f) => f.to_sql(ty, out),
            Val::Text(s) => s.to_sql(ty, out),
        }
    }
    fn accepts(_: &Type) -> bool {
        true
    }
    to_sql_checked!();
}

fn value(row: &postgres::Row, i: usize) -> Result<Val, postgres::Error> {
    let ty = row.columns()[i].type_();
    Ok(match *ty {
        Type::INT8 => row
            .try_get::<_, Option<i64>>(i)?
            .map_or(Val::Null, Val::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)?
            .map_or(Val::Null, |v| Val::Int(v.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(i)?
            .map_or(Val::Null, |v| Val::Int(v.into())),
        Type::FLOAT8 => row
            .try_get::<_, Option<f64>>(i)?
            .map_or(Val::Null, Val::Real),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)?
            .map_or(Val::Null, |b| Val::Int(b.into())),
        _ => row
            .try_get::<_, Option<String>>(i)?
            .map_or(Val::Null, Val::Text),
    })
}

/// The server's own message (the driver's `Display` says only "db error").
pub(crate) fn describe(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => e.to_string(),
    }
}

/// Each parameter with the type it is sent as: a value's own type, and a NULL as
/// `unknown`, so the server gives it the type its place in the statement needs (as a
/// statement prepared ahead would).
fn typed(params: &[Val]) -> Vec<(&(dyn ToSql + Sync), Type)> {
    params
        .iter()
        .map(|p| {
            let ty = match p {
                Val::Null => Type::UNKNOWN,
                Val::Int(_) => Type::INT8,
                Val::Real(_) => Type::FLOAT8,
                Val::Text(_) => Type::TEXT,
            };
            (p as &(dyn ToSql + Sync), ty)
        })
        .collect()
}

/// A transaction as the store's queries see it. Each statement goes to the server with
/// its parameters' types in one round trip (parse, bind and execute together), instead
/// of one round trip to prepare it and another to run it.
pub(crate) struct Tx<'t, 'c> {
    tx: &'t mut postgres::Transaction<'c>,
}

impl<'t, 'c> Tx<'t, 'c> {
    pub(crate) fn new(tx: &'t mut postgres::Transaction<'c>) -> Self {
        Tx { tx }
    }
}

impl Sql for Tx<'_, '_> {
    fn query(&mut self, sql: &str, p: &[Val]) -> Result<Vec<Row>, String> {
        let rows = self
            .tx
            .query_typed(&dollar_params(sql), &typed(p))
            .map_err(|e| describe(&e))?;
        rows.iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| value(r, i))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Row)
                    .map_err(|e| describe(&e))
            })
            .collect()
    }
    fn execute(&mut self, sql: &str, p: &[Val]) -> Result<u64, String> {
        self.tx
            .execute_typed(&dollar_params(sql), &typed(p))
            .map_err(|e| describe(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgpass_matches_wildcards_and_escapes() {
        let text = "# comment\nother:5432:*:ci:nope\ndb.example:*:byop:ci:pa\\:ss\\\\w\n";
        assert_eq!(
            pgpass_lookup(text, ["db.example", "5432", "byop", "ci"]).as_deref(),
            Some("pa:ss\\w")
        );
        assert_eq!(pgpass_lookup(text, ["db.example", "5432", "x", "ci"]), None);
    }

    #[test]
    fn tls_is_required_unless_the_url_opts_out() {
        let (url, root, given) = take_tls_options("postgres://u@h/d");
        assert_eq!(
            (url.as_str(), root, given),
            ("postgres://u@h/d", None, false)
        );
        let (url, root, given) =
            take_tls_options("postgres://u@h/d?sslmode=verify-full&sslrootcert=/ca.pem");
        assert_eq!(url, "postgres://u@h/d?sslmode=require");
        assert_eq!(root, Some(PathBuf::from("/ca.pem")));
        assert!(given);
        let (config, _) = config_of("postgres://u@h/d").unwrap();
        assert_eq!(config.get_ssl_mode(), postgres::config::SslMode::Require);
    }

    #[test]
    fn errors_never_carry_the_password() {
        let url = "postgres://ci:hunter2@127.0.0.1:1/byop?sslmode=disable";
        let Err(StoreError(err)) = connect(url, None) else {
            panic!("connected to nothing")
        };
        assert!(err.starts_with(UNREACHABLE), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(err.contains("postgres://ci:***@127.0.0.1:1/byop"), "{err}");
    }
}
