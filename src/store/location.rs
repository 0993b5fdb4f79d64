//! Where the store lives, as the user named it: a SQLite file, or a database server
//! named by a URL. A URL is never taken for a file name: a scheme this build cannot open
//! is an error before anything is created, and a URL is only ever shown with its
//! password replaced.

use std::path::{Path, PathBuf};

use super::error::StoreError;

/// A store location the user gave (`--db`, `BYOP_DB`, `DATABASE_URL`, user settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// An embedded SQLite file.
    File(PathBuf),
    /// A PostgreSQL server (`postgres://` or `postgresql://`), the URL as given.
    Postgres(String),
}

impl Location {
    /// Read a location: `scheme://…` is a URL (`sqlite://` names a file the way
    /// `DATABASE_URL` conventionally does: `sqlite:///rel.db`, `sqlite:////abs.db`);
    /// anything else is a file path.
    pub fn parse(given: &Path) -> Result<Location, StoreError> {
        let Some(text) = given.to_str() else {
            return Ok(Location::File(given.to_path_buf()));
        };
        let Some(scheme) = scheme_of(text) else {
            return Ok(Location::File(given.to_path_buf()));
        };
        let rest = &text[scheme.len() + 1..];
        match scheme.to_ascii_lowercase().as_str() {
            "sqlite" => Ok(Location::File(sqlite_path(rest)?)),
            "postgres" | "postgresql" => Ok(Location::Postgres(text.to_string())),
            _ => Err(StoreError(format!(
                "--db/BYOP_DB/DATABASE_URL: `{}` is a `{scheme}:` URL, and byop stores only in a SQLite file (a path, or sqlite:///path) or on PostgreSQL (postgres://user@host/db)",
                redact(text)
            ))),
        }
    }

    /// The location as it may be shown (a URL's password replaced by `***`).
    pub fn shown(&self) -> String {
        match self {
            Location::File(p) => p.display().to_string(),
            Location::Postgres(url) => redact(url),
        }
    }
}

/// Whether `text` names a URL rather than a file path.
pub fn is_url(text: &str) -> bool {
    scheme_of(text).is_some()
}

/// The scheme of `text` when it is a URL (`letters:` followed by `//`, or a bare
/// `postgres:`/`postgresql:`/`sqlite:`). A Windows drive (`C:\`) is not a scheme.
fn scheme_of(text: &str) -> Option<&str> {
    let (scheme, rest) = text.split_once(':')?;
    let valid = scheme.len() > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let known = ["postgres", "postgresql", "sqlite"]
        .iter()
        .any(|k| scheme.eq_ignore_ascii_case(k));
    (valid && (rest.starts_with("//") || known)).then_some(scheme)
}

/// `sqlite:` URL bodies: `///rel.db` → `rel.db`, `////abs.db` → `/abs.db`, `rel.db` → `rel.db`.
fn sqlite_path(rest: &str) -> Result<PathBuf, StoreError> {
    let path = match rest.strip_prefix("//") {
        Some(after) => after.strip_prefix('/').ok_or_else(|| {
            StoreError(format!(
                "`sqlite:{rest}`: a sqlite URL names a file as sqlite:///relative.db or sqlite:////absolute.db (no host)"
            ))
        })?,
        None => rest,
    };
    if path.is_empty() {
        return Err(StoreError("`sqlite:` URL without a file name".into()));
    }
    Ok(PathBuf::from(path))
}

/// `text` with every secret a connection string can carry replaced by `***`: the password
/// of a `user:password@` part (also one holding `/`, `?` or `#` unescaped — then everything
/// up to the last `@` goes), and the value of any parameter (`?k=v&…` or libpq's `k=v k=v`)
/// whose name, percent-decoded, speaks of a password, key, secret or token. Used for every
/// URL shown in an error or log line; hiding too much is the safe way to be wrong.
pub fn redact(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(start) = out.find("://").map(|i| i + 3) {
        let end = out[start..]
            .find(['/', '?', '#'])
            .map_or(out.len(), |i| start + i);
        let at = match out[start..end].rfind('@') {
            Some(i) => Some(start + i),
            // `user:pa/ss@host`: the authority was cut inside the password.
            None if out[start..end].contains(':') => out[end..].rfind('@').map(|i| end + i),
            None => None,
        };
        if let Some(at) = at
            && let Some(colon) = out[start..at].find(':').map(|i| start + i)
        {
            out.replace_range(colon + 1..at, "***");
        }
    }
    redact_parameters(&out)
}

/// Parameters are split at `?`, `&` and white space; a secret-named one keeps only its name.
fn redact_parameters(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['?', '&', ' ', '\t', '\n']) {
        out.push_str(&redact_pair(&rest[..i]));
        out.push_str(&rest[i..i + 1]);
        rest = &rest[i + 1..];
    }
    out.push_str(&redact_pair(rest));
    out
}

fn redact_pair(kv: &str) -> String {
    match kv.split_once('=') {
        Some((k, _)) if is_secret_name(k) => format!("{k}=***"),
        _ => kv.to_string(),
    }
}

fn is_secret_name(name: &str) -> bool {
    let decoded = percent_decode(name).to_ascii_lowercase();
    ["pass", "key", "secret", "token"]
        .iter()
        .any(|w| decoded.contains(w))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Location, StoreError> {
        Location::parse(Path::new(s))
    }

    #[test]
    fn paths_stay_paths() {
        for p in [
            ".byop/byop.db",
            "/tmp/x.db",
            "C:\\x.db",
            "c:/x.db",
            "a:b.db",
        ] {
            assert_eq!(parse(p).unwrap(), Location::File(PathBuf::from(p)), "{p}");
        }
    }

    #[test]
    fn sqlite_urls_name_files() {
        let file = |s: &str| Location::File(PathBuf::from(s));
        assert_eq!(
            parse("sqlite:///byop_runs.db").unwrap(),
            file("byop_runs.db")
        );
        assert_eq!(parse("sqlite:////abs/r.db").unwrap(), file("/abs/r.db"));
        assert_eq!(parse("sqlite:r.db").unwrap(), file("r.db"));
        assert!(parse("sqlite://host/r.db").is_err());
    }

    #[test]
    fn postgres_urls_are_servers() {
        let url = "postgres://ci:s3cret@db.example:5432/byop";
        assert_eq!(parse(url).unwrap(), Location::Postgres(url.into()));
        assert_eq!(
            parse(url).unwrap().shown(),
            "postgres://ci:***@db.example:5432/byop"
        );
        assert!(matches!(
            parse("postgresql:///byop").unwrap(),
            Location::Postgres(_)
        ));
    }

    #[test]
    fn other_schemes_are_refused_without_the_password() {
        let err = parse("mysql://root:hunter2@db/x").unwrap_err().0;
        assert!(err.contains("`mysql:` URL"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(err.contains("mysql://root:***@db/x"), "{err}");
    }

    #[test]
    fn redact_covers_userinfo_and_query() {
        assert_eq!(
            redact("postgres://u:p@h/d?sslmode=require&password=x"),
            "postgres://u:***@h/d?sslmode=require&password=***"
        );
        assert_eq!(redact("postgres://u@h/d"), "postgres://u@h/d");
        assert_eq!(redact("postgres://h/d?x=a@b:c"), "postgres://h/d?x=a@b:c");
        assert_eq!(redact("postgres://u:p:q@h"), "postgres://u:***@h");
    }

    #[test]
    fn redact_hides_passwords_with_reserved_characters_and_secret_parameters() {
        for (given, secret, kept) in [
            ("postgres://u:SEC#RET2@db.example/x", "RET2", "db.example/x"),
            ("postgres://u:SEC?RET5@db.example/x", "RET5", "db.example/x"),
            ("postgres://u:SEC/RET6@db.example/x", "RET6", "db.example/x"),
            (
                "postgres://u@db.example/x?pass%77ord=SECRET3",
                "SECRET3",
                "db.example/x",
            ),
            (
                "postgres://u@db.example/x?sslpassword=SECRET4&sslmode=require",
                "SECRET4",
                "sslmode=require",
            ),
            (
                "host=db.example password=SECRET7 dbname=x",
                "SECRET7",
                "dbname=x",
            ),
            (
                "postgres://u@db.example/x?api_key=SECRET8",
                "SECRET8",
                "db.example/x",
            ),
        ] {
            let shown = redact(given);
            assert!(!shown.contains(secret), "{given} -> {shown}");
            assert!(shown.contains(kept), "{given} -> {shown}");
            assert!(shown.contains("***"), "{given} -> {shown}");
        }
    }
}
